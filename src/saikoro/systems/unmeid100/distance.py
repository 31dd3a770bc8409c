"""Where 運命判定d100 characters stand: one straight track in whole metres (pure).

The seed measures everything in metres from one character to another — a move of 3 m, 1 m
or 5 m (×2 mounted, UM-MOVE-01), a melee attack on a target within 1 m (UM-MELEE-01), a
bow's effective range of 50 m (UM-RANGED-01) — but gives no map. The table keeps the
simplest position that answers those questions (UM-RANGE-01): a number of metres on one
track, set by the GM (``/gm place NAME M``) and changed by ``/move``. A character the GM has
not placed has no position and is never checked, so a table that does not care about
distance plays as before. The GM can move anyone anywhere at any time and can switch the
checks off (settings ``distance_checks``, ``melee_reach_m``, ``bow_range_m``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from saikoro.i18n import Message
from saikoro.systems.unmeid100.rules import UnmeiRuleError
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS, UnmeiSettings

#: The track's limits (metres): far beyond any bow, small enough to show.
TRACK_LIMIT_M = 100_000

Direction = Literal["toward", "away", "to"]


def distance(a: int | None, b: int | None) -> int | None:
    """Metres between two positions; None when either is not placed."""
    if a is None or b is None:
        return None
    return abs(a - b)


def check_position(metres: int) -> int:
    if not -TRACK_LIMIT_M <= metres <= TRACK_LIMIT_M:
        raise UnmeiRuleError(
            Message(
                f"位置は -{TRACK_LIMIT_M}〜{TRACK_LIMIT_M} m です ({metres})",
                f"a position is -{TRACK_LIMIT_M} to {TRACK_LIMIT_M} m ({metres})",
            ),
            reason="bad position",
        )
    return metres


@dataclass(frozen=True)
class Step:
    """A move on the track: where the mover ends (None: not placed, nothing to move)."""

    start: int | None
    end: int | None
    moved_m: int


def step(
    start: int | None,
    allowed_m: int,
    direction: Direction | None = None,
    *,
    other: int | None = None,
    to: int | None = None,
) -> Step:
    """UM-MOVE-01/UM-RANGE-01: move at most ``allowed_m`` metres: toward or away from a
    character at ``other`` (never past them), or to the position ``to``."""
    if start is None or direction is None:
        return Step(start, start, 0)
    if direction == "to":
        assert to is not None
        check_position(to)
        if abs(to - start) > allowed_m:
            raise UnmeiRuleError(
                Message(
                    f"{abs(to - start)} m 先へは動けません (この移動は {allowed_m} m まで)",
                    f"cannot move {abs(to - start)} m (this move goes at most {allowed_m} m)",
                ),
                reason="too far",
            )
        return Step(start, to, abs(to - start))
    if other is None:
        raise UnmeiRuleError(
            Message(
                "相手の位置が決まっていません (GM: /gm place 名前 m)",
                "the other character has no position (GM: /gm place NAME M)",
            ),
            reason="not placed",
        )
    sign = 1 if other >= start else -1
    if direction == "toward":
        moved = min(allowed_m, abs(other - start))
        end = start + sign * moved
    else:
        moved = allowed_m
        end = start - sign * moved if other != start else start + moved
    return Step(start, check_position(end), moved)


def check_melee_reach(
    metres: int | None,
    target: str,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
    *,
    moved: bool = False,
) -> None:
    """UM-RANGE-01/UM-MELEE-01: a melee target must be within reach (1 m); move first
    (``moved``: the attacker already moved this turn, so the move is spent)."""
    if metres is None or not settings.distance_checks or metres <= settings.melee_reach_m:
        return
    reach = settings.melee_reach_m
    hint = (
        Message(
            f"この手番の移動はもう使いました: 次の手番に /move 3 {target}",
            f"this turn's move is spent: /move 3 {target} next turn",
        )
        if moved
        else Message(f"まず移動: /move 3 {target}", f"move first: /move 3 {target}")
    )
    raise UnmeiRuleError(
        Message(
            f"{target} まで {metres} m: 白兵攻撃は {reach} m 以内の相手だけです "
            f"({hint.ja}) [UM-RANGE-01]",
            f"{target} is {metres} m away: a melee attack reaches {reach} m "
            f"({hint.en}) [UM-RANGE-01]",
        ),
        reason="out of reach",
    )


def check_bow_range(
    metres: int | None, target: str, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> None:
    """UM-RANGE-01/UM-RANGED-01: beyond the bow's effective range (50 m) an individual is
    not hit, so the shot is refused before any die is rolled."""
    if metres is None or not settings.distance_checks or metres <= settings.bow_range_m:
        return
    limit = settings.bow_range_m
    raise UnmeiRuleError(
        Message(
            f"{target} まで {metres} m: 弓の有効射程 {limit} m の外です [UM-RANGE-01]",
            f"{target} is {metres} m away: beyond the bow's effective range of {limit} m "
            "[UM-RANGE-01]",
        ),
        reason="out of range",
    )
