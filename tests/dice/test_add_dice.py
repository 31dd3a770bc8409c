"""AddDice, Calc and Repeat beyond BCDice's own test data.

The expected texts are what the real BCDice (npm ``bcdice``) printed for the same
input and dice; they pin the corners of the grammar: implicit sides, folded signs,
keep/drop defaults, operator spellings, ``?`` targets, division by zero.
"""

from __future__ import annotations

import pytest

import saikoro
from saikoro.dice.randomizer import Randomizer, ScriptedSource
from saikoro.dice.result import CheckResult, SumCheck
from saikoro.systems.base import GameSystem


def d(sides: int, *values: int) -> list[tuple[int, int]]:
    return [(v, sides) for v in values]


# (input, dice, BCDice's text, flags that are true)
BCDICE_CASES = [
    (
        "(8/2)D(4+6)<=(5*3)",
        d(10, 1, 2, 3, 4),
        "(4D10<=15) ＞ 10[1,2,3,4] ＞ 10 ＞ 成功",
        {"success"},
    ),
    ("2D6=>7", d(6, 3, 3), "(2D6>=7) ＞ 6[3,3] ＞ 6 ＞ 失敗", {"failure"}),
    ("2d6!=7", d(6, 3, 4), "(2D6<>7) ＞ 7[3,4] ＞ 7 ＞ 失敗", {"failure"}),
    ("1D6+-2*3", d(6, 5), "(1D6+-2*3) ＞ 5[5]+-2*3 ＞ -1", set()),
    ("--1D6", d(6, 5), "(1D6) ＞ 5", set()),
    ("1D6*-1", d(6, 5), "(1D6*-1) ＞ 5[5]*-1 ＞ -5", set()),
    ("(1/0)D6", d(6, 5), "(1D6) ＞ 5", set()),
    ("1d6/-3C", d(6, 4), "(1D6/-3U) ＞ 4[4]/-3U ＞ -1", set()),
    (
        "10D6DL-2",
        d(6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4),
        "(10D6DL1-2) ＞ 30[1,1,2,2,3,3,4,4,5,6]-2 ＞ 28",
        set(),
    ),
    ("S1D6>=?", d(6, 4), "(1D6>=?) ＞ 4", {"secret"}),
    ("D6KH", d(6, 4), "(1D6KH1) ＞ 4[4] ＞ 4", set()),
    ("3d6min", d(6, 4, 2, 5), "(3D6KL1) ＞ 2[2,4,5] ＞ 2", set()),
    ("1D6/2U/2R", d(6, 5), "(1D6/2U/2R) ＞ 5[5]/2U/2R ＞ 2", set()),
    ("-1D6", d(6, 5), "(-1D6) ＞ -5[5] ＞ -5", set()),
    ("0D6", [], "(0D6) ＞ 0", set()),
    ("1D0", [], "(1D0) ＞ 0", set()),
    ("(-2)D6", [], "(-2D6) ＞ 0", set()),
    (
        "1d6+1d6+1d6+1d6>=10",
        d(6, 1, 2, 3, 4),
        "(1D6+1D6+1D6+1D6>=10) ＞ 1[1]+2[2]+3[3]+4[4] ＞ 10 ＞ 成功",
        {"success"},
    ),
    ("c(7/-2U)", [], "c(7/-2C) ＞ -3", set()),
    ("C(1)+(2)", [], "c((1)+(2)) ＞ 3", set()),
    ("x3 C1", [], "#1\nc(1) ＞ 1\n\n#2\nc(1) ＞ 1\n\n#3\nc(1) ＞ 1", set()),
    ("rep2 S1D6", d(6, 1, 2), "#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 2", {"secret"}),
    ("2D6>=7 コメント", d(6, 6, 6), "(2D6>=7) ＞ 12[6,6] ＞ 12 ＞ 成功", {"success"}),
    ("1D20>=?", d(20, 20), "(1D20>=?) ＞ 20", set()),
    (
        "2D6KH1+1D6KL1>=4",
        d(6, 1, 5, 2),
        "(2D6KH1+1D6KL1>=4) ＞ 5[1,5]+2[2] ＞ 7 ＞ 成功",
        {"success"},
    ),
    ("SD6", d(6, 2), "(1D6) ＞ 2", {"secret"}),
    (
        "10D6KH3>=12",
        d(6, 6, 6, 1, 2, 3, 4, 5, 6, 1, 1),
        "(10D6KH3>=12) ＞ 18[1,1,1,2,3,4,5,6,6,6] ＞ 18 ＞ 成功",
        {"success"},
    ),
    ("2d6+2d6", d(6, 1, 1, 6, 6), "(2D6+2D6) ＞ 2[1,1]+12[6,6] ＞ 14", set()),
    (
        "C(1+(2-3*4/(5/6))-7)",
        [],
        "c(1+(2-3*4/(5/6))-7) ＞ ゼロ除算が発生したため計算できませんでした",
        set(),
    ),
]

NOT_COMMANDS = [
    "1DD",
    "1D6>=5#",
    "134",
    "1+2",
    "D(1D6)",
    "2D6>",
    "2D6>=1D6",
    "(1D6)D6",
    "1D(1D6)",
    "2D6!7",
    "3D6MAX3",
    "1D6KH1KH1",
    "C(1",
    "c1+4*",
    "x1",
    "x1 ",
    "2D6D6",
    "5DH",
]


