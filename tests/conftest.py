"""Shared test fixtures.

Rule tests name their RULES.md IDs with ``@pytest.mark.rule("LW-COMBAT-05")`` (or in the
docstring); ``saikoro rules coverage`` lists them. ``via="table"`` / ``via="cli"`` on the marker
says the test proves the rule through table lines typed into a front end (``saikoro play``, the
server's table API) / a CLI command; the hook below fails a ``via`` test that never reaches them
(docs/architecture.md, "rules coverage").
"""

from __future__ import annotations

import contextvars
import glob
import json
import os
import re
import subprocess
import zlib
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_data import real_shared_dir, shared_dir

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def real_shared() -> Path | None:
    return real_shared_dir()


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


@pytest.fixture(autouse=True)
def _default_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts in the default language (ja), and a test that changes
    ``SAIKORO_LANG`` (``saikoro --lang en …`` sets it for the sub-commands) does not
    leak it into the tests after it: monkeypatch restores the variable afterwards."""
    monkeypatch.delenv("SAIKORO_LANG", raising=False)


#: The most processes ``-n auto`` (pyproject's addopts) runs the tests in: each starts its own
#: PostgreSQL server, test servers and Chromium.
MOST_WORKERS = 4


@pytest.hookimpl(optionalhook=True)  # a run without the plugin (-p no:xdist) has no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per CPU this process may use, at most :data:`MOST_WORKERS`."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None  # Linux
    cpus = len(usable) if usable is not None else os.cpu_count() or 1
    return max(1, min(MOST_WORKERS, cpus))


def xdist_worker() -> int:
    """This pytest-xdist worker's number (``gw1`` → 1); 0 in a run without workers."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw") or 0)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of a real PostgreSQL server.

    ``SAIKORO_TEST_POSTGRES_URL`` when set; otherwise a throwaway server is started with
    ``scripts/test-postgres.sh`` when Debian's postgresql package is installed (and stopped
    afterwards). Without PostgreSQL the test is skipped on a developer's machine and fails in CI.
    """
    url = os.environ.get("SAIKORO_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    script = REPO / "scripts" / "test-postgres.sh"
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        if os.environ.get("CI"):
            pytest.fail("CI needs PostgreSQL: apt-get install postgresql (see .ci/run)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    # One server per checkout and per pytest-xdist worker: test runs of two checkouts on one
    # machine (worktrees), or two workers of one run, must not share a cluster that the first
    # to finish stops under the other.
    checkout, worker = zlib.crc32(str(REPO).encode()), xdist_worker()
    env = {
        **os.environ,
        "SAIKORO_TEST_PG_PORT": str(54330 + checkout % 1000 * MOST_WORKERS + worker),
        "SAIKORO_TEST_PG_DIR": f"/tmp/saikoro-pytest-pg-{checkout:08x}-{worker}",
    }
    started = subprocess.run(
        ["bash", str(script), "start"], capture_output=True, text=True, env=env, timeout=120
    )
    if started.returncode != 0:
        pytest.fail(f"could not start PostgreSQL: {started.stderr}")
    yield started.stdout.strip().rpartition("=")[2]
    subprocess.run(["bash", str(script), "stop"], env=env, timeout=60, check=False)


# -- via="table" / via="cli": the test must really drive the table or the CLI -------------
#
# via="table" means "as a user plays": table lines typed into a front end — `saikoro play`
# (CliRunner.invoke on saikoro's app, or a subprocess running `saikoro play`) or a server's
# table API (in this process, or a live `saikoro serve` reached over HTTP/WebSocket).
# TableSession.run called by the test itself is the core's Python API: function level.

#: Set while a front end runs (CliRunner.invoke, the server's table API); a TableSession.run
#: under it is a table line through that front end.
_FRONT_END: contextvars.ContextVar[bool] = contextvars.ContextVar("front_end", default=False)

#: The table API's line endpoint of a live server (docs/table-api.md): POST /api/rooms/R/lines.
_LINE_ENDPOINT = re.compile(r"/api/rooms/[^/]+/lines$")


def _vias(item: pytest.Item) -> set[str]:
    return {str(m.kwargs["via"]) for m in item.iter_markers("rule") if "via" in m.kwargs}


def _runs_saikoro(args: Any) -> tuple[bool, bool]:
    """(runs saikoro, runs ``saikoro play``) for a subprocess's ``args``."""
    words = [str(a) for a in args] if isinstance(args, list | tuple) else str(args).split()
    saikoro = any("saikoro" in w for w in words)
    return saikoro, saikoro and "play" in words


