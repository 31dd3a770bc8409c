"""The tree walk itself, on small hand-written commands (no engine involved)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from saikoro.dice.result import RollResult
from saikoro.odds.enumeration import (
    TreeTooLarge,
    enumerate_outcomes,
    estimate_sequences,
)
from saikoro.odds.runner import NondeterministicCommandError


def _attack(source):  # a fumble (1,1) skips the second pair of dice
    first = [source.roll(6), source.roll(6)]
    if first == [1, 1]:
        return RollResult("fumble", failure=True, fumble=True, value=0)
    second = [source.roll(6), source.roll(6)]
    damage = max(0, sum(first) - sum(second))
    return RollResult("x", success=damage > 0, failure=damage == 0, value=damage)


def test_dependent_dice_are_walked_with_their_own_branching():
    found = enumerate_outcomes(_attack)
    # 1 sequence for the fumble + 35 first pairs × 36 second pairs.
    assert found.sequences == 1 + 35 * 36
    assert sum(found.outcomes.values()) == 1
    fumble = sum(p for outcome, p in found.outcomes.items() if outcome[3])
    assert fumble == Fraction(1, 36)


def test_mixed_sides_and_probabilities():
    def run(source):
        coin = source.roll(2)
        value = source.roll(4) if coin == 1 else source.roll(10)
        return RollResult("", value=value)

    found = enumerate_outcomes(run)
    assert found.sequences == 4 + 10
    by_value: dict[int, Fraction] = {}
    for outcome, p in found.outcomes.items():
        by_value[outcome[4]] = by_value.get(outcome[4], Fraction(0)) + p
    assert by_value[1] == Fraction(1, 8) + Fraction(1, 20)
    assert by_value[10] == Fraction(1, 20)


def test_limit_and_endless_rerolls_stop_the_walk():
    def exploding(source):
        total = 0
        while (face := source.roll(6)) == 6:
            total += face
        return RollResult("", value=total + face)

    with pytest.raises(TreeTooLarge):
        enumerate_outcomes(exploding, limit=1000)

    def six_dice(source):
        return RollResult("", value=sum(source.roll(6) for _ in range(6)))

    with pytest.raises(TreeTooLarge):
        enumerate_outcomes(six_dice, limit=6**6 - 1)
    assert enumerate_outcomes(six_dice, limit=6**6).sequences == 6**6


def test_a_command_that_changes_its_mind_is_reported():
    calls = {"n": 0}

    def fickle(source):
        calls["n"] += 1
        return RollResult("", value=source.roll(6 if calls["n"] % 2 else 4) + source.roll(6))

    with pytest.raises(NondeterministicCommandError):
        enumerate_outcomes(fickle)


def test_knuth_estimate_is_exact_for_fixed_dice_and_close_for_dependent_ones():
    def three(source):
        return RollResult("", value=source.roll(6) + source.roll(8) + source.roll(10))

    assert estimate_sequences(three).mean == 480
    estimate = estimate_sequences(_attack, walks=200)
    assert 900 < estimate.mean <= 1296
