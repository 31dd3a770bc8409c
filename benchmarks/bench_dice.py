"""Dice benchmark: saikoro against avrae's ``d20`` library, in the same run.

Per-roll time of a fixed mix of BCDice commands in saikoro (``saikoro.roll`` with its
default random source) and of their nearest ``d20`` equivalents, per command and over
the mix, with the ratio saikoro/d20 (issue 2 aims at ≤ 0.5 and requires ≤ 1.0); then
the whole-process time of ``saikoro roll 2D6`` next to ``python -c pass`` (the floor).

Usage::

    python benchmarks/bench_dice.py              # full run (a few seconds)
    python benchmarks/bench_dice.py --quick      # fewer rolls and processes
    python benchmarks/bench_dice.py --json out.json
    python benchmarks/bench_dice.py --profile    # cProfile of saikoro on the mix

Needs ``pip install -e .[bench]`` (d20).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

#: (saikoro command, nearest d20 expression(s)); ``x3 2D6`` is three ``2d6`` rolls in d20.
MIX: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("2D6+3>=10", ("2d6+3",)),
    ("1D100<=65", ("1d100",)),
    ("10D6", ("10d6",)),
    ("4B6>=4", ("4d6",)),
    ("x3 2D6", ("2d6", "2d6", "2d6")),
)


@dataclass
class CommandTiming:
    command: str
    d20: str
    saikoro_us: float
    d20_us: float

    @property
    def ratio(self) -> float:
        return self.saikoro_us / self.d20_us


@dataclass
class ProcessTiming:
    command: str
    runs: int
    mean_ms: float
    stdev_ms: float
    min_ms: float


def batch_us(fn: Callable[[], object], number: int) -> float:
    """Mean time of one call over a batch of ``number`` calls, in µs."""
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number * 1e6


def saikoro_roller(command: str) -> Callable[[], object]:
    import saikoro

    def run() -> object:
        result = saikoro.roll(command)
        if result is None:
            raise RuntimeError(f"saikoro does not know {command!r}")
        return result

    return run


def d20_roller(expressions: tuple[str, ...]) -> Callable[[], object]:
    import d20

    if len(expressions) == 1:
        (expr,) = expressions
        return lambda: d20.roll(expr)
    return lambda: [d20.roll(e) for e in expressions]


def bench_mix(number: int, repeat: int) -> list[CommandTiming]:
    """Best batch time per roll of each command in each library.

    The batches are interleaved (saikoro, d20, next command, …, then again), so that a
    change in the machine's load hits both libraries alike; the best of ``repeat``
    batches is kept, as :mod:`timeit` advises.
    """
    rollers = [(saikoro_roller(c), d20_roller(e)) for c, e in MIX]
    best = [[float("inf"), float("inf")] for _ in MIX]
    for pair in rollers:  # warm up: imports, parse caches
        for roll in pair:
            roll()
    for _ in range(repeat):
        for i, (ours, theirs) in enumerate(rollers):
            best[i][0] = min(best[i][0], batch_us(ours, number))
            best[i][1] = min(best[i][1], batch_us(theirs, number))
    return [
        CommandTiming(command=c, d20=" ; ".join(e), saikoro_us=b[0], d20_us=b[1])
        for (c, e), b in zip(MIX, best, strict=True)
    ]


def saikoro_cli() -> list[str]:
    """The installed ``saikoro`` script beside this Python, else ``python -m saikoro``."""
    script = Path(sys.executable).with_name("saikoro")
    if script.exists():
        return [str(script)]
    found = shutil.which("saikoro")
    return [found] if found else [sys.executable, "-m", "saikoro"]


def _summary(command: str, samples: list[float]) -> ProcessTiming:
    return ProcessTiming(
        command=command,
        runs=len(samples),
        mean_ms=statistics.fmean(samples),
        stdev_ms=statistics.stdev(samples) if len(samples) > 1 else 0.0,
        min_ms=min(samples),
    )


def bench_processes(runs: int) -> list[ProcessTiming]:
    """Launch ``python -c pass`` and ``saikoro roll 2D6`` alternately, ``runs`` times each."""
    argvs = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "saikoro roll 2D6": [*saikoro_cli(), "roll", "2D6"],
    }
    samples: dict[str, list[float]] = {name: [] for name in argvs}
    for argv in argvs.values():  # warm the file and bytecode caches
        subprocess.run(argv, capture_output=True, check=True)
    for _ in range(runs):
        for name, argv in argvs.items():
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=True)
            samples[name].append((time.perf_counter() - start) * 1000)
    return [_summary(name, values) for name, values in samples.items()]


def profile_mix(number: int) -> str:
    import cProfile
    import io
    import pstats

    rollers = [saikoro_roller(command) for command, _ in MIX]
    for roll in rollers:
        roll()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(number):
        for roll in rollers:
            roll()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime")
    stats.print_stats(25)
    return out.getvalue()


def report(timings: list[CommandTiming], processes: list[ProcessTiming]) -> dict[str, object]:
    saikoro_mix = statistics.fmean(t.saikoro_us for t in timings)
    d20_mix = statistics.fmean(t.d20_us for t in timings)
    return {
        "python": sys.version.split()[0],
        "commands": [{**asdict(t), "ratio": t.ratio} for t in timings],
        "mix": {"saikoro_us": saikoro_mix, "d20_us": d20_mix, "ratio": saikoro_mix / d20_mix},
        "processes": [asdict(p) for p in processes],
    }


def print_report(data: dict[str, object]) -> None:
    print(f"Per-roll time, best of repeats (Python {data['python']})")
    header = ("saikoro command", "d20 equivalent", "saikoro µs", "d20 µs", "ratio")
    print(f"{header[0]:<14} {header[1]:<20} {header[2]:>11} {header[3]:>9} {header[4]:>6}")
    for t in data["commands"]:  # type: ignore[union-attr]
        print(
            f"{t['command']:<14} {t['d20']:<20} {t['saikoro_us']:>11.1f} {t['d20_us']:>9.1f}"
            f" {t['ratio']:>6.2f}"
        )
    mix = data["mix"]
    print(
        f"{'mix (mean)':<35} {mix['saikoro_us']:>11.1f} {mix['d20_us']:>9.1f}"  # type: ignore[index]
        f" {mix['ratio']:>6.2f}"  # type: ignore[index]
    )
    print(f"ratio saikoro/d20 on the mix: {mix['ratio']:.2f} (aim ≤ 0.5, must be ≤ 1.0)")  # type: ignore[index]
    if data["processes"]:
        print("\nWhole-process time")
        for p in data["processes"]:  # type: ignore[union-attr]
            print(
                f"{p['command']:<40} mean {p['mean_ms']:7.1f} ms  ± {p['stdev_ms']:5.1f}"
                f"  min {p['min_ms']:7.1f} ms  ({p['runs']} runs)"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=1000, help="rolls per timing batch")
    parser.add_argument("--repeat", type=int, default=9, help="timing batches (best is kept)")
    parser.add_argument("--runs", type=int, default=20, help="process launches to average")
    parser.add_argument("--quick", action="store_true", help="--number 300 --repeat 3 --runs 5")
    parser.add_argument("--no-process", action="store_true", help="skip the process timings")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--profile", action="store_true", help="print saikoro's cProfile on the mix"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.number, args.repeat, args.runs = 300, 3, 5

    if args.profile:
        print(profile_mix(args.number))
        return 0
    timings = bench_mix(args.number, args.repeat)
    processes = [] if args.no_process else bench_processes(args.runs)
    data = report(timings, processes)
    print_report(data)
    if args.json:
        args.json.write_text(
            json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
