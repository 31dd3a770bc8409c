"""The odds runner evaluates exactly as the engine does for a roll."""

from __future__ import annotations

import pytest

from saikoro.dice import engine
from saikoro.dice.randomizer import Randomizer, SeededSource
from saikoro.odds.runner import make_runner
from saikoro.systems import systems


@pytest.mark.parametrize(
    ("command", "system"),
    [
        ("4D6KH3+2>=12", "DiceBot"),
        ("x3 2D6", "DiceBot"),
        ("D66", "DiceBot"),
        ("3U6[5]", "DiceBot"),
        ("1D99999", "DiceBot"),
        ("LWA5-3", "LittleWorld"),
        ("LWO1-2", "LittleWorld"),
        ("MG70,40,15,O,H", "UnmeiD100"),
        ("GROW50,30", "UnmeiD100"),
    ],
)
def test_the_runner_gives_what_the_engine_gives(command, system):
    game = systems.get_system(system)
    run = make_runner(command, system)
    for seed in range(20):
        a = engine.evaluate(command, game, Randomizer(SeededSource(seed)))
        c = run(SeededSource(seed))  # what odds runs: the normalized text, once
        assert (c.text, c.success, c.failure, c.critical, c.fumble, c.value) == (
            a.text,
            a.success,
            a.failure,
            a.critical,
            a.fumble,
            a.value,
        )
