"""The spell verbs of 運命判定d100 at the table: ``/chant SPELL`` (UM-MAGIC-01) and
``/cast TARGET`` (UM-MAGIC-02/03: off-school −10, half rate, RC and 魅力)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100 import tracker_attack
from saikoro.systems.unmeid100.commands import SEP, spell_text, spell_texts
from saikoro.systems.unmeid100.tracker_common import acts, not_self, sheet_of
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


def chant(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    if len(args) != 1:
        raise fail("/chant 魔法名 です", "use /chant SPELL")
    character = emit.character(name)
    spells = {s.name: s for s in getattr(sheet_of(character), "spells", [])}
    if args[0] not in spells:
        raise fail(
            f"{name} は魔法 {args[0]!r} を知りません ({'、'.join(spells) or 'なし'})",
            f"{name} does not know {args[0]!r}",
        )
    tracker.use_turn(emit, name, "chant")
    before = tracker.combatant(character)
    out = um.start_chant(before, args[0], tracker.cfg(emit))
    tracker.save(emit, before, out.state, out.rules)
    emit.add(
        ev.NOTICE,
        {"chant": args[0]},
        rules=out.rules,
        text=Message(f"{name}: {out.note.ja}", f"{name}: {out.note.en}"),
    )


def cast(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    target = tracker_attack.target_of(
        tracker, emit, args, Message("/cast 目標 です", "use /cast TARGET")
    )
    caster = emit.character(name)
    before = tracker.combatant(caster)
    if not um.can_activate(before):
        raise fail(
            "魔法は前の手番に詠唱し、詠唱中のときだけ発動できます (UM-MAGIC-02)",
            "a spell can be activated only while chanting it since an earlier turn (UM-MAGIC-02)",
            "not chanting",
        )
    tracker.use_turn(emit, name, "cast")
    sheet = sheet_of(caster)
    assert before.chant is not None
    spell = next(s for s in sheet.spells if s.name == before.chant.spell)
    refs = tracker.references(caster)
    hostile = spell.hostile
    if hostile:
        not_self(name, target.name)
    off_school = bool(spell.school) and spell.school != sheet.school
    roll = emit.randomizer.roll_once(100)
    out = um.activate_spell(
        roll,
        refs.get("魔術", 0),
        off_school=off_school,
        halved=spell.half_rate,
        rc=tracker.rc(target) if hostile else None,
        charm=refs.get("魅力") if hostile else None,
        settings=tracker.cfg(emit),
    )
    turn = um.activation_attempt(before, out)
    tracker.save(emit, before, turn.state, turn.rules)
    shown = Message.join(SEP, spell_texts(spell_text(off_school, spell.half_rate), out))  # MG
    emit.add(
        ev.ROLL,
        {
            "action": "cast",
            "spell": spell.name,
            "target": target.name,
            "roll": roll,
            "result": out.result,
        },
        rules=out.rules,
        text=Message(
            f"{name} の「{spell.name}」→ {target.name}{SEP}",
            f"{name}'s {spell.name} → {target.name}{SEP}",
        )
        + shown,
    )
    tracker.set_last_check(
        emit,
        name,
        None
        if out.activated
        else {
            "kind": "cast",
            "target": target.name,
            "spell": spell.name,
            "roll": roll,
            "magic_target": out.target,
            "rc": out.rc,
            "charm": out.charm,
            "off_school": off_school,
            "half_rate": spell.half_rate,
            "at": acts(emit.character(name)),
        },
    )


def finish_rescued_cast(tracker: UnmeiTracker, emit: Emit, name: str, last: dict[str, Any]) -> None:
    """UM-FATE-05: a fate rescue of a failed ``/cast``: the spell activates after all and
    resolves (a hostile target's RC or the caster's 魅力 with the same die), once; the chant
    ends as an activated chant ends (UM-MAGIC-02)."""
    failed = um.SpellOutcome(
        int(last["roll"]),
        int(last["magic_target"]),
        last.get("rc"),
        last.get("charm"),
        "not_activated",
        ("UM-MAGIC-02",),
    )
    out = um.rescued_activation(failed)
    label = spell_text(bool(last.get("off_school")), bool(last.get("half_rate")))
    shown = Message.join(SEP, spell_texts(label, out))
    emit.add(
        ev.ROLL,
        {
            "action": "cast",
            "spell": last["spell"],
            "target": last["target"],
            "roll": out.roll,
            "result": out.result,
            "rescued": True,
        },
        rules=out.rules,
        text=Message(
            f"運命: {name} の「{last['spell']}」→ {last['target']}{SEP}",
            f"fate: {name}'s {last['spell']} → {last['target']}{SEP}",
        )
        + shown,
    )
    if emit.character(name).fields.get("chant"):
        emit.set_field(
            name,
            "chant",
            None,
            rules=("UM-MAGIC-02", "UM-FATE-05"),
            text=Message(
                f"{name}: 「{last['spell']}」発動、詠唱終了",
                f"{name}: {last['spell']} activated, the chant ends",
            ),
        )
