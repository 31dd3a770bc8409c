"""The attack verbs of 運命判定d100 at the table: ``/melee`` (UM-MELEE-01), ``/shoot``
(UM-RANGED-01), ``/aim`` (UM-AIM-01), ``/defend`` (UM-DEFEND-01), and a hit's damage
(UM-DMG-01, criticals UM-CRIT-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import distance as dist
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100 import tracker_damage
from saikoro.systems.unmeid100.commands import MELEE, SEP, attack_texts, ranged_text
from saikoro.systems.unmeid100.tracker_common import (
    DOWN_LABELS,
    acts,
    distance_between,
    held_of,
    not_self,
    sheet_of,
)
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


def target_of(tracker: UnmeiTracker, emit: Emit, args: list[str], usage: Message) -> Character:
    if not args:
        raise fail(usage.ja, usage.en)
    return emit.character(args[0])


def defending_ac(tracker: UnmeiTracker, emit: Emit, target: Character) -> int:
    """The AC an attack meets; UM-MELEE-03 (*default* ``down_ac = "full"``): a 気絶 or 死亡
    target keeps its AC, or has AC 0 (``"zero"``)."""
    down = any(target.condition(label) is not None for label in DOWN_LABELS)
    if down and tracker.cfg(emit).down_ac == "zero":
        return 0
    return tracker.ac(target)


def melee(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    target = target_of(
        tracker, emit, args, Message("/melee 目標 [武器] です", "use /melee TARGET [WEAPON]")
    )
    not_self(name, target.name)
    attacker = emit.character(name)
    weapon = eq.melee_weapon(
        sheet_of(attacker).weapons,
        held_of(attacker),
        args[1] if len(args) > 1 else None,
        tracker.cfg(emit),
    )
    dist.check_melee_reach(
        distance_between(emit, name, target.name),
        target.name,
        tracker.cfg(emit),
        moved=tracker.moved_this_turn(emit, attacker),
    )
    tracker.use_turn(emit, name, "melee")
    refs = tracker.base_references(attacker)  # 戦闘, 盗賊, 敏捷度: no condition changes them
    before = tracker.combatant(attacker, refs)
    after = um._other_action(before, tracker.cfg(emit))
    tracker.save(emit, before, after, ("UM-AIM-01",))
    roll = emit.randomizer.roll_once(100)
    out = um.melee_attack(
        roll,
        refs.get("戦闘", 0),
        defending_ac(tracker, emit, target),
        refs.get("敏捷度", 0),
        tracker.cfg(emit),
    )
    attack_result(tracker, emit, name, target.name, out, weapon, MELEE, "melee")


def shoot(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    target = target_of(
        tracker, emit, args, Message("/shoot 目標 [武器] です", "use /shoot TARGET [WEAPON]")
    )
    not_self(name, target.name)
    attacker = emit.character(name)
    weapon = eq.bow(
        sheet_of(attacker).weapons, held_of(attacker), args[1] if len(args) > 1 else None
    )
    dist.check_bow_range(distance_between(emit, name, target.name), target.name, tracker.cfg(emit))
    tracker.use_turn(emit, name, "shoot")
    refs = tracker.base_references(attacker)  # 戦闘, 盗賊, 敏捷度: no condition changes them
    before = tracker.combatant(attacker, refs)
    roll = emit.randomizer.roll_once(100)
    out = um.ranged_attack(
        roll,
        refs.get("盗賊", 0),
        defending_ac(tracker, emit, target),
        refs.get("敏捷度", 0),
        before.aim,
        settings=tracker.cfg(emit),
    )
    tracker.save(emit, before, um.shoot(before), ("UM-AIM-01",))
    label = ranged_text(before.aim)
    attack_result(tracker, emit, name, target.name, out, weapon, label, "shot")


def attack_result(
    tracker: UnmeiTracker,
    emit: Emit,
    name: str,
    target: str,
    out: um.AttackOutcome,
    weapon: eq.UsedWeapon,
    label: Message,
    en: str,
) -> None:
    shown = Message.join(SEP, attack_texts(label, out))  # as MA / RA show it
    emit.add(
        ev.ROLL,
        {
            "action": en,
            "target": target,
            "roll": out.roll,
            "target_value": out.target,
            "ac": out.ac,
            "result": out.result,
        },
        rules=out.rules,
        text=Message(f"{name} → {target}{SEP}", f"{name} → {target}{SEP}") + shown,
    )
    expr = weapon.damage
    if not out.hit:
        tracker.set_last_check(
            emit,
            name,
            {
                "kind": en,
                "target": target,
                "expr": expr,
                "abilities": list(weapon.abilities),
                "at": acts(emit.character(name)),
            },
        )
        return
    tracker.set_last_check(emit, name, None)
    hit(tracker, emit, name, target, expr, list(weapon.abilities), out.critical)


def hit(
    tracker: UnmeiTracker,
    emit: Emit,
    name: str,
    target: str,
    expr: str,
    abilities: list[str],
    critical: bool,
) -> None:
    times = 1
    rules: tuple[str, ...] = ("UM-DMG-01",)
    if critical:
        effects = um.critical_effects(abilities, tracker.cfg(emit))
        times = effects.damage_rolls
        if effects.extra_attacks or effects.gm_defined:
            extra = "、".join(
                [
                    *(["連続: もう一度攻撃できる"] if effects.extra_attacks else []),
                    *effects.gm_defined,
                ]
            )
            emit.add(
                ev.NOTICE,
                {"critical_effects": list(abilities)},
                rules=effects.rules,
                text=Message(
                    f"クリティカル効果 (GM裁定): {extra}",
                    f"critical effects (GM's ruling): {extra}",
                ),
            )
    damage = tracker_damage.roll_damage(tracker, emit, expr, times)
    emit.add(
        ev.NOTICE,
        {"damage": damage, "expr": expr, "times": times},
        rules=rules,
        text=Message(
            f"ダメージ {expr}{'×' + str(times) if times > 1 else ''} ＞ {damage}",
            f"damage {expr}{'x' + str(times) if times > 1 else ''} > {damage}",
        ),
    )
    tracker_damage.apply_damage(tracker, emit, target, damage, name, expr)


def aim(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    tracker.use_turn(emit, name, "aim")
    before = tracker.combatant(emit.character(name))
    out = um.take_aim(before)
    tracker.save(emit, before, out.state, out.rules)
    emit.add(
        ev.NOTICE,
        {"aim": out.state.aim},
        rules=out.rules,
        text=Message(f"{name}: {out.note.ja}", f"{name}: {out.note.en}"),
    )


def defend(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
    tracker.use_turn(emit, name, "defend")
    before = tracker.combatant(emit.character(name))
    out = um.full_defence(before, tracker.cfg(emit))
    tracker.save(emit, before, out.state, out.rules)
