"""Fights played in worker processes, for ``saikoro simulate --jobs``.

Each fight is played from its own seed (:func:`~saikoro.simulate.fight.fight_seed`), so
which process plays it changes nothing: the workers play runs of consecutive fight numbers
and the results come back in fight order, the same as one process gives. The workers are
started fresh (``spawn``, the same on every OS), each sets the encounter up once.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import TYPE_CHECKING

from saikoro.simulate.fight import PolicyError, fight_seed, play_fight
from saikoro.simulate.model import FightResult, Playbook, Policy
from saikoro.simulate.setup import Encounter, error, playbook_for
from saikoro.table.state import RoomState

if TYPE_CHECKING:
    from saikoro.simulate.run import Plan  # which imports this module

#: At most this many fights in one piece of work (how often the progress bar moves).
MOST_PER_RUN = 100
#: Fewer fights than this are played in the calling process: starting a worker costs about
#: as much as a few dozen fights.
FEWEST_FOR_WORKERS = 400


def available_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every OS
        return max(1, os.cpu_count() or 1)


def jobs_for(jobs: int, fights: int) -> int:
    """How many processes play ``fights`` fights when ``jobs`` are asked (0: one per CPU):
    never more than the fights need."""
    if jobs < 0:
        raise error(f"--jobs は 0 以上です ({jobs})", f"--jobs is 0 or more ({jobs})")
    if jobs == 0:
        jobs = available_cpus() if fights >= FEWEST_FOR_WORKERS else 1
    return max(1, min(jobs, fights // 2 or 1))


def runs(numbers: range, jobs: int) -> list[range]:
    """``numbers`` cut into runs of at most :data:`MOST_PER_RUN` fights, and a few runs per
    process at least (so that the processes finish together)."""
    size = max(1, min(MOST_PER_RUN, len(numbers) // (jobs * 4)))
    return [numbers[start : start + size] for start in range(0, len(numbers), size)]


class NoWorkers(Exception):
    """This machine cannot start worker processes (no semaphores, a sandbox, …)."""


#: A worker's encounter, set up: the room before the fight, the playbook, the plan, the
#: policies (sent once, when the worker starts).
_set_up: tuple[RoomState, Playbook, Plan, dict[str, Policy]] | None = None


def _start(encounter: Encounter, plan: Plan, policies: dict[str, Policy]) -> None:
    from saikoro.simulate.run import set_up

    global _set_up
    base, _events = set_up(encounter)
    _set_up = (base, playbook_for(encounter.system), plan, policies)


def play_here(
    base: RoomState, playbook: Playbook, plan: Plan, policies: dict[str, Policy], numbers: range
) -> list[FightResult]:
    """The results of fights ``numbers`` of the run, played in this process."""
    results = []
    for n in numbers:
        seed = fight_seed(plan.seed, n)
        try:
            results.append(play_fight(base, playbook, policies, seed, round_cap=plan.round_cap)[0])
        except PolicyError as failure:
            raise failure.in_fight(n) from failure.__cause__
    return results


def _play(numbers: range) -> list[FightResult]:
    assert _set_up is not None, "the worker was not started"
    return play_here(*_set_up, numbers)


def play_in_workers(
    encounter: Encounter, plan: Plan, policies: dict[str, Policy], numbers: range, jobs: int
) -> Iterator[list[FightResult]]:
    """The results of fights ``numbers``, played by ``jobs`` processes, a run at a time in
    fight order. Closing the iterator early drops the runs not started. Raises
    :class:`NoWorkers` before any result when no process can be started."""
    try:
        pickle.dumps((encounter, policies))
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise error(
            "このポリシーは別のプロセスに渡せません (モジュールの関数にするか --jobs 1 で)",
            "this policy cannot be passed to another process (make it a module's function, "
            "or use --jobs 1)",
        ) from exc
    try:
        pool = ProcessPoolExecutor(
            jobs,
            mp_context=get_context("spawn"),
            initializer=_start,
            initargs=(encounter, plan, policies),
        )
    except (OSError, NotImplementedError, ImportError) as exc:
        raise NoWorkers(str(exc)) from exc
    with pool:
        pending: list[Future[list[FightResult]]] = [
            pool.submit(_play, run) for run in runs(numbers, jobs)
        ]
        try:
            for future in pending:
                yield future.result()
        finally:
            for future in pending:
                future.cancel()
