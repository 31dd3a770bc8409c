"""The dice benchmark (benchmarks/bench_dice.py) runs and reports what issue 2 asks for."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_dice.py"


def _load():
    spec = importlib.util.spec_from_file_location("bench_dice", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_dice", module)
    spec.loader.exec_module(module)
    return module


def test_benchmark_runs_and_reports_ratio_and_process_time(capsys: pytest.CaptureFixture) -> None:
    pytest.importorskip("d20", reason="the benchmark needs d20: pip install -e .[bench]")
    bench = _load()
    commands = [command for command, _ in bench.MIX]
    assert {"2D6+3>=10", "1D100<=65", "10D6", "4B6>=4", "x3 2D6"} <= set(commands)
    timings = bench.bench_mix(number=5, repeat=1)
    processes = bench.bench_processes(runs=1)
    data = bench.report(timings, processes)
    bench.print_report(data)
    out = capsys.readouterr().out
    assert [t["command"] for t in data["commands"]] == commands
    assert all(t["saikoro_us"] > 0 and t["d20_us"] > 0 for t in data["commands"])
    assert data["mix"]["ratio"] == pytest.approx(data["mix"]["saikoro_us"] / data["mix"]["d20_us"])
    assert "ratio saikoro/d20 on the mix" in out and "saikoro roll 2D6" in out
    assert [p["command"] for p in data["processes"]] == ["python -c pass", "saikoro roll 2D6"]
