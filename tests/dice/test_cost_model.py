"""saikoro's cost model: every die asked for counts, across repetitions; output is bounded.

Regression tests of the audit: ``x100 10000U0[2]`` (also ``10000U10001[2]`` repeated)
cost ≈2 s of CPU and answered 2 MB, because dice with out-of-range sides were neither
counted against the 10000-dice limit nor timed, and the U-dice limit was checked per
repetition (``saikoro play``: tests/table/test_play_cost.py). The input limit
must not be stricter than BCDice-API's (a 1202-character command it accepts).
"""

from __future__ import annotations

import pytest
from work import count_calls

import saikoro
from saikoro.dice.commands.repeat import REPEAT_TEXT_BUDGET, RepeatTooLongError
from saikoro.dice.limits import MAX_OUTPUT_CHARS, NumberTooLongError, OutputTooLongError
from saikoro.dice.normalize import MAX_INPUT_LENGTH
from saikoro.dice.randomizer import UPPER_LIMIT_RANDS, Randomizer, SeededSource, TooManyRandsError
from saikoro.errors import SaikoroError

#: Function calls a refused command may make: it is refused before doing its work. Refusing
#: at the 10000th die takes ≈130 000–145 000 calls; the audit's bug (out-of-range dice not
#: counted, the limit checked per repetition) went on through a million dice — over a
#: million calls.
REFUSED_WITHIN_CALLS = 400_000


def roll(command: str, system: str = "DiceBot") -> saikoro.RollResult | None:
    return saikoro.roll(command, system, source=SeededSource(1))


@pytest.mark.parametrize(
    "command",
    [
        "x100 10000U0[2]",
        "x100 10000U10001[2]",
        "x2 10000U0[2]",  # 20000 dice in one line, though 10000 in each repetition
        "x100 200D0",  # a d0 shows 0 but is still asked for
        "x100 201D6",  # more than 200 dice in one roll give none, but count
        "x60 200B10001",
    ],
)
def test_dice_that_show_zero_still_count(command: str) -> None:
    work = count_calls(lambda: roll(command))
    assert isinstance(work.error, TooManyRandsError)
    assert work.calls < REFUSED_WITHIN_CALLS, work.calls


def test_the_call_count_sees_a_million_dice() -> None:
    """The bound above can fail: work past the dice limit (here 100 lines of 10000 zero
    dice, each within the limit) makes far more calls than it allows."""
    work = count_calls(lambda: [roll("10000U0[2]") for _ in range(10)])
    assert work.error is None and work.calls > REFUSED_WITHIN_CALLS


def test_a_line_may_still_ask_for_10000_dice() -> None:
    result = roll("10000U0[2]")
    assert result is not None and result.text.startswith("(10000U0[2]) ＞ 0,0,")
    assert len(result.text) < MAX_OUTPUT_CHARS
    assert roll("x50 200D6") is not None


def test_the_randomizer_counts_unrolled_dice() -> None:
    randomizer = Randomizer(SeededSource(1))
    assert randomizer.roll_barabara(300, 6) == []  # BCDice: no dice past 200
    assert randomizer.roll_barabara(5, 0) == [0] * 5  # BCDice: zeros, not rolled
    assert randomizer.roll_once(10001) == 0
    assert randomizer.dice_counted == 306 and randomizer.rands == []
    randomizer.roll_barabara(UPPER_LIMIT_RANDS - 306, 6)
    with pytest.raises(TooManyRandsError):
        randomizer.roll_once(0)


def test_output_is_bounded() -> None:
    # 100 repetitions of a 999-character calculation that echoes itself.
    with pytest.raises(OutputTooLongError) as caught:
        roll("x100 C(" + "9*" * 495 + "9)", "LittleWorld")
    assert str(MAX_OUTPUT_CHARS) in caught.value.message.en


def test_repeated_text_is_bounded() -> None:
    trailer = "choice[" + "a," * 2000 + "b]"
    work = count_calls(lambda: roll(f"x100 {trailer}"))
    assert isinstance(work.error, RepeatTooLongError)
    assert work.calls < 10_000, work.calls  # refused before repeating: ≈100 calls
    assert str(REPEAT_TEXT_BUDGET) in work.error.message.en
    assert roll(f"x24 {trailer}") is not None  # within the budget


def test_a_1202_character_command_is_accepted() -> None:
    command = "1D6+" * 300 + "10"
    assert len(command) == 1202 <= MAX_INPUT_LENGTH
    assert roll(command) is not None


@pytest.mark.parametrize(
    "command",
    ["C(" + "9" * 5000 + ")", "1" * 4400 + "D6", "C(" + "*".join(["99"] * 3000) + ")"],
)
def test_numbers_past_pythons_digit_bound_are_a_clear_error(command: str) -> None:
    with pytest.raises(NumberTooLongError) as caught:
        roll(command)
    assert caught.value.reason == "number too large"


def test_every_refusal_is_a_saikoro_error() -> None:
    for command in ["x100 10000U0[2]", "x100 C(" + "9*" * 495 + "9)", "C(" + "9" * 5000 + ")"]:
        with pytest.raises(SaikoroError):
            roll(command, "UnmeiD100")
