"""BarabaraDice: ``xBy`` dice kept apart, with success counting, as BCDice's ``3B6>=4``.

Grammar (BCDice's, over the shared lexer of :mod:`saikoro.dice.arith`)::

    [S] term B term (+ term B term)* [CMP_OP add]

``term`` is a number or a parenthesized arithmetic expression, so ``(1*2)B(2+4)``
is ``2B6``. Output: ``(3B6>=4) ＞ 5,2,4 ＞ 成功数2``. Division by zero in a count,
side or target raises :class:`DivisionByZeroError` (BCDice fails with an internal
error there; its Calc prints the same words).

The small helpers at the bottom (game-system settings with BCDice's defaults,
printing a comparison) are shared with RerollDice and UpperDice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from saikoro.dice import arith
from saikoro.dice.arith import PREDICATES, Expr, ParseFailure, TokenStream
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

PREFIX_PATTERN = r"\d+B\d+"


class DivisionByZeroError(SaikoroError):
    """A count, side, target or threshold of BarabaraDice & co. divides by zero."""

    reason = "division by zero"

    def __init__(self) -> None:
        super().__init__(
            Message(
                "ゼロ除算が発生したため計算できませんでした",
                "the command divides by zero, so it cannot be calculated",
            )
        )


@dataclass(frozen=True)
class Notation:
    """``times B sides`` as parsed (unevaluated)."""

    times: Expr
    sides: Expr

    def to_dice(self, round_type: str) -> tuple[int, int]:
        return self.times.eval(round_type), self.sides.eval(round_type)


@dataclass(frozen=True, eq=False)
class BarabaraCommand:
    """A parsed command. Parses are cached, so each text has one: it hashes by identity,
    which keeps the :func:`_numbers` cache look-up cheap."""

    secret: bool
    notations: tuple[Notation, ...]
    cmp_op: str | None
    target: Expr | None


def parse_notations(stream: TokenStream, letter: str) -> tuple[Notation, ...]:
    """``term LETTER term (+ term LETTER term)*`` (BarabaraDice and RerollDice)."""
    notations = [parse_notation(stream, letter)]
    while stream.accept("+"):
        notations.append(parse_notation(stream, letter))
    return tuple(notations)


def parse_notation(stream: TokenStream, letter: str) -> Notation:
    times = arith.parse_term(stream)
    stream.expect(letter)
    return Notation(times, arith.parse_term(stream))


def parse_cmp_op(stream: TokenStream) -> str | None:
    """The optional comparison operator; one BCDice does not know (``!``) fails."""
    if stream.kind() != "CMP_OP":
        return None
    op: str | None = stream.next()[1]
    if op is None:
        raise ParseFailure("unknown comparison operator")
    return op


def parse_target(stream: TokenStream) -> tuple[str | None, Expr | None]:
    """The optional ``CMP_OP add``."""
    op = parse_cmp_op(stream)
    if op is None:
        return None, None
    return op, arith.parse_add(stream)


@lru_cache(maxsize=2048)
def parse(text: str) -> BarabaraCommand | None:
    """The command in ``text`` (its first word; parses are cached), or None."""
    return _parse_word(arith.first_word(text))


@lru_cache(maxsize=2048)
def _parse_word(word: str) -> BarabaraCommand | None:
    stream = TokenStream(arith.tokenize(word))
    try:
        secret = stream.accept("S") is not None
        notations = parse_notations(stream, "B")
        cmp_op, target = parse_target(stream)
        stream.expect_end()
    except ParseFailure:
        return None
    return BarabaraCommand(secret, notations, cmp_op, target)


@lru_cache(maxsize=2048)
def _numbers(
    command: BarabaraCommand, round_type: str
) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The dice ``(times, sides)`` and target of a parsed command (no dice involved)."""
    try:
        dice = tuple(n.to_dice(round_type) for n in command.notations)
        target = command.target.eval(round_type) if command.target is not None else None
    except ZeroDivisionError:
        raise DivisionByZeroError() from None
    return dice, target


def roll(command: BarabaraCommand, system: Any, randomizer: Randomizer) -> RollResult:
    dice, target = _numbers(command, system.round_type)
    cmp_op = command.cmp_op or setting(system, "default_cmp_op")
    if target is None:
        target = setting(system, "default_target_number")

    groups = [randomizer.roll_barabara(times, sides) for times, sides in dice]
    if setting(system, "sort_barabara_dice", False):
        groups = [sorted(group) for group in groups]
    values = [value for group in groups for value in group]

    if cmp_op:
        succeeds = PREDICATES[cmp_op]
        success = sum(1 for v in values if succeeds(v, target))
    else:
        success = 0
    sequence = [_echo(dice, cmp_op, target), ",".join(map(str, values))]
    english = list(sequence)
    if cmp_op:
        sequence.append(f"成功数{success}")
        english.append(f"successes {success}")
    glitch = grich_text(system, values.count(1), len(values), success)
    sequence.extend(glitch)
    return RollResult(
        text=" ＞ ".join(sequence),
        text_en=None if glitch else " ＞ ".join(english),  # a system's hook: Japanese only
        secret=command.secret,
        value=success if cmp_op else None,
        detail={"dice": groups, "success_count": success},
    )


@lru_cache(maxsize=2048, typed=True)  # typed: a system's target 4.0 prints as 4.0
def _echo(dice: tuple[tuple[int, int], ...], cmp_op: str | None, target: int | None) -> str:
    """The command as BCDice echoes it: ``(3B6>=4)``."""
    notation = "+".join(f"{times}B{sides}" for times, sides in dice)
    return f"({notation}{cmp_text(cmp_op)}{none_as_empty(target)})"


def evaluate(text: str, system: Any, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    return roll(command, system, randomizer)


# -- helpers shared with RerollDice / UpperDice / TallyDice --------------------------------


def setting(system: Any, name: str, default: Any = None) -> Any:
    """A BCDice game-system setting (``default_cmp_op``, ``d66_sort_type``, …) or its default."""
    return getattr(system, name, default)


def cmp_text(cmp_op: str | None) -> str:
    """A normalized comparison operator as BCDice prints it (nothing for None)."""
    return "" if cmp_op is None else arith.CMP_OP_TEXT[cmp_op]


def none_as_empty(value: object) -> str:
    """Ruby's ``"#{nil}"``: None prints as nothing."""
    return "" if value is None else str(value)


def grich_text(system: Any, count_one: int, dice_count: int, success_count: int) -> list[str]:
    """BCDice's ``grich_text`` hook (a system's glitch message), as a 0- or 1-item list."""
    hook = getattr(system, "grich_text", None)
    if hook is None:
        return []
    text = hook(count_one, dice_count, success_count)
    return [] if text is None else [str(text)]
