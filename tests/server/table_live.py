"""Helpers for the table API tests: real ``saikoro serve`` processes on loopback, an HTTP
client per link, a WebSocket client (the ``websockets`` library) that collects events."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.loopback import free_address

from .conftest import wait_until_up

REPO = Path(__file__).resolve().parents[2]
SHEETS = REPO / "examples" / "scripts" / "sheets"
STILL_CLOCK = Path(__file__).with_name("serve_still_clock.py")


@dataclass
class Server:
    base: str
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(db: str, folder: Path, *options: str, still_clock: bool = False) -> Server:
    """``saikoro serve --db DB`` on a loopback address of its own, its output in a log file.

    ``still_clock``: the server's rate limits never refill (tests/server/serve_still_clock.py),
    for a test that counts what a limit lets through.
    """
    host, port = free_address()
    log_path = folder / f"server-{port}.log"
    serve = [str(STILL_CLOCK)] if still_clock else ["-m", "saikoro", "serve"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, *serve, "--host", host, "--port", str(port), "--db", db, *options],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=folder,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    server = Server(f"http://{host}:{port}", process, log_path)
    try:
        wait_until_up(server.base, process)
    except RuntimeError:
        server.stop()
        raise RuntimeError(server.log()) from None
    return server


def serving(folder: Path, *options: str) -> Iterator[Server]:
    """A module's server fixture: ``start_server`` on ``folder/rooms.db``, stopped after."""
    running = start_server(str(folder / "rooms.db"), folder, *options)
    try:
        yield running
    finally:
        running.stop()


def unique_room(prefix: str = "卓") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def sheet(name: str) -> str:
    return (SHEETS / f"{name}.json").read_text("utf-8")


def example(path: str) -> str:
    return (REPO / "examples" / path).read_text("utf-8")


class Link:
    """One link's HTTP client: ``Authorization: Bearer TOKEN`` on every call."""

    def __init__(self, base: str, room: str, token: str) -> None:
        self.base, self.room, self.token = base, room, token
        self.path = f"/api/rooms/{quote(room, safe='')}"
        self.http = httpx.Client(
            base_url=base, timeout=60.0, headers={"Authorization": f"Bearer {token}"}
        )

    def line(self, line: str) -> httpx.Response:
        return self.http.post(f"{self.path}/lines", json={"line": line})

    def say(self, line: str) -> dict[str, Any]:
        response = self.line(line)
        assert response.status_code == 200, response.text
        return response.json()

    def state(self) -> dict[str, Any]:
        response = self.http.get(f"{self.path}/state")
        assert response.status_code == 200, response.text
        return response.json()

    def events(self, after: int = 0) -> dict[str, Any]:
        response = self.http.get(f"{self.path}/events", params={"after": after})
        assert response.status_code == 200, response.text
        return response.json()

    def ws_url(self, after: int | None = None) -> str:
        url = self.base.replace("http://", "ws://") + f"{self.path}/ws?token={self.token}"
        return url if after is None else f"{url}&after={after}"


@dataclass
class Room:
    base: str
    name: str
    created: dict[str, Any]
    gm: Link
    spectator: Link
    players: dict[str, Link] = field(default_factory=dict)

    def join(self, character: str, invite: str | None = None) -> Link:
        response = httpx.post(
            f"{self.base}/api/rooms/{quote(self.name, safe='')}/join",
            json={"invite": invite or self.created["invite_token"], "character": character},
            timeout=60.0,
        )
        assert response.status_code == 200, response.text
        body = response.json()
        link = Link(self.base, self.name, body["token"])
        self.players[body["as"]] = link
        return link

    def add_character(self, character: str, side: str | None = None) -> str:
        response = self.gm.http.post(
            f"{self.gm.path}/characters", json={"character": character, "side": side}
        )
        assert response.status_code == 201, response.text
        return response.json()["as"]


def create_room(base: str, system: str = "LittleWorld", name: str | None = None) -> Room:
    name = name or unique_room()
    response = httpx.post(f"{base}/api/rooms", json={"name": name, "system": system}, timeout=60.0)
    assert response.status_code == 201, response.text
    body = response.json()
    spectator_token = body["spectator_url"].rpartition("token=")[2]
    return Room(
        base, name, body, Link(base, name, body["gm_token"]), Link(base, name, spectator_token)
    )


class Socket:
    """A WebSocket client that keeps the events it was pushed and answers pings."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.events: list[dict[str, Any]] = []
        self.other: list[dict[str, Any]] = []
        self.pings = 0  # heartbeats answered

    async def next_message(self, timeout: float = 60.0) -> dict[str, Any]:
        """The next message; ``timeout`` only stops a hang (a message that should come)."""
        while True:
            message = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
            if message.get("type") == "ping":
                self.pings += 1
                await self.connection.send(json.dumps({"type": "pong"}))
                continue
            if message.get("type") == "event":
                self.events.append(message)
            else:
                self.other.append(message)
            return message

    async def until_events(self, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        while len(self.events) < count:
            await self.next_message(timeout)
        return self.events

    async def send_line(self, line: str, request_id: str = "1") -> dict[str, Any]:
        await self.connection.send(json.dumps({"type": "line", "line": line, "id": request_id}))
        while True:
            message = await self.next_message()
            if message.get("type") == "outcome":
                return message

    async def close(self) -> None:
        await self.connection.close()


async def open_socket(link: Link, after: int | None = None, ready: bool = True) -> Socket:
    """A connected socket; with ``ready``, once the server has counted it and subscribed it
    (its ``{"type": "ready"}`` message)."""
    socket = Socket(await connect(link.ws_url(after), open_timeout=60))
    if ready:
        message = await socket.next_message()
        assert message["type"] == "ready", message
    return socket
