"""Pure ASGI middleware: CORS on every response, a request-size bound, a last-resort 500.

BCDice-API sets ``Access-Control-Allow-Origin: *`` on every response, errors included;
so does :class:`OpenCorsMiddleware`, also on the JSON 500 it sends when something
inside crashed (never a bare traceback; BCDice-API's ``{"ok": false}``). :class:`BodyLimitMiddleware` refuses bodies
larger than the bound (413) — from ``Content-Length`` up front, and while streaming
for chunked bodies.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from starlette.exceptions import HTTPException

from saikoro.i18n import Message
from saikoro.server.bodies import encode, error_answer, wants_extras

Scope = MutableMapping[str, Any]
Event = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Event]]
Send = Callable[[Event], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("saikoro.server")

CORS_HEADERS: list[tuple[bytes, bytes]] = [(b"access-control-allow-origin", b"*")]
#: On every HTTP response (API JSON, pages, errors): CORS, and no MIME sniffing.
EVERY_RESPONSE_HEADERS: list[tuple[bytes, bytes]] = [
    *CORS_HEADERS,
    (b"x-content-type-options", b"nosniff"),
]
PREFLIGHT_HEADERS: list[tuple[bytes, bytes]] = [
    (b"access-control-allow-methods", b"GET, POST, PUT, DELETE, OPTIONS"),
    (b"access-control-allow-headers", b"*"),
    (b"access-control-max-age", b"86400"),
]


def client_key(scope: Scope) -> str:
    """Whom a request is from, for per-client limits: the client's address."""
    client = scope.get("client")
    return str(client[0]) if client else "-"


def scope_wants_extras(scope: Scope) -> bool:
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    return wants_extras(query)


def error_body(scope: Scope, reason: str, message: Message | None = None) -> tuple[int, bytes]:
    """BCDice-API's status and body for an error found outside the app's routes."""
    status, body = error_answer(reason, message, scope_wants_extras(scope))
    return status, encode(body)


async def send_json(
    send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestTooLarge(HTTPException):
    """Raised while a chunked body streams past the bound (an HTTP 413 for the app's handler)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, too_large_message(max_bytes))


def too_large_message(max_bytes: int) -> str:
    return too_large(max_bytes).both()


def too_large(max_bytes: int) -> Message:
    return Message(
        f"リクエストが大きすぎます ({max_bytes} バイトまで)",
        f"request body is too large (at most {max_bytes} bytes)",
    )


def too_large_body(scope: Scope, bound: int) -> tuple[int, bytes]:
    """The 413 of a body past ``bound``: the table API's refusal under ``/api/rooms``
    (bilingual, as its other refusals), else BCDice-API's error body."""
    if not str(scope.get("path", "")).startswith("/api/rooms"):
        return error_body(scope, "request too large", too_large(bound))
    message = too_large(bound)
    body = {
        "ok": False,
        "reason": "request too large",
        "message": message.both(),
        "messages": {"ja": message.ja, "en": message.en},
    }
    return 413, encode(body)


class ServerMiddleware:
    """The server's one middleware: open CORS and saikoro's headers on every answer, a
    body-size limit, HEAD answered as GET without a body, and a JSON 500 as the last
    resort — one layer, not four nested wrappers around every request. (The roll route's
    GET is answered before it: :mod:`saikoro.server.fastpath`.)"""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        uploads: dict[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        #: path suffix → the body bound of a PUT there (an image upload), instead of ``max_bytes``.
        self.uploads = uploads or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        head = method == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        elif method == "OPTIONS" and any(
            name == b"access-control-request-method" for name, _ in scope.get("headers") or []
        ):
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [*EVERY_RESPONSE_HEADERS, *PREFLIGHT_HEADERS],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        bound = self._bound(scope)
        if self._too_big(scope, bound):
            refusal = too_large_body(scope, bound)
            await send_json(
                send if not head else _headers_only(send), *refusal, EVERY_RESPONSE_HEADERS
            )
            return
        await self._app(scope, receive, send if not head else _headers_only(send), bound)

    def _bound(self, scope: Scope) -> int:
        if scope["method"] == "PUT" and self.uploads:
            path = str(scope.get("path", ""))
            for suffix, bound in self.uploads.items():
                if path.endswith(suffix):
                    return bound
        return self.max_bytes

    def _too_big(self, scope: Scope, bound: int) -> bool:
        for name, value in scope.get("headers") or []:
            if name == b"content-length":
                try:
                    return int(value) > bound
                except ValueError:
                    return True
        return False

    async def _app(self, scope: Scope, receive: Receive, send: Send, bound: int) -> None:
        seen = 0
        started = False

        async def limited_receive() -> Event:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > bound:
                    raise RequestTooLarge(bound)
            return event

        async def send_with_cors(message: Event) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                missing = [pair for pair in EVERY_RESPONSE_HEADERS if pair[0] not in names]
                message["headers"] = [*message.get("headers", []), *missing]
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_cors)
        except RequestTooLarge:
            if not started:
                refusal = too_large_body(scope, bound)
                await send_json(send, *refusal, EVERY_RESPONSE_HEADERS)
            return
        except Exception:  # the last resort: a JSON 500 with CORS, never a traceback
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await send_json(send, *error_body(scope, "internal error"), EVERY_RESPONSE_HEADERS)
            return
        if not started:  # the app answered nothing (e.g. the client left): not uvicorn's text 500
            await send_json(send, *error_body(scope, "internal error"), EVERY_RESPONSE_HEADERS)


def _headers_only(send: Send) -> Send:
    """``send`` for a HEAD request: the GET's headers, an empty body."""

    async def send_headers_only(event: Event) -> None:
        if event["type"] == "http.response.body":
            if not event.get("more_body", False):
                await send({"type": "http.response.body", "body": b""})
            return
        await send(event)

    return send_headers_only
