"""Storage faults are clean (issue 14, item 4): a damaged SQLite file, a database that is
down, several processes creating a new file at once — a clear error and exit status 2 (or
success), never a traceback; passwords never printed; other people's control characters
never reach the terminal raw."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.store import open_store
from tests.loopback import free_address

from .helpers import play

REPO = Path(__file__).resolve().parents[2]


def play_text(db: str, lines: list[str], *extra: str) -> Any:
    """``saikoro play`` in text mode, in-process; the result (exit code, stdout, stderr)."""
    result = CliRunner().invoke(
        app,
        ["play", "--db", db, "--room", "r", *extra],
        input="\n".join(lines) + "\n",
    )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: the test fails with it
    return result


def room_with_lines(db: Path, count: int = 6) -> None:
    out = play(str(db), "r", [f"こんにちは {i}" for i in range(count)], system="LittleWorld")
    assert all(line["ok"] for line in out)
    for suffix in ("-wal", "-shm"):  # every connection closed: the WAL is checkpointed
        assert not Path(str(db) + suffix).exists() or Path(str(db) + suffix).stat().st_size == 0


def test_corrupt_page_is_exit_2_without_traceback(tmp_path: Path) -> None:
    db = tmp_path / "room.db"
    room_with_lines(db)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'saikoro_events'"
        ).fetchone()[0]
    data = bytearray(db.read_bytes())
    start = (root - 1) * page  # the events table's page: the rooms table stays readable
    data[start : start + page] = os.urandom(page)
    db.write_bytes(bytes(data))
    result = play_text(str(db), ["1D6"])
    assert result.exit_code == 2
    assert "database" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("which", [0.3, 0.5, 0.8])
def test_a_damaged_page_anywhere_is_refused_before_anything_is_written(
    tmp_path: Path, which: float
) -> None:
    """A page SQLite would not read for this line (an index, an old event) is damaged: the
    file is refused at open (quick_check), exit 2, and left exactly as it was."""
    db = tmp_path / "room.db"
    out = play(
        str(db), "r", [f"長めの発言 {i} " + "あ" * 200 for i in range(150)], system="LittleWorld"
    )
    assert all(line["ok"] for line in out)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 20
    data = bytearray(db.read_bytes())
    start = int(pages * which) * page
    data[start : start + page] = os.urandom(page)
    db.write_bytes(bytes(data))
    result = play_text(str(db), ["1D6", "こんにちは"])
    assert result.exit_code == 2, result.output
    assert "damaged" in result.stderr and "壊れています" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert db.read_bytes() == bytes(data)


def test_garbled_event_after_the_last_snapshot_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("saikoro.store.sql.SNAPSHOT_EVERY", 3)
    db = tmp_path / "room.db"
    room_with_lines(db)
    with sqlite3.connect(db) as conn:
        last_snapshot = conn.execute("SELECT max(version) FROM saikoro_snapshots").fetchone()[0]
        last = conn.execute("SELECT max(seq) FROM saikoro_events").fetchone()[0]
        assert last_snapshot is not None and last > last_snapshot
        conn.execute("UPDATE saikoro_events SET body = '{\"kind\": 17, ' WHERE seq = ?", (last,))
    result = play_text(str(db), ["1D6"])
    assert result.exit_code == 2
    assert f"event {last}" in result.stderr and "damaged" in result.stderr


@pytest.mark.parametrize("version", ["'x'", "1", "99"])
def test_room_version_that_disagrees_with_its_events_is_exit_2(
    tmp_path: Path, version: str
) -> None:
    """A rooms row edited by hand: named as damaged (main retried 20 times, then said
    "the room is too busy")."""
    db = tmp_path / "room.db"
    room_with_lines(db)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE saikoro_rooms SET version = {version}")
    result = play_text(str(db), ["1D6"])
    assert result.exit_code == 2 and "damaged" in result.stderr


@pytest.mark.parametrize("garbage", ["not json", '{"version": "x"}', "[]"])
def test_garbled_snapshot_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, garbage: str
) -> None:
    """Snapshots are a cache: a damaged one is passed over and the events replayed."""
    monkeypatch.setattr("saikoro.store.sql.SNAPSHOT_EVERY", 3)
    db = tmp_path / "room.db"
    room_with_lines(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE saikoro_snapshots SET state = ?", (garbage,))
    store = open_store(str(db))
    try:
        room = store.get_room("r")
        assert room is not None
        assert store.load_state(room) == store.replay_all(room)
    finally:
        store.close()
    out = play(str(db), "r", ["/log 3"])
    assert out[0]["ok"] and "こんにちは 5" in out[0]["text"]


_OPEN_ON_SIGNAL = textwrap.dedent(
    """
    import os, sys, time
    from saikoro.store import open_store
    path, ready, go = sys.argv[1:4]
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.001)
    open_store(path).close()
    """
)


def test_four_processes_creating_a_new_file_at_once(tmp_path: Path) -> None:
    """4 processes (modules loaded, then released together) create the tables of the same
    new file (main: "table saikoro_rooms already exists" in most trials)."""
    for trial in range(3):
        db, go = tmp_path / f"new{trial}.db", tmp_path / f"go{trial}"
        ready = [tmp_path / f"ready{trial}-{i}" for i in range(4)]
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", _OPEN_ON_SIGNAL, str(db), str(flag), str(go)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for flag in ready
        ]
        deadline = time.monotonic() + 60
        while not all(flag.exists() for flag in ready) and time.monotonic() < deadline:
            time.sleep(0.01)
        go.touch()
        for process in processes:
            _out, err = process.communicate(timeout=60)
            assert process.returncode == 0, err


@pytest.mark.parametrize(
    ("where", "shown_instead"),
    [
        ("bob:hunter2-secret@{host}:{port}/saikoro", "bob:***@{host}"),
        ("bob@{host}:{port}/saikoro?password=hunter2-secret", "saikoro?password=***"),
    ],
)
def test_postgresql_down_at_start_is_exit_2_and_hides_the_password(
    where: str, shown_instead: str
) -> None:
    host, port = free_address()  # nothing listens there
    url = "postgresql://" + where.format(host=host, port=port)
    shown_instead = shown_instead.format(host=host)
    result = play_text(url, ["1D6"], "--system", "LittleWorld")
    assert result.exit_code == 2
    shown = result.stderr + result.stdout
    assert "hunter2-secret" not in shown and shown_instead in shown
    assert "Traceback" not in shown


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bob:pw@db.example/x", "postgresql://bob:***@db.example/x"),
        ("postgresql+psycopg://u:p%40ss@h:5432/d?sslmode=require", "u:***@h:5432/d"),
        ("sqlite:///tmp/x.db", "sqlite:///tmp/x.db"),
        ("/home/gm/rooms.db", "/home/gm/rooms.db"),
        ("postgresql://a:b@[::1", "postgresql://a:***@[::1"),  # not even a valid URL
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    from saikoro.store.sql import redact_url

    assert shown in redact_url(url)
    assert "pw" not in redact_url(url) and "p%40ss" not in redact_url(url)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "postgresql://postgres:Super%40Secret@127.0.0.1:1/nodb?password=OtherPw",
            "postgresql://postgres:***@127.0.0.1:1/nodb?password=***",
        ),
        (
            "postgresql://u@h/d?sslmode=require&sslpassword=OtherPw&application_name=gm",
            "postgresql://u@h/d?application_name=gm&sslmode=require&sslpassword=***",
        ),
        ("postgres://h/d?PassWord=OtherPw&password=OtherPw2", "?PassWord=***&password=***"),
        ("postgresql://a:b@[::1/d?password=OtherPw", "postgresql://a:***@[::1/d?password=***"),
    ],
)
def test_redact_url_hides_a_password_given_as_a_query_parameter(url: str, shown: str) -> None:
    """libpq takes ``password`` (and ``sslpassword``) as query parameters too."""
    from saikoro.store.sql import redact_url

    assert shown in redact_url(url)
    assert "Super" not in redact_url(url) and "OtherPw" not in redact_url(url)


def test_every_password_of_a_url_is_known_for_hiding_in_driver_messages() -> None:
    """The store replaces these values in a driver's text, then hides URLs quoted there."""
    from saikoro.store.sql import _secrets_of, hide_url_secrets

    url = "postgresql+psycopg://u:p%40ss@h/d?password=OtherPw&sslpassword=Key&sslmode=require"
    assert _secrets_of(url) == ["OtherPw", "p@ss", "Key"]
    assert _secrets_of("sqlite:///tmp/x.db") == []
    quoted = 'no server at "postgresql://u:p@h/d?password=OtherPw&sslmode=require"'
    assert hide_url_secrets(quoted) == (
        'no server at "postgresql://u:***@h/d?password=***&sslmode=require"'
    )


