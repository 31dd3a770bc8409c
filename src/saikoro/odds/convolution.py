"""Exact odds of plain sums of independent dice (``10D6+3``, ``3D6-1D4>=5``) by convolution.

Only a sum of ``±NdS`` terms and integer constants with an optional comparison
against an integer qualifies, in a system that does not judge sums itself (no
criticals on sums). The parse is cross-checked against the real evaluator on a few
dice sequences (all 1s, all maximum, random) before it is trusted; any difference
and the caller falls back to another method.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from saikoro.dice.arith import PREDICATES
from saikoro.dice.randomizer import (
    UPPER_LIMIT_DICE_SIDES,
    UPPER_LIMIT_DICE_TIMES,
    UPPER_LIMIT_RANDS,
)
from saikoro.errors import SaikoroError

if TYPE_CHECKING:
    from saikoro.dice.randomizer import DiceSource
    from saikoro.dice.result import RollResult

#: Largest (dice × span of the sum) convolved; beyond it Monte Carlo is used.
WORK_LIMIT = 50_000_000

_TERM = r"(?:\d*D\d*|\d+)"
_PLAIN = re.compile(
    rf"^S?(?P<expr>{_TERM}(?:[+-]{_TERM})*)(?:(?P<op>>=|<=|<>|>|<|=)(?P<target>\d+))?$"
)
_EACH_TERM = re.compile(r"([+-]?)(?:(\d*)D(\d*)|(\d+))")


@dataclass(frozen=True)
class PlainSum:
    """``Σ sign × NdS + constant``, optionally compared with ``target``."""

    dice: tuple[tuple[int, int, int], ...]  # (sign, count, sides), in rolling order
    constant: int
    op: str | None
    target: int | None

    @property
    def sides_sequence(self) -> list[int]:
        return [sides for _, count, sides in self.dice for _ in range(count)]

    def signs(self) -> list[int]:
        return [sign for sign, count, _ in self.dice for _ in range(count)]

    def value_of(self, faces: list[int]) -> int:
        return sum(s * f for s, f in zip(self.signs(), faces, strict=True)) + self.constant

    def judge(self, value: int) -> bool | None:
        if self.op is None or self.target is None:
            return None
        return PREDICATES[self.op](value, self.target)

    @property
    def work(self) -> int:
        sides = self.sides_sequence
        return len(sides) * (sum(s - 1 for s in sides) + 1)


def parse_plain_sum(text: str, implicit_sides: int = 6) -> PlainSum | None:
    """The plain sum in normalized ``text`` (comment dropped), or None if it is not one."""
    head = text.split(None, 1)[0].upper() if text.strip() else ""
    match = _PLAIN.match(head)
    if match is None:
        return None
    dice: list[tuple[int, int, int]] = []
    constant = 0
    for sign_text, count_text, sides_text, number in _EACH_TERM.findall(match["expr"]):
        sign = -1 if sign_text == "-" else 1
        if number:
            constant += sign * int(number)
            continue
        count = int(count_text) if count_text else 1
        sides = int(sides_text) if sides_text else implicit_sides
        if not (1 <= count <= UPPER_LIMIT_DICE_TIMES and 1 <= sides <= UPPER_LIMIT_DICE_SIDES):
            return None
        dice.append((sign, count, sides))
    if not dice or sum(count for _, count, _ in dice) > UPPER_LIMIT_RANDS:
        return None
    target = int(match["target"]) if match["target"] is not None else None
    return PlainSum(tuple(dice), constant, match["op"], target)


class _Recorder:
    yields_faces = True  # only faces 1..sides: the randomizer may share Die records

    def __init__(self, pick: Callable[[int], int]) -> None:
        self.pick = pick
        self.faces: list[int] = []
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        face = self.pick(sides)
        self.faces.append(face)
        self.sides.append(sides)
        return face


def agrees_with_evaluator(
    plain: PlainSum,
    run: Callable[[DiceSource], RollResult | None],
    samples: int = 16,
    seed: int = 0,
) -> bool:
    """True when the evaluator gives the parse's dice, value and flags on test sequences."""
    rng = random.Random(seed)
    picks: list[Callable[[int], int]] = [lambda s: 1, lambda s: s]
    picks += [lambda s: rng.randint(1, s)] * samples
    for pick in picks:
        recorder = _Recorder(pick)
        try:
            result = run(recorder)
        except SaikoroError:
            return False
        if result is None or recorder.sides != plain.sides_sequence:
            return False
        value = plain.value_of(recorder.faces)
        verdict = plain.judge(value)
        expected = (verdict is True, verdict is False, False, False, value)
        got = (result.success, result.failure, result.critical, result.fumble, result.value)
        if got != expected:
            return False
    return True


def sum_distribution(plain: PlainSum) -> tuple[dict[int, int], int]:
    """Counts of each total over all dice sequences, and the number of sequences."""
    offset = plain.constant
    counts = [1]
    total = 1
    for sign, count, sides in plain.dice:
        for _ in range(count):
            # Multiply by x^a (1 + x + … + x^(sides-1)), a = 1 or -sides: a sliding window.
            offset += 1 if sign > 0 else -sides
            grown = [0] * (len(counts) + sides - 1)
            window = 0
            for k in range(len(grown)):
                if k < len(counts):
                    window += counts[k]
                if k - sides >= 0:
                    window -= counts[k - sides]
                grown[k] = window
            counts = grown
            total *= sides
    return {offset + k: c for k, c in enumerate(counts) if c}, total


@dataclass
class Convolution:
    distribution: dict[int, Fraction]
    sequences: int
    success: Fraction
    failure: Fraction


def convolve(plain: PlainSum) -> Convolution:
    counts, total = sum_distribution(plain)
    distribution = {value: Fraction(c, total) for value, c in sorted(counts.items())}
    if plain.op is None:
        return Convolution(distribution, total, Fraction(0), Fraction(0))
    hits = sum(c for value, c in counts.items() if plain.judge(value))
    success = Fraction(hits, total)
    return Convolution(distribution, total, success, 1 - success)