@pytest.mark.parametrize(("command", "rands", "text", "flags"), BCDICE_CASES)
def test_as_bcdice_prints_it(command: str, rands: list, text: str, flags: set[str]) -> None:
    result = saikoro.roll(command, "DiceBot", rands)
    assert result is not None
    assert result.text == text
    for flag in ("secret", "success", "failure", "critical", "fumble"):
        assert getattr(result, flag) == (flag in flags), flag


@pytest.mark.parametrize("command", NOT_COMMANDS)
def test_not_a_command(command: str) -> None:
    assert saikoro.roll(command, "DiceBot", []) is None


def test_value_is_the_total() -> None:
    result = saikoro.roll("2D6+3>=10", "DiceBot", d(6, 3, 5))
    assert result is not None and result.value == 11
    calc = saikoro.roll("C(6*7)", "DiceBot", [])
    assert calc is not None and calc.value == 42


def test_rands_are_every_die_in_order() -> None:
    result = saikoro.roll("1D20+2D6", "DiceBot", [(17, 20), (2, 6), (5, 6)])
    assert result is not None
    assert [(r.value, r.sides) for r in result.rands] == [(17, 20), (2, 6), (5, 6)]


def test_limits_answer_as_bcdice_and_warn() -> None:
    result = saikoro.roll("500d6", "DiceBot", [])
    assert result is not None and result.text == "(500D6) ＞ 0"
    assert result.warnings and "200" in result.warnings[0].en
    sides = saikoro.roll("1D10001", "DiceBot", [])
    assert sides is not None and sides.text == "(1D10001) ＞ 0"
    assert sides.warnings and "10000" in sides.warnings[0].en


class _Judging(GameSystem):
    """A system whose hook judges 2D6 sums: 12 is a critical, 2 a fumble."""

    id = "Judging"
    round_type = "ceil"
    sides_implicit_d = 10

    def check_sum(self, check: SumCheck) -> CheckResult | None:
        if check.target is None or [s for _, s in check.dice] != [6, 6]:
            return None
        dice = [v for v, _ in check.dice]
        if sum(dice) == 12:
            return CheckResult("クリティカル", success=True, critical=True, rules=("X-1",))
        if sum(dice) == 2:
            return CheckResult("ファンブル", failure=True, fumble=True)
        ok = check.total >= check.target if check.cmp_op == ">=" else check.total <= check.target
        return CheckResult("成功" if ok else "失敗", success=ok, failure=not ok)


def _run(system: GameSystem, command: str, rands: list[tuple[int, int]]):
    from saikoro.dice.engine import evaluate

    source = ScriptedSource(rands)
    result = evaluate(command, system, Randomizer(source))
    source.assert_exhausted()
    return result


def test_system_hook_judges_sums() -> None:
    system = _Judging()
    crit = _run(system, "2D6+1>=20", d(6, 6, 6))
    assert crit.text == "(2D6+1>=20) ＞ 12[6,6]+1 ＞ 13 ＞ クリティカル"
    assert crit.success and crit.critical and not crit.failure and crit.rules == ("X-1",)
    fumble = _run(system, "2D6>=2", d(6, 1, 1))
    assert fumble.fumble and fumble.failure and fumble.text.endswith(" ＞ ファンブル")
    # Not 2D6: the hook declines and the default judgement applies.
    plain = _run(system, "1D6>=2", d(6, 3))
    assert plain.text == "(1D6>=2) ＞ 3 ＞ 成功" and plain.success


def test_system_settings_round_type_and_implicit_sides() -> None:
    system = _Judging()
    assert _run(system, "3D/2", d(10, 1, 2, 2)).text == "(3D10/2) ＞ 5[1,2,2]/2 ＞ 3"
    assert _run(system, "C(5/2)", []).text == "c(5/2) ＞ 3"
    # An explicit suffix wins over the system's rounding.
    assert _run(system, "C(5/2F)", []).text == "c(5/2F) ＞ 2"


def test_repeat_refuses_nesting_in_any_spelling() -> None:
    for command in ("x2 rep2 1D6", "x2 X2 1D6", "x2 SX2 1D6", "REP2 repeat3 1D6"):
        result = saikoro.roll(command, "DiceBot", [])
        assert result is not None and result.text == "Repeatコマンドの重複はできません"


def test_repeat_limits() -> None:
    over = saikoro.roll("x101 1D6", "DiceBot", [])
    assert over is not None and over.text == "繰り返し回数は1以上、100以下としてください"
    hundred = saikoro.roll("x100 1D6", "DiceBot", d(6, *([3] * 100)))
    assert hundred is not None and hundred.text.count("(1D6) ＞ 3") == 100


def test_negative_keep_or_drop_count_is_an_error_as_in_bcdice() -> None:
    """BCDice raises on ``3D6KH(0-1)``; saikoro answers with its own error, never a number."""
    from saikoro.errors import SaikoroError

    for command in ("3D6KH(0-1)", "3D6KL(0-1)", "3D6DH(0-2)", "3D6DL(1-3)"):
        with pytest.raises(SaikoroError, match="negative"):
            saikoro.roll(command, rands=[(1, 6), (2, 6), (3, 6)])
    assert (
        saikoro.roll("3D6KH0", rands=[(1, 6), (2, 6), (3, 6)]).text == "(3D6KH0) ＞ 0[1,2,3] ＞ 0"
    )
