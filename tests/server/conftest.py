"""Fixtures for the BCDice-API server tests: an app with scripted dice, a real server process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from saikoro.dice.randomizer import ScriptedSource
from tests.loopback import free_address


class DiceScript:
    """The dice the next request rolls: set ``dice.next = [(value, sides), …]``."""

    def __init__(self) -> None:
        self.next: list[tuple[int, int]] = []
        self.sources: list[ScriptedSource] = []

    def source(self) -> ScriptedSource:
        source = ScriptedSource(self.next)
        self.sources.append(source)
        self.next = []
        return source


@pytest.fixture
def dice() -> DiceScript:
    return DiceScript()


@pytest.fixture
def client(dice: DiceScript) -> Iterator[object]:
    from fastapi.testclient import TestClient

    from saikoro.server import create_app

    with TestClient(create_app(source_factory=dice.source)) as test_client:
        yield test_client


def wait_until_up(base_url: str, process: subprocess.Popen, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early with {process.returncode}")
        try:
            if httpx.get(f"{base_url}/v2/version", timeout=10.0).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("server did not come up")


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``saikoro serve`` as a real subprocess on a loopback address of its own; yields its base URL."""
    host, port = free_address()
    folder = Path(tmp_path_factory.mktemp("serve"))
    db = folder / "rooms.sqlite"
    log = (folder / "server.log").open("wb")
    env = {
        **os.environ,
        "SAIKORO_ADMIN_NAME": "テスト管理人",
        "SAIKORO_ADMIN_EMAIL": "gm@example.org",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "saikoro",
            "serve",
            "--host",
            host,
            "--port",
            str(port),
            "--db",
            str(db),
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://{host}:{port}"
    try:
        wait_until_up(base_url, process)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
