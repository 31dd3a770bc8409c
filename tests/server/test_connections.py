"""Connection hygiene of ``saikoro serve`` (uvicorn + saikoro.server.connections), on loopback.

Regression tests of the audit: half-sent headers and bodies were held forever, idle
connections locked everyone out (uvicorn's plain-text 503), and uvicorn's own 400/503
answers were plain text without CORS. A healthy WebSocket must outlive these rules.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn
from fastapi import WebSocket

from saikoro.server import create_app
from saikoro.server.connections import ConnectionRules, uvicorn_options

RULES = ConnectionRules(header_timeout=0.6, body_timeout=0.6, keep_alive=0.6, per_address=4)


@contextmanager
def running(rules: ConnectionRules) -> Iterator[int]:
    """The app (with a WebSocket echo route) on uvicorn with ``rules``; yields the port."""
    app = create_app()

    @app.websocket("/ws-echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        while True:
            await websocket.send_text(await websocket.receive_text())

    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", **uvicorn_options(rules)
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with running(RULES) as bound:
        yield bound


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return sock


def read_all(sock: socket.socket) -> tuple[bytes, float]:
    """Everything until the server closes the connection, and how long that took."""
    started = time.monotonic()
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks), time.monotonic() - started
        chunks.append(chunk)


def parse(answer: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_half_sent_headers_are_answered_408_and_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n")  # no blank line: never ends
        answer, waited = read_all(sock)
    assert waited < RULES.header_timeout + 2
    status, headers, body = parse(answer)
    assert status == 408 and body == {"ok": False, "reason": "request timeout"}
    assert headers["access-control-allow-origin"] == "*"
    assert headers["content-type"] == "application/json"


def test_a_slowly_trickled_header_is_cut_at_the_bound(port: int) -> None:
    """Bytes that keep coming do not reset the header clock (slowloris)."""
    with connect(port) as sock:
        started = time.monotonic()
        sock.sendall(b"GET /v2/version HTTP/1.1\r\n")
        answer = b""
        while time.monotonic() - started < RULES.header_timeout + 3:
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable:
                answer, _ = read_all(sock)
                break
            with contextlib.suppress(OSError):
                sock.sendall(b"X-A: b\r\n")
        waited = time.monotonic() - started
    assert waited < RULES.header_timeout + 2
    assert parse(answer)[0] == 408


def test_half_sent_body_is_answered_408_and_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(
            b"POST /v2/game_system/DiceBot/roll HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
            b"command=2D6"
        )
        answer, waited = read_all(sock)
    assert waited < RULES.body_timeout + 2
    status, headers, body = parse(answer)
    assert status == 408 and body["ok"] is False
    assert headers["access-control-allow-origin"] == "*"


def test_an_idle_connection_is_closed(port: int) -> None:
    with connect(port) as sock:
        answer, waited = read_all(sock)
    assert answer == b"" and waited < RULES.header_timeout + 2


def test_a_half_sent_second_request_on_a_kept_alive_connection_is_answered_408(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /v2/version HTTP/1.1\r\n")
        answer, _ = read_all(sock)
    assert parse(answer)[0] == 408


def test_keep_alive_connections_serve_many_requests_then_close_when_idle(port: int) -> None:
    with connect(port) as sock:
        for _ in range(5):
            sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.3)  # slower than nothing, faster than the bounds
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        answer, waited = read_all(sock)
    assert answer == b"" and waited < RULES.keep_alive + 2


def test_a_malformed_request_is_a_json_400_with_cors(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"THIS IS NOT HTTP\r\n\r\n")
        answer, _ = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 400 and body == {"ok": False, "reason": "bad request"}
    assert headers["access-control-allow-origin"] == "*"


def test_connections_per_address_are_capped_and_others_still_served(port: int) -> None:
    held = [connect(port, "127.0.0.7") for _ in range(RULES.per_address)]
    try:
        time.sleep(0.1)
        with connect(port, "127.0.0.7") as extra:
            status, headers, body = parse(read_all(extra)[0])
        assert status == 503 and body == {"ok": False, "reason": "too many connections"}
        assert headers["access-control-allow-origin"] == "*"
        with connect(port, "127.0.0.8") as other:  # another address is not locked out
            other.sendall(
                b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            assert other.recv(65536).startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    with connect(port, "127.0.0.7") as again:  # the count goes down as connections close
        again.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
        assert again.recv(65536).startswith(b"HTTP/1.1 200")


def test_a_websocket_outlives_the_http_timeouts(port: int) -> None:
    """Upgraded connections leave the HTTP rules (their own ping/idle handling applies)."""
    from websockets.sync.client import connect as ws_connect

    with ws_connect(f"ws://127.0.0.1:{port}/ws-echo", open_timeout=5) as ws:
        for _ in range(3):
            time.sleep(RULES.header_timeout + RULES.keep_alive)
            ws.send("ping 2D6")
            assert ws.recv(timeout=5) == "ping 2D6"


def test_websockets_do_not_count_against_the_address_cap(port: int) -> None:
    from websockets.sync.client import connect as ws_connect

    with contextlib.ExitStack() as stack:
        for _ in range(RULES.per_address + 2):
            stack.enter_context(ws_connect(f"ws://127.0.0.1:{port}/ws-echo"))
        with connect(port) as sock:
            sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")


def test_1010_idle_connections_do_not_lock_others_out(port: int) -> None:
    """The audit's case: 1010 idle connections made every other request get a plain 503."""
    idle = []
    try:
        for _ in range(1010):
            idle.append(connect(port, "127.0.0.9"))
        time.sleep(0.2)
        with connect(port, "127.0.0.10") as other:
            other.sendall(
                b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            answer = other.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        refused = idle[-1].recv(65536)
        status, _, body = parse(refused)
        assert status == 503 and body["reason"] == "too many connections"
    finally:
        for sock in idle:
            sock.close()


def test_a_websocket_handshake_on_an_unknown_path_is_a_json_404_with_cors(port: int) -> None:
    """uvicorn's own refusal of a handshake no route takes is a bare 403 without CORS."""
    with connect(port) as sock:
        sock.sendall(
            b"GET /no-such-socket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        answer, _ = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 404 and body == {"ok": False, "reason": "not found"}
    assert headers["access-control-allow-origin"] == "*"
