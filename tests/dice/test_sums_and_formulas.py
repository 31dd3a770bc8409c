"""The one arithmetic core: sums in game rules (damage, sheet fields) and formulas over named
values use the generic commands' grammar, rounding and limits."""

from __future__ import annotations

import pytest

from saikoro.dice.arith import FormulaError, evaluate_formula
from saikoro.dice.randomizer import Randomizer, ScriptedSource
from saikoro.dice.sums import NOT_A_SUM, roll_sum, sum_problem


def test_a_damage_sum_rolls_like_the_sum_command() -> None:
    assert roll_sum("2D6+1", Randomizer(ScriptedSource([(3, 6), (4, 6)]))) == 8
    assert roll_sum("(2+1)D4/2", Randomizer(ScriptedSource([(1, 4), (2, 4), (4, 4)]))) == 3
    assert roll_sum("１Ｄ８＋１", Randomizer(ScriptedSource([(8, 8)]))) == 9  # full width
    for not_a_sum in ("2D6>=7", "S2D6", "3", "choice[a,b]", ""):
        assert roll_sum(not_a_sum, Randomizer(ScriptedSource([]))) is None


def test_sum_problem_names_what_is_wrong() -> None:
    assert sum_problem("1D8+1") is None
    assert sum_problem("2D6>=7") == NOT_A_SUM
    too_many = sum_problem("300D6")
    assert too_many is not None and too_many.ja and too_many.en


@pytest.mark.rule("UM-LEVEL-03")
def test_formulas_use_the_dice_arithmetic() -> None:
    values = {"体格": 5, "体格成長率": 30, "運命": 4}
    assert evaluate_formula("体格*2 + 運命", values) == 14
    assert evaluate_formula("体格成長率/4", values) == 7  # the longer name first
    assert evaluate_formula("(体格+運命)÷2", values) == 4  # ÷ rounds down, as 2D6/2
    assert evaluate_formula("(体格+運命)/2", values, round_type="ceil") == 5
    assert evaluate_formula("-体格×-2", values) == 10
    for bad, why in [
        ("体格**2", "syntax error"),
        ("体格 if 1 else 2", "unknown value if"),
        ("体格/(運命-4)", "division by zero"),
        ("99999*99999", "value too large"),
        ("x" * 300, "too long"),
    ]:
        with pytest.raises(FormulaError) as caught:
            evaluate_formula(bad, values)
        assert why in caught.value.message.en and caught.value.message.ja
