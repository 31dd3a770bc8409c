"""Lines written by another process that never notifies — ``saikoro play --db`` on the room
a ``saikoro serve`` serves — reach the server's WebSocket clients with nothing else
happening, on SQLite (the server looks at its watched rooms' ends every second) and on
PostgreSQL (the append's own transaction sends the NOTIFY the server listens for). How soon
is not a verdict (a loaded machine delays anything); the wait only stops a hang."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .table_live import Room, Server, create_room, open_socket, start_server


def play_as_gm(db: str, room: Room, line: str, cwd: Path) -> dict:
    """``saikoro play --token GM_TOKEN`` on the server's database: one line, its outcome."""
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "play", "--db", db, "--room", room.name,
         "--token", room.gm.token, "--json"],
        input=line + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout.splitlines()[-1])
    assert outcome["ok"], outcome
    return outcome


def lines_from_play_reach_the_gm_socket(server: Server, db: str, folder: Path) -> None:
    room = create_room(server.base)

    async def scenario() -> list[dict]:
        socket = await open_socket(room.gm)
        received: list[dict] = []
        try:
            for i, line in enumerate(("外から 1", "外から 2")):
                await asyncio.to_thread(play_as_gm, db, room, line, folder)
                events = await socket.until_events(i + 1)
                received.append(events[i])
        finally:
            await socket.close()
        return received

    received = asyncio.run(scenario())
    assert [event["text"]["ja"].rpartition(": ")[2] for event in received] == [
        "外から 1",
        "外から 2",
    ]
    assert received[1]["seq"] == received[0]["seq"] + 1


def test_sqlite_lines_from_play_reach_websocket_clients(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.db")
    server = start_server(db, tmp_path, "--rooms-per-minute", "0")
    try:
        lines_from_play_reach_the_gm_socket(server, db, tmp_path)
    finally:
        server.stop()


@pytest.mark.postgres
def test_postgresql_lines_from_play_reach_websocket_clients(
    postgres_url: str, tmp_path: Path
) -> None:
    server = start_server(postgres_url, tmp_path, "--rooms-per-minute", "0")
    try:
        lines_from_play_reach_the_gm_socket(server, postgres_url, tmp_path)
    finally:
        server.stop()
