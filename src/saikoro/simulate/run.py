"""Many fights of one encounter: set it up once, play each fight from its own seed."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass

from saikoro.dice.randomizer import SeededSource
from saikoro.simulate.fight import ROUND_CAP, fight_seed, play_fight
from saikoro.simulate.model import FightResult, Policy
from saikoro.simulate.policies import DEFAULT_POLICY, get_policy
from saikoro.simulate.setup import Encounter, error, playbook_for
from saikoro.simulate.stats import Summary, summarize
from saikoro.simulate.table import MemoryTable
from saikoro.simulate.workers import NoWorkers, jobs_for, play_here, play_in_workers
from saikoro.table.events import Event
from saikoro.table.state import RoomState

#: At most this many fights in one run.
MAX_FIGHTS = 1_000_000
MAX_ROUND_CAP = 1000


@dataclass(frozen=True)
class Plan:
    """How to simulate: fights, seed, the round cap and each side's policy."""

    fights: int = 1000
    seed: int = 0
    round_cap: int = ROUND_CAP
    party_policy: str = DEFAULT_POLICY
    enemy_policy: str = DEFAULT_POLICY

    def checked(self) -> Plan:
        if not 1 <= self.fights <= MAX_FIGHTS:
            raise error(
                f"戦闘の回数は 1〜{MAX_FIGHTS} です ({self.fights})",
                f"the number of fights is 1 to {MAX_FIGHTS} ({self.fights})",
            )
        if not 1 <= self.round_cap <= MAX_ROUND_CAP:
            raise error(
                f"ラウンドの上限は 1〜{MAX_ROUND_CAP} です ({self.round_cap})",
                f"the round cap is 1 to {MAX_ROUND_CAP} ({self.round_cap})",
            )
        return self

    def policies(self) -> dict[str, Policy]:
        return {"pc": get_policy(self.party_policy), "npc": get_policy(self.enemy_policy)}


def set_up(encounter: Encounter, *, keep: bool = False) -> tuple[RoomState, list[Event]]:
    """The room every fight starts from (before ``/combat start``), and its events."""
    table = MemoryTable(
        RoomState(room="simulation", system=encounter.system), SeededSource(0), keep=keep
    )
    encounter.set_up(table)
    return table.state, table.events


def simulate(
    encounter: Encounter,
    plan: Plan,
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Summary:
    """Play ``plan.fights`` fights, in ``jobs`` processes (0: one per CPU; the result is the
    same for any number); ``progress(done)`` as they finish, ``should_stop()`` ends the run
    early (the summary covers the fights played)."""
    plan = plan.checked()
    jobs = jobs_for(jobs, plan.fights)
    policies = plan.policies()
    base, _events = set_up(encounter)
    started = time.perf_counter()
    results: list[FightResult] = []
    with closing(_played(encounter, base, plan, policies, jobs)) as fights:  # stops the workers
        for played in fights:
            results.extend(played)
            if progress is not None:
                progress(len(results))
            if should_stop is not None and should_stop():
                break
    summary = summarize(
        results,
        system=encounter.system,
        seed=plan.seed,
        round_cap=plan.round_cap,
        policies={"pc": policies["pc"].name, "npc": policies["npc"].name},
        order=list(base.characters),
    )
    summary.seconds = time.perf_counter() - started
    return summary


def _played(
    encounter: Encounter, base: RoomState, plan: Plan, policies: dict[str, Policy], jobs: int
) -> Generator[list[FightResult]]:
    """The fights' results in fight order, as they come. With workers, the first fight is
    played here all the same (a refused set-up is this process's error, whatever ``jobs``);
    a machine that cannot start processes plays them all here."""
    playbook = playbook_for(encounter.system)

    def here(numbers: range) -> Iterator[list[FightResult]]:
        for number in numbers:
            yield play_here(base, playbook, plan, policies, range(number, number + 1))

    if jobs == 1:
        yield from here(range(1, plan.fights + 1))
        return
    yield from here(range(1, 2))
    rest = range(2, plan.fights + 1)
    try:
        yield from play_in_workers(encounter, plan, policies, rest, jobs)
    except NoWorkers:
        yield from here(rest)


def replay(encounter: Encounter, plan: Plan, number: int) -> tuple[FightResult, list[Event]]:
    """Fight ``number`` of the run again, with every event of its room (the set-up first)."""
    plan = plan.checked()
    if not 1 <= number <= plan.fights:
        raise error(
            f"戦闘番号は 1〜{plan.fights} です ({number})",
            f"the fight number is 1 to {plan.fights} ({number})",
        )
    base, events = set_up(encounter, keep=True)
    result, fought = play_fight(
        base,
        playbook_for(encounter.system),
        plan.policies(),
        fight_seed(plan.seed, number),
        round_cap=plan.round_cap,
        keep=True,
    )
    return result, [*events, *fought]
