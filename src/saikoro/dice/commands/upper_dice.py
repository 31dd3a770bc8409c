"""UpperDice: ``xUy[t]`` open-ended dice (roll again while a die shows t or more), as BCDice.

Forms::

    3U6[5]        4U6[6]>=10      4U6>=10@6      2U6+2U4[4]+6>=8     4U6[6]+11

Each die is rolled again while it shows the threshold or more, and its faces are
summed (``11[6,5]``). The modifier after the dice is added to every die's sum.
With a comparison the command counts the dice whose sum (+ modifier) meets it
(``成功数2``); without one it prints the largest and the total (``23/41(最大/合計)``,
the modifier counted once in the total). A threshold of 1 or less (or none) gives
BCDice's message. Every rolled die counts toward the randomizer's 10000-number
limit, which bounds the rerolling; more than 10000 dice in one command (all its
repetitions together) raise :class:`~saikoro.dice.randomizer.TooManyRandsError` up front,
even when they would all show 0 (a d0 or a die of more than 10000 sides), and a negative count raises
:class:`NegativeDiceCountError` (BCDice fails with an internal error there).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from saikoro.dice import arith
from saikoro.dice.arith import BinaryOp, Expr, Negative, Number, ParseFailure, TokenStream
from saikoro.dice.commands.barabara_dice import (
    DivisionByZeroError,
    Notation,
    cmp_text,
    none_as_empty,
    parse_notation,
    parse_target,
    setting,
)
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

PREFIX_PATTERN = r"\d+U\d+"

BAD_THRESHOLD_TEXT = "無限ロールの条件がまちがっています"
BAD_THRESHOLD_TEXT_EN = "wrong condition for endless rerolls"


class NegativeDiceCountError(SaikoroError):
    reason = "negative dice count"

    def __init__(self, times: int) -> None:
        super().__init__(
            Message(
                f"振るダイスの個数が負の数です ({times})",
                f"the number of dice to roll is negative ({times})",
            )
        )


@dataclass(frozen=True)
class UpperCommand:
    secret: bool
    notations: tuple[Notation, ...]
    modifier: Expr
    cmp_op: str | None
    target: Expr | None
    threshold: Expr | None


@dataclass(frozen=True)
class UpperDie:
    """One open-ended die: every face rolled for it."""

    faces: tuple[int, ...]

    @property
    def sum(self) -> int:
        return sum(self.faces)

    def text(self) -> str:
        if len(self.faces) == 1:
            return str(self.faces[0])
        return f"{self.sum}[{','.join(map(str, self.faces))}]"


# -- parsing ---------------------------------------------------------------------------


def _parse_unary(stream: TokenStream) -> Expr:
    negative = 0
    while stream.kind() in ("+", "-"):
        negative += stream.next()[0] == "-"
    body = arith.parse_term(stream)
    return Negative(body, negative) if negative else body


def _parse_mul(stream: TokenStream) -> Expr:
    """BCDice's ``mul`` rule (``* /`` with rounding suffixes) for the modifier's terms."""
    first = _parse_unary(stream)
    rest: list[tuple[str, Expr, str]] = []
    while stream.kind() in ("*", "/"):
        op = stream.next()[0]
        operand = _parse_unary(stream)
        rest.append((op, operand, arith.parse_rounding(stream) if op == "/" else ""))
    return BinaryOp(first, rest) if rest else first


def _parse_modifier(stream: TokenStream) -> Expr:
    """``(+|-) mul ((+|-) mul)*``, or 0: the sign applies to the whole ``mul``."""
    parts: list[tuple[str, Expr, str]] = []
    while stream.kind() in ("+", "-"):
        sign = stream.next()[0]
        parts.append((sign, _parse_mul(stream), ""))
    if not parts:
        return Number(0)
    return BinaryOp(Number(0), parts)


def _parse_notations(stream: TokenStream) -> tuple[Notation, ...]:
    """``term U term (+ term U term)*``; a ``+`` not followed by dice starts the modifier."""
    notations = [parse_notation(stream, "U")]
    while stream.kind() == "+" and stream.kind(1) in ("NUMBER", "("):
        start = stream.pos
        stream.pos += 1
        try:
            arith.parse_term(stream)
        except ParseFailure:
            stream.pos = start
            break
        if stream.kind() != "U":
            stream.pos = start
            break
        stream.pos = start + 1
        notations.append(parse_notation(stream, "U"))
    return tuple(notations)


def parse(text: str) -> UpperCommand | None:
    """The command in ``text`` (its first word; parses are cached), or None."""
    return _parse_word(arith.first_word(text))


@lru_cache(maxsize=2048)
def _parse_word(text: str) -> UpperCommand | None:
    stream = TokenStream(arith.tokenize(text))
    try:
        secret = stream.accept("S") is not None
        notations = _parse_notations(stream)
        threshold: Expr | None = None
        if stream.accept("["):
            threshold = arith.parse_add(stream)
            stream.expect("]")
            modifier = _parse_modifier(stream)
            cmp_op, target = parse_target(stream)
        else:
            modifier = _parse_modifier(stream)
            cmp_op, target = parse_target(stream)
            if stream.accept("@"):
                threshold = arith.parse_add(stream)
        stream.expect_end()
    except ParseFailure:
        return None
    return UpperCommand(secret, notations, modifier, cmp_op, target, threshold)


# -- rolling ---------------------------------------------------------------------------


def roll_die(randomizer: Randomizer, sides: int, threshold: int) -> UpperDie:
    """Roll one die again while it shows ``threshold`` or more (a d0 or too-big die shows 0)."""
    faces = []
    while True:
        value = randomizer.roll_once(sides)
        faces.append(value)
        if value < threshold:
            return UpperDie(tuple(faces))


def format_modifier(number: int) -> str:
    """BCDice's ``Format.modifier``: ``+3``, ``-2`` or nothing for 0."""
    if number == 0:
        return ""
    return f"+{number}" if number > 0 else str(number)


