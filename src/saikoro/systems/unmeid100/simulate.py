"""運命判定d100's playbook for ``saikoro simulate``: on its turn a fighter may ``/melee``
(the melee weapon in hand, UM-MELEE-01) or ``/shoot`` (a bow in hand, UM-RANGED-01) any
opponent still in the fight, then ``/next``; each option's chance to hurt is the odds of the
matching ``MA``/``RA`` check against the target's AC, its expected damage the weapon's dice.
Out of the fight: HP ≤ 0, 気絶 or 死亡 (UM-TABLE-08); dead: 死亡 (UM-FATE-04). A character
just put at HP ≤ 0 spends a fate check to halve the damage when the half would keep it
standing (UM-FATE-02 (b))."""

from __future__ import annotations

import contextlib
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.simulate.chances import damage_chances, success_chance
from saikoro.simulate.model import Option
from saikoro.simulate.per_character import PerCharacter
from saikoro.systems import settings as room_settings
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.tracker import UnmeiTracker
from saikoro.systems.unmeid100.tracker_common import acts, held_of, out_of_fight, sheet_of
from saikoro.table.kept import KeptByName
from saikoro.table.state import Character, RoomState

SYSTEM = "UnmeiD100"
_SURE = um.CheckOutcome(roll=1, target=100, success=True)


class UnmeiPlaybook:
    def __init__(self) -> None:
        self.tracker = UnmeiTracker()
        self._ac = PerCharacter(self.tracker.ac)
        self._out = PerCharacter(out_of_fight)
        self._attacks: KeptByName[list[tuple[str, str, str]]] = KeptByName()
        self._options: KeptByName[list[Option]] = KeptByName()

    def attacks(self, me: Character, cfg: Any) -> list[tuple[str, str, str]]:
        """:meth:`_attacks_of`, worked out again only when what it reads changed: the sheet,
        the values edited on it, what is in hand, the aim, the house rules."""
        held = me.fields.get("held")
        source = (
            me.sheet,
            tuple(held) if held is not None else None,
            me.fields.get("shield"),
            me.fields.get("aim", 0),
            tuple(me.statuses.items()),
            cfg,
        )
        found = self._attacks.get(me.name, source)
        if found is None:
            found = self._attacks.put(me.name, source, self._attacks_of(me, cfg))
        return found

    def _attacks_of(self, me: Character, cfg: Any) -> list[tuple[str, str, str]]:
        """(verb, damage dice, check with ``|`` for the target's AC) of each attack ``me``
        can make with the weapons in hand, under the room's house rules ``cfg``."""
        sheet, held, refs = sheet_of(me), held_of(me), self.tracker.references(me)
        agility = refs.get("敏捷度", 0)
        aim = int(me.fields.get("aim", 0) or 0)
        found: list[tuple[str, str, str]] = []
        with contextlib.suppress(SaikoroError):
            weapon = eq.melee_weapon(sheet.weapons, held, None, cfg)
            found.append(("melee", weapon.damage, f"MA{refs.get('戦闘', 0)},|,{agility}"))
        with contextlib.suppress(SaikoroError):
            weapon = eq.bow(sheet.weapons, held, None)
            found.append(("shoot", weapon.damage, f"RA{refs.get('盗賊', 0)},|,{agility},{aim}"))
        return found

    def options(self, state: RoomState, actor: str) -> list[Option]:
        """Each attack ``actor`` can make on each opponent still in the fight; the same
        attacks against the same opponents' ACs give the same options as last time."""
        me = state.characters[actor]
        overrides = state.fields.get("settings")
        cfg = room_settings(SYSTEM, overrides)
        attacks = self.attacks(me, cfg)
        foes = tuple(
            (foe.name, self._ac(foe))
            for foe in state.characters.values()
            if foe.side != me.side and not self._out(foe)
        )
        source = (attacks, foes, cfg)
        found = self._options.get(actor, source)
        if found is None:
            found = []
            for verb, damage, check in attacks:
                _always, mean = damage_chances(damage, SYSTEM, overrides)
                for name, ac in foes:
                    hit = success_chance(check.replace("|", str(ac)), SYSTEM, overrides)
                    found.append(Option(name, f"/{verb} {name}", hit, hit * mean))
            self._options.put(actor, source, found)
        return list(found)

    def end_turn(self, state: RoomState, actor: str) -> str | None:
        return "/next"

    def idle(self, state: RoomState, actor: str) -> str:
        return "/next"

    def out(self, character: Character) -> bool:
        return out_of_fight(character)

    def dead(self, character: Character) -> bool:
        return character.condition(um.LifeState.DEAD.value) is not None

    def rescue(self, state: RoomState, name: str) -> str | None:
        """``/fate half`` when the damage just taken, halved, leaves HP above 0."""
        character = state.characters[name]
        incoming = character.fields.get("_incoming")
        if not isinstance(incoming, dict) or int(character.fields.get("fate_left", 0)) <= 0:
            return None
        if incoming.get("at") is not None and int(incoming["at"]) != acts(character):
            return None
        cfg = room_settings(SYSTEM, state.fields.get("settings"))
        halved = um.apply_rescue(
            _SURE, um.Rescue.HALVE_DAMAGE, incoming_damage=int(incoming["damage"]), settings=cfg
        ).damage
        if halved is None or int(incoming["hp_before"]) - halved <= 0:
            return None
        return "/fate half"
