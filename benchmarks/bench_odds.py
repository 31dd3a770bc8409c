"""Time to exact odds: saikoro.odds against icepool computing the same distribution.

Run: ``.venv/bin/python benchmarks/bench_odds.py`` (not part of the test suite;
``--quick`` skips the 10⁶-sequence walk; ``--help`` lists the options).
Each row times ``saikoro.odds`` (exact) and icepool's equivalent model of the same
command in the same run, checks that both give the same distribution, and prints the
ratio. icepool must be given the rules by hand (its model is written below); saikoro
walks the real command evaluator, so its odds are the rules' own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

import saikoro


def _lwa(a: int, d: int) -> icepool.Die:
    """LWA<a>-<d> as an icepool model (LW-COMBAT-05…10); the fumble still rolls defence dice."""

    def damage(x: int, y: int, u: int, v: int) -> int:
        if (x, y) == (1, 1):
            return 0
        attack = x + y + a
        if (u, v) == (6, 6):
            return 0
        if (u, v) == (1, 1):
            return attack
        return max(0, attack - (u + v + (0 if (x, y) == (6, 6) else d)))

    return icepool.map(damage, icepool.d6, icepool.d6, icepool.d6, icepool.d6)


def _melee(skill: int, ac: int, agi: int) -> icepool.Die:
    return icepool.d100.map(lambda r: 1 if r <= agi or ac < r <= skill else 0)


CASES: list[tuple[str, str, str, Callable[[], icepool.Die], str]] = [
    # (command, system, saikoro method, icepool model, what is compared)
    ("LWA5-3", "LittleWorld", "auto", lambda: _lwa(5, 3), "distribution"),
    ("MA60,30,12", "UnmeiD100", "auto", lambda: _melee(60, 30, 12), "success"),
    ("4D6KH3", "DiceBot", "auto", lambda: icepool.d6.pool(4).highest(3).sum(), "distribution"),
    ("10D6+3", "DiceBot", "auto", lambda: 10 @ icepool.d6 + 3, "distribution"),
    ("6D10KH3", "DiceBot", "auto", lambda: icepool.d10.pool(6).highest(3).sum(), "distribution"),
    # The same 10⁶-sequence command walked sequence by sequence through the evaluator:
    (
        "6D10KH3",
        "DiceBot",
        "enumeration",
        lambda: icepool.d10.pool(6).highest(3).sum(),
        "distribution",
    ),
]


def _timed(function: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """(first call, median of the calls after it, result): both libraries cache work."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return times[0], statistics.median(times[1:] or times), result


def _die_distribution(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(o): Fraction(q, total) for o, q in die.items() if q}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Prints one row per command; exit status 1 when a distribution differs.",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="skip the forced enumeration of 6D10KH3 (10⁶ sequences, several seconds)",
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    quick = parse_args(argv).quick
    from saikoro.systems import systems

    saikoro.odds("2D6")  # load the engine and odds modules before timing
    for _, system, _, _, _ in CASES:
        systems.get_system(system)  # …and the game systems (an import, not odds work)
    rows = []
    for command, system, method, model, compared in CASES:
        big = method == "enumeration"
        if big and quick:
            continue
        repeat = 1 if big else 6

        def ours_call(c: str = command, s: str = system, m: str = method) -> Any:
            return saikoro.odds(c, s, method=m)

        ours_cold, ours_time, ours = _timed(ours_call, repeat)
        theirs_cold, theirs_time, die = _timed(model, repeat)
        if compared == "success":
            same = ours.success == _die_distribution(die).get(1, Fraction(0))
        else:
            same = ours.distribution == _die_distribution(die)
        rows.append(
            (
                command,
                system,
                ours.method,
                ours.outcomes,
                ours_cold,
                ours_time,
                theirs_cold,
                theirs_time,
                same,
            )
        )

    header = (
        f"{'command':<11} {'system':<11} {'method':<11} {'sequences':>11} "
        f"{'saikoro 1st':>12} {'warm':>10} {'icepool 1st':>12} {'warm':>10} {'ratio':>7}  same"
    )
    print(header)
    print("-" * len(header))
    for command, system, method, n, ours_cold, ours_time, theirs_cold, theirs_time, same in rows:
        ratio = ours_cold / theirs_cold if theirs_cold else float("inf")
        print(
            f"{command:<11} {system:<11} {method:<11} {n:>11,} "
            f"{ours_cold * 1000:>10.2f}ms {ours_time * 1000:>8.2f}ms "
            f"{theirs_cold * 1000:>10.2f}ms {theirs_time * 1000:>8.2f}ms {ratio:>7.1f}  {same}"
        )
    print("\n1st = first call in this process; warm = median of 5 more (both libraries cache);")
    print("ratio = saikoro 1st / icepool 1st. The forced enumeration of 6D10KH3 is run once.")
    print("saikoro walks every dice sequence through the real evaluator; icepool needs the")
    print("rules re-modelled by hand (its LWA model is written in this file).")
    return 0 if all(row[-1] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
