"""Store benchmark: append and replay speed on SQLite and PostgreSQL, by log length.

    .venv/bin/python benchmarks/bench_store.py [--sizes 1000,10000,100000] [--postgres URL]

For each log length N (a LittleWorld room of three characters, events like a real
session's: chat, rolls, HP changes) it prints:
  - append/s: chat lines carried out one by one through ``TableSession.run`` (dispatch +
    one transaction each) at that log length;
  - replay/s: events folded per second when rebuilding the state from the whole log;
  - open ms:  opening the room (latest snapshot + the events after it) — what every new
    process pays; the ratio column compares it with a full replay.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

from saikoro.dice.randomizer import SeededSource
from saikoro.store import open_store
from saikoro.table import events as ev
from saikoro.table.events import Event
from saikoro.table.session import TableSession
from saikoro.table.state import apply_in_place

SHEETS = Path(__file__).resolve().parents[1] / "tests" / "table" / "sheets"
BATCH = 500


def fill(session: TableSession, total: int) -> None:
    """Grow the log to ``total`` events quickly (batches of 500 per transaction)."""
    store, room, state = session.store, session.room, session.state
    names = list(state.characters)
    i = state.version
    while state.version < total:
        batch = []
        for _ in range(min(BATCH, total - state.version)):
            i += 1
            name = names[i % len(names)]
            if i % 3 == 0:
                batch.append(
                    Event(
                        ev.STATUS_SET,
                        {"name": name, "key": "hp", "value": i % 10},
                        command_id=f"c{i}",
                    )
                )
            elif i % 3 == 1:
                batch.append(Event(ev.CHAT, {"text": f"line {i}"}, actor=name, command_id=f"c{i}"))
            else:
                batch.append(
                    Event(
                        ev.ROLL,
                        {"command": "2D6", "result": {"text": "(2D6) ＞ 7[3,4] ＞ 7"}},
                        actor=name,
                        command_id=f"c{i}",
                    )
                )
        seen = state.version
        for e in batch:
            apply_in_place(state, e)
        store.append(room, seen, batch, snapshot=state)


def measure(url: str, sizes: list[int], appends: int) -> list[tuple]:
    rows = []
    store = open_store(url)
    session = TableSession.open(
        store, "bench-" + uuid.uuid4().hex[:8], "LittleWorld", gm=True, source=SeededSource(1)
    )
    for name in ("alice", "bob", "goblin"):
        session.run(f"/char add {SHEETS / name}.json")
    for size in sizes:
        fill(session, size)
        start = time.perf_counter()
        for k in range(appends):
            session.run(f"@アリス chat {k}")
        append_rate = appends / (time.perf_counter() - start)
        start = time.perf_counter()
        full = store.replay_all(session.room)
        replay_s = time.perf_counter() - start
        start = time.perf_counter()
        opened = store.load_state(session.room)
        open_s = time.perf_counter() - start
        assert opened == full
        rows.append(
            (full.version, append_rate, full.version / replay_s, open_s * 1000, replay_s / open_s)
        )
    store.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--postgres", default=os.environ.get("SAIKORO_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    targets = [("SQLite", str(Path(tempfile.mkdtemp()) / "bench.db"))]
    if args.postgres:
        targets.append(("PostgreSQL", args.postgres))
    else:
        print("(no --postgres URL / SAIKORO_TEST_POSTGRES_URL: SQLite only)", file=sys.stderr)
    print(
        f"{'database':<11} {'events':>8} {'append lines/s':>15} "
        f"{'replay events/s':>16} {'open ms':>9} {'replay/open':>12}"
    )
    for label, url in targets:
        for version, append_rate, replay_rate, open_ms, ratio in measure(url, sizes, args.appends):
            print(
                f"{label:<11} {version:>8} {append_rate:>15.0f} "
                f"{replay_rate:>16.0f} {open_ms:>9.1f} {ratio:>11.0f}x"
            )


if __name__ == "__main__":
    main()
