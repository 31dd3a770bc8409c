"""A bounded hostile load in CI: attackers send the costliest legal commands, 2D6 is answered.

The same harness as ``benchmarks/bench_hostile.py`` (loopback, a real ``saikoro serve``):
10 attackers and 100 idle connections for 8 s, the attackers sending the benchmark's
attacker commands at once — legal commands answered 200 with ≈400 kB each
(``x100 100B66``, ``x100 100D6``, …) and the costliest in CPU. Before the roll pool, 10
such attackers made other clients' ``2D6`` time out at 15 s; before the pool read answers
through the event loop, a 430 kB answer blocked it while it arrived. The verdict here is
that every probe is answered 200 within the harness's 15 s hang guard while the attackers
are answered too — never a latency bound, which a busy machine would break (issue 18):
the speed target (probe p99 < 100 ms) lives in the benchmark, and cheap-first scheduling
is proved without a clock in ``tests/server/test_pool.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def bench_hostile() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_hostile.py"
    spec = importlib.util.spec_from_file_location("bench_hostile", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_2d6_is_answered_while_others_send_the_most_expensive_commands() -> None:
    bench = bench_hostile()
    figures = bench.run(hostile=10, idle=100, seconds=8.0, commands=bench.every_attacker())
    summary = f"{figures}"
    assert figures.probe_errors == 0, summary
    assert figures.probes >= 1, summary  # the probe's p99 is in the summary, not judged
    assert figures.hostile_answers.get("200", 0) > 0, summary  # the attackers were answered
    assert figures.hostile_largest_answer_bytes > 400_000, summary  # large answers included
    assert not any(key.isalpha() for key in figures.hostile_answers), summary  # no drops
