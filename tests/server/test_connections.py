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
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from fastapi import WebSocket

from saikoro.server import create_app
from saikoro.server.app import MAX_BODY_BYTES
from saikoro.server.connections import (
    ConnectionRules,
    GuardedH11Protocol,
    guarded_protocol,
    uvicorn_options,
)

#: Short bounds, for the tests that a bound is applied: each waits for the server's answer
#: (a 408, a close), never for a time, so a loaded machine only makes them slower.
RULES = ConnectionRules(header_timeout=0.6, body_timeout=0.6, keep_alive=0.6, per_address=4)
#: Bounds no test comes near, for the tests of the per-address cap and of kept-alive
#: connections: with the short ones, a held connection could time out (and free its place)
#: before a busy server took the next one, and the verdict would depend on who was first.
PATIENT = ConnectionRules(header_timeout=600, body_timeout=600, keep_alive=600, per_address=4)
#: How long a socket read may block before the test reports a hang.
HANG_GUARD = 120.0


@contextmanager
def running(rules: ConnectionRules, http: type | None = None) -> Iterator[int]:
    """The app (with a WebSocket echo route) on uvicorn with ``rules`` (and the protocol
    class ``http`` instead of theirs); yields the port."""
    app = create_app()

    @app.websocket("/ws-echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        while True:
            await websocket.send_text(await websocket.receive_text())

    options = {**uvicorn_options(rules), **({"http": http} if http is not None else {})}
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_GUARD
    while not server.started:  # waiting on a condition; the deadline only stops a hang
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


@pytest.fixture(scope="module")
def patient_port() -> Iterator[int]:
    with running(PATIENT) as bound:
        yield bound


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", port), timeout=HANG_GUARD, source_address=(source, 0)
    )


def read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes the connection."""
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def read_response(sock: socket.socket) -> bytes:
    """One whole response on a kept-alive connection (its head, then Content-Length bytes)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(65536)
        assert chunk, answer
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(parse(head + b"\r\n\r\n{}")[1]["content-length"])
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, answer
        body += chunk
    return head + b"\r\n\r\n" + body


def served_again(port: int, source: str) -> bytes:
    """The first answer to a request from ``source`` that is not the cap's refusal (the
    server frees a closed connection's place when it sees the close, not at once)."""
    for _ in range(int(HANG_GUARD * 10)):
        with connect(port, source) as sock:
            sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = read_all(sock)
        if b"too many connections" not in answer:
            return answer
        time.sleep(0.1)
    raise AssertionError("the place was never freed")


