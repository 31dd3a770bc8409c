"""Outages are 503, not the user's mistake (issue 18, point 2), through real sockets.

A full disk, a read-only database and a PostgreSQL server that is down answer ``503
storage unavailable`` with ``Retry-After`` and a message that names no path, host or URL
(the detail goes to the server's log); nothing is half-written, and where the database can
still be read (full, read-only) every read keeps working. Before, each was ``422 store
error`` — the status of bad input — with the database's path shown to every player.

The full disk is a real one: a 1 MB tmpfs filled to the last byte (mounting needs root;
without it that test is skipped and the next one, SQLite's own page limit on the server's
connections, still hits SQLITE_FULL). The read-only database is a real read-only open
(``?mode=ro``). (Linux refuses to remount a filesystem read-only while the server holds
its database open for writing, and SQLite cannot open a WAL database on a read-only
filesystem at all: ``saikoro serve`` then refuses to start, saying so.)
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import subprocess
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.loopback import free_address

from .table_live import Link, Room, Server, create_room, open_socket, sheet, start_server

REPO = Path(__file__).resolve().parents[2]


def assert_unavailable(response: httpx.Response, *hidden: str) -> dict[str, Any]:
    """A 503 ``storage unavailable`` with Retry-After, in both languages, naming none of
    ``hidden`` (paths, hosts, URLs)."""
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "30"
    body = response.json()
    assert body["ok"] is False and body["reason"] == "storage unavailable"
    assert "保存" in body["messages"]["ja"] and "try again" in body["messages"]["en"].lower()
    for secret in (*hidden, "sqlite", "postgresql", "127.0.0.1", "localhost", "/tmp", ".db"):
        assert secret not in response.text, (secret, response.text)
    return body


def line_until_refused(link: Link, limit: int = 2000) -> tuple[httpx.Response, int]:
    """Lines until one is refused: that answer and how many were taken."""
    for taken in range(limit):
        response = link.line(f"埋める {taken} " + "あ" * 400)
        if response.status_code != 200:
            return response, taken
    raise AssertionError(f"{limit} lines were all taken")


def fill(directory: Path) -> Path:
    """Fill the filesystem of ``directory`` to its last byte; the filler file."""
    filler = directory / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 16, 4096, 512, 1):
            try:
                while True:
                    os.write(descriptor, b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
    finally:
        os.close(descriptor)
    return filler


def reads_still_work(room: Room, player: Link, version: int) -> None:
    """The GM's and a player's reads answer, and the room is at ``version`` (the refused
    write left nothing behind)."""
    state = room.gm.state()
    assert state["version"] == version
    assert player.state()["version"] == version
    assert room.gm.events()["last_seq"] == version
    assert room.gm.http.get(f"{room.gm.path}/log.html").status_code == 200
    assert room.gm.http.get(f"{room.gm.path}/links").status_code == 200


async def socket_line(link: Link, line: str) -> dict[str, Any]:
    socket = await open_socket(link)
    try:
        return await socket.send_line(line)
    finally:
        await socket.close()


@contextlib.contextmanager
def mounted(*command: str, target: Path) -> Iterator[None]:
    done = subprocess.run(["mount", *command, str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here ({done.stderr.strip()}): needs root")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


def test_a_full_disk_is_503_while_reads_work_and_nothing_is_half_written(tmp_path: Path) -> None:
    if not shutil.which("mount"):
        pytest.skip("no mount command")
    disk = tmp_path / "disk"
    disk.mkdir()
    with mounted("-t", "tmpfs", "-o", "size=1m", "tmpfs", target=disk):
        server = start_server(str(disk / "rooms.db"), tmp_path, "--line-rate", "0")
        try:
            room = create_room(server.base)
            player = room.join(sheet("alice"))
            room.gm.say("満杯の前")
            filler = fill(disk)
            refused, _taken = line_until_refused(room.gm)  # SQLite's free pages go first
            assert_unavailable(refused, str(disk), str(tmp_path))
            version = room.gm.state()["version"]
            reads_still_work(room, player, version)
            # the player's line and a WebSocket line are refused the same way
            assert_unavailable(player.line("1D6"), str(disk))
            outcome = asyncio.run(socket_line(player, "こんにちは"))
            assert outcome["status"] == 503 and outcome["reason"] == "storage unavailable"
            assert str(disk) not in str(outcome)
            joining = httpx.post(
                f"{server.base}{room.gm.path}/join",
                json={"invite": room.created["invite_token"], "character": sheet("bob")},
                timeout=60,
            )
            assert_unavailable(joining, str(disk))
            reads_still_work(room, player, version)
            assert "ボブ" not in {c["name"] for c in room.gm.state()["characters"]}
            # the detail is in the server's log, for its administrator
            assert "storage:" in server.log() and "full" in server.log()
            filler.unlink()  # space again: the table goes on
            assert room.gm.line("空きができた").status_code == 200
            assert player.line("1D6").status_code == 200
        finally:
            server.stop()


def test_sqlite_full_from_its_page_limit_is_503_and_reads_work(tmp_path: Path) -> None:
    """SQLite's own SQLITE_FULL (``PRAGMA max_page_count`` on every connection of the
    server's store), through a real socket: runs without root."""
    import uvicorn
    from sqlalchemy import event

    from saikoro.server import create_app
    from saikoro.server.table.limits import TableLimits

    app = create_app(str(tmp_path / "rooms.db"), table_limits=TableLimits(line_rate=0))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(24_000):  # waiting on a condition; the bound only stops a hang
            if server.started:
                break
            threading.Event().wait(0.005)
        base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        room = create_room(base)
        player = room.join(sheet("alice"))
        engine = app.state.table.store.engine

        def limit_pages(dbapi_connection: Any, _record: Any) -> None:
            pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
            dbapi_connection.execute(f"PRAGMA max_page_count={pages + 2}")

        event.listen(engine, "connect", limit_pages)
        engine.dispose()  # every connection from now on has the limit
        refused, _taken = line_until_refused(room.gm)
        assert_unavailable(refused, str(tmp_path))
        reads_still_work(room, player, room.gm.state()["version"])
    finally:
        server.should_exit = True
        thread.join(timeout=60)


