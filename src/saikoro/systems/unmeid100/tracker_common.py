"""What the verbs of the 運命判定d100 tracker share: the sheet, values, hands, the track,
a broken chant (the ``tracker_<verb>`` modules and :mod:`saikoro.systems.unmeid100.tracker`)."""

from __future__ import annotations

from typing import Any

from saikoro.i18n import Message
from saikoro.sheets import table_sheet
from saikoro.systems.unmeid100 import distance as dist
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS, UnmeiSettings
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character

S = DEFAULT_SETTINGS
DOWN_LABELS = (um.LifeState.UNCONSCIOUS.value, um.LifeState.DEAD.value)
#: The conditions the rules of 運命判定d100 give (their English names): the dying check's
#: 気絶 / 死亡 (UM-FATE-04), full defence (UM-DEFEND-01) and the 5 m move (UM-MOVE-01).
CONDITION_NAMES: dict[str, str] = {
    um.LifeState.UNCONSCIOUS.value: "unconscious",
    um.LifeState.DEAD.value: "dead",
    "防御専念": "full defence",
    "5m移動": "5 m move",
}
#: Conditions the GM rules by hand (``/gm cond``) whose names the rules give (a charm spell's).
RULED_CONDITION_NAMES: dict[str, str] = {"魅了": "charmed"}


def sheet_of(character: Character) -> Any:
    return table_sheet(character.sheet)


def out_of_fight(character: Character) -> bool:
    """UM-TABLE-08: HP ≤ 0, 気絶 or 死亡 (asked of every character on every line)."""
    return character.hp <= 0 or any(c.label in DOWN_LABELS for c in character.conditions)


def value_of(character: Character, refs: dict[str, int], key: str) -> int:
    return int(character.statuses.get(key, refs.get(key, 0)))


def derived(sheet: Any, statuses: dict[str, int]) -> dict[str, int]:
    """UM-LEVEL-03: the formula table's values from the abilities as they are now."""
    abilities = {n: int(statuses.get(n, a.value)) for n, a in sheet.abilities.items()}
    return dict(um.derive(sheet.formula_table.formulas, abilities).values)


def held_of(character: Character) -> eq.Held:
    """What the character holds (rooms from before UM-EQUIP-01: as the sheet starts)."""
    if "held" not in character.fields:
        sheet = sheet_of(character)
        return eq.initial_held(sheet.weapons, sheet.held, sheet.shield)
    return eq.Held(tuple(character.fields["held"]), bool(character.fields.get("shield")))


def distance_between(emit: Emit, a: str, b: str) -> int | None:
    """UM-RANGE-01: metres between two characters on the track (None: one is not placed)."""
    return dist.distance(emit.character(a).fields.get("pos"), emit.character(b).fields.get("pos"))


def break_chant(emit: Emit, name: str) -> None:
    """UM-MAGIC-01: taking damage (any HP loss) while chanting breaks the chant."""
    emit.set_field(
        name,
        "chant",
        None,
        rules=("UM-MAGIC-01",),
        text=Message(f"{name} の詠唱が途切れた", f"{name}'s chant is broken"),
    )


def not_self(name: str, target: str) -> None:
    """An attack or a hostile spell needs someone else as its target."""
    if target == name:
        raise fail(
            f"{name} は自分自身を攻撃の目標にできません",
            f"{name} cannot target themselves with an attack",
            "self",
        )


#: UM-FATE-06: how many actions a character has taken; what a rescue may act on (the last
#: check, the damage and the condition taken) carries the count at its time (``at``).
ACTS = "_acts"


def acts(character: Character) -> int:
    return int(character.fields.get(ACTS, 0))


def mark_action(emit: Emit, name: str) -> None:
    """UM-FATE-06: ``name`` acts: what happened to them before is no longer 「今まさに」."""
    emit.set_field(name, ACTS, acts(emit.character(name)) + 1)


def exclusive_down(emit: Emit, name: str, label: str, cfg: UnmeiSettings) -> None:
    """UM-FATE-09 (*default* ``down_states_exclusive`` off): with it on, becoming 気絶 or
    死亡 ends the other."""
    if label not in DOWN_LABELS or not cfg.down_states_exclusive:
        return
    for other in DOWN_LABELS:
        if other != label and emit.character(name).condition(other) is not None:
            emit.remove_condition(
                name,
                other,
                rules=("UM-FATE-09",),
                text=Message(f"{name}: {other} が解けた ({label})", f"{name}: no longer {other}"),
            )
