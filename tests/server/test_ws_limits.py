"""WebSocket heartbeat on a real server: pings, the idle timeout, and healthy sockets living on."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from saikoro.server.table.limits import ConnectionCaps, TokenBuckets

from .table_live import Server, create_room, open_socket, start_server

#: Seconds; pings every IDLE / 3. A real server's heartbeat runs on its own clock, so a
#: client that answers every ping must never look idle: IDLE is far above how late a pong
#: can be on a loaded machine (it was 1.5 s).
IDLE = 4.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("ws-limits"))
    running = start_server(
        str(folder / "rooms.db"), folder, "--ws-idle-timeout", str(IDLE), "--log-level", "warning"
    )
    try:
        yield running
    finally:
        running.stop()


def test_a_silent_client_is_pinged_then_closed(server: Server) -> None:
    room = create_room(server.base)

    async def scenario() -> tuple[list[str], int | None, float]:
        kinds: list[str] = []
        started = time.monotonic()
        async with connect(room.gm.ws_url()) as socket:
            try:
                while True:  # never answers; the bound only stops a hang
                    kinds.append(json.loads(await asyncio.wait_for(socket.recv(), 120))["type"])
            except ConnectionClosed:
                pass
            return kinds, socket.close_code, time.monotonic() - started

    kinds, code, lasted = asyncio.run(scenario())
    assert "ping" in kinds and kinds[-1] == "error"
    assert code == 4408
    # Not before the idle timeout (the server's clock started after ours): a lower bound
    # that load cannot break. How soon after it is not a verdict.
    assert lasted >= IDLE


def test_a_client_that_answers_pings_stays_and_gets_events(server: Server) -> None:
    """Past the idle timeout many times over, and past the HTTP server's own header (10 s)
    and keep-alive (5 s) timeouts of saikoro.server.connections."""
    room = create_room(server.base)

    async def scenario() -> list[dict]:
        socket = await open_socket(room.gm)  # answers every ping with a pong
        deadline = time.monotonic() + 11.0
        while time.monotonic() < deadline:
            with pytest.raises(TimeoutError):
                await socket.next_message(timeout=0.3)
        await asyncio.to_thread(room.gm.say, "まだいますか")
        events = await socket.until_events(1)
        await socket.close()
        return events

    assert "まだいますか" in asyncio.run(scenario())[0]["text"]["ja"]


def test_bad_messages_get_a_clear_answer_and_keep_the_socket(server: Server) -> None:
    room = create_room(server.base)

    async def scenario() -> list[dict]:
        socket = await open_socket(room.gm)
        answers = []
        for raw in ("not json", "[1]", json.dumps({"type": "line"}), json.dumps({"type": "x"})):
            await socket.connection.send(raw)
            answers.append(await socket.next_message())
        answers.append(await socket.send_line("通った"))
        await socket.close()
        return answers

    answers = asyncio.run(scenario())
    for answer in answers[:-1]:
        assert answer["ok"] is False and answer["status"] == 422 and " / " in answer["message"]
    assert answers[-1]["ok"] is True


def test_an_unknown_room_or_token_closes_with_a_reason(server: Server) -> None:
    room = create_room(server.base)

    async def close_code(url: str) -> tuple[dict, int | None]:
        async with connect(url) as socket:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 10)
            return message, socket.close_code

    base = server.base.replace("http://", "ws://")
    message, code = asyncio.run(close_code(f"{base}/api/rooms/nowhere/ws?token=x"))
    assert code == 4404 and message["reason"] == "no such room"
    message, code = asyncio.run(close_code(room.gm.ws_url().replace("token=", "token=bad")))
    assert code == 4401 and message["reason"] == "unauthorized"
    assert room.gm.token not in json.dumps(message)


def test_token_buckets_refill_at_their_rate() -> None:
    buckets = TokenBuckets(rate=2.0, burst=3)
    assert [buckets.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert buckets.allow("b", now=0.0)  # per key
    assert buckets.retry_after("a") == pytest.approx(0.5)
    assert buckets.allow("a", now=0.5) and not buckets.allow("a", now=0.5)
    assert TokenBuckets(rate=0, burst=1).allow("x")  # 0 = unlimited


def test_connection_caps_per_room_and_per_link() -> None:
    caps = ConnectionCaps(per_room=3, per_link=2)
    assert caps.acquire("r", "a") is None and caps.acquire("r", "a") is None
    assert caps.acquire("r", "a") == "link"
    assert caps.acquire("r", "b") is None
    assert caps.acquire("r", "c") == "room"
    caps.release("r", "a")
    assert caps.acquire("r", "c") is None
    for link in ("a", "b", "c"):
        caps.release("r", link)
    assert caps.rooms == {} and caps.links == {}
