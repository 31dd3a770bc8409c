"""The odds' result words in English come from the commands' own English (``text_en``)."""

from __future__ import annotations

import pytest

import saikoro


@pytest.mark.rule("UM-MELEE-01")
def test_result_words_carry_the_commands_english() -> None:
    odds = saikoro.odds("MA30,20,12", "UnmeiD100")
    assert odds.words_en["クリティカルヒット！ 命中"] == "Critical hit!"
    assert odds.words_en["失敗(外れ)"] == "Failure (miss)"
    sample = saikoro.odds("MA30,20,12", "UnmeiD100", method="monte-carlo", samples=500)
    assert sample.words_en["命中"] == "hit"
