"""D66: two d6 read as tens and units, as BCDice's ``D66``, ``D66A``/``D66S``, ``D66D``, ``D66N``.

``A`` and ``S`` sort the two dice ascending, ``D`` descending, ``N`` not at all; a
bare ``D66`` uses the game system's ``d66_sort_type`` (``None``, ``"asc"`` or
``"desc"``; the generic system does not sort). Text after the first space is a comment.
"""

from __future__ import annotations

import re

from saikoro.dice.arith import first_word
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult

PREFIX_PATTERN = r"D66"

_COMMAND = re.compile(r"(S)?D66([ANSD])?", re.ASCII | re.IGNORECASE)
_SORT_BY_SUFFIX: dict[str, str | None] = {"A": "asc", "S": "asc", "D": "desc", "N": None}


def evaluate(text: str, system: object, randomizer: Randomizer) -> RollResult | None:
    match = _COMMAND.fullmatch(first_word(text).upper())
    if match is None:
        return None
    secret = match.group(1) is not None
    suffix = match.group(2)
    if suffix is None:
        sort: str | None = getattr(system, "d66_sort_type", None)
    else:
        sort = _SORT_BY_SUFFIX[suffix]
    value = randomizer.roll_d66(sort)
    text = f"(D66{suffix or ''}) ＞ {value}"
    return RollResult(text=text, text_en=text, secret=secret, value=value)
