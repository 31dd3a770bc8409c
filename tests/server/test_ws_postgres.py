"""Scale-out: two ``saikoro serve`` processes on one real PostgreSQL reach each other's
WebSocket clients through LISTEN/NOTIFY; ``--workers`` needs PostgreSQL; the database
password given in ``--db`` is never printed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from .table_live import Link, Server, create_room, open_socket, sheet, start_server

pytestmark = pytest.mark.postgres

PASSWORD = "pw-never-printed-7f3a"


def _with_password(url: str) -> str:
    """The test server trusts loopback, so any password works: one to look for in output."""
    return make_url(url).set(password=PASSWORD).render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def two_servers(
    postgres_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server]]:
    folder = Path(tmp_path_factory.mktemp("pg-servers"))
    db = _with_password(postgres_url)
    first = start_server(db, folder, "--log-level", "info", "--rooms-per-minute", "0")
    try:
        second = start_server(db, folder, "--log-level", "info", "--rooms-per-minute", "0")
    except BaseException:
        first.stop()
        raise
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_a_line_posted_to_one_server_reaches_a_websocket_client_of_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    one, other = two_servers
    room = create_room(one.base)
    alice = room.join(sheet("alice"))
    alice_there = Link(other.base, room.name, alice.token)
    gm_there = Link(other.base, room.name, room.gm.token)

    async def scenario() -> tuple[list[dict], list[dict]]:
        watching_other = await open_socket(gm_there)
        watching_one = await open_socket(room.gm)
        for i in range(5):
            await asyncio.to_thread(alice.say, f"一台目から {i}")  # posted to server one
            await asyncio.to_thread(alice_there.say, f"二台目から {i}")  # posted to the other
        far = await watching_other.until_events(10)
        near = await watching_one.until_events(10)
        await watching_other.close()
        await watching_one.close()
        return far, near

    far, near = asyncio.run(scenario())
    seqs = [e["seq"] for e in far]
    assert seqs == list(range(seqs[0], seqs[0] + 10))
    assert [e["seq"] for e in near] == seqs
    texts = [e["text"]["ja"] for e in far]
    assert texts == [e["text"]["ja"] for e in near]
    assert [t.rpartition(": ")[2] for t in texts] == [
        line for i in range(5) for line in (f"一台目から {i}", f"二台目から {i}")
    ]


def test_the_database_password_and_tokens_are_never_printed(
    two_servers: tuple[Server, Server],
) -> None:
    one, _other = two_servers
    room = create_room(one.base)
    link = room.join(sheet("bob"))

    async def touch() -> None:
        socket = await open_socket(link, after=0)
        await socket.until_events(1)
        await socket.close()

    asyncio.run(touch())
    for server in two_servers:
        log = server.log()
        assert "データベース / database: postgresql" in log
        assert PASSWORD not in log and "***" in log
    log = one.log()
    assert "token=[redacted]" in log
    for token in (room.gm.token, room.created["invite_token"], link.token):
        assert token not in log


def test_workers_need_postgresql(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "serve", "--workers", "2", "--db", "x.db"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    assert "PostgreSQL" in done.stderr and "Traceback" not in done.stderr


def test_workers_share_rooms_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    """``--workers 2``: whichever process answers, every WebSocket client hears every line."""
    server = start_server(
        _with_password(postgres_url), tmp_path, "--workers", "2", "--rooms-per-minute", "0"
    )
    try:
        room = create_room(server.base)

        async def scenario() -> list[list[dict]]:
            sockets = [await open_socket(room.gm) for _ in range(4)]
            for i in range(6):  # new connections each: uvicorn spreads them over workers
                await asyncio.to_thread(Link(server.base, room.name, room.gm.token).say, f"行 {i}")
            seen = [await socket.until_events(6) for socket in sockets]
            for socket in sockets:
                await socket.close()
            return seen

        seen = asyncio.run(scenario())
        assert all([e["seq"] for e in events] == [e["seq"] for e in seen[0]] for events in seen)
        assert PASSWORD not in server.log()
    finally:
        server.stop()