def _pg_script(
    action: str, address: tuple[str, int], directory: str
) -> subprocess.CompletedProcess[str]:
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
        timeout=120,
    )


def test_postgresql_going_down_mid_session_is_a_store_error_and_exit_2() -> None:
    """A private server, stopped between two lines: the second line is refused with the
    store's message (not "internal error" and an exception's repr); exit status 2."""
    if not shutil.which("bash") or not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        if os.environ.get("CI"):
            pytest.fail("CI needs PostgreSQL: apt-get install postgresql (see .ci/run)")
        pytest.skip("PostgreSQL is not installed")
    address, directory = free_address(), f"/tmp/saikoro-down-{uuid.uuid4().hex[:8]}"
    started = _pg_script("start", address, directory)
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().rpartition("=")[2]
    try:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "saikoro",
                "play",
                "--db",
                url,
                "--room",
                "r",
                "--system",
                "LittleWorld",
                "--json",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdin is not None and process.stdout is not None
        watchdog = threading.Timer(90, process.kill)  # a hang fails the test, not the run
        watchdog.start()
        process.stdin.write("こんにちは\n")
        process.stdin.flush()
        first = json.loads(process.stdout.readline())
        assert first["ok"]
        _pg_script("stop", address, directory)
        process.stdin.write("もしもし\n")
        process.stdin.flush()
        second = json.loads(process.stdout.readline())
        process.stdin.close()
        code = process.wait(timeout=60)
        err = process.stderr.read() if process.stderr else ""
        watchdog.cancel()
    finally:
        _pg_script("stop", address, directory)
        shutil.rmtree(directory, ignore_errors=True)
    assert not second["ok"] and second["reason"] == "storage unavailable", second
    assert "OperationalError(" not in second["en"] and "internal error" not in second["en"]
    assert code == 2 and "Traceback" not in err


