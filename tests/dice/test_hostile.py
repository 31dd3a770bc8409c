"""Hostile input: every line answers fast with BCDice's answer or a clear SaikoroError.

No input may hang, raise anything but :class:`saikoro.errors.SaikoroError` (no
RecursionError, no MemoryError, no ValueError) or do much work: at most
:data:`LIMIT_CALLS` function calls (counted, not timed: tests/work.py), which a fast
machine makes in well under 100 ms.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from work import count_calls

import saikoro
from saikoro.dice.arith import MAX_NESTING, NestingTooDeepError, eval_arith
from saikoro.dice.commands import add_dice, calc
from saikoro.dice.normalize import InputTooLongError
from saikoro.dice.randomizer import Randomizer, SeededSource, TooManyRandsError
from saikoro.errors import SaikoroError
from saikoro.systems.dicebot import DiceBot

#: Function calls one hostile line may make. The costliest lines below roll the 10000 dice a
#: line may roll (``x100 200D6``: ≈95 000 calls; ``x100 1D6+…+1``, 10000 dice and as many
#: sums: ≈281 000); the others make under 100 000. A line whose work grew with its length
#: squared (a 1000-character line: a million steps) would not pass.
LIMIT_CALLS = 400_000


def fastest(call: Callable[[], object]) -> tuple[int, object]:
    """The function calls ``call`` makes, and its outcome (a SaikoroError it raises)."""
    work = count_calls(call)
    if work.error is not None and not isinstance(work.error, SaikoroError):
        raise work.error
    return work.calls, work.error if work.error is not None else work.value


def roll_seeded(command: str) -> Callable[[], object]:
    return lambda: saikoro.roll(command, "DiceBot", source=SeededSource(7))


def test_1000d6_is_bcdices_zero_with_a_warning() -> None:
    calls, result = fastest(lambda: saikoro.roll("1000D6", "DiceBot", []))
    assert calls < LIMIT_CALLS
    assert result.text == "(1000D6) ＞ 0" and result.rands == []
    assert any("200" in w.en for w in result.warnings)


def test_1d99999_is_bcdices_zero_with_a_warning() -> None:
    calls, result = fastest(lambda: saikoro.roll("1D99999", "DiceBot", []))
    assert calls < LIMIT_CALLS
    assert result.text == "(1D99999) ＞ 0"
    assert any("10000" in w.en for w in result.warnings)


def test_x101_is_bcdices_message() -> None:
    calls, result = fastest(lambda: saikoro.roll("x101 1D6", "DiceBot", []))
    assert calls < LIMIT_CALLS
    assert result.text == "繰り返し回数は1以上、100以下としてください"


def test_too_many_dice_in_one_line_is_an_error() -> None:
    calls, outcome = fastest(roll_seeded("x100 200D6"))
    assert calls < LIMIT_CALLS  # 10000 real dice are rolled before the limit
    assert isinstance(outcome, TooManyRandsError)


@pytest.mark.parametrize("size", [10241, 100_000])
def test_long_text_is_refused(size: int) -> None:
    calls, outcome = fastest(roll_seeded("1" * (size - 3) + "D6 "))
    assert calls < LIMIT_CALLS
    assert isinstance(outcome, InputTooLongError)


def test_10000_deep_parentheses() -> None:
    text = "(" * 10000 + "1D6" + ")" * 10000
    calls, outcome = fastest(roll_seeded(text))
    assert calls < LIMIT_CALLS and isinstance(outcome, InputTooLongError)
    # Past the input limit (the engine's modules called directly): a clear error, no recursion.
    for module in (add_dice, calc):
        calls, outcome = fastest(
            lambda m=module: m.evaluate("C" + text, DiceBot(), Randomizer(SeededSource(1)))
        )
        assert calls < LIMIT_CALLS
        assert outcome is None or isinstance(outcome, NestingTooDeepError)
    calls, outcome = fastest(
        lambda: add_dice.evaluate(text, DiceBot(), Randomizer(SeededSource(1)))
    )
    assert isinstance(outcome, NestingTooDeepError)
    assert "100" in outcome.message.en


def test_nesting_within_the_limit_answers() -> None:
    depth = MAX_NESTING
    text = "(" * depth + "1D6" + ")" * depth + "+1"
    result = saikoro.roll(text, "DiceBot", [(4, 6)])
    assert result is not None
    assert result.text.endswith(" ＞ 5")
    assert eval_arith("(" * depth + "2" + ")" * depth) == 2
    calls, outcome = fastest(roll_seeded("(" * 499 + "1D6" + ")" * 498))
    assert calls < LIMIT_CALLS and isinstance(outcome, NestingTooDeepError)


@pytest.mark.parametrize(
    "command",
    [
        "-" * 990 + "1D6",
        "+" * 990 + "1D6",
        "C(" + "-" * 990 + "1)",
        "1D6" + "+1" * 498,
        "1D6" + "*9" * 498,
        "C(" + "*".join(["99999"] * 166) + ")",
        "C(" + "9" * 990 + "/3R)",
        "1D6/" + "9" * 990 + "U",
        "x100 " + "1D6+" * 100 + "1",
        "x100 C(" + "*".join(["9999"] * 150) + ")",
        "choice[" + "a," * 400 + "]",
        "200D10000KH100",
        "9" * 999 + "D6",
        "1D" + "9" * 990,
        "x" + "9" * 990 + " 1D6",
        "2D6" + ">" * 900 + "7",
    ],
)
def test_pathological_lines_answer_fast(command: str) -> None:
    calls, outcome = fastest(roll_seeded(command))
    assert calls < LIMIT_CALLS, f"{calls} calls"
    assert outcome is None or isinstance(outcome, saikoro.RollResult | SaikoroError)


@pytest.mark.parametrize(
    "command",
    [
        "\x00",
        "2D6\x00",
        "\x002D6",
        "2D6\u202e>=7",  # right-to-left override
        "\u202e2D6",
        "2D6😀",
        "😀 2D6",
        "2D6 😀",
        "2\u0301D6",  # combining acute accent
        "ＳＤ６",
        "２Ｄ６＋\u0308１",
        "\ufeff2D6",
        "\U0001f3b2" * 300,
        "𝟐D6",  # mathematical bold digit two
        "٣D6",  # Arabic-Indic three: not a digit for BCDice
        "2D6\u2028>=7",
        "ı2D6",  # dotless i upper-cases to I
        "ſ2D6",  # long s upper-cases to S (a secret roll, as in Ruby)
        "\ud800",  # lone surrogate
    ],
)
def test_odd_unicode(command: str) -> None:
    calls, outcome = fastest(roll_seeded(command))
    assert calls < LIMIT_CALLS
    assert outcome is None or isinstance(outcome, saikoro.RollResult | SaikoroError)


def test_bcdice_digits_are_ascii_only() -> None:
    assert saikoro.roll("٣D6", "DiceBot", []) is None
    long_s = saikoro.roll("ſ2D6", "DiceBot", [(1, 6), (2, 6)])
    assert long_s is not None and long_s.secret
