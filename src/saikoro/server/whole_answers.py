"""A whole fixed-length answer sent through uvicorn's h11 cycle with its head validated once.

uvicorn's ``send`` builds an ``h11.Response`` for every answer, and h11 checks every header
name and value of it against its grammar (two regular expressions a header, plus the
``Content-Length`` rules): for a small JSON answer with saikoro's headers that check costs
more than the dice of a ``2D6``. The head of saikoro's hot answers hardly changes — the
same headers, the length of the body, and uvicorn's ``date`` once a second — so
:class:`WholeAnswers` keeps the validated ``h11.Response`` events, keyed by what varies,
and :meth:`WholeAnswers.send` does what the cycle's two ``send`` calls would (the same
h11 state changes, access log line, ``Connection: close`` handling and completion
callback), writing head and body at once.

:class:`~saikoro.server.connections.GuardedH11Protocol` offers it to the app as the scope
extension :data:`WHOLE_ANSWER`; an app that finds the extension absent (another server, a
test client) or is refused (``False``: flow control, a disconnected client, a response
already begun) sends the ordinary ASGI messages instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import h11
from uvicorn.protocols.http.flow_control import CLOSE_HEADER
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, RequestResponseCycle
from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string

#: The scope extension: ``send(scope, status, body, content_type, extra_headers) -> bool``.
WHOLE_ANSWER = "saikoro.whole_answer"

Header = tuple[bytes, bytes]
WholeSend = Callable[[Any, int, bytes, bytes, tuple[Header, ...]], bool]

_END = h11.EndOfMessage()  # immutable: one for every answer


class WholeAnswers:
    """Validated response heads for one protocol class (see the module)."""

    MAX_HEADS = 256  # distinct (headers, status, length) kept within one second

    def __init__(self) -> None:
        self._defaults: Sequence[Header] | None = None  # uvicorn's date and server headers
        self._heads: dict[tuple[bytes, tuple[Header, ...], int, int, bool], h11.Response] = {}

    def head(
        self,
        defaults: Sequence[Header],
        status: int,
        length: int,
        content_type: bytes,
        extra: tuple[Header, ...],
        close: bool,
    ) -> h11.Response:
        """The ``h11.Response`` for these headers, validated by h11 the first time."""
        if defaults is not self._defaults:  # uvicorn renews the list when the date changes
            self._defaults = defaults
            self._heads = {}
        key = (content_type, extra, status, length, close)
        head = self._heads.get(key)
        if head is None:
            headers = [
                *defaults,
                (b"content-type", content_type),
                (b"content-length", str(length).encode()),
                *extra,
            ]
            if close:
                headers.append(CLOSE_HEADER)
            if len(self._heads) >= self.MAX_HEADS:
                self._heads.clear()
            head = self._heads[key] = h11.Response(
                status_code=status, headers=headers, reason=STATUS_PHRASES[status]
            )
        return head

    def send(
        self,
        cycle: RequestResponseCycle | None,
        write: Callable[[bytes], None],
        close_transport: Callable[[], None],
        scope: Any,
        status: int,
        body: bytes,
        content_type: bytes,
        extra: tuple[Header, ...],
    ) -> bool:
        """Answer ``scope``'s request with ``body`` as uvicorn's cycle would; False (nothing
        sent) when the cycle must do it itself."""
        if (
            cycle is None
            or cycle.scope is not scope
            or cycle.response_started
            or cycle.disconnected
            or cycle.flow.write_paused
            or scope["method"] == "HEAD"
        ):
            return False
        cycle.response_started = True
        cycle.waiting_for_100_continue = False
        if cycle.access_log:
            cycle.access_logger.info(
                '%s - "%s %s HTTP/%s" %d',
                get_client_addr(scope),
                scope["method"],
                get_path_with_query_string(scope),
                scope["http_version"],
                status,
            )
        close = CLOSE_HEADER in scope["headers"]
        conn = cycle.conn
        head = conn.send(
            self.head(cycle.default_headers, status, len(body), content_type, extra, close)
        )
        data = conn.send(h11.Data(data=body))
        conn.send(_END)
        cycle.response_complete = True
        cycle.message_event.set()
        write(head + data)
        if conn.our_state is h11.MUST_CLOSE or not cycle.keep_alive:
            conn.send(h11.ConnectionClosed())
            close_transport()
        cycle.on_response()
        return True
