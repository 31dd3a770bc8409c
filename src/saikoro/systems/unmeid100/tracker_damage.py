"""Damage and the dying check of 運命判定d100 at the table: damage off HP (UM-DMG-01)
breaks a chant (UM-MAGIC-01); HP ≤ 0 → the dying fate check → 気絶 or 死亡 (UM-FATE-04),
or the GM's ``/gm dying NAME 気絶|死亡|none``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.tracker_common import (
    DOWN_LABELS,
    acts,
    break_chant,
    sheet_of,
    value_of,
)
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Condition

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


def roll_damage(tracker: UnmeiTracker, emit: Emit, expr: str, times: int = 1) -> int:
    from saikoro.dice.sums import roll_sum

    total = 0
    for _ in range(times):
        rolled = roll_sum(expr, emit.randomizer)
        if rolled is None:
            raise fail(f"ダメージダイス {expr!r} を振れません", f"cannot roll damage {expr!r}")
        total += rolled
    return total


def apply_damage(
    tracker: UnmeiTracker,
    emit: Emit,
    target: str,
    damage: int,
    source: str,
    expr: str | None = None,
) -> None:
    """UM-DMG-01: damage off HP; breaks a chant (UM-MAGIC-01); HP ≤ 0 → dying check."""
    character = emit.character(target)
    outcome = um.take_damage(
        character.hp,
        damage,
        chanting=bool(character.fields.get("chant")),
        settings=tracker.cfg(emit),
    )
    emit.set_status(
        target,
        "hp",
        outcome.hp,
        rules=outcome.rules,
        note=Message(
            f"{target} に {outcome.damage} ダメージ (HP {character.hp} → {outcome.hp})",
            f"{target} takes {outcome.damage} damage (HP {character.hp} → {outcome.hp})",
        ),
    )
    emit.set_field(
        target,
        "_incoming",
        {
            "damage": outcome.damage,
            "hp_before": outcome.hp + outcome.damage,
            "expr": expr,
            "from": source,
            "at": acts(emit.character(target)),  # read again: an event copies it
        },
    )
    if outcome.chant_broken:
        break_chant(emit, target)
    if outcome.dying_check_due:
        dying(tracker, emit, target)


def dying(tracker: UnmeiTracker, emit: Emit, name: str) -> None:
    """UM-FATE-04: the dying check at HP ≤ 0 → 気絶 or 死亡; UM-FATE-07 without a use left."""
    character = emit.character(name)
    refs = tracker.base_references(character)
    uses = int(character.fields.get("fate_left", 0))
    cfg = tracker.cfg(emit)
    mob = str(sheet_of(character).kind) == um.CharacterKind.MOB.value
    roll = emit.randomizer.roll_once(100) if um.dying_check_rolls(uses, cfg, mob=mob) else 0
    out = um.dying_check(roll, value_of(character, refs, "運命"), uses, cfg, mob=mob)
    if out.used_fate:
        emit.set_field(name, "fate_left", out.uses_left)
    if out.check is None:
        _no_fate_left(tracker, emit, name, out)
        return
    assert out.state is not None
    emit.add_condition(
        name,
        Condition(label=out.state.value, rules=list(out.rules)),
        text=Message(
            f"{name} の運命判定 (1D100<={out.check.target}) ＞ {roll} "
            f"＞ {'成功: 気絶' if out.check.success else '失敗: 死亡'}",
            f"{name}'s fate check (1D100<={out.check.target}) > {roll} > "
            f"{'success: unconscious' if out.check.success else 'failure: dead'}",
        ),
    )


def _no_fate_left(tracker: UnmeiTracker, emit: Emit, name: str, out: um.DyingOutcome) -> None:
    """UM-FATE-07: no fate use left for the dying check: 死亡, or the GM's ruling awaited."""
    if out.state is None:
        emit.add(
            ev.NOTICE,
            {"dying": name, "fate_left": 0},
            rules=out.rules,
            text=Message(
                f"{name} は HP 0以下、運命判定の残り回数なし: GM が決める "
                f"(/gm dying {name} 気絶|死亡)",
                f"{name} is at HP 0 or less with no fate check left: the GM rules "
                f"(/gm dying {name} 気絶|死亡)",
            ),
        )
        return
    spent_mob = "UM-FATE-08" in out.rules
    emit.add_condition(
        name,
        Condition(label=out.state.value, rules=list(out.rules)),
        text=Message(
            f"{name}: mobの運命判定は使い切った: 死亡"
            if spent_mob
            else f"{name} の運命判定: 残り回数がないので失敗: 死亡",
            f"{name}: the mob's fate use is spent: dead"
            if spent_mob
            else f"{name}'s fate check: no use left, so it fails: dead",
        ),
    )


def gm_dying(tracker: UnmeiTracker, emit: Emit, args: list[str]) -> None:
    """``/gm dying NAME 気絶|死亡|none``: the GM decides (UM-FATE-04: how soon is theirs)."""
    if len(args) != 2 or args[1] not in (*DOWN_LABELS, "none"):
        raise fail("/gm dying 名前 気絶|死亡|none です", "use /gm dying NAME 気絶|死亡|none")
    for label in DOWN_LABELS:
        if emit.character(args[0]).condition(label):
            emit.remove_condition(args[0], label, rules=("UM-FATE-04",))
    character = emit.character(args[0])  # as it is now (an event replaces the working copy)
    if args[1] != "none" and character.hp > 0:
        emit.set_status(  # UM-FATE-07: the dying outcome is for the down: HP 0 at most
            args[0],
            "hp",
            0,
            rules=("UM-FATE-04", "UM-FATE-07"),
            note=Message(
                f"{args[0]}: HP {character.hp} → 0 (倒れた)",
                f"{args[0]}: HP {character.hp} → 0 (down)",
            ),
        )
    if args[1] != "none":
        emit.add_condition(
            args[0],
            Condition(label=args[1], rules=["UM-FATE-04"]),
            text=Message(
                f"GM裁定: {args[0]} は{args[1]}",
                f"GM ruling: {args[0]} is {tracker.condition_name(args[1]).en}",
            ),
        )
