"""帽子世界TRPG's playbook for ``saikoro simulate``: on its turn a fighter may
``/attack TARGET 体力|技巧|理知`` any opponent still standing (the attack ends the turn,
LW-COMBAT-12); each option's chance to hurt is the odds of the matching ``LWA`` command
(the defender's ability, or ``X`` when it cannot defend, LW-COMBAT-11). HP ≤ 0 is out of
the fight (LW-HP-02); nobody dies in these rules, and there is no fate check."""

from __future__ import annotations

from saikoro.simulate.chances import damage_chances
from saikoro.simulate.model import Option
from saikoro.systems import settings as room_settings
from saikoro.systems.littleworld import conditions as lwc
from saikoro.systems.littleworld.tracker import ABILITIES, LittleWorldTracker, rule_conditions
from saikoro.table.state import Character, RoomState

SYSTEM = "LittleWorld"


class LittleWorldPlaybook:
    def __init__(self) -> None:
        self.tracker = LittleWorldTracker()

    def options(self, state: RoomState, actor: str) -> list[Option]:
        me = state.characters[actor]
        overrides = state.fields.get("settings")
        cfg = room_settings(SYSTEM, overrides)
        found = []
        for foe in state.characters.values():
            if foe.side == me.side or self.out(foe):
                continue
            defends, _rules = lwc.can_defend(rule_conditions(foe), surprised=False, settings=cfg)
            for ability in ABILITIES:
                attack = self.tracker.ability(me, ability)
                defence = str(self.tracker.ability(foe, ability)) if defends else "X"
                hurt, mean = damage_chances(f"LWA{attack}-{defence}", SYSTEM, overrides)
                found.append(Option(foe.name, f"/attack {foe.name} {ability}", hurt, mean))
        return found

    def end_turn(self, state: RoomState, actor: str) -> str | None:
        return None  # LW-COMBAT-12: the attack ends the turn

    def idle(self, state: RoomState, actor: str) -> str:
        return "/next"

    def out(self, character: Character) -> bool:
        return character.down

    def dead(self, character: Character) -> bool:
        return False

    def rescue(self, state: RoomState, name: str) -> str | None:
        return None
