"""Calc: ``C(…)`` evaluates integer arithmetic without dice.

``C(10-4*3/2+2)`` → ``c(10-4*3/2+2) ＞ 6``.

Grammar: ``[S] C add`` (first word only). Division rounds by the system's
``round_type`` unless suffixed ``U``/``C`` (ceil, printed ``C``), ``R`` or ``F``.
Division by zero answers BCDice's message instead of a number.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from saikoro.dice.arith import Expr, Parenthesis, ParseFailure, TokenStream, parse_add, tokenize
from saikoro.dice.result import RollResult

if TYPE_CHECKING:
    from saikoro.dice.randomizer import Randomizer
    from saikoro.dice.system import DiceSystem

PREFIX_PATTERN = r"C[+\-(]*\d+"

ZERO_DIVISION_TEXT = "ゼロ除算が発生したため計算できませんでした"
ZERO_DIVISION_TEXT_EN = "cannot be calculated: division by zero"


@lru_cache(maxsize=1024)
def parse(text: str) -> tuple[bool, Expr] | None:
    """``(secret, expression)`` of a Calc command in the first word of ``text``, or None."""
    stream = TokenStream(tokenize(text))
    try:
        secret = stream.accept("S") is not None
        stream.expect("C")
        expr = parse_add(stream, keep_parens=True)
        stream.expect_end()
    except ParseFailure:
        return None
    return secret, expr


def evaluate(text: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    parsed = parse(text)
    if parsed is None:
        return None
    secret, expr = parsed
    value: int | None
    try:
        value = expr.eval(system.round_type)
        shown = shown_en = str(value)
    except ZeroDivisionError:
        value = None
        shown, shown_en = ZERO_DIVISION_TEXT, ZERO_DIVISION_TEXT_EN
    output = expr.output()
    if not isinstance(expr, Parenthesis):
        output = "(" + output + ")"
    return RollResult(
        text=f"c{output} ＞ {shown}", text_en=f"c{output} ＞ {shown_en}", secret=secret, value=value
    )
