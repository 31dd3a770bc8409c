"""Figures over many fights: Wilson 95 % intervals, rates, means and distributions."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from saikoro.simulate.model import FightResult

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Rate:
    count: int
    trials: int

    @property
    def value(self) -> float:
        return self.count / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.trials)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"rate": self.value, "count": self.count, "ci95": [low, high]}


@dataclass
class CharacterSummary:
    name: str
    side: str
    down: Rate
    dead: Rate
    dealt: float
    taken: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "side": self.side,
            "down": self.down.to_json(),
            "dead": self.dead.to_json(),
            "damage_dealt": self.dealt,
            "damage_taken": self.taken,
        }


@dataclass
class Summary:
    """What ``saikoro simulate`` reports."""

    system: str
    fights: int
    seed: int
    round_cap: int
    policies: dict[str, str]
    wins: dict[str, Rate]
    capped: int
    rounds: dict[int, int]
    characters: list[CharacterSummary] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def mean_rounds(self) -> float:
        total = sum(self.rounds.values())
        return sum(r * n for r, n in self.rounds.items()) / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "fights": self.fights,
            "seed": self.seed,
            "round_cap": self.round_cap,
            "policies": self.policies,
            "win": {side: rate.to_json() for side, rate in self.wins.items()},
            "capped_draws": self.capped,
            "rounds": {
                "mean": self.mean_rounds,
                "distribution": {str(r): n for r, n in sorted(self.rounds.items())},
            },
            "characters": [c.to_json() for c in self.characters],
            "seconds": self.seconds,
        }


def summarize(
    results: list[FightResult],
    *,
    system: str,
    seed: int,
    round_cap: int,
    policies: dict[str, str],
    order: list[str],
) -> Summary:
    n = len(results)
    winners = Counter(r.winner for r in results)
    characters = []
    for name in order:
        tallies = [r.characters[name] for r in results]
        side = tallies[0].side if tallies else ""
        characters.append(
            CharacterSummary(
                name,
                side,
                Rate(sum(t.down for t in tallies), n),
                Rate(sum(t.dead for t in tallies), n),
                sum(t.dealt for t in tallies) / n if n else 0.0,
                sum(t.taken for t in tallies) / n if n else 0.0,
            )
        )
    return Summary(
        system=system,
        fights=n,
        seed=seed,
        round_cap=round_cap,
        policies=policies,
        wins={side: Rate(winners[side], n) for side in ("pc", "npc", "draw")},
        capped=sum(r.capped for r in results),
        rounds=dict(Counter(r.rounds for r in results)),
        characters=characters,
    )