def parse(answer: bytes) -> tuple[int, dict[str, str], dict[str, object]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_half_sent_headers_are_answered_408_and_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n")  # no blank line: never ends
        answer = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 408 and body == {"ok": False, "reason": "request timeout"}
    assert headers["access-control-allow-origin"] == "*"
    assert headers["content-type"] == "application/json"


def test_a_slowly_trickled_header_is_cut_at_the_bound(port: int) -> None:
    """Bytes that keep coming do not reset the header clock (slowloris): a header line
    every 0.1 s would keep a resetting clock from ever running out, so the 408 comes only
    from a bound that holds (the hang guard is 200 times the bound)."""
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\n")
        answer = b""
        for _ in range(int(HANG_GUARD * 10)):
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable:
                answer = read_all(sock)
                break
            with contextlib.suppress(OSError):
                sock.sendall(b"X-A: b\r\n")
    assert parse(answer)[0] == 408


def test_half_sent_body_is_answered_408_and_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(
            b"POST /v2/game_system/DiceBot/roll HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
            b"command=2D6"
        )
        answer = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 408 and body["ok"] is False
    assert headers["access-control-allow-origin"] == "*"


def test_an_idle_connection_is_closed(port: int) -> None:
    with connect(port) as sock:
        answer = read_all(sock)
    assert answer == b""


def test_a_half_sent_second_request_on_a_kept_alive_connection_is_answered_408(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /v2/version HTTP/1.1\r\n")
        answer = read_all(sock)
    assert parse(answer)[0] == 408


def test_keep_alive_connections_serve_many_requests(patient_port: int) -> None:
    with connect(patient_port) as sock:
        for _ in range(5):
            sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_response(sock).startswith(b"HTTP/1.1 200")


class _CountingLoop:
    """The event loop, counting the timers a connection's rules set (uvicorn's own aside)."""

    def __init__(self, loop: Any) -> None:
        self.loop = loop
        self.timers = 0
        self.all_timers = 0  # uvicorn's keep-alive timer included

    def count(self, callback: Any) -> None:
        function = getattr(callback, "__func__", None)
        self.timers += getattr(function, "__module__", None) == GuardedH11Protocol.__module__
        self.all_timers += 1

    def call_at(self, when: float, callback: Any, *args: Any) -> Any:
        self.count(callback)
        return self.loop.call_at(when, callback, *args)

    def call_later(self, delay: float, callback: Any, *args: Any) -> Any:
        self.count(callback)
        return self.loop.call_later(delay, callback, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loop, name)


def test_a_kept_alive_connection_sets_one_timer_not_one_per_request() -> None:
    """The header and body bounds cost a timer per connection (re-armed only when it comes
    due), not a timer set and cancelled around every request (issue 20: per-request work
    off the hot path) — and so does the keep-alive bound, which uvicorn's own protocol
    sets anew after every response."""
    loops: list[_CountingLoop] = []

    class Counted(guarded_protocol(PATIENT)):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.loop = _CountingLoop(self.loop)
            loops.append(self.loop)

    with running(PATIENT, http=Counted) as bound, connect(bound) as sock:
        for _ in range(30):
            sock.sendall(
                b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            assert read_response(sock).startswith(b"HTTP/1.1 200")
    assert [loop.timers for loop in loops] == [1]
    assert [loop.all_timers for loop in loops] == [1]


def test_an_answers_head_and_body_leave_in_one_write() -> None:
    """uvicorn writes a response's head and body apart; saikoro's protocol joins them, so a
    small answer costs one system call and one TCP segment, not two (issue 20)."""
    writes: list[int] = []

    class Counting(guarded_protocol(PATIENT)):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            real_write = transport.write

            def write(data: bytes) -> None:
                writes.append(len(data))
                real_write(data)

            transport.write = write
            super().connection_made(transport)

    with running(PATIENT, http=Counting) as bound, connect(bound) as sock:
        for _ in range(10):
            sock.sendall(
                b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            assert read_response(sock).startswith(b"HTTP/1.1 200")
        sock.sendall(b"HEAD /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")  # a head alone
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200") and len(writes) == 11


def test_a_kept_alive_connection_is_closed_when_idle(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_all(sock).startswith(b"HTTP/1.1 200")  # then the close


def test_the_keep_alive_bound_closes_before_a_longer_header_bound() -> None:
    """The keep-alive bound (kept by saikoro's timer, not uvicorn's) closes an idle
    kept-alive connection even when the header bound is far longer: with only the header
    bound, this read would wait ten minutes (and the hang guard would fail the test)."""
    rules = ConnectionRules(header_timeout=600, body_timeout=600, keep_alive=0.3, per_address=4)
    with running(rules) as bound, connect(bound) as sock:
        sock.sendall(ROLL)
        assert read_all(sock).startswith(b"HTTP/1.1 200")  # then the close


def test_a_malformed_request_is_a_json_400_with_cors(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"THIS IS NOT HTTP\r\n\r\n")
        answer = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 400 and body == {"ok": False, "reason": "bad request"}
    assert headers["access-control-allow-origin"] == "*"


def held_connections(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections the server has taken (each answered one request, kept alive)."""
    held = [connect(port, source) for _ in range(count)]
    for sock in held:
        sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(sock).startswith(b"HTTP/1.1 200")
    return held


def test_connections_per_address_are_capped_and_others_still_served(patient_port: int) -> None:
    port = patient_port
    held = held_connections(port, "127.0.0.7", PATIENT.per_address)
    try:
        with connect(port, "127.0.0.7") as extra:
            status, headers, body = parse(read_all(extra))
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
    # the count goes down as connections close
    assert served_again(port, "127.0.0.7").startswith(b"HTTP/1.1 200")


def test_a_refused_client_that_already_sent_its_request_reads_the_whole_503(
    patient_port: int,
) -> None:
    """The refusal is sent, the write side shut and what the client sends drained: closing
    with its request unread made the kernel answer a reset, which could discard the 503
    before the client read it."""
    port = patient_port
    held = held_connections(port, "127.0.0.11", PATIENT.per_address)
    try:
        with connect(port, "127.0.0.11") as extra:
            request = (
                b"POST /v2/original_table HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n"
            )
            extra.sendall(request + b"t" * 20000)
            time.sleep(0.3)  # the server has answered and (before the fix) reset by now
            extra.sendall(b"more bytes the server never asked for")
            answer = read_all(extra)  # a reset would raise ConnectionResetError here
        status, headers, body = parse(answer)
        assert status == 503 and body == {"ok": False, "reason": "too many connections"}
        assert headers["connection"] == "close"
    finally:
        for sock in held:
            sock.close()


def exchange(port: int, request: bytes) -> tuple[int, dict[str, object]]:
    """Send one request on a new connection (``Connection: close``): status and JSON body."""
    with connect(port) as sock:
        sock.sendall(request)
        status, _, body = parse(read_all(sock))
    return status, body


def form_post(path: str, body: bytes) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


#: A 10240-character command (the input bound) of Japanese text: 92 kB percent-encoded.
LONG_JAPANESE_COMMAND = "1D6 " + "あ" * 10236
#: A realistic original table of ≈10 100 characters (≈90 kB percent-encoded), as the audit's.
LONG_TABLE = "長い表\n1D100\n" + "\n".join(
    f"{n}:" + "荷物の中から古い地図が見つかる。" * 6 + "！" * (n % 3) for n in range(1, 101)
)


def test_a_long_japanese_command_fits_by_post_form_and_by_get(port: int) -> None:
    """Bodies were bounded at 64 KiB (413), a header block at 64 KiB: a legal command of
    10240 Japanese characters did not fit (BCDice-API's Puma has no body bound)."""
    encoded = quote(LONG_JAPANESE_COMMAND).encode()
    assert 90_000 < len(encoded) < 93_000
    path = "/v2/game_system/DiceBot/roll"
    status, body = exchange(port, form_post(path, b"command=" + encoded))
    assert status == 200 and body["ok"] is True, body
    get = f"GET {path}?command={encoded.decode()} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    status, body = exchange(port, get.encode())
    assert status == 200 and body["ok"] is True, body


def test_a_long_original_table_fits_by_post_form(port: int) -> None:
    encoded = quote(LONG_TABLE).encode()
    assert len(LONG_TABLE) > 10_000 and len(encoded) > 64 * 1024
    status, body = exchange(port, form_post("/v2/original_table", b"table=" + encoded))
    assert status == 200 and str(body["text"]).startswith("長い表(")


def test_a_body_over_the_bound_is_still_refused(port: int) -> None:
    """Refused from its Content-Length, before the client sends it."""
    head = form_post("/v2/original_table", b"")
    head = head.replace(b"Content-Length: 0", f"Content-Length: {MAX_BODY_BYTES + 1}".encode())
    status, body = exchange(port, head)
    assert (status, body) == (413, {"ok": False, "reason": "request too large"})


def test_a_websocket_outlives_the_http_timeouts(port: int) -> None:
    """Upgraded connections leave the HTTP rules (their own ping/idle handling applies)."""
    from websockets.sync.client import connect as ws_connect

    with ws_connect(f"ws://127.0.0.1:{port}/ws-echo", open_timeout=HANG_GUARD) as ws:
        for _ in range(3):
            time.sleep(RULES.header_timeout + RULES.keep_alive)  # past both: the scenario
            ws.send("ping 2D6")
            assert ws.recv(timeout=HANG_GUARD) == "ping 2D6"


def test_websockets_do_not_count_against_the_address_cap(patient_port: int) -> None:
    from websockets.sync.client import connect as ws_connect

    port = patient_port
    with contextlib.ExitStack() as stack:
        for _ in range(PATIENT.per_address + 2):
            stack.enter_context(ws_connect(f"ws://127.0.0.1:{port}/ws-echo"))
        with connect(port) as sock:
            sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")


def test_1010_idle_connections_do_not_lock_others_out(patient_port: int) -> None:
    """The audit's case: 1010 idle connections made every other request get a plain 503."""
    port = patient_port
    idle = held_connections(port, "127.0.0.9", PATIENT.per_address)
    try:
        for _ in range(1010 - PATIENT.per_address):
            idle.append(connect(port, "127.0.0.9"))
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
        answer = read_all(sock)
    status, headers, body = parse(answer)
    assert status == 404 and body == {"ok": False, "reason": "not found"}
    assert headers["access-control-allow-origin"] == "*"


def _roll_answers(http: type, requests: list[bytes]) -> list[bytes]:
    """The answers to ``requests`` on one kept-alive connection of a server on ``http``."""
    with running(PATIENT, http=http) as bound, connect(bound) as sock:
        answers = []
        for request in requests:
            sock.sendall(request)
            answers.append(read_response(sock))
        return answers


ROLL = b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"


def _head_lines(answer: bytes) -> list[str]:
    """The status line and header names in order, and every value but the date's."""
    head = answer.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    return [line if not line.lower().startswith("date:") else "date:" for line in head]


def test_a_roll_answer_leaves_whole_with_the_head_uvicorn_would_send() -> None:
    """``GET …/roll`` answers through the protocol's whole-answer extension (its head
    validated once, not per answer: issue 20) — with the status line and headers, in the
    same order, that uvicorn's own ``send`` writes for the same ASGI messages."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from saikoro.server.whole_answers import WholeAnswers

    sent: list[bool] = []

    class Counting(WholeAnswers):
        def send(self, *args: Any) -> bool:
            sent.append(super().send(*args))
            return sent[-1]

    class Whole(guarded_protocol(PATIENT)):  # type: ignore[misc, valid-type]
        whole_answers = Counting()

    unknown = b"GET /v2/game_system/NoSuchSystem/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
    requests = [ROLL, unknown, ROLL]
    whole = _roll_answers(Whole, requests)
    assert sent == [True, True, True]
    plain = _roll_answers(H11Protocol, requests)
    assert [_head_lines(a)[:1] for a in whole] == [
        ["HTTP/1.1 200 OK"],
        ["HTTP/1.1 400 Bad Request"],
        ["HTTP/1.1 200 OK"],
    ]
    for ours, theirs in zip(whole, plain, strict=True):
        status, headers, body = parse(ours)
        assert headers["access-control-allow-origin"] == "*"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["content-type"] == "application/json"
        if status == 200:  # the dice differ: the same keys, the length its own
            assert body.keys() == parse(theirs)[2].keys()
            assert int(headers["content-length"]) == len(ours.partition(b"\r\n\r\n")[2])
            strip = [line for line in _head_lines(ours) if not line.startswith("content-length")]
            assert strip == [
                line for line in _head_lines(theirs) if not line.startswith("content-length")
            ]
        else:
            assert ours.partition(b"\r\n\r\n")[2] == theirs.partition(b"\r\n\r\n")[2]
            assert _head_lines(ours) == _head_lines(theirs)


def test_pipelined_roll_requests_are_each_answered_whole_in_order() -> None:
    with running(PATIENT) as bound, connect(bound) as sock:
        unknown = ROLL.replace(b"DiceBot", b"NoSuchSystem")
        last = ROLL.replace(b"Host: x\r\n", b"Host: x\r\nConnection: close\r\n")
        sock.sendall(ROLL + unknown + last)  # three requests in one write
        stream = read_all(sock)  # the answers may arrive in one segment: split them here
    answers = []
    while stream:
        head, _, rest = stream.partition(b"\r\n\r\n")
        length = int(parse(head + b"\r\n\r\n{}")[1]["content-length"])
        answers.append(parse(head + b"\r\n\r\n" + rest[:length]))
        stream = rest[length:]
    assert [status for status, _, _ in answers] == [200, 400, 200]
    assert [body["ok"] for _, _, body in answers] == [True, False, True]


def test_a_whole_answer_to_connection_close_says_so_and_closes() -> None:
    with running(PATIENT) as bound, connect(bound) as sock:
        sock.sendall(ROLL.replace(b"Host: x\r\n", b"Host: x\r\nConnection: close\r\n"))
        answer = read_all(sock)  # ends: the server closed the connection
    status, headers, body = parse(answer)
    assert status == 200 and body["ok"] is True
    assert headers["connection"] == "close"


def test_whole_answer_heads_are_renewed_with_uvicorns_date() -> None:
    """A kept head is reused only while uvicorn's default headers (its date) are the same
    list; a new list (the next second) builds new heads."""
    from saikoro.server.whole_answers import WholeAnswers

    heads = WholeAnswers()
    extra = ((b"access-control-allow-origin", b"*"),)
    first = [(b"date", b"Wed, 02 Dec 2026 05:00:00 GMT"), (b"server", b"uvicorn")]
    second = [(b"date", b"Wed, 02 Dec 2026 05:00:01 GMT"), (b"server", b"uvicorn")]
    one = heads.head(first, 200, 12, b"application/json", extra, False)
    assert heads.head(first, 200, 12, b"application/json", extra, False) is one
    assert heads.head(first, 200, 13, b"application/json", extra, False) is not one
    renewed = heads.head(second, 200, 12, b"application/json", extra, False)
    assert (b"date", b"Wed, 02 Dec 2026 05:00:01 GMT") in list(renewed.headers)
    assert list(renewed.headers) == [
        *second,
        (b"content-type", b"application/json"),
        (b"content-length", b"12"),
        *extra,
    ]
    closing = heads.head(second, 200, 12, b"application/json", extra, True)
    assert list(closing.headers)[-1] == (b"connection", b"close")
