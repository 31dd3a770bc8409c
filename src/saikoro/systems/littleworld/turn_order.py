"""Turn order and rows in 帽子世界TRPG combat (LW-COMBAT-01…03, 12…16), as pure functions.

A round's order is computed once, at the start of the round, from each combatant's
current 技巧 (LW-COMBAT-13); :class:`RoundState` is an immutable value and every
function returns a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.littleworld.settings import DEFAULT_SETTINGS, LittleWorldSettings

__all__ = [
    "Combatant",
    "RoundState",
    "RowCollapse",
    "RowMember",
    "TurnOrder",
    "TurnOrderError",
    "collapse_rows",
    "current_actor",
    "delay_turn",
    "end_turn",
    "next_round",
    "remove_combatant",
    "reorder_tied_pcs",
    "round_over",
    "start_combat",
    "turn_order",
    "use_order_manipulation",
]

Row = Literal["前衛", "後衛"]


class TurnOrderError(SaikoroError):
    reason = "turn order rule"


@dataclass(frozen=True)
class Combatant:
    """Who takes part: ``skill`` is the *current* 技巧 (sleep already halved, LW-COMBAT-01)."""

    id: str
    skill: int
    is_pc: bool
    name: str = ""


@dataclass(frozen=True)
class TurnOrder:
    order: tuple[str, ...]
    #: groups of PCs with equal 技巧 (the players may reorder each group, LW-COMBAT-02)
    tied_pc_groups: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...]


def _check_ids(combatants: Sequence[Combatant]) -> None:
    ids = [c.id for c in combatants]
    if len(set(ids)) != len(ids):
        raise TurnOrderError(Message("参加者のIDが重複しています", "combatant ids must be unique"))


def turn_order(
    combatants: Sequence[Combatant],
    pc_order: Sequence[str] = (),
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> TurnOrder:
    """LW-COMBAT-01/02: highest 技巧 first; on a tie PCs before NPCs; tied PCs in the order
    the players chose (``pc_order``), else as listed (setting ``tied_pcs_order``); tied NPCs
    as listed."""
    _check_ids(combatants)
    listed = {c.id: i for i, c in enumerate(combatants)}
    if settings.tied_pcs_order == "name":
        by_name = sorted(combatants, key=lambda c: c.name or c.id)
        listed = {c.id: i for i, c in enumerate(by_name)}
    chosen = {cid: i for i, cid in enumerate(pc_order)}

    def key(c: Combatant) -> tuple[int, int, int, int]:
        if c.is_pc:
            rank = chosen.get(c.id, len(chosen) + listed[c.id])
            return (-c.skill, 0, rank, 0)
        return (-c.skill, 1, 0, listed[c.id])

    ordered = sorted(combatants, key=key)
    groups: dict[int, list[str]] = {}
    for c in ordered:
        if c.is_pc:
            groups.setdefault(c.skill, []).append(c.id)
    tied = tuple(tuple(g) for g in groups.values() if len(g) > 1)
    return TurnOrder(tuple(c.id for c in ordered), tied, ("LW-COMBAT-01", "LW-COMBAT-02"))


def reorder_tied_pcs(
    combatants: Sequence[Combatant],
    group: Sequence[str],
    pc_order: Sequence[str] = (),
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> TurnOrder:
    """LW-COMBAT-02: the players put a group of tied PCs in the order they agreed.

    ``group`` must be PCs that all have the same 技巧; anything else is refused.
    """
    by_id = {c.id: c for c in combatants}
    members = [by_id.get(cid) for cid in group]
    if (
        not group
        or len(set(group)) != len(group)
        or any(m is None or not m.is_pc for m in members)
        or len({m.skill for m in members if m is not None}) != 1
    ):
        raise TurnOrderError(
            Message(
                "並べ替えられるのは【技巧】が同じPC同士だけです",
                "only PCs with the same Skill can be reordered among themselves",
            )
        )
    new_pc_order = [cid for cid in pc_order if cid not in group] + list(group)
    return turn_order(combatants, new_pc_order, settings)


@dataclass(frozen=True)
class RoundState:
    """One round of combat.

    ``order`` is the order fixed at the start of the round (LW-COMBAT-13); ``queue`` is
    who is still to act, the first being the current actor (delays move to its end).
    ``locked`` is set by 行動順操作 (LW-COMBAT-14): later rounds keep ``order``.
    """

    round: int
    order: tuple[str, ...]
    queue: tuple[str, ...]
    acted: tuple[str, ...] = ()
    delayed: tuple[str, ...] = ()
    locked: bool = False
    rules: tuple[str, ...] = ()


def start_combat(
    combatants: Sequence[Combatant],
    pc_order: Sequence[str] = (),
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> RoundState:
    order = turn_order(combatants, pc_order, settings)
    return RoundState(1, order.order, order.order, rules=(*order.rules, "LW-COMBAT-13"))


def current_actor(state: RoundState) -> str | None:
    return state.queue[0] if state.queue else None


def round_over(state: RoundState) -> bool:
    return not state.queue


def _need_actor(state: RoundState) -> str:
    actor = current_actor(state)
    if actor is None:
        raise TurnOrderError(
            Message("このラウンドは全員行動済みです", "everyone has acted this round")
        )
    return actor


def end_turn(state: RoundState) -> RoundState:
    """LW-COMBAT-12: the actor's action is over; the next in order acts."""
    actor = _need_actor(state)
    return replace(
        state, queue=state.queue[1:], acted=(*state.acted, actor), rules=("LW-COMBAT-12",)
    )