def test_other_peoples_control_characters_are_escaped_on_the_terminal(tmp_path: Path) -> None:
    """A player's chat with OSC (window title) and CSI (clear screen) escapes is shown as
    text in the GM's terminal; the room keeps the text exactly."""
    db = str(tmp_path / "room.db")
    hostile = "やあ \x1b]0;pwned\x07\x1b[2J\x9b31m\r消えた"
    out = play(
        db, "r", [hostile], system="LittleWorld", gm=False
    )  # a player (an unknown --as is refused)
    assert out[0]["ok"]
    result = play_text(db, ["/log"], "--gm")
    assert result.exit_code == 0
    shown = result.stdout
    for raw in ("\x1b", "\x07", "\x9b", "\r"):
        assert raw not in shown
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x0d消えた" in shown
    with sqlite3.connect(db) as conn:
        bodies = [row[0] for row in conn.execute("SELECT body FROM saikoro_events")]
    assert any(hostile in json.loads(body)["data"].get("text", "") for body in bodies)
    as_json = play_text(db, ["/log"], "--json")  # JSON escapes C0 controls; C1 too
    assert as_json.exit_code == 0 and "\x9b" not in as_json.stdout and "\x1b" not in as_json.stdout
    assert hostile in json.loads(as_json.stdout.splitlines()[0])["text"]
