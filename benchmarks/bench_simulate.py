"""Encounter simulator benchmark: fights per second of a 4-against-4 fight of each system.

    .venv/bin/python benchmarks/bench_simulate.py [--fights 200] [--repeat 3] [--profile]

Each fight is played line by line through the real table core (``saikoro simulate``), so the
cost is the table's: it prints, per system, the fights per second (best of ``--repeat`` runs
of ``--fights`` fights, CPU time of this process and wall time), the table lines typed per
fight, the mean rounds, and what 10 000 fights would take at that rate. The fights are the
example encounters of docs/simulate.md (examples/simulate/: four PCs against four copies of
one enemy, default policy).

``--jobs-fights N`` then plays N fights of each system in one process and in one process per
CPU (``saikoro simulate --jobs``), wall time, in the same run with the same plan; it checks
that both give the same figures and counts only what finished.

``--layers`` samples ``--fights`` fights of each system (pyinstrument, the ``[bench]`` extra)
and prints the share of the time each layer of the table takes, each sample charged to the
innermost layer on its stack: what would be left if a layer cost nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import time
from pathlib import Path

from saikoro.simulate import Plan, from_files, simulate
from saikoro.simulate.fight import fight_seed, play_fight
from saikoro.simulate.run import set_up
from saikoro.simulate.setup import playbook_for
from saikoro.simulate.workers import available_cpus

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "simulate"
FIGHTS = {
    "LittleWorld": ("littleworld", ["alice", "bob", "carol", "dan"], "goblin"),
    "UnmeiD100": ("unmeid100", ["ken", "rin", "sora", "gai"], "orc"),
}


def encounter(system: str):  # type: ignore[no-untyped-def]
    folder, party, enemy = FIGHTS[system]
    here = EXAMPLES / folder
    return from_files([str(here / f"{n}.json") for n in party], [f"{here / enemy}.json:4"])


#: A simulated fight's layers: a sample is charged to the innermost of these on its stack
#: (label, function, file); what is in none is the run's set-up and statistics.
LAYERS = (
    ("simulator bookkeeping (turns, who is out, the tally)", "play", "saikoro/simulate/fight.py"),
    ("policy options (the odds of each attack)", "options", "saikoro/simulate/fight.py"),
    ("line envelope (dispatch around the verb)", "dispatch", "saikoro/table/dispatch.py"),
    ("tracker verbs (rules, dice, texts)", "_slash", "saikoro/table/dispatch.py"),
    ("events (made, copied on write, folded)", "add", "saikoro/table/emit.py"),
)
OUTSIDE = "set-up and statistics"


def layer_shares(system: str, fights: int) -> dict[str, float]:
    """Share of the sampled time of ``fights`` fights of ``system`` in each of :data:`LAYERS`."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        raise SystemExit("--layers needs pyinstrument: pip install -e '.[bench]'") from None

    fight = encounter(system)
    simulate(fight, Plan(fights=5))
    profiler = Profiler(interval=0.0005)
    profiler.start()
    simulate(fight, Plan(fights=fights))
    profiler.stop()
    times = dict.fromkeys([label for label, _, _ in LAYERS] + [OUTSIDE], 0.0)

    def charge(frame, layer: str) -> None:  # type: ignore[no-untyped-def]
        for label, function, file in LAYERS:
            if frame.function == function and (frame.file_path or "").endswith(file):
                layer = label
        times[layer] += frame.time - sum(child.time for child in frame.children)
        for child in frame.children:
            charge(child, layer)

    session = profiler.last_session
    assert session is not None
    charge(session.root_frame(), OUTSIDE)
    whole = sum(times.values())
    return {label: spent / whole for label, spent in times.items()}


def lines_per_fight(system: str, fights: int) -> float:
    fight = encounter(system)
    base, _ = set_up(fight)
    playbook = playbook_for(fight.system)
    policies = Plan().policies()
    total = 0
    for number in range(1, fights + 1):
        result, _ = play_fight(base, playbook, policies, fight_seed(0, number))
        total += result.lines
    return total / fights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one run per system")
    parser.add_argument(
        "--jobs-fights", type=int, default=0, help="also N fights in 1 and in all CPUs' processes"
    )
    parser.add_argument(
        "--layers", action="store_true", help="share of each layer of the table (pyinstrument)"
    )
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    for system in FIGHTS:
        fight = encounter(system)
        simulate(fight, Plan(fights=5))  # warm: the odds of each option are cached
        best_cpu = best_wall = float("inf")
        summary = None
        for run in range(args.repeat):
            cpu, wall = time.process_time(), time.perf_counter()
            summary = simulate(fight, Plan(fights=args.fights, seed=run))
            best_cpu = min(best_cpu, time.process_time() - cpu)
            best_wall = min(best_wall, time.perf_counter() - wall)
        assert summary is not None
        per_second = args.fights / best_cpu
        print(
            f"{system:12} {per_second:7.0f} fights/s (CPU; wall {args.fights / best_wall:.0f}/s)"
            f"  {lines_per_fight(system, 50):5.1f} lines/fight  {summary.mean_rounds:5.2f} rounds"
            f"  10 000 fights ≈ {10_000 / per_second:5.0f} s CPU"
        )
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(simulate, fight, Plan(fights=min(args.fights, 50)))
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    if args.layers:
        for system in FIGHTS:
            print(f"{system}, {args.fights} fights sampled:")
            for label, share in layer_shares(system, args.fights).items():
                print(f"  {share:6.1%}  {label}")
    if args.jobs_fights:
        for system in FIGHTS:
            compare_jobs(system, args.jobs_fights)


def compare_jobs(system: str, fights: int) -> None:
    """``fights`` fights in one process, then in one per CPU: wall seconds, same figures."""
    fight, plan, cpus = encounter(system), Plan(fights=fights, seed=1), available_cpus()
    walls, bodies = [], []
    for jobs in (1, cpus):
        wall = time.perf_counter()
        body = simulate(fight, plan, jobs=jobs).to_json()
        walls.append(time.perf_counter() - wall)
        body.pop("seconds")
        bodies.append(body)
    assert bodies[0] == bodies[1], "the processes gave other figures"
    one, many = walls
    print(
        f"{system:12} {fights} fights: 1 process {one:5.1f} s ({fights / one:4.0f}/s), "
        f"{cpus} processes {many:5.1f} s ({fights / many:4.0f}/s, x{one / many:.2f}; "
        f"10 000 fights ≈ {10_000 * many / fights:3.0f} s)"
    )


if __name__ == "__main__":
    main()
