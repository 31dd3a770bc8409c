"""The GM's rulings of 運命判定d100 at the table: ``/gm place`` (UM-RANGE-01),
``/gm hold`` (UM-EQUIP-01), ``/gm cond`` (a condition whose effect the GM rules, UM-TABLE-05)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import distance as dist
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100.tracker_common import acts, exclusive_down, sheet_of
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Condition

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


def gm_place(tracker: UnmeiTracker, emit: Emit, args: list[str]) -> None:
    """``/gm place NAME M|none``: put a character on the track (UM-RANGE-01)."""
    if len(args) != 2 or not (args[1] == "none" or args[1].rstrip("m").lstrip("-").isdecimal()):
        raise fail("/gm place 名前 位置m|none です", "use /gm place NAME M|none")
    emit.character(args[0])
    pos = None if args[1] == "none" else dist.check_position(int(args[1].rstrip("m")))
    others = [
        f"{c.name} {dist.distance(pos, c.fields.get('pos'))}m"
        for c in emit.state.characters.values()
        if c.name != args[0] and dist.distance(pos, c.fields.get("pos")) is not None
    ]
    shown = "、".join(others)
    emit.set_field(
        args[0],
        "pos",
        pos,
        rules=("UM-RANGE-01",),
        text=Message(
            f"GM裁定: {args[0]} の位置 {args[1]}" + (f" (距離: {shown})" if shown else ""),
            f"GM ruling: {args[0]} at {args[1]}" + (f" (distances: {shown})" if shown else ""),
        ),
    )


def gm_hold(tracker: UnmeiTracker, emit: Emit, args: list[str]) -> None:
    """``/gm hold NAME [WEAPON…] [shield]``: what a character holds, by ruling (UM-EQUIP-01)."""
    if not args:
        raise fail("/gm hold 名前 [武器…] [shield] です", "use /gm hold NAME [WEAPON…] [shield]")
    character = emit.character(args[0])
    names = [a for a in args[1:] if a not in ("shield", "盾")]
    weapons = sheet_of(character).weapons
    for weapon in names:
        eq.find_weapon(weapons, weapon)
    shield = len(names) < len(args) - 1
    emit.set_field(args[0], "held", names, rules=("UM-EQUIP-01",))
    emit.set_field(
        args[0],
        "shield",
        shield,
        rules=("UM-EQUIP-01",),
        text=Message(
            f"GM裁定: {args[0]} の手に {'・'.join(names) or 'なし'}{'、盾' if shield else ''}",
            f"GM ruling: {args[0]} holds {', '.join(names) or 'nothing'}"
            f"{', shield' if shield else ''}",
        ),
    )


def gm_cond(tracker: UnmeiTracker, emit: Emit, args: list[str]) -> None:
    """``/gm cond NAME LABEL``: a condition whose effect the GM rules (a spell's); the
    table keeps it and ``/fate cancel`` can nullify it (UM-FATE-02 c)."""
    if len(args) != 2:
        raise fail("/gm cond 名前 状態異常 です", "use /gm cond NAME CONDITION")
    name, label = args
    if emit.character(name).condition(label) is not None:
        raise fail(f"{name} はすでに {label} です", f"{name} is already {label}")
    emit.set_field(name, "_last_condition", {"label": label, "at": acts(emit.character(name))})
    exclusive_down(emit, name, label, tracker.cfg(emit))
    emit.add_condition(
        name,
        tracker.rule_condition(emit.character(name), label) or Condition(label=label),
        text=Message(
            f"GM裁定: {name} は {label} (効果は GM が決める)",
            f"GM ruling: {name} is {tracker.condition_name(label).en} (its effect is the GM's)",
        ),
    )
