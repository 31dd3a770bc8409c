"""The randomizer's fast paths (batched rolls, shared ``Die`` records) change nothing seen."""

from __future__ import annotations

import random

import pytest

from saikoro.dice.randomizer import (
    SHARED_FACES_MAX_SIDES,
    Die,
    Randomizer,
    RandomSource,
    ScriptedSource,
    SeededSource,
)
from saikoro.errors import ScriptedDiceError


def test_a_batch_draws_what_single_dice_draw() -> None:
    one_by_one, batched = RandomSource(), RandomSource()
    one_by_one.roll_below = random.Random(5)._randbelow  # type: ignore[method-assign]
    batched.roll_below = random.Random(5)._randbelow  # type: ignore[method-assign]
    for sides in (2, 6, 10, 100, 10000):
        assert batched.roll_many(50, sides) == [one_by_one.roll(sides) for _ in range(50)]


@pytest.mark.parametrize("sides", [6, SHARED_FACES_MAX_SIDES, SHARED_FACES_MAX_SIDES + 1])
def test_records_are_the_dice_rolled(sides: int) -> None:
    randomizer = Randomizer(SeededSource(3))
    values = [*randomizer.roll_barabara(20, sides), randomizer.roll_once(sides)]
    assert randomizer.rands == [Die("normal", sides, value) for value in values]
    assert all(type(die) is Die for die in randomizer.rands)


class _OddSource:
    """A source of its own that says nothing about its values (no ``yields_faces``)."""

    def roll(self, sides: int) -> int:
        return sides + 1  # not a face: still recorded as given


def test_a_source_of_its_own_is_recorded_as_it_answers() -> None:
    randomizer = Randomizer(_OddSource())
    assert randomizer.roll_barabara(2, 6) == [7, 7]
    assert randomizer.roll_once(6) == 7
    assert randomizer.rands == [Die("normal", 6, 7)] * 3


def test_a_scripted_batch_that_runs_out_records_nothing() -> None:
    randomizer = Randomizer(ScriptedSource([(1, 6)]))
    with pytest.raises(ScriptedDiceError):
        randomizer.roll_barabara(2, 6)
    assert randomizer.rands == []
