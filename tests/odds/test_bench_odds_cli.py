"""benchmarks/bench_odds.py has a real command line: --help prints usage and runs nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_odds.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=60
    )


def test_help_prints_usage_without_benchmarking() -> None:
    done = run("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: bench_odds.py") and "--quick" in done.stdout
    assert "saikoro 1st" not in done.stdout  # no benchmark table


def test_unknown_option_is_refused() -> None:
    done = run("--bogus")
    assert done.returncode == 2 and "unrecognized arguments: --bogus" in done.stderr
