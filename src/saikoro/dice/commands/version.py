"""BCDiceVersion: prints the BCDice version whose behaviour saikoro follows (every system).

As BCDice, only the first word counts (``BCDiceVersion comment`` answers too), any case;
the secret prefix ``S`` is not accepted.
"""

from __future__ import annotations

import re

from saikoro.dice.arith import first_word
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult

#: The BCDice release whose behaviour saikoro's engine follows.
BCDICE_VERSION = "3.16.1"

PREFIX_PATTERN = r"BCDiceVersion"

_COMMAND = re.compile(PREFIX_PATTERN, re.IGNORECASE)


def evaluate(text: str, system: object, randomizer: Randomizer) -> RollResult | None:
    if _COMMAND.fullmatch(first_word(text)) is None:
        return None
    return RollResult(text=f"BCDice {BCDICE_VERSION}")
