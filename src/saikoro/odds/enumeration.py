"""Exact odds by walking the tree of dice sequences through the real evaluator.

The dice source replays a prefix of choices and extends it with 1s; after each run
the last die that can still go up is increased and everything after it dropped
(an odometer over a tree whose branching at each die is the ``sides`` the evaluator
asked for). Commands whose later dice depend on earlier ones — an attack that skips
the defence dice after a fumble, rerolls — therefore come out right, and a run's
probability is the product of 1/sides of its dice.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from saikoro.errors import SaikoroError
from saikoro.odds import clock
from saikoro.odds.runner import CommonDetails, NondeterministicCommandError, Outcome, outcome_of

if TYPE_CHECKING:
    from saikoro.dice.randomizer import DiceSource
    from saikoro.dice.result import RollResult

#: How far past the sequence limit one sequence's 1/probability may go before the
#: tree is taken to be too large (an endless reroll chain dives ever deeper).
DEPTH_FACTOR = 1000


class TreeTooLarge(Exception):
    """More dice sequences than allowed (or a sequence deeper than allowed)."""


class _Abort(Exception):
    """Raised through the evaluator by the tree source; never escapes this module."""


class TreeSource:
    """A dice source that replays ``values[:fixed]`` and extends with 1s."""

    yields_faces = True  # only faces 1..sides: the randomizer may share Die records

    __slots__ = ("denominators", "error", "fixed", "max_denominator", "pos", "sides", "values")

    def __init__(self, max_denominator: int) -> None:
        self.values: list[int] = []
        self.sides: list[int] = []
        self.denominators: list[int] = []
        self.fixed = 0
        self.pos = 0
        self.max_denominator = max_denominator
        self.error: str | None = None

    def roll(self, sides: int) -> int:
        i = self.pos
        self.pos = i + 1
        if i < self.fixed:
            if self.sides[i] != sides:
                self.error = "nondeterministic"
                raise _Abort
            return self.values[i]
        denominator = (self.denominators[i - 1] if i else 1) * sides
        if denominator > self.max_denominator:
            self.error = "too deep"
            raise _Abort
        self.values.append(1)
        self.sides.append(sides)
        self.denominators.append(denominator)
        return 1

    def advance(self) -> bool:
        """Move to the next sequence; False when every sequence has been run."""
        values, sides = self.values, self.sides
        i = self.pos - 1
        while i >= 0 and values[i] == sides[i]:
            i -= 1
        if i < 0:
            return False
        values[i] += 1
        del values[i + 1 :], sides[i + 1 :], self.denominators[i + 1 :]
        self.fixed = i + 1
        self.pos = 0
        return True


@dataclass
class Enumeration:
    """Every outcome with its exact probability, and the details common to all."""

    outcomes: dict[Outcome, Fraction]
    sequences: int
    context: dict[str, Any] = field(default_factory=dict)
    example: RollResult | None = None


def enumerate_outcomes(
    run: Callable[[DiceSource], RollResult | None],
    limit: int = 10**6,
    deadline: float | None = None,
) -> Enumeration:
    """Run every dice sequence of ``run``; raises :class:`TreeTooLarge` past ``limit``
    sequences, or when ``clock.now()`` passes ``deadline`` first."""
    source = TreeSource(limit * DEPTH_FACTOR)
    counts: dict[tuple[Outcome, int], int] = {}
    common = CommonDetails()
    sequences = 0
    while True:
        fixed = source.fixed
        try:
            result = run(source)
        except _Abort:
            result = None
        if source.error is not None:
            if source.error == "nondeterministic":
                raise NondeterministicCommandError()
            raise TreeTooLarge()
        if source.pos < fixed:
            raise NondeterministicCommandError()
        sequences += 1
        if sequences > limit:
            raise TreeTooLarge()
        if deadline is not None and sequences % 256 == 0 and clock.now() > deadline:
            raise TreeTooLarge()
        denominator = source.denominators[source.pos - 1] if source.pos else 1
        key = (outcome_of(result), denominator)
        counts[key] = counts.get(key, 0) + 1
        common.see(result)
        if not source.advance():
            break
    outcomes: dict[Outcome, Fraction] = {}
    for (outcome, denominator), count in counts.items():
        outcomes[outcome] = outcomes.get(outcome, Fraction(0)) + Fraction(count, denominator)
    return Enumeration(outcomes, sequences, common.details, common.example)


@dataclass
class SequenceEstimate:
    """Knuth's estimate of the number of dice sequences, from random walks.

    ``mean`` is ``math.inf`` when it clearly exceeds the bound asked about (the walks
    stop early); ``most_dice`` is the largest number of dice one walk rolled; ``sides``
    is the dice (their sides, in order) of the walks when every walk rolled the same
    ones (the first walk's when the walks stopped early), else None.
    """

    mean: float
    most_dice: int
    sides: tuple[int, ...] | None = None


def estimate_sequences(
    run: Callable[[DiceSource], RollResult | None],
    walks: int = 32,
    seed: int = 0,
    bound: int = 10**6,
) -> SequenceEstimate:
    """Estimate the size of the tree: the mean over random runs of 1/P(run).

    For a tree whose runs all have the same dice this is exact; E[1/P] over random
    runs equals the number of sequences in general (Knuth 1975). Stops as soon as the
    mean is sure to exceed ``bound`` (one product above ``bound × walks``).
    """
    import random

    rng = random.Random(seed)
    total = 0
    most_dice = 0
    same: tuple[int, ...] | None = None

    class _Walk:
        yields_faces = True

        def __init__(self) -> None:
            self.product = 1
            self.sides: list[int] = []

        def roll(self, sides: int) -> int:
            self.product *= max(sides, 1)
            self.sides.append(sides)
            return rng.randint(1, sides)

    for index in range(walks):
        walk = _Walk()
        try:
            run(walk)
        except SaikoroError:  # e.g. an endless reroll chain hit the 10000-dice limit
            return SequenceEstimate(math.inf, max(most_dice, len(walk.sides)))
        most_dice = max(most_dice, len(walk.sides))
        if index == 0:
            same = tuple(walk.sides)
        elif same is not None and tuple(walk.sides) != same:
            same = None
        if walk.product > bound * walks:
            return SequenceEstimate(math.inf, most_dice, same)
        total += walk.product
    return SequenceEstimate(total / walks, most_dice, same)
