"""The moving verbs of 運命判定d100 at the table: ``/move 3|1|5`` (UM-MOVE-01, on the
track UM-RANGE-01), ``/switch`` (UM-SWITCH-01/UM-EQUIP-01), ``/mount`` · ``/dismount``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import distance as dist
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.tracker_common import distance_between, held_of, sheet_of
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker

MOVES = {"3": "attack", "1": "act", "5": "run"}


def _move_target(
    emit: Emit, name: str, args: list[str], usage: Exception
) -> tuple[dist.Direction | None, str | None, int | None]:
    """``[TARGET | away TARGET | to M]`` of /move: (direction, the other character, position)."""
    if not args:
        return None, None, None
    if args[0] == "to" and len(args) == 2 and args[1].rstrip("m").lstrip("-").isdecimal():
        return "to", None, int(args[1].rstrip("m"))
    if args[0] == "away" and len(args) == 2:
        other = emit.character(args[1]).name
    elif len(args) == 1:
        other = emit.character(args[0]).name
    else:
        raise usage
    if other == name:
        raise usage
    return ("away" if args[0] == "away" else "toward"), other, None


def move(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    """UM-MOVE-01 (+UM-RANGE-01): ``/move 3|1|5 [TARGET | away TARGET | to M]``."""
    usage = fail(
        "/move 3|1|5 [目標 | away 目標 | to 位置m] です",
        "use /move 3|1|5 [TARGET | away TARGET | to M]",
    )
    if not args or args[0].rstrip("m") not in MOVES or len(args) > 3:
        raise usage
    option = MOVES[args[0].rstrip("m")]
    direction, other, to = _move_target(emit, name, args[1:], usage)
    tracker.use_turn(emit, name, "move", option if option != "run" else "done")
    character = emit.character(name)
    before = tracker.combatant(character)
    out = um.move(before, option, tracker.cfg(emit))  # type: ignore[arg-type]
    pos = character.fields.get("pos")
    if direction is not None and pos is None:
        raise fail(
            f"{name} の位置が決まっていません (GM: /gm place {name} m)",
            f"{name} has no position (GM: /gm place {name} M)",
            "not placed",
        )
    where = dist.step(
        pos,
        int(out.detail["distance_m"]),  # type: ignore[call-overload]
        direction,
        other=emit.character(other).fields.get("pos") if other else None,
        to=to,
    )
    tracker.save(emit, before, out.state, out.rules)
    note_ja, note_en = f"{name}: {out.note.ja}", f"{name}: {out.note.en}"
    if where.end != pos:
        emit.set_field(name, "pos", where.end, rules=("UM-RANGE-01",))
        note_ja += f" 位置 {pos}m → {where.end}m"
        note_en += f" position {pos} m → {where.end} m"
        if other:
            gap = distance_between(emit, name, other)
            note_ja += f" ({other}まで {gap}m)"
            note_en += f" ({gap} m from {other})"
    emit.add(
        ev.NOTICE,
        {"move": option, **dict(out.detail), "pos": where.end},
        rules=(*out.rules, "UM-RANGE-01") if direction else out.rules,
        text=Message(note_ja, note_en),
    )


def switch(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    """UM-SWITCH-01: changing equipment takes the turn; dropping the shield does not.
    ``/switch WEAPON`` takes that weapon in hand (UM-EQUIP-01)."""
    if len(args) > 1:
        raise fail("/switch [武器|shield] です", "use /switch [WEAPON|shield]")
    character = emit.character(name)
    held = held_of(character)
    drop = args in (["shield"], ["盾"])
    new_held = (
        eq.drop_shield(held)
        if drop
        else eq.take_in_hand(sheet_of(character).weapons, held, args[0])
        if args
        else held
    )
    before = tracker.combatant(character)
    out = um.switch_equipment(before, drop, tracker.cfg(emit))
    if out.uses_turn:
        tracker.use_turn(emit, name, "switch")
    else:
        emit.set_field(name, "two_handed_ready", True, rules=out.rules)
    tracker.save(emit, before, out.state, out.rules)
    if new_held != held:
        emit.set_field(name, "held", list(new_held.weapons), rules=out.rules)
        if new_held.shield != held.shield:
            emit.set_field(name, "shield", new_held.shield, rules=out.rules)
    holding = "・".join(new_held.weapons) or "なし"
    shield = "、盾" if new_held.shield else ""
    emit.add(
        ev.NOTICE,
        {"switch": "shield" if drop else (args[0] if args else "equipment")},
        rules=out.rules,
        text=Message(
            f"{name}: {out.note.ja} (手に: {holding}{shield})",
            f"{name}: {out.note.en} (in hand: {', '.join(new_held.weapons) or 'nothing'}"
            f"{', shield' if new_held.shield else ''})",
        ),
    )


def mount(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str], on: bool) -> None:
    """``/mount`` · ``/dismount``: the character gets on or off a mount; mounted, every
    move goes twice as far (UM-MOVE-01). *default*: it takes no turn (the seed is silent);
    the GM may rule it with ``/gm set NAME mounted on|off``."""
    verb = "mount" if on else "dismount"
    if args:
        raise fail(f"/{verb} です (引数なし)", f"use /{verb} (no arguments)")
    character = emit.character(name)
    if bool(tracker.combatant(character).mounted) == on:
        raise fail(
            f"{name} はすでに{'騎乗しています' if on else '騎乗していません'}",
            f"{name} is {'already' if on else 'not'} mounted",
        )
    if tracker.cfg(emit).mount_takes_turn:  # UM-MOVE-02 (default: no turn)
        tracker.use_turn(emit, name, "mount")
    emit.set_field(
        name,
        "mounted",
        on,
        rules=("UM-MOVE-01",),
        text=Message(
            f"{name}: {'騎乗 (移動距離×2)' if on else '下馬 (移動距離は通常)'}",
            f"{name}: {'mounted (moves ×2)' if on else 'dismounted (normal moves)'}",
        ),
    )
