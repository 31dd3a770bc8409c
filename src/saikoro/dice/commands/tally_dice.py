"""TallyDice: ``xTYy`` / ``xTZy`` roll x dice and count each face, as BCDice.

``20TY6`` lists the faces that came up with their counts, ``20TZ6`` lists every
face (zeros too): ``(5TY6) ＞ 6,1,2,5,2 ＞ [1]×1, [2]×2, [5]×1, [6]×1``. Count and
sides may be parenthesized arithmetic (``(1+2*3)TY(1+5/2C)``). A count or side of
0 or less is not a command; more than 20 sides gives BCDice's message.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from saikoro.dice import arith
from saikoro.dice.arith import Expr, ParseFailure, TokenStream
from saikoro.dice.commands.barabara_dice import DivisionByZeroError, setting
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult

PREFIX_PATTERN = r"\d+T[YZ]\d+"

MAX_SIDES = 20


@dataclass(frozen=True)
class TallyCommand:
    secret: bool
    times: Expr
    sides: Expr
    show_zeros: bool


def parse(text: str) -> TallyCommand | None:
    """The command in ``text`` (its first word; parses are cached), or None."""
    return _parse_word(arith.first_word(text))


@lru_cache(maxsize=2048)
def _parse_word(text: str) -> TallyCommand | None:
    stream = TokenStream(arith.tokenize(text))
    try:
        secret = stream.accept("S") is not None
        times = arith.parse_term(stream)
        stream.expect("T")
        kind = stream.next()[0]
        if kind not in ("Y", "Z"):
            raise ParseFailure("expected Y or Z")
        sides = arith.parse_term(stream)
        stream.expect_end()
    except ParseFailure:
        return None
    return TallyCommand(secret, times, sides, show_zeros=kind == "Z")


def roll(command: TallyCommand, system: Any, randomizer: Randomizer) -> RollResult | None:
    round_type = system.round_type
    try:
        times = command.times.eval(round_type)
        sides = command.sides.eval(round_type)
    except ZeroDivisionError:
        raise DivisionByZeroError() from None
    if times <= 0 or sides <= 0:
        return None
    notation = f"{times}T{'Z' if command.show_zeros else 'Y'}{sides}"
    if sides > MAX_SIDES:
        # BCDice builds this result without the secret flag.
        return RollResult(
            text=f"({notation}) ＞ 面数は1以上、{MAX_SIDES}以下としてください",
            text_en=f"({notation}) ＞ the number of sides must be from 1 to {MAX_SIDES}",
        )

    values = randomizer.roll_barabara(times, sides)
    shown = sorted(values) if setting(system, "sort_barabara_dice", False) else values
    counts = Counter(values)
    tally = [
        f"[{face}]×{counts[face]}"
        for face in range(1, sides + 1)
        if counts[face] or command.show_zeros
    ]
    text = " ＞ ".join([f"({notation})", ",".join(map(str, shown)), ", ".join(tally)])
    return RollResult(
        text=text,
        text_en=text,  # numbers only
        secret=command.secret,
        detail={"counts": {face: counts[face] for face in range(1, sides + 1)}},
    )


def evaluate(text: str, system: Any, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    return roll(command, system, randomizer)
