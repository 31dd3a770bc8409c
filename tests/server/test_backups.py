"""The backup commands of docs/deploy.md, run as written against a running ``saikoro serve``.

Each copy is taken while the server holds the database open, then a second server is
started on the copy and the GM's link of the original room still opens it with its line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from .table_live import Link, Room, create_room, start_server

REPO = Path(__file__).resolve().parents[2]
DEPLOY = (REPO / "docs" / "deploy.md").read_text("utf-8")


def documented(command: str) -> str:
    """``command`` must be in docs/deploy.md word for word (the test runs what it says)."""
    assert command in DEPLOY, f"docs/deploy.md no longer shows: {command}"
    return command


def run(command: str, cwd: Path) -> None:
    done = subprocess.run(
        command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def needed(tool: str, package: str) -> None:
    if shutil.which(tool) is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs {tool}: apt-get install {package} (see .ci/run)")
        pytest.skip(f"{tool} is not installed (apt-get install {package})")


def a_room_with_a_line(base: str) -> Room:
    room = create_room(base)
    room.gm.say("バックアップ前の一言")
    return room


def restored_line(db: str, folder: Path, room: Room) -> list[str]:
    """What the GM's link shows of the room on a server started on the copy."""
    server = start_server(db, folder)
    try:
        gm = Link(server.base, room.name, room.gm.token)
        return [event["text"]["ja"] for event in gm.events()["events"] if event.get("text")]
    finally:
        server.stop()


SQLITE_CLI = """sqlite3 saikoro.db ".backup 'saikoro-backup.db'\""""
SQLITE_PYTHON = (
    'python3 -c "import sqlite3, sys; d = sqlite3.connect(sys.argv[2]);'
    ' sqlite3.connect(sys.argv[1]).backup(d); d.close()" saikoro.db saikoro-backup.db'
)


@pytest.mark.parametrize("command", [SQLITE_CLI, SQLITE_PYTHON], ids=["sqlite3", "python"])
def test_an_online_sqlite_backup_restores_the_room(command: str, tmp_path: Path) -> None:
    if command.startswith("sqlite3"):
        needed("sqlite3", "sqlite3")
    live = tmp_path / "live"
    live.mkdir()
    server = start_server("saikoro.db", live)  # in its working directory, as by default
    try:
        room = a_room_with_a_line(server.base)
        run(documented(command).replace("python3 ", f"{sys.executable} ", 1), live)
    finally:
        server.stop()
    copy = tmp_path / "restored"
    copy.mkdir()
    shutil.copy(live / "saikoro-backup.db", copy / "saikoro.db")
    assert any("バックアップ前の一言" in text for text in restored_line("saikoro.db", copy, room))


def test_pg_dump_and_pg_restore_restore_the_room(postgres_url: str, tmp_path: Path) -> None:
    needed("pg_dump", "postgresql-client")
    server = start_server(postgres_url, tmp_path)
    try:
        room = a_room_with_a_line(server.base)
        dump = documented('pg_dump --format=custom --file=saikoro.dump "$DATABASE_URL"')
        run(dump.replace("$DATABASE_URL", postgres_url), tmp_path)
    finally:
        server.stop()
    name = f"saikoro_restored_{uuid.uuid4().hex[:8]}"
    base, _, _ = postgres_url.rpartition("/")
    restored = f"{base}/{name}"
    admin = f"{base}/postgres"
    run(f'psql "{admin}" -q -c "CREATE DATABASE {name}"', tmp_path)
    try:
        restore = documented('pg_restore --no-owner --dbname="$RESTORED_URL" saikoro.dump')
        run(restore.replace("$RESTORED_URL", restored), tmp_path)
        assert any(
            "バックアップ前の一言" in text for text in restored_line(restored, tmp_path, room)
        )
    finally:
        run(f'psql "{admin}" -q -c "DROP DATABASE {name} WITH (FORCE)"', tmp_path)
