"""Pieces of the human output: counts, bars, context."""

from __future__ import annotations

from fractions import Fraction

import saikoro
from saikoro.odds.render import bar_lines, bins, context_text, count_text


def test_count_text():
    assert count_text(1261) == "1,261"
    assert count_text(100**100) == "1.00×10^200"


def test_bins_dense_and_grouped():
    assert bins({2: Fraction(1, 2), 4: Fraction(1, 2)}) == [("2", 0.5), ("3", 0.0), ("4", 0.5)]
    wide = saikoro.odds("40D6").distribution
    grouped = bins(wide)
    assert len(grouped) <= 40
    assert sum(p for _, p in grouped) > 1 - 2e-4  # only tails under 10⁻⁴ are cut
    assert not grouped[0][0].startswith("40–")  # the far tail (all 1s) is not charted


def test_bar_lengths_follow_probabilities():
    lines = bar_lines(saikoro.odds("2D6").distribution)
    assert len(lines) == 11
    assert lines[5].count("█") == 40 and lines[0].count("█") < lines[1].count("█")


def test_context_uses_japanese_forms_when_given():
    odds = saikoro.odds("LW3>=10", "LittleWorld")
    assert "難しい" in context_text(odds, "ja")
    assert "難しい" not in context_text(odds, "en")
