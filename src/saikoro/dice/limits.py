"""saikoro's limits on one command where BCDice has none: output size and number length.

BCDice bounds dice (see :mod:`saikoro.dice.randomizer`) but not what a command prints:
``x100 choice[…]`` echoes its items a hundred times, and Ruby prints integers of any
length. saikoro refuses a result text longer than :data:`MAX_OUTPUT_CHARS` characters
(:class:`OutputTooLongError`) and a number longer than :data:`MAX_NUMBER_DIGITS` digits
(:class:`NumberTooLongError`, Python's own bound on converting integers to text).
"""

from __future__ import annotations

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

#: The longest result text one command may give (100 repetitions of a 1000-character text).
MAX_OUTPUT_CHARS = 100_000
#: The longest integer a command may read or print (Python's ``int`` ↔ text bound).
MAX_NUMBER_DIGITS = 4300


class OutputTooLongError(SaikoroError):
    reason = "output too long"

    def __init__(self) -> None:
        super().__init__(
            Message(
                f"結果が長すぎます ({MAX_OUTPUT_CHARS} 文字まで)",
                f"the result is too long (at most {MAX_OUTPUT_CHARS} characters)",
            )
        )


class NumberTooLongError(SaikoroError):
    reason = "number too large"

    def __init__(self) -> None:
        super().__init__(
            Message(
                f"数値が長すぎます ({MAX_NUMBER_DIGITS} 桁まで)",
                f"a number is too long (at most {MAX_NUMBER_DIGITS} digits)",
            )
        )


def check_output(length: int) -> None:
    """Raise :class:`OutputTooLongError` when a text of ``length`` characters is too long."""
    if length > MAX_OUTPUT_CHARS:
        raise OutputTooLongError()


def is_int_digits_error(error: ValueError) -> bool:
    """Whether ``error`` is Python's refusal to convert a too-long integer to or from text."""
    return "digits" in str(error) and "int" in str(error)
