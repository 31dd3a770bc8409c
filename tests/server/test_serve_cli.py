"""``saikoro serve`` wiring: options reach uvicorn and the app (uvicorn.run is replaced)."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import pytest
import typer
import uvicorn
from typer.testing import CliRunner

import saikoro.cli.serve
from saikoro.cli.main import app
from tests.loopback import free_address

check_port_free = saikoro.cli.serve._check_port_free  # before the fixture replaces it


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch) -> None:
    """``serve`` opens its database before uvicorn starts: the default ./saikoro.db and the
    relative paths below are made here, not in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(autouse=True)
def any_port_is_free(request, monkeypatch) -> None:
    """uvicorn.run is replaced in these tests, so the port need not really be free."""
    if "busy_port" not in request.node.name:
        monkeypatch.setattr(saikoro.cli.serve, "_check_port_free", lambda host, port: None)


def test_serve_passes_host_port_and_db(monkeypatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(asgi_app: Any, **options: Any) -> None:
        seen["app"], seen["options"] = asgi_app, options

    monkeypatch.setattr(uvicorn, "run", fake_run)
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--db", "rooms.sqlite"]
    )
    assert result.exit_code == 0, result.output
    assert seen["options"]["host"] == "0.0.0.0" and seen["options"]["port"] == 8123
    assert seen["app"].state.db_url == "rooms.sqlite"
    assert seen["app"].title == "saikoro BCDice-API"


def test_serve_runs_the_pool_and_the_connection_rules(monkeypatch) -> None:
    from saikoro.server.connections import GuardedH11Protocol
    from saikoro.server.pool import RollPool

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: seen.update(app=a, **o))
    result = CliRunner().invoke(
        app,
        ["serve", "--roll-workers", "3", "--deadline", "2.5", "--per-address", "9",
         "--forwarded-allow-ips", "10.0.0.1, 10.0.0.2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    pool = seen["app"].state.roller
    assert isinstance(pool, RollPool)
    assert (pool.limits.workers, pool.limits.deadline) == (3, 2.5)
    protocol = seen["http"]
    assert issubclass(protocol, GuardedH11Protocol)
    assert protocol.rules.per_address == 9
    assert protocol.rules.trusted.texts() == ["10.0.0.1", "10.0.0.2"]
    assert "10.0.0.2" in protocol.rules.trusted and "10.0.0.3" not in protocol.rules.trusted
    assert seen["proxy_headers"] is False  # the app reads forwarded headers, uvicorn does not
    assert seen["limit_concurrency"] is None  # uvicorn's plain-text 503 is never used
    assert seen["timeout_keep_alive"] == 5.0


def test_serve_defaults(monkeypatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: seen.update(app=a, **o))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 0
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8000)
    assert seen["app"].state.db_url == "saikoro.db"  # the table's SQLite file, said at start-up
    assert "./saikoro.db" in result.output
    assert "http://127.0.0.1:8000/" in result.output


def test_bad_port_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2


def test_busy_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "saikoro", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 1
    assert "待ち受けできません" in done.stderr and "cannot listen" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("host", ["a" * 70, "a..b"])
def test_a_host_name_that_cannot_be_encoded_is_a_clear_error(host, capsys) -> None:
    """getaddrinfo raises UnicodeError (not OSError) for names IDNA cannot encode."""
    with pytest.raises(typer.Exit) as caught:
        check_port_free(host, 8000)
    assert caught.value.exit_code == 1
    err = capsys.readouterr().err
    assert "待ち受けできません" in err and "cannot listen" in err


def test_an_unknown_log_level_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: None)
    result = CliRunner().invoke(app, ["serve", "--log-level", "bogus"])
    assert result.exit_code == 2
    assert "bogus" in result.output and result.exception.__class__ is SystemExit


def test_a_host_name_that_is_not_utf8_is_a_clear_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "serve", "--host", "\udcff", "--port", "8000"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert b"cannot listen" in done.stderr and b"Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("postgresql", "Connection refused"),
        ("missing folder", "unable to open database file"),
        ("a directory", "unable to open database file"),
        ("not a database", "file is not a database"),
    ],
)
def test_a_database_that_cannot_be_opened_is_exit_2_before_uvicorn(tmp_path, kind, why) -> None:
    """The real CLI in a subprocess: ``saikoro play``'s bilingual store message, exit 2, no
    uvicorn start-up traceback, and neither password of the URL printed."""
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("hello, not SQLite\n" * 100)
    host, port = free_address()  # nothing listens there
    db = {
        "postgresql": f"postgresql://postgres:Super%40Secret@{host}:{port}/nodb?password=OtherPw",
        "missing folder": str(tmp_path / "nonexistent" / "dir" / "x.db"),
        "a directory": str(tmp_path),
        "not a database": str(not_a_database),
    }[kind]
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "serve", "--port", "0", "--db", db],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    shown = done.stdout + done.stderr
    assert done.returncode == 2, shown
    assert "を開けません" in done.stderr and "cannot open database" in done.stderr
    assert why in done.stderr
    for absent in ("Traceback", "StoreError", "Application startup", "Uvicorn running"):
        assert absent not in shown
    assert "Super" not in shown and "OtherPw" not in shown
    if kind == "postgresql":
        assert f"postgres:***@{host}" in shown and "password=***" in shown


def test_the_database_is_checked_in_process_too(tmp_path, monkeypatch) -> None:
    """Through CliRunner: uvicorn is never reached when the database cannot be opened."""
    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **o: started.append(a))
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "no" / "x.db")])
    assert result.exit_code == 2 and not started
    assert "cannot open database" in result.output


def test_serve_trusts_no_proxy_by_default(monkeypatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: seen.update(app=a, **o))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    assert not seen["http"].rules.trusted and "127.0.0.1" not in seen["http"].rules.trusted
    assert seen["proxy_headers"] is False
    assert seen["app"].state.public_url is None


def test_serve_takes_trusted_proxies_and_a_public_url(monkeypatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: seen.update(app=a, **o))
    result = CliRunner().invoke(
        app,
        ["serve", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1,10.1.0.0/16",
         "--public-url", "https://Table.example.org/"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert seen["http"].rules.trusted.texts() == ["127.0.0.1", "::1", "10.1.0.0/16"]
    assert "10.1.2.3" in seen["http"].rules.trusted
    assert seen["app"].state.public_url == "https://table.example.org"
    assert "https://table.example.org/" in result.output


@pytest.mark.parametrize(
    "option",
    [
        ["--trusted-proxy", "*"],
        ["--trusted-proxy", "proxy.example.org"],
        ["--public-url", "table.example.org"],
        ["--public-url", "ftp://table.example.org"],
        ["--public-url", "https://table.example.org/saikoro"],
        ["--public-url", "https://table.example.org/?x=1"],
        ["--public-url", "https://user@table.example.org"],
        ["--public-url", "https://table.example.org:port"],
    ],
)
def test_a_bad_proxy_option_is_a_clear_usage_error(option, monkeypatch) -> None:
    ran: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: ran.append(a))
    result = CliRunner().invoke(app, ["serve", *option])
    assert result.exit_code == 2, result.output
    assert not ran and result.exception.__class__ is SystemExit
    assert option[1] in result.output
    assert ("プロキシ" in result.output and "proxy" in result.output) or (
        "公開 URL" in result.output and "public URL" in result.output
    )
