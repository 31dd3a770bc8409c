"""What the simulator works out from a character is kept per character object: it must
give what working it out afresh gives, at every turn of real fights (issue 25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from saikoro.simulate import Plan, from_files
from saikoro.simulate.fight import Fight, fight_seed
from saikoro.simulate.per_character import PerCharacter
from saikoro.simulate.run import set_up
from saikoro.simulate.setup import playbook_for
from saikoro.table.state import Character, copy_character

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "simulate"


def test_a_value_is_worked_out_again_for_a_new_object_or_other_context() -> None:
    asked: list[tuple[int, object]] = []

    def hp_plus(character: Character, extra: object = 0) -> int:
        asked.append((id(character), extra))
        return character.hp + int(extra)  # type: ignore[call-overload]

    kept = PerCharacter(hp_plus)
    alice = Character(name="アリス", hp=5, max_hp=5)
    assert kept(alice) == 5 and kept(alice) == 5 and len(asked) == 1
    hurt = copy_character(alice)
    hurt.hp = 2  # what a line does: the changed character is a copy, a new object
    assert kept(hurt) == 2 and len(asked) == 2
    three = 3
    assert kept(hurt, three) == 5 and kept(hurt, three) == 5 and len(asked) == 3
    assert kept(hurt) == 2 and len(asked) == 4


class Fresh:
    """Compares the shared playbook's options with a new playbook's, at every turn."""

    def __init__(self, system: str) -> None:
        self.fresh_playbook = type(playbook_for(system))  # a new one: nothing kept
        self.turns = 0
        self.differ: list[str] = []

    def watch(self, fight: Fight) -> None:
        real = fight.options

        def options(actor: str) -> Any:
            found = real(actor)
            afresh = Fight.options(_Stand(fight.state, self.fresh_playbook()), actor)
            self.turns += 1
            if found != afresh:
                self.differ.append(actor)
            return found

        fight.options = options  # type: ignore[method-assign]


class _Stand:
    def __init__(self, state: Any, playbook: Any) -> None:
        self.state, self.playbook = state, playbook


@pytest.mark.rule("UM-TURN-01", "UM-MELEE-01", "UM-RANGED-01", "LW-COMBAT-12")
@pytest.mark.parametrize(("folder", "enemy"), [("littleworld", "goblin"), ("unmeid100", "orc")])
def test_the_kept_options_are_those_worked_out_afresh(folder: str, enemy: str) -> None:
    here = EXAMPLES / folder
    party = [str(p) for p in sorted(here.glob("*.json")) if p.stem != enemy]
    encounter = from_files(party, [f"{here / enemy}.json:4"])
    base, _ = set_up(encounter)
    playbook = playbook_for(encounter.system)  # one for every fight, as simulate() does
    check = Fresh(encounter.system)
    for number in range(1, 13):
        fight = Fight(base, playbook, Plan().policies(), fight_seed(11, number))
        check.watch(fight)
        fight.play()
    assert check.turns > 100 and check.differ == []
