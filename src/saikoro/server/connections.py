"""Connection hygiene for ``saikoro serve``: timeouts, per-address caps, JSON refusals.

uvicorn (the server saikoro runs on; see docs/server.md for the measurements behind the
choice) closes idle keep-alive connections but waits forever for a request that is
never finished, and answers its own errors in plain text without CORS.
:func:`guarded_protocol` makes a subclass of uvicorn's HTTP/1.1 protocol that

- closes a connection whose request line and headers have not all arrived
  ``header_timeout`` seconds after it opened (or after the previous response), and one
  whose body has not all arrived ``body_timeout`` seconds after its headers — with a
  JSON ``408 request timeout`` when part of a request was sent;
- refuses a connection past ``per_address`` open ones from the same client address, or
  past ``max_connections`` in all, with a JSON ``503 too many connections``
  (addresses of trusted reverse proxies are not capped: the proxy limits its clients);
- answers a malformed request with a JSON ``400 bad request``;
- closes a kept-alive connection that stays idle ``keep_alive`` seconds after its last
  response (uvicorn's bound; here kept by the connection's one timer, not a timer set
  and cancelled around every request);
- offers the app the scope extension :data:`~saikoro.server.whole_answers.WHOLE_ANSWER`
  (a whole fixed-length answer with its head validated once: see that module).

Every such answer carries ``Access-Control-Allow-Origin: *`` and ends the connection
gracefully: the answer is sent, the write side shut, and whatever the client still sends
is read and dropped for up to ``drain_timeout`` seconds (closing with its request unread
would make the kernel send a reset, which can discard the answer before the client
reads it). A connection upgraded to a
WebSocket leaves these rules (WebSockets have their own ping and idle handling) and no
longer counts against its address.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from saikoro.server.bodies import encode, error_answer
from saikoro.server.proxy import TrustedProxies
from saikoro.server.whole_answers import WHOLE_ANSWER, Header, WholeAnswers

_PHRASES = {400: "Bad Request", 408: "Request Timeout", 503: "Service Unavailable"}


@dataclass(frozen=True)
class ConnectionRules:
    """The bounds of :func:`guarded_protocol` (``saikoro serve`` options)."""

    header_timeout: float = 10.0  # seconds for a request's line and headers
    body_timeout: float = 30.0  # seconds for its body, after the headers
    keep_alive: float = 5.0  # seconds an idle keep-alive connection stays open
    per_address: int = 64  # open connections from one address (0: no cap)
    max_connections: int = 4096  # open connections in all
    trusted: TrustedProxies = field(
        default_factory=TrustedProxies
    )  # reverse proxies' addresses: not capped
    drain_timeout: float = 1.0  # seconds a refused client's bytes are read before closing


def raw_json_answer(status: int, reason: str) -> bytes:
    """A whole HTTP/1.1 answer with BCDice-API's error body, CORS, and ``connection: close``."""
    _, body = error_answer(reason, None, extras=False)
    data = encode(body)
    head = (
        f"HTTP/1.1 {status} {_PHRASES[status]}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(data)}\r\n"
        "access-control-allow-origin: *\r\n"
        "x-content-type-options: nosniff\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + data


class _JoinedWrites:
    """A connection's transport whose writes go out in pairs: a write is held until the
    next one (then both leave in one ``send``) or until the loop's next step.

    uvicorn writes an answer's head and its body separately — two system calls and two
    TCP segments for every small JSON answer, each waking the client. Held, the head leaves
    with the body. Order is kept, nothing waits longer than one turn of the loop, and
    ``write_eof``/``close`` send what is held first.
    """

    __slots__ = ("_held", "_loop", "is_closing", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._held: bytes | None = None
        self.is_closing = transport.is_closing  # asked several times per request: no detour

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        held = self._held
        if held is None:
            self._held = bytes(data)
            self._loop.call_soon(self.flush)
        else:
            self._held = None
            self.transport.write(held + data)

    def write_now(self, data: bytes) -> None:
        """Write ``data`` at once (after what is held): a whole answer has nothing to join."""
        held, self._held = self._held, None
        self.transport.write(data if held is None else held + data)

    def flush(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            self.transport.write(held)

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:  # everything else: the transport's own
        return getattr(self.transport, name)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the rules of :class:`ConnectionRules` (see the module)."""

    rules: ClassVar[ConnectionRules] = ConnectionRules()
    open_by_address: ClassVar[Counter[str]] = Counter()  # per class: see guarded_protocol
    whole_answers: ClassVar[WholeAnswers] = WholeAnswers()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = _JoinedWrites(transport, self.loop)  # type: ignore[assignment]
        # One timer per connection, not one per request: ``_deadline`` is when the current
        # phase ends, and the timer fires at or before it (moved later, it re-arms itself).
        self._timer: asyncio.TimerHandle | None = None
        self._deadline: float | None = None
        self._drain: asyncio.TimerHandle | None = None
        self._phase: str | None = None
        self._received = False  # bytes of the current request have arrived
        self._idle_since = 0.0  # when the last response was complete
        self._address: str | None = None
        self._upgraded = False  # handed over to a WebSocket protocol
        self._refused = False  # answered with an error: draining until closed
        address = self.client[0] if self.client else "-"
        rules = self.rules
        capped = rules.per_address > 0 and address not in rules.trusted
        if len(self.connections) > rules.max_connections or (
            capped and self.open_by_address[address] >= rules.per_address
        ):
            self._close_with(503, "too many connections")
            return
        self._address = address
        self.open_by_address[address] += 1
        self._arm("headers", rules.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timers()
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:  # drained: the answer is sent, the rest is dropped
            return
        if data and (self._phase == "headers" or self._phase == "idle"):
            self._received = True
        super().data_received(data)
        self._watch()

    def eof_received(self) -> None:
        if self._refused:  # the client has read its answer and closed its side
            self.transport.close()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle and getattr(self.app, "takes_whole_answers", False):
            # A new request's cycle (its task has not run yet): offer the whole answer.
            # Only to an app that asked for it unwrapped (uvicorn's trace logging wraps
            # the app and must see the ASGI messages).
            scope: dict[str, Any] = self.scope  # type: ignore[assignment]
            scope.setdefault("extensions", {})[WHOLE_ANSWER] = self._send_whole

    def _send_whole(
        self, scope: Any, status: int, body: bytes, content_type: bytes, extra: tuple[Header, ...]
    ) -> bool:
        transport = self.transport
        write = transport.write_now if isinstance(transport, _JoinedWrites) else transport.write
        return self.whole_answers.send(
            self.cycle, write, transport.close, scope, status, body, content_type, extra
        )

    def on_response_complete(self) -> None:
        # uvicorn's own, without the keep-alive timer it sets (and cancels) around every
        # request: the connection's one timer keeps the keep-alive bound too (phase "idle").
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self._phase = None
        self._received = False
        self.flow.resume_reading()
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
            self.handle_events()  # a pipelined request
        self._watch()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True
        self._stop_timers()
        self._release()
        if isinstance(self.transport, _JoinedWrites):  # the WebSocket gets the transport itself
            self.transport.flush()
            self.transport = self.transport.transport
        super().handle_websocket_upgrade(event)

    def send_400_response(self, msg: str) -> None:
        self._close_with(400, "bad request")

    # -- the rules --------------------------------------------------------------
    def _watch(self) -> None:
        """Set the deadline the request's progress calls for."""
        if self._upgraded or self.transport is None or self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            phase = self._phase
            if phase == "idle":  # kept alive since ``_idle_since``
                if self._received:  # a request has begun: the header bound, from then on
                    self._arm_at("headers", self._idle_since + self.rules.header_timeout)
            elif phase != "headers":  # a response is complete: kept alive for the next one
                rules = self.rules
                self._idle_since = self.loop.time()
                self._arm_at("idle", self._idle_since + min(rules.keep_alive, rules.header_timeout))
        elif state is h11.SEND_BODY:
            if self._phase != "body":
                self._arm("body", self.rules.body_timeout)
        else:  # the request is in: the app (and the roll pool's deadline) take over
            self._disarm()

    def _arm(self, phase: str, seconds: float) -> None:
        self._arm_at(phase, self.loop.time() + seconds)

    def _arm_at(self, phase: str, deadline: float) -> None:
        self._phase = phase
        self._deadline = deadline
        timer = self._timer
        if timer is None or timer.when() > deadline:  # none, or one due too late
            if timer is not None:
                timer.cancel()
            self._timer = self.loop.call_at(deadline, self._expire)
        # else: the timer fires earlier, finds the deadline later and re-arms for it

    def _disarm(self) -> None:
        """No deadline (the timer, if any, finds none when it fires and stops)."""
        self._phase = None
        self._deadline = None

    def _stop_timers(self) -> None:
        self._disarm()
        for name in ("_timer", "_drain"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.cancel()
            setattr(self, name, None)

    def _expire(self) -> None:
        self._timer = None
        deadline = self._deadline
        if deadline is None:
            return
        if deadline - self.loop.time() > 0.001:  # the deadline moved on since it was armed
            self._timer = self.loop.call_at(deadline, self._expire)
            return
        self._timed_out()

    def _timed_out(self) -> None:
        if self._upgraded or self.transport.is_closing():
            return
        cycle = self.cycle
        answering = (  # a response has begun (the app did not wait for the body): just close
            self._phase == "body"
            and cycle is not None
            and cycle.response_started
            and not cycle.response_complete
        )
        if self._phase == "idle" and not self._received:  # uvicorn's keep-alive bound
            self.conn.send(h11.ConnectionClosed())
            self.transport.close()
        elif answering or (self._phase == "headers" and not self._received):
            self.transport.close()  # an idle connection: nothing to answer
        else:
            self._close_with(408, "request timeout")

    def _close_with(self, status: int, reason: str) -> None:
        """Answer, shut the write side, drain what the client sends, then close."""
        self._disarm()
        if self.transport.is_closing() or self._refused:
            return
        self._refused = True
        self.transport.write(raw_json_answer(status, reason))
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()  # sent once the answer is: the client reads it, then EOF
        with contextlib.suppress(Exception):  # uvicorn may have paused reading (flow control)
            self.transport.resume_reading()
        self._drain = self.loop.call_later(self.rules.drain_timeout, self.transport.close)

    def _release(self) -> None:
        address = getattr(self, "_address", None)
        if address is not None:
            self.open_by_address[address] -= 1
            if self.open_by_address[address] <= 0:
                del self.open_by_address[address]
            self._address = None


def guarded_protocol(rules: ConnectionRules) -> type[GuardedH11Protocol]:
    """A protocol class for uvicorn's ``http=`` option, with its own connection counts."""
    return type(
        "SaikoroH11Protocol",
        (GuardedH11Protocol,),
        {"rules": rules, "open_by_address": Counter(), "whole_answers": WholeAnswers()},
    )


def uvicorn_options(rules: ConnectionRules) -> dict[str, Any]:
    """The options of ``uvicorn.run`` that go with :func:`guarded_protocol`."""
    return {
        "http": guarded_protocol(rules),
        "timeout_keep_alive": rules.keep_alive,
        "limit_concurrency": None,  # uvicorn's own cap answers plain text: ours is per address
        # Request line + headers: a 10240-character command of Japanese text is ≤ 92 kB
        # percent-encoded in a GET query, so that every legal command fits.
        "h11_max_incomplete_event_size": 128 * 1024,
        # Forwarded headers are read by the app (saikoro.server.proxy), from trusted proxies
        # only: uvicorn's own reading would trust 127.0.0.1 by default.
        "proxy_headers": False,
    }
