"""Order-free commands of identical dice: one run per multiset of faces, checked for order."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.errors import SaikoroError
from saikoro.odds.multiset import multiset_count


def test_multiset_count():
    assert multiset_count(10, 6) == 3003 and multiset_count(2, 6) == 21


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(2, 4),
    sides=st.sampled_from([2, 3, 6]),
    tail=st.sampled_from(["", "KH2", "KL1", ">=7", "<=5", "=6"]),
    system=st.sampled_from(list(saikoro.systems)),
)
def test_multisets_equal_every_sequence(n, sides, tail, system):
    command = f"{n}D{sides}{tail}"
    by_tree = saikoro.odds(command, system, method="enumeration")
    by_multiset = saikoro.odds(command, system, method="multiset")
    assert by_multiset.method == "multiset" and by_multiset.outcomes == sides**n
    for flag in ("success", "failure", "critical", "fumble"):
        assert by_multiset.probability(flag) == by_tree.probability(flag), flag
    assert by_multiset.distribution == by_tree.distribution
    assert by_multiset.words == by_tree.words


@pytest.mark.parametrize(
    ("command", "system"),
    [("2D6-2D6", "DiceBot"), ("LWO3-3", "LittleWorld"), ("3B6", "DiceBot"), ("1D6", "DiceBot")],
)
def test_order_dependent_commands_are_declined(command, system):
    """The reversed or shuffled order changes the outcome (or there is one die): no multisets."""
    with pytest.raises(SaikoroError):
        saikoro.odds(command, system, method="multiset")


@pytest.mark.rule("LW-CHECK-03")
def test_ten_dice_with_criticals_exactly():
    """10D6>=30 in LittleWorld: 6¹⁰ sequences, too many to walk, but order-free.
    Critical = two or more 6s = 1 − (5/6)¹⁰ − 10·(1/6)(5/6)⁹; mean 35."""
    result = saikoro.odds("10D6>=30", "LittleWorld")
    assert result.exact and result.method == "multiset" and result.outcomes == 6**10
    assert result.critical == 1 - F(5, 6) ** 10 - 10 * F(1, 6) * F(5, 6) ** 9
    assert result.fumble == F(1, 6**10)
    assert result.mean == 35


def test_keep_highest_of_many():
    """6D10KH3 has 10⁶ sequences; by multisets it matches icepool's known mean 2287857/100000."""
    result = saikoro.odds("6D10KH3")
    assert result.method == "multiset" and result.mean == F(2287857, 100000)
