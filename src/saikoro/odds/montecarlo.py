"""Estimated odds by sampling the real evaluator with a seeded dice source."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from saikoro.dice.randomizer import SeededSource
from saikoro.odds import clock
from saikoro.odds.result import FLAGS, Interval
from saikoro.odds.runner import CommonDetails, outcome_of

if TYPE_CHECKING:
    from saikoro.dice.randomizer import DiceSource
    from saikoro.dice.result import RollResult

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054

DEFAULT_SAMPLES = 20_000
#: Monte Carlo rolls at most about this many dice in all (a few seconds) …
DICE_BUDGET = 2_000_000
#: … but always at least this many samples.
MIN_SAMPLES = 200
#: ``saikoro odds`` stops sampling after this many seconds (``--seconds``) and reports
#: the samples done; the Python API has no time budget unless given one.
DEFAULT_SECONDS = 2.0


def affordable_samples(samples: int, dice_per_run: int) -> int:
    """``samples``, fewer when each run rolls so many dice that they would take too long."""
    if dice_per_run <= 0:
        return samples
    return max(min(samples, MIN_SAMPLES), min(samples, DICE_BUDGET // dice_per_run))


def wilson_interval(hits: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a binomial proportion (good near 0 and 1 too)."""
    if n <= 0:
        return Interval(0.0, 1.0)
    p = hits / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Sample:
    """Frequencies over ``n`` seeded runs."""

    n: int
    flag_hits: dict[str, int]
    value_counts: dict[int, int]
    context: dict[str, Any] = field(default_factory=dict)
    example: RollResult | None = None
    words: dict[str, int] = field(default_factory=dict)
    #: Each Japanese result word in English (as the command made it).
    words_en: dict[str, str] = field(default_factory=dict)
    #: Stopped by the time budget before the samples asked for.
    time_limited: bool = False

    def probability(self, flag: str) -> float:
        return self.flag_hits[flag] / self.n

    def interval(self, flag: str) -> Interval:
        return wilson_interval(self.flag_hits[flag], self.n)

    def mean_interval(self) -> Interval | None:
        k = sum(self.value_counts.values())
        if k < 2:
            return None
        mean = sum(v * c for v, c in self.value_counts.items()) / k
        var = sum((v - mean) ** 2 * c for v, c in self.value_counts.items()) / (k - 1)
        half = Z95 * math.sqrt(var / k)
        return Interval(mean - half, mean + half)


def sample_outcomes(
    run: Callable[[DiceSource], RollResult | None],
    n: int = DEFAULT_SAMPLES,
    seed: int = 0,
    seconds: float | None = None,
) -> Sample:
    """Run the command ``n`` times with dice from ``SeededSource(seed)``; with ``seconds``,
    stop once that time has passed (after at least one run) with the runs done so far."""
    deadline = None if seconds is None else clock.now() + seconds
    done = 0
    source = SeededSource(seed)
    hits = dict.fromkeys(FLAGS, 0)
    values: dict[int, int] = {}
    words: dict[str, int] = {}
    words_en: dict[str, str] = {}
    common = CommonDetails()
    for _ in range(n):
        result = run(source)
        success, failure, critical, fumble, value, (word, english) = outcome_of(result)
        words[word] = words.get(word, 0) + 1
        words_en[word] = english
        hits["success"] += success
        hits["failure"] += failure
        hits["critical"] += critical
        hits["fumble"] += fumble
        if value is not None:
            values[value] = values.get(value, 0) + 1
        common.see(result)
        done += 1
        if deadline is not None and done < n and clock.now() >= deadline:
            break
    values = dict(sorted(values.items()))
    return Sample(done, hits, values, common.details, common.example, words, words_en, done < n)
