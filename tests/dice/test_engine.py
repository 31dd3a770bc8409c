"""The pipeline: normalization, BCDice's preprocessor for system commands, order, words."""

from __future__ import annotations

from typing import ClassVar

import pytest

from saikoro.dice.arith import normalize_cmp_op, preprocess
from saikoro.dice.engine import evaluate
from saikoro.dice.normalize import InputTooLongError, normalize
from saikoro.dice.randomizer import Randomizer, ScriptedSource
from saikoro.dice.result import RollResult
from saikoro.dice.words import to_english
from saikoro.systems.base import GameSystem
from saikoro.systems.dicebot import DiceBot


class Echo(GameSystem):
    """A system whose own commands answer with the text they were given."""

    id = "Echo"
    prefixes = (r"ECHO\d", r"\d+D6!")
    sides_implicit_d = 10
    glossary_en: ClassVar[dict[str, str]] = {"こだま": "echo", "成功": "made it"}

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        if command.endswith("X"):
            return None
        return RollResult(text=f"こだま {command}")


def run(command: str, system: GameSystem | None = None, rands=()) -> RollResult | None:
    source = ScriptedSource(rands)
    result = evaluate(command, system or Echo(), Randomizer(source))
    source.assert_exhausted()
    return result


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(8/2)D(4+6)<=(5*3) hoge", "4D10<=15"),
        ("1d6+4D+(3*4) comment", "1d6+4D10+12"),
        ("2d", "2D10"),
        ("2D6", "2D6"),
        ("((1+2)*3)D6", "9D6"),
        ("(1/0)D6", "(1/0)D6"),
        ("(7/2U)", "4"),
        ("(7/2u)", "(7/2u)"),  # BCDice only pre-evaluates upper-case suffixes
        ("2DX", "2DX"),
        ("2D+1", "2D10+1"),
    ],
)
def test_preprocess_as_bcdice(text: str, expected: str) -> None:
    assert preprocess(text, Echo()) == expected


def test_system_command_gets_the_preprocessed_upper_case_first_word() -> None:
    result = run("echo(1+2) ignored words")
    assert result is not None and result.text == "こだま ECHO3" and not result.secret
    secret = run("sEcho2D")
    assert secret is not None and secret.text == "こだま ECHO2D10" and secret.secret


def test_system_commands_come_before_common_ones() -> None:
    result = run("2D6!")
    assert result is not None and result.text == "こだま 2D6!"


def test_declined_system_command_falls_through_to_common_commands() -> None:
    assert run("ECHO1X") is None
    common = run("2D6", rands=[(3, 6), (4, 6)])
    assert common is not None and common.text == "(2D6) ＞ 7[3,4] ＞ 7"
    # The common commands see the raw text, not the preprocessed one (implicit sides differ).
    implicit = run("2D", rands=[(3, 10), (4, 10)])
    assert implicit is not None and implicit.text == "(2D10) ＞ 7[3,4] ＞ 7"


def test_repeat_runs_system_commands() -> None:
    result = run("x2 echo1")
    assert result is not None and result.text == "#1\nこだま ECHO1\n\n#2\nこだま ECHO1"


def test_full_width_and_mixed_width() -> None:
    wide = run("２Ｄ６＞＝７　攻撃", DiceBot(), rands=[(3, 6), (4, 6)])
    assert wide is not None and wide.text == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功" and wide.success
    mixed = run("ｓ1ｄ100≦50", DiceBot(), rands=[(50, 100)])
    assert mixed is not None and mixed.text == "(1D100<=50) ＞ 50 ＞ 成功" and mixed.secret
    assert normalize("　１Ｄ６−２×３÷４　") == "1D6-2*3/4"


def test_blank_and_too_long() -> None:
    assert run("   ") is None
    assert run("") is None
    with pytest.raises(InputTooLongError) as caught:
        run("1" * 10241)
    assert "10240" in caught.value.message.ja and "10240" in caught.value.message.en


@pytest.mark.parametrize(
    ("op", "normalized"),
    [
        ("<=", "<="),
        ("=<", "<="),
        (">=", ">="),
        ("=>", ">="),
        ("<>", "<>"),
        ("!=", "<>"),
        ("=!", "<>"),
        ("><", "<"),
        ("<", "<"),
        (">", ">"),
        ("=", "="),
        ("==", "="),
        ("!", None),
        ("<<=", "<="),
        ("!!", None),
    ],
)
def test_comparison_operators_normalize_as_bcdice(op: str, normalized: str | None) -> None:
    assert normalize_cmp_op(op) == normalized


def test_words_to_english() -> None:
    assert to_english("(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功") == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ Success"
    assert to_english("(3B6>=4) ＞ 5,2,4 ＞ 成功数2") == "(3B6>=4) ＞ 5,2,4 ＞ successes 2"
    assert to_english("c(1/0) ＞ ゼロ除算が発生したため計算できませんでした").endswith(
        "division by zero"
    )
    # The system's glossary wins, and a word is translated once (no "made it数").
    assert to_english("こだま 成功 成功数1", Echo()) == "echo made it successes 1"
    assert to_english("ファンブル / クリティカル", DiceBot()) == "Fumble / Critical"
