"""The value ``saikoro.odds`` returns: outcome probabilities of one command."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

_DAMAGE = re.compile(r"ダメージ-?\d+\s*$")

#: The four result flags, in the order they are shown.
FLAGS: tuple[str, ...] = ("success", "failure", "critical", "fumble")

Probability = Fraction | float


@dataclass(frozen=True)
class Interval:
    """A 95 % confidence interval of a Monte Carlo estimate."""

    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def to_json(self) -> list[float]:
        return [self.low, self.high]


@dataclass(frozen=True)
class Odds:
    """Probabilities of one command's outcomes.

    ``exact`` results hold :class:`fractions.Fraction` probabilities (``method`` is
    ``enumeration`` — every dice sequence through the real evaluator — or
    ``convolution`` for plain sums); estimates (``method == "monte-carlo"``) hold
    floats, with a 95 % confidence interval for each in ``intervals``.

    ``outcomes`` counts the dice sequences behind the figures: every sequence for an
    exact result, the sample size for an estimate. ``distribution`` maps each
    ``RollResult.value`` (the total of a sum, the damage of an attack) to its
    probability; ``mean``/``stdev`` describe it (None when the command has no value).
    ``value_probability`` is the chance that the command has a value at all (below 1
    for commands that sometimes give none). ``context`` holds the system's details that
    are the same for every outcome — the difficulty band of a 帽子世界TRPG check, the
    rate of a 運命判定d100 check — shown next to the chance. ``words`` breaks the
    outcomes down by the result's last word (the text after the last ``＞``: 命中,
    アーマークラスに防がれた, …) when there are few of them and not all are numbers.
    ``example`` is the text of one run.

    ``repeat`` is set for a repeat command (``x3 2D6>=7``: 3): its repetitions are
    independent rolls of the command after it, so every figure is that of one roll.
    ``time_limited`` marks a Monte Carlo estimate stopped by its time budget before the
    samples asked for (``outcomes`` is the number actually run).
    """

    command: str
    system: str
    exact: bool
    method: str
    outcomes: int
    success: Probability
    failure: Probability
    critical: Probability
    fumble: Probability
    distribution: dict[int, Probability]
    mean: Probability | None
    stdev: float | None
    value_probability: Probability = Fraction(1)
    intervals: dict[str, Interval] = field(default_factory=dict)
    mean_interval: Interval | None = None
    context: dict[str, Any] = field(default_factory=dict)
    example: str = ""
    words: dict[str, Probability] = field(default_factory=dict)
    #: Each result word of ``words`` in English, as the command made it.
    words_en: dict[str, str] = field(default_factory=dict)
    repeat: int | None = None
    time_limited: bool = False

    @property
    def value_kind(self) -> str:
        """``damage`` for attack commands (text ending ``ダメージN``), else ``value``."""
        return "damage" if _DAMAGE.search(self.example) else "value"

    def probability(self, flag: str) -> Probability:
        """The probability of ``flag`` (one of :data:`FLAGS`)."""
        if flag not in FLAGS:
            raise KeyError(flag)
        found: Probability = getattr(self, flag)
        return found

    def to_json(self) -> dict[str, Any]:
        """The ``saikoro odds --json`` body (probabilities as floats); ``repeat`` and
        ``time_limited`` are added only when they apply."""
        body: dict[str, Any] = {
            "command": self.command,
            "exact": self.exact,
            "outcomes": self.outcomes,
            "success": float(self.success),
            "failure": float(self.failure),
            "critical": float(self.critical),
            "fumble": float(self.fumble),
            "mean": None if self.mean is None else float(self.mean),
            "stdev": self.stdev,
            "distribution": {str(v): float(p) for v, p in self.distribution.items()},
        }
        if self.repeat is not None:
            body["repeat"] = self.repeat
        if self.time_limited:
            body["time_limited"] = True
        return body


def moments(distribution: dict[int, Probability]) -> tuple[Probability | None, float | None]:
    """Mean and standard deviation of a distribution (normalized over its own mass)."""
    mass = sum(distribution.values())
    if not distribution or not mass:
        return None, None
    mean = sum(v * p for v, p in distribution.items()) / mass
    variance = sum((v - mean) ** 2 * p for v, p in distribution.items()) / mass
    return mean, math.sqrt(max(float(variance), 0.0))


#: At most this many distinct result words are kept in :attr:`Odds.words`.
MAX_WORDS = 12


def word_breakdown(words: dict[str, Probability]) -> dict[str, Probability]:
    """The result words worth showing: few, and not only numbers; most likely first."""
    if not words or len(words) > MAX_WORDS:
        return {}
    if all(_numeric(word) for word in words):
        return {}
    return dict(sorted(words.items(), key=lambda item: -item[1]))


def _numeric(word: str) -> bool:
    return word.lstrip("-").isdigit() or word == ""
