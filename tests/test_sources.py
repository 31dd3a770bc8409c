"""Dice sources and the per-command randomizer's limits (BCDice's)."""

from __future__ import annotations

import pytest

from saikoro.dice.randomizer import (
    UPPER_LIMIT_RANDS,
    ManualSource,
    Randomizer,
    ScriptedSource,
    SeededSource,
    TooManyRandsError,
    parse_rands,
)
from saikoro.errors import DiceInputError, SaikoroError, ScriptedDiceError


def test_scripted_source_gives_dice_in_order_and_records_them() -> None:
    randomizer = Randomizer(ScriptedSource([(3, 6), (4, 6), (55, 100)]))
    assert randomizer.roll_barabara(2, 6) == [3, 4]
    assert randomizer.roll_once(100) == 55
    assert [(d.kind, d.sides, d.value) for d in randomizer.rands] == [
        ("normal", 6, 3),
        ("normal", 6, 4),
        ("normal", 100, 55),
    ]


def test_scripted_source_rejects_wrong_sides_too_few_and_leftovers() -> None:
    with pytest.raises(ScriptedDiceError, match="d10"):
        ScriptedSource([(3, 6)]).roll(10)
    source = ScriptedSource([(3, 6)])
    source.roll(6)
    with pytest.raises(ScriptedDiceError, match="not enough"):
        source.roll(6)
    leftover = ScriptedSource([(3, 6), (2, 6)])
    leftover.roll(6)
    with pytest.raises(ScriptedDiceError, match="left over"):
        leftover.assert_exhausted()
    with pytest.raises(ScriptedDiceError):
        ScriptedSource([(7, 6)])


def test_manual_source_accepts_only_faces_of_the_die() -> None:
    answers = iter(["4", " 6 ", "7", "x"])
    source = ManualSource(lambda sides: next(answers))
    assert source.roll(6) == 4
    assert source.roll(6) == 6
    with pytest.raises(DiceInputError):
        source.roll(6)
    with pytest.raises(DiceInputError):
        source.roll(6)


def test_parse_rands_cli_form() -> None:
    assert parse_rands("3/6,4/6") == [(3, 6), (4, 6)]
    assert parse_rands("") == []
    with pytest.raises(ScriptedDiceError):
        parse_rands("3-6")
    assert parse_rands("３/６") == [(3, 6)]  # full-width digits count
    for spec in ("²/6", "3/²"):  # str.isdigit() says yes, int() cannot read them
        with pytest.raises(ScriptedDiceError):
            parse_rands(spec)


def test_limits_follow_bcdice() -> None:
    randomizer = Randomizer(SeededSource(1))
    assert randomizer.roll_barabara(201, 6) == []
    assert randomizer.roll_once(10001) == 0
    assert randomizer.limits_hit == ["times", "sides"]
    assert all(isinstance(w.ja, str) and w.en for w in randomizer.warnings)
    with pytest.raises(TooManyRandsError) as info:
        for _ in range(UPPER_LIMIT_RANDS // 200 + 1):
            randomizer.roll_barabara(200, 6)
    assert isinstance(info.value, SaikoroError)
    assert "rands" in randomizer.limits_hit


def test_tens_d10_and_d9_kinds() -> None:
    randomizer = Randomizer(ScriptedSource([(10, 10), (3, 10), (1, 10)]))
    assert randomizer.roll_tens_d10() == 0
    assert randomizer.roll_tens_d10() == 30
    assert randomizer.roll_d9() == 0
    assert [d.kind for d in randomizer.rands] == ["tens_d10", "tens_d10", "d9"]
