"""Exact odds of order-free commands of identical dice by enumerating sorted faces.

``10D6KH3``, ``10D6>=30`` in 帽子世界TRPG (criticals count sixes) or ``8B6>=4`` roll n
dice of s sides whose order does not change the outcome. Instead of sⁿ sequences,
each multiset of faces (C(n+s−1, n) of them) is run once through the real evaluator
and weighted by its number of orderings, n! / Π kᵢ!.

Whether the order matters is not assumed: every multiset is also run in reversed
and in a shuffled order, and any difference in the outcome — or any run asking for
other dice — makes this method decline (the caller then estimates instead).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from saikoro.odds import clock
from saikoro.odds.enumeration import Enumeration
from saikoro.odds.runner import CommonDetails, Outcome, outcome_of

if TYPE_CHECKING:
    from saikoro.dice.randomizer import DiceSource
    from saikoro.dice.result import RollResult


class _Mismatch(Exception):
    """The evaluator asked for other dice than the multiset's."""


class _Faces:
    yields_faces = True  # only faces 1..sides: the randomizer may share Die records
    __slots__ = ("faces", "mismatch", "position", "sides")

    def __init__(self, faces: Sequence[int], sides: int) -> None:
        self.faces = faces
        self.sides = sides
        self.position = 0
        self.mismatch = False

    def roll(self, sides: int) -> int:
        if sides != self.sides or self.position >= len(self.faces):
            self.mismatch = True
            raise _Mismatch
        face = self.faces[self.position]
        self.position += 1
        return face


def multiset_count(dice: int, sides: int) -> int:
    """The number of multisets of ``dice`` faces of a d``sides``."""
    return math.comb(dice + sides - 1, dice)


def _outcome(
    run: Callable[[DiceSource], RollResult | None], faces: Sequence[int], sides: int
) -> tuple[Outcome, RollResult | None] | None:
    source = _Faces(faces, sides)
    try:
        result = run(source)
    except _Mismatch:
        return None
    if source.mismatch or source.position != len(faces):
        return None
    return outcome_of(result), result


def enumerate_multisets(
    run: Callable[[DiceSource], RollResult | None],
    dice: int,
    sides: int,
    seed: int = 0,
    deadline: float | None = None,
) -> Enumeration | None:
    """Every multiset of faces, checked for order-freedom; None when the order matters or
    when ``clock.now()`` passes ``deadline`` first."""
    rng = random.Random(seed)
    factorial = [math.factorial(k) for k in range(dice + 1)]
    counts: dict[Outcome, int] = {}
    common = CommonDetails()
    for i, combo in enumerate(combinations_with_replacement(range(1, sides + 1), dice)):
        if deadline is not None and i % 64 == 0 and clock.now() > deadline:
            return None
        found = _outcome(run, combo, sides)
        if found is None:
            return None
        outcome, result = found
        shuffled = list(combo)
        rng.shuffle(shuffled)
        for other in (combo[::-1], shuffled):
            again = _outcome(run, other, sides)
            if again is None or again[0] != outcome:
                return None
        orderings = factorial[dice]
        for k in Counter(combo).values():
            orderings //= factorial[k]
        counts[outcome] = counts.get(outcome, 0) + orderings
        common.see(result)
    total = sides**dice
    outcomes = {outcome: Fraction(n, total) for outcome, n in counts.items()}
    return Enumeration(outcomes, total, common.details, common.example)
