"""``saikoro simulate --jobs``: fights played in worker processes give the very result one
process gives (each fight has its own seed), stop early when asked, refuse what cannot be
passed to a process."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.simulate import Plan, SimulationError, register_policy, simulate, workers
from saikoro.simulate.workers import FEWEST_FOR_WORKERS, available_cpus, jobs_for, runs

from .helpers import encounter, lw_sheet, um_sheet, write


def figures(summary: Any) -> dict[str, Any]:
    body = summary.to_json()
    body.pop("seconds")
    return body


@pytest.mark.rule("LW-COMBAT-01", "LW-COMBAT-05")
def test_workers_give_the_result_of_one_process_littleworld(tmp_path) -> None:
    fight = encounter(
        tmp_path,
        [lw_sheet("アリス", 12, 3, 4, 2), lw_sheet("ボブ", 10, 2, 3, 3)],
        [lw_sheet("ゴブリン", 8, 3, 4, 1, kind="NPC")],
    )
    plan = Plan(fights=41, seed=7)
    alone = figures(simulate(fight, plan))
    for jobs in (2, 3):
        assert figures(simulate(fight, plan, jobs=jobs)) == alone


@pytest.mark.rule("UM-TURN-01", "UM-MELEE-01", "UM-FATE-02")
def test_workers_give_the_result_of_one_process_unmeid100(tmp_path) -> None:
    fight = encounter(
        tmp_path,
        [um_sheet("ケン", 14, 55, 12, 12), um_sheet("リン", 12, 50, 14, 10)],
        [um_sheet("オーク", 16, 45, 9, 11, damage="2D6+1", kind="named")],
    )
    plan = Plan(fights=30, seed=3)
    assert figures(simulate(fight, plan, jobs=2)) == figures(simulate(fight, plan))


def test_progress_and_stopping_with_workers(tmp_path) -> None:
    fight = encounter(
        tmp_path, [lw_sheet("A", 12, 3, 4, 2)], [lw_sheet("B", 8, 3, 4, 1, kind="NPC")]
    )
    seen: list[int] = []
    summary = simulate(fight, Plan(fights=60), jobs=2, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 60 and summary.fights == 60
    stopped: list[int] = []
    summary = simulate(
        fight,
        Plan(fights=60),
        jobs=2,
        progress=stopped.append,
        should_stop=lambda: len(stopped) >= 2,
    )
    assert summary.fights == stopped[-1] < 60
    # the fights played are the run's first ones: the same as one process stopped there
    assert figures(summary)["win"] == figures(simulate(fight, Plan(fights=summary.fights)))["win"]


def test_how_many_processes() -> None:
    assert jobs_for(1, 10_000) == 1
    assert jobs_for(4, 10_000) == 4
    assert jobs_for(8, 6) == 3  # two fights a process at least
    assert jobs_for(0, FEWEST_FOR_WORKERS - 1) == 1  # a short run: no process to start
    assert jobs_for(0, FEWEST_FOR_WORKERS) == available_cpus()
    with pytest.raises(SimulationError) as refused:
        jobs_for(-1, 100)
    assert "--jobs" in str(refused.value.message.ja) and "0 or more" in refused.value.message.en


def test_runs_cover_each_fight_once_in_order() -> None:
    for numbers, jobs in [(range(2, 10_001), 2), (range(2, 42), 3), (range(2, 4), 2)]:
        cut = runs(numbers, jobs)
        assert [n for run in cut for n in run] == list(numbers)
        assert max(len(run) for run in cut) <= 100 and len(cut) >= min(len(numbers), 4 * jobs)


def test_a_machine_without_processes_plays_in_one(tmp_path, monkeypatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(workers, "ProcessPoolExecutor", refuse)
    fight = encounter(
        tmp_path, [lw_sheet("A", 12, 3, 4, 2)], [lw_sheet("B", 8, 3, 4, 1, kind="NPC")]
    )
    plan = Plan(fights=20, seed=2)
    assert figures(simulate(fight, plan, jobs=2)) == figures(simulate(fight, plan))


def test_a_policy_no_process_can_receive_is_refused(tmp_path) -> None:
    register_policy("test-lambda", lambda situation: None)
    fight = encounter(
        tmp_path, [lw_sheet("A", 12, 3, 4, 2)], [lw_sheet("B", 8, 3, 4, 1, kind="NPC")]
    )
    plan = Plan(fights=10, party_policy="test-lambda")
    with pytest.raises(SimulationError) as refused:
        simulate(fight, plan, jobs=2)
    assert "--jobs 1" in refused.value.message.en and "--jobs 1" in refused.value.message.ja
    assert simulate(fight, plan).fights == 10  # one process takes it


def test_the_cli_gives_the_same_figures_for_any_jobs(tmp_path) -> None:
    alice = write(tmp_path, lw_sheet("アリス", 12, 3, 4, 2))
    goblin = write(tmp_path, lw_sheet("ゴブリン", 8, 3, 4, 1, kind="NPC"))
    bodies = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(
            app, ["simulate", "-p", alice, "-e", f"{goblin}:2", "-n", "40", "-j", jobs, "--json"]
        )
        assert result.exit_code == 0, result.stderr
        body = json.loads(result.stdout)
        body.pop("seconds")
        bodies.append(body)
    assert bodies[0] == bodies[1]
    result = CliRunner().invoke(app, ["simulate", "-p", alice, "-e", goblin, "-j", "-1"])
    assert result.exit_code == 1 and "--jobs" in result.stderr and "Traceback" not in result.stderr
