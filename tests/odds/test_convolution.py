"""Plain sums: parsing, the cross-check with the evaluator, and convolution = enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest

import saikoro
from saikoro.odds.convolution import convolve, parse_plain_sum


@pytest.mark.parametrize(
    ("text", "dice", "constant", "op", "target"),
    [
        ("10D6+3", ((1, 10, 6),), 3, None, None),
        ("3D6-1D4>=5", ((1, 3, 6), (-1, 1, 4)), 0, ">=", 5),
        ("D20+3D4", ((1, 1, 20), (1, 3, 4)), 0, None, None),
        ("2D+1<>7 comment", ((1, 2, 6),), 1, "<>", 7),
    ],
)
def test_parse(text, dice, constant, op, target):
    plain = parse_plain_sum(text)
    assert plain is not None
    assert (plain.dice, plain.constant, plain.op, plain.target) == (dice, constant, op, target)


@pytest.mark.parametrize("text", ["4D6KH3", "2D6*2", "(2D6)", "3B6", "2D6>=?", "201D6", "1D10001"])
def test_not_plain(text):
    assert parse_plain_sum(text) is None


@pytest.mark.parametrize("command", ["3D6-1D4>=8", "2D6+1D8-2<=9", "4D4<>10", "5D3-2"])
def test_convolution_equals_enumeration(command):
    by_tree = saikoro.odds(command, method="enumeration")
    by_sum = saikoro.odds(command, method="convolution")
    assert by_sum.method == "convolution" and by_tree.method == "enumeration"
    assert by_sum.distribution == by_tree.distribution
    assert (by_sum.success, by_sum.failure) == (by_tree.success, by_tree.failure)
    assert by_sum.outcomes == by_tree.outcomes


def test_large_plain_sum_is_convolved_exactly():
    """10D6+3: mean 10 × 7/2 + 3 = 38, variance 10 × 35/12; extremes 1/6^10 each."""
    result = saikoro.odds("10D6+3")
    assert result.exact and result.method == "convolution"
    assert result.outcomes == 6**10
    assert result.mean == 38
    assert result.stdev == pytest.approx((10 * 35 / 12) ** 0.5)
    assert result.distribution[13] == result.distribution[63] == Fraction(1, 6**10)
    assert sum(result.distribution.values()) == 1


@pytest.mark.rule("LW-CHECK-03")
def test_sum_with_criticals_is_not_convolved():
    """LittleWorld judges generic sums (criticals), so they never take the plain-sum path."""
    with pytest.raises(saikoro.SaikoroError):
        saikoro.odds("10D6>=30", "LittleWorld", method="convolution")
    # …and the automatic choice does not convolve it (it walks the multisets of faces).
    result = saikoro.odds("10D6>=30", "LittleWorld")
    assert result.method != "convolution"
    assert result.critical > 0.5  # two or more 6s among ten dice: 1 - P(0 or 1 six) ≈ 0.52


def test_convolve_two_faces():
    assert convolve(parse_plain_sum("1D2")).distribution == {1: Fraction(1, 2), 2: Fraction(1, 2)}