def roll(command: UpperCommand, system: Any, randomizer: Randomizer) -> RollResult | None:
    round_type = system.round_type
    try:
        dice = [n.to_dice(round_type) for n in command.notations]
        threshold = command.threshold.eval(round_type) if command.threshold is not None else None
        modifier = command.modifier.eval(round_type)
        target = command.target.eval(round_type) if command.target is not None else None
    except ZeroDivisionError:
        raise DivisionByZeroError() from None
    if threshold is None:
        threshold = setting(system, "upper_dice_reroll_threshold") or 0

    expr = (
        "+".join(f"{times}U{sides}" for times, sides in dice)
        + f"[{threshold}]{format_modifier(modifier)}"
        + f"{cmp_text(command.cmp_op)}{none_as_empty(target)}"
    )
    if threshold <= 1:
        return RollResult(
            text=f"({expr}) ＞ {BAD_THRESHOLD_TEXT}",
            text_en=f"({expr}) ＞ {BAD_THRESHOLD_TEXT_EN}",
            secret=command.secret,
        )

    for times, _ in dice:
        if times < 0:
            raise NegativeDiceCountError(times)
    randomizer.check_room(sum(times for times, _ in dice))  # with the line's earlier dice

    sort = setting(system, "sort_barabara_dice", False)
    rolled: list[UpperDie] = []
    for times, sides in dice:
        group = [roll_die(randomizer, sides, threshold) for _ in range(times)]
        if sort:
            group.sort(key=lambda die: die.sum)
        rolled.extend(group)

    sums = [die.sum for die in rolled]
    if command.cmp_op is not None:
        assert target is not None
        success = sum(1 for s in sums if arith.compare(s + modifier, command.cmp_op, target))
        outcome = f"成功数{success}"
        outcome_en = f"successes {success}"
        value: int | None = success
    else:
        total = sum(sums) + modifier
        largest = max((s + modifier for s in sums), default=None)
        outcome = f"{none_as_empty(largest)}/{total}(最大/合計)"
        outcome_en = f"{none_as_empty(largest)}/{total}(largest/total)"
        value = total
    shown = [f"({expr})", ",".join(die.text() for die in rolled) + format_modifier(modifier)]
    return RollResult(
        text=" ＞ ".join([*shown, outcome]),
        text_en=" ＞ ".join([*shown, outcome_en]),
        secret=command.secret,
        value=value,
        detail={"dice": [list(die.faces) for die in rolled]},
    )


def evaluate(text: str, system: Any, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    return roll(command, system, randomizer)
