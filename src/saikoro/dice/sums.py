"""Dice sums inside game rules — damage rolls, sheet fields (``2D6``, ``1D8+1``) — on the one
arithmetic core of the generic sum command (AddDice: its grammar, limits and rounding).

A sum here has dice and no comparison and is not secret. :func:`sum_problem` says why a text
is not one (a sheet validator's message), :func:`roll_sum` rolls it.
"""

from __future__ import annotations

import re

from saikoro.dice.commands import add_dice
from saikoro.dice.normalize import normalize
from saikoro.dice.randomizer import Randomizer, SeededSource
from saikoro.dice.result import CheckResult, RollResult, SumCheck
from saikoro.dice.system import DiceSystem
from saikoro.errors import SaikoroError
from saikoro.i18n import Message


class PlainRules:
    """BCDice's generic engine settings, for sums that no game system judges."""

    id = "DiceBot"
    round_type = "floor"
    sort_add_dice = False
    sort_barabara_dice = False
    sides_implicit_d = 6
    judges_sums = False
    glossary_en: dict[str, str] = {}  # noqa: RUF012 (never changed)
    prefixes_pattern: re.Pattern[str] | None = None

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        return None

    def check_sum(self, check: SumCheck) -> CheckResult | None:
        return None


PLAIN: DiceSystem = PlainRules()
NOT_A_SUM = Message("ダイス式ではありません", "is not a dice sum")


def parse_sum(expression: str) -> add_dice.Command | None:
    """The dice sum in ``expression`` (normalized first), or None when it is not one."""
    command = add_dice.parse(normalize(expression)) if expression.strip() else None
    if command is None or command.cmp_op is not None or command.secret:
        return None
    return command


def roll_sum(expression: str, randomizer: Randomizer, system: DiceSystem = PLAIN) -> int | None:
    """The total of one roll of the sum, or None when ``expression`` is not a dice sum."""
    command = parse_sum(expression)
    if command is None:
        return None
    return add_dice.run(command, system, randomizer).value


def sum_problem(expression: str) -> Message | None:
    """Why ``expression`` cannot be rolled as a dice sum (None: it can). Tries one roll
    (seeded) so that BCDice's limits (too many dice, too many sides) are seen."""
    randomizer = Randomizer(SeededSource(0))
    try:
        total = roll_sum(expression, randomizer)
    except SaikoroError as error:
        return error.message
    if total is None:
        return NOT_A_SUM
    if randomizer.limits_hit:
        return Message(
            " ".join(w.ja for w in randomizer.warnings), " ".join(w.en for w in randomizer.warnings)
        )
    return None


__all__ = ["NOT_A_SUM", "PLAIN", "PlainRules", "parse_sum", "roll_sum", "sum_problem"]