def _recording(monkeypatch: pytest.MonkeyPatch, reached: set[str]) -> None:
    """Wrap the front ends' entry points so that using them is recorded: "cli" for a CLI
    command, "table" for a table line run through `saikoro play` or the server's table API."""
    import httpx
    from typer.testing import CliRunner

    from saikoro.cli import roll as roll_cli
    from saikoro.table.session import TableSession

    def wrap(owner: Any, name: str, level: str | None, front_end: bool = False) -> None:
        original = getattr(owner, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            if level:
                reached.add(level)
            if not front_end:
                return original(*args, **kwargs)
            token = _FRONT_END.set(True)
            try:
                return original(*args, **kwargs)
            finally:
                _FRONT_END.reset(token)

        monkeypatch.setattr(owner, name, recorded)

    def wrap_async(owner: Any, name: str) -> None:
        original = getattr(owner, name)

        async def recorded(*args: Any, **kwargs: Any) -> Any:
            token = _FRONT_END.set(True)  # asyncio.to_thread carries it to the worker thread
            try:
                return await original(*args, **kwargs)
            finally:
                _FRONT_END.reset(token)

        monkeypatch.setattr(owner, name, recorded)

    run_line = TableSession.run

    def table_line(*args: Any, **kwargs: Any) -> Any:
        if _FRONT_END.get():
            reached.add("table")
        return run_line(*args, **kwargs)

    monkeypatch.setattr(TableSession, "run", table_line)
    wrap(CliRunner, "invoke", "cli", front_end=True)
    wrap(roll_cli, "run", "cli")
    try:  # the table API's one way to run a line (HTTP and WebSocket), in this process
        from saikoro.server import table_api
    except ImportError:  # a core install without the server's extras
        pass
    else:
        wrap_async(table_api, "run_line")

    popen_init = subprocess.Popen.__init__

    def popen(self: Any, args: Any, *rest: Any, **kwargs: Any) -> None:
        saikoro, plays = _runs_saikoro(args)
        if saikoro:
            reached.add("cli")
        if plays:  # its table lines come on stdin
            reached.add("table")
        popen_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", popen)

    def line_request(request: httpx.Request) -> None:
        if request.method == "POST" and _LINE_ENDPOINT.search(request.url.path):
            reached.add("table")

    for client in (httpx.Client, httpx.AsyncClient):
        original_send = client.send

        def send(self: Any, request: httpx.Request, *a: Any, _o: Any = original_send, **k: Any):
            line_request(request)
            return _o(self, request, *a, **k)

        monkeypatch.setattr(client, "send", send)
    _record_socket_lines(monkeypatch, reached)


def _is_line_message(message: str) -> bool:
    try:
        body = json.loads(message)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("type") == "line"


def _record_socket_lines(monkeypatch: pytest.MonkeyPatch, reached: set[str]) -> None:
    """A ``{"type": "line"}`` message sent to a live server's room WebSocket (websockets)."""
    try:
        from websockets.asyncio.client import ClientConnection
    except ImportError:
        return
    original = ClientConnection.send

    async def send(self: Any, message: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(message, str) and _is_line_message(message):
            reached.add("table")
        return await original(self, message, *args, **kwargs)

    monkeypatch.setattr(ClientConnection, "send", send)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    vias = _vias(item)
    if not vias:
        return (yield)
    unknown = vias - {"table", "cli"}
    if unknown:
        pytest.fail(f"@pytest.mark.rule(via=...) must be 'table' or 'cli', not {unknown}")
    reached: set[str] = set()
    with pytest.MonkeyPatch.context() as monkeypatch:
        _recording(monkeypatch, reached)
        result = yield  # a failing test raises here
    if not vias & reached:
        # `saikoro play` is a CLI run too; a table line needs a front end, not TableSession.run
        pytest.fail(
            f"marked via={'/'.join(sorted(vias))} but never ran "
            + (
                "a table line through a front end (`saikoro play` by CliRunner or a subprocess,"
                " or a server's table API); TableSession.run alone is function level: drop"
                " via= or play the lines with tests/table/helpers.play"
                if "table" in vias
                else "the CLI"
            ),
            pytrace=False,
        )
    return result