def delay_turn(state: RoundState, settings: LittleWorldSettings = DEFAULT_SETTINGS) -> RoundState:
    """LW-COMBAT-03: the actor passes and acts last, after everyone else this round."""
    actor = _need_actor(state)
    if settings.delay_once_per_round and actor in state.delayed:
        raise TurnOrderError(
            Message(
                "このラウンドはすでに手番をパスしています",
                "this character already passed this round",
            )
        )
    return replace(
        state,
        queue=(*state.queue[1:], actor),
        delayed=(*state.delayed, actor),
        rules=("LW-COMBAT-03",),
    )


def remove_combatant(state: RoundState, combatant_id: str) -> RoundState:
    """Someone leaves the combat (fled, defeated and removed by the GM)."""
    return replace(
        state,
        order=tuple(c for c in state.order if c != combatant_id),
        queue=tuple(c for c in state.queue if c != combatant_id),
        rules=(),
    )


def next_round(
    state: RoundState,
    combatants: Sequence[Combatant],
    pc_order: Sequence[str] = (),
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> RoundState:
    """LW-COMBAT-15: a new round from the highest 技巧 (current values, LW-COMBAT-13);
    after 行動順操作 (LW-COMBAT-14) the previous order is kept whatever 技巧 does —
    newcomers are added after it in 技巧 order, those gone are dropped."""
    fresh = turn_order(combatants, pc_order, settings)
    if state.locked:
        present = set(fresh.order)
        kept = [c for c in state.order if c in present]
        order = tuple(kept + [c for c in fresh.order if c not in kept])
        rules: tuple[str, ...] = ("LW-COMBAT-15", "LW-COMBAT-14")
    else:
        order = fresh.order
        rules = ("LW-COMBAT-15", *fresh.rules, "LW-COMBAT-13")
    return RoundState(state.round + 1, order, order, locked=state.locked, rules=rules)


def use_order_manipulation(state: RoundState, order: Sequence[str] | None = None) -> RoundState:
    """LW-COMBAT-14: skill card 「行動順操作」 — optionally set a new order; from now on the
    order no longer follows 技巧. Those who have not acted yet this round follow the new
    order; the card's exact effect is the GM's (skill cards are not in our sources)."""
    if order is None:
        return replace(state, locked=True, rules=("LW-COMBAT-14",))
    if sorted(order) != sorted(state.order):
        raise TurnOrderError(
            Message(
                "行動順には参加者全員をちょうど1回ずつ並べてください",
                "the new order must list every combatant exactly once",
            )
        )
    queue = tuple(c for c in order if c in state.queue)
    return replace(state, order=tuple(order), queue=queue, locked=True, rules=("LW-COMBAT-14",))


# ---------------------------------------------------------------------------
# Rows (LW-COMBAT-16)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RowMember:
    id: str
    row: Row
    can_act: bool = True


@dataclass(frozen=True)
class RowCollapse:
    members: tuple[RowMember, ...]
    collapsed: bool
    moved: tuple[str, ...]
    rules: tuple[str, ...] = ("LW-COMBAT-16",)


def collapse_rows(side: Sequence[RowMember]) -> RowCollapse:
    """LW-COMBAT-16: when a side has no front-liner able to act (none, or all 行動不能), all
    its back-liners move to the front."""
    front_ok = any(m.row == "前衛" and m.can_act for m in side)
    back = [m for m in side if m.row == "後衛"]
    if front_ok or not back:
        return RowCollapse(tuple(side), False, ())
    members = tuple(replace(m, row="前衛") if m.row == "後衛" else m for m in side)
    return RowCollapse(members, True, tuple(m.id for m in back))