def test_a_read_only_open_is_503_for_writes_and_reads_work(tmp_path: Path) -> None:
    """``--db sqlite:///file:…?mode=ro&uri=true``: SQLite opens the file read-only."""
    db = tmp_path / "rooms.db"
    writer = start_server(str(db), tmp_path)
    try:
        room = create_room(writer.base)
        player = room.join(sheet("alice"))
        room.gm.say("読み取り専用の前")
        version = room.gm.state()["version"]
    finally:
        writer.stop()
    reader = start_server(f"sqlite:///file:{db}?mode=ro&uri=true", tmp_path)
    try:
        room = Room(reader.base, room.name, room.created, _moved(room.gm, reader), room.spectator)
        player = _moved(player, reader)
        reads_still_work(room, player, version)
        assert_unavailable(room.gm.line("書けないはず"), str(db), str(tmp_path))
        assert_unavailable(player.line("1D6"), str(db))
        made = httpx.post(
            f"{reader.base}/api/rooms", json={"name": "新しい部屋", "system": "LittleWorld"}
        )
        assert_unavailable(made, str(db))
        reads_still_work(room, player, version)
        assert "storage:" in reader.log() and "readonly" in reader.log()
    finally:
        reader.stop()


def _moved(link: Link, server: Server) -> Link:
    return Link(server.base, link.room, link.token)


def _pg(action: str, address: tuple[str, int], directory: str) -> subprocess.CompletedProcess[str]:
    host, port = address
    env = {
        **os.environ,
        "SAIKORO_TEST_PG_HOST": host,
        "SAIKORO_TEST_PG_PORT": str(port),
        "SAIKORO_TEST_PG_DIR": directory,
    }
    return subprocess.run(
        ["bash", str(REPO / "scripts" / "test-postgres.sh"), action],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _pg_restart(address: tuple[str, int], directory: str) -> None:
    """Start the stopped server again on its data (the script's start makes a new one)."""
    host, port = address
    (binaries,) = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1:]
    command = (
        f"{binaries}/pg_ctl -D {directory} -l {directory}/server.log -w -o "
        f"'-k /tmp -p {port} -h {host} -c fsync=off' start"
    )
    as_pg = ["su", "postgres", "-s", "/bin/bash", "-c"] if os.getuid() == 0 else ["bash", "-c"]
    done = subprocess.run([*as_pg, command], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.postgres
def test_postgresql_down_is_503_without_host_and_back_when_it_returns(tmp_path: Path) -> None:
    """A private PostgreSQL server, stopped under a running ``saikoro serve`` and started
    again: the lines meanwhile are 503 (no host, port or URL in the body; the detail in the
    log), and the table goes on once the database is back."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        if os.environ.get("CI"):
            pytest.fail("CI needs PostgreSQL: apt-get install postgresql (see .ci/run)")
        pytest.skip("PostgreSQL is not installed")
    address, directory = free_address(), f"/tmp/saikoro-outage-{uuid.uuid4().hex[:8]}"
    host, port = address
    started = _pg("start", address, directory)
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().rpartition("=")[2]
    server = start_server(url, tmp_path)
    try:
        room = create_room(server.base)
        player = room.join(sheet("alice"))
        room.gm.say("落ちる前")
        version = room.gm.state()["version"]
        assert _pg("stop", address, directory).returncode == 0
        for link in (room.gm, player):
            assert_unavailable(link.line("届かないはず"), host, str(port), url)
        assert_unavailable(room.gm.http.get(f"{room.gm.path}/state"), host, str(port))
        assert "storage:" in server.log()
        _pg_restart(address, directory)
        assert room.gm.state()["version"] == version  # the refused lines wrote nothing
        assert room.gm.line("戻った").status_code == 200
    finally:
        server.stop()
        _pg("stop", address, directory)
        shutil.rmtree(directory, ignore_errors=True)
