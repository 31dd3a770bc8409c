"""Browser tests: Debian's Chromium driven by Playwright against a real ``saikoro serve``.

Chromium is the system's (/usr/bin/chromium, never ``playwright install``). Without it the
browser tests are skipped on a developer's machine and fail in CI (CI=true), as the
PostgreSQL tests do.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.loopback import free_address
from tests.web.serve_fixed_dice import QUEUE_ENV, queue_faces, queued

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: d6 → 4, d100 → 30 (see serve_fixed_dice.py).
FIXED_FACES = "6:4,100:30"
HERE = Path(__file__).parent


def chromium_path() -> str:
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        found = None
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI needs Chromium and Playwright: apt-get install chromium; pip install -e '.[test]'"
            )
        pytest.skip("Chromium or Playwright is not installed (apt-get install chromium)")
    return found


class Served:
    """A server subprocess whose output is read as it comes (a full pipe would stall it)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            start_new_session=True,  # stop() ends the server and anything it started
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def printed_url(self, timeout: float = 180) -> str:
        """The page URL ``saikoro serve`` prints on start-up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                match = re.search(r"http://\S+/(?=\s|$)", line)
                if match:
                    return match.group(0)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("saikoro serve printed no page URL:\n" + "".join(self.lines))

    def wait_until_up(self, url: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        "the server did not start:\n" + "".join(self.lines)
                    ) from None
                time.sleep(0.1)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def serving(cwd: Path, *options: str, queue: Path | None = None) -> Iterator[str]:
    """A real ``saikoro serve`` on loopback (fixed dice, SQLite in ``cwd``): its base URL.
    With ``queue``, the dice take the faces queued there first (serve_fixed_dice.queue_faces)."""
    chromium_path()
    host, port = free_address()
    served = Served(
        [
            sys.executable,
            str(HERE / "serve_fixed_dice.py"),
            FIXED_FACES,
            "--host",
            host,
            "--port",
            str(port),
            # no command is abandoned because a busy machine ran it slowly (the deadline's
            # own tests are in tests/server)
            "--deadline",
            "60",
            *options,
        ],
        cwd,
        env={QUEUE_ENV: str(queue)} if queue is not None else None,
    )
    try:
        base = f"http://{host}:{port}/"
        served.wait_until_up(base)
        yield base
    finally:
        served.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``saikoro serve`` on loopback (fixed dice, SQLite in a fresh directory): its base URL."""
    yield from serving(tmp_path_factory.mktemp("serve"))


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same without the per-link line rate (``--line-rate 0``): a test that types a
    whole script must not depend on how fast the machine types it."""
    yield from serving(tmp_path_factory.mktemp("serve-fast"), "--line-rate", "0")


class ScriptedServer(str):
    """A server's base URL whose dice take the faces a test queues (``.queue(4, 6, …)``)."""

    queue_file: Path

    def queue(self, *faces: int) -> None:
        queue_faces(self.queue_file, *faces)

    def left(self) -> list[int]:
        return queued(self.queue_file)


@pytest.fixture(scope="module")
def scripted_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScriptedServer]:
    """A server without the line rate whose dice a test scripts: ``scripted_server.queue(6, 6)``
    makes the next two dice show 6 (then the fixed faces again)."""
    cwd = tmp_path_factory.mktemp("serve-scripted")
    queue = cwd / "dice-queue.txt"
    for base in serving(cwd, "--line-rate", "0", queue=queue):
        served = ScriptedServer(base)
        served.queue_file = queue
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium for one test module: Playwright's sync API keeps an asyncio loop running in
    this thread while it is open, so it must be closed before other modules' asyncio.run()."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
