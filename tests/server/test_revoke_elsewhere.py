"""A revoke made by another process takes effect at the server's very next request.

The server keeps resolved link tokens in memory (issue 20: no token lookup per request);
``saikoro room revoke`` run in another process cannot tell it on SQLite, so the server
notices the other process's commit (``PRAGMA data_version``, :mod:`saikoro.store.changes`)
before it trusts a kept token. Real processes: a ``saikoro serve`` and the CLI, each on its
own connections. (On PostgreSQL the revoke's own transaction notifies every server:
``tests/server/test_event_frames.py``.)
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .table_live import Room, Server, create_room, start_server


def saikoro(*args: str) -> str:
    """Run the saikoro CLI in a process of its own; its output (exit status 0 asserted)."""
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


#: ``saikoro room revoke ARGS…`` in a process of its own that has started (imports done)
#: and waits for a line on stdin before it runs the command, then says so and waits again:
#: the request that follows comes right after the revoke's commit — well inside the
#: server's once-a-second look at revocations, which alone saw it before.
REVOKER = """
import sys
from saikoro.cli.main import app
sys.stdin.readline()
try:
    app(["room", "revoke", *sys.argv[1:]])
except SystemExit as end:
    assert not end.code, end.code
print("REVOKED", flush=True)
sys.stdin.readline()
"""


@contextmanager
def revoker(db: str, room: Room, role: str) -> Iterator[Callable[[], None]]:
    """A started CLI process; calling what it yields makes it revoke ``room``'s ``role``
    link and returns once the revoke is committed."""
    listed = json.loads(saikoro("room", "links", "--db", db, "--room", room.name, "--json"))
    link = next(link for link in listed["links"] if link["role"] == role)
    args = [link["id"], "--db", db, "--room", room.name]
    process = subprocess.Popen(
        [sys.executable, "-c", REVOKER, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def revoke() -> None:
        process.stdin.write("\n")
        process.stdin.flush()
        for line in process.stdout:  # the CLI's own message, then ours
            if line.strip() == "REVOKED":
                return
        raise AssertionError(f"the revoke did not finish (status {process.wait()})")

    try:
        yield revoke
    finally:
        with contextlib.suppress(OSError):
            process.stdin.close()
        process.wait(timeout=60)


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    db = str(tmp_path / "rooms.db")
    server = start_server(db, tmp_path)
    try:
        yield server, db
    finally:
        server.stop()


def test_a_revoke_by_another_process_on_sqlite_is_refused_at_the_next_request(
    sqlite_server: tuple[Server, str],
) -> None:
    server, db = sqlite_server
    room = create_room(server.base, "DiceBot")
    with revoker(db, room, "spectator") as revoke:
        for _ in range(3):  # resolved once, then answered from the server's memory
            assert room.spectator.http.get(f"{room.spectator.path}/state").status_code == 200
        revoke()
        refused = room.spectator.http.get(f"{room.spectator.path}/state")  # no wait, no retry
        assert refused.status_code == 401, refused.text
    assert room.gm.http.get(f"{room.gm.path}/state").status_code == 200  # others still work
