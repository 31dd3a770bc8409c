"""Pure ASGI middleware: CORS on every response, a request-size bound, a last-resort 500.

BCDice-API sets ``Access-Control-Allow-Origin: *`` on every response, errors included;
so does :class:`OpenCorsMiddleware`, also on the JSON 500 it sends when something
inside crashed (never a bare traceback). :class:`BodyLimitMiddleware` refuses bodies
larger than the bound (413) — from ``Content-Length`` up front, and while streaming
for chunked bodies.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("saikoro.server")

CORS_HEADERS: list[tuple[bytes, bytes]] = [(b"access-control-allow-origin", b"*")]
PREFLIGHT_HEADERS: list[tuple[bytes, bytes]] = [
    (b"access-control-allow-methods", b"GET, POST, OPTIONS"),
    (b"access-control-allow-headers", b"*"),
    (b"access-control-max-age", b"86400"),
]


def error_json(reason: str, message: str | None = None) -> dict[str, Any]:
    """BCDice-API's error body: ``ok: false``, the reason, and a message when there is one."""
    body: dict[str, Any] = {"ok": False, "reason": reason}
    if message:
        body["message"] = message
    return body


def error_body(reason: str, message: str | None = None) -> bytes:
    return json.dumps(error_json(reason, message), ensure_ascii=False).encode("utf-8")


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


class OpenCorsMiddleware:
    """Adds ``Access-Control-Allow-Origin: *`` to every HTTP response; answers preflights."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if scope["method"] == "OPTIONS" and b"access-control-request-method" in headers:
            await send(
                {
                    "type": "http.response.start",
                    "status": 204,
                    "headers": [*CORS_HEADERS, *PREFLIGHT_HEADERS],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return

        started = False

        async def send_with_cors(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                if b"access-control-allow-origin" not in names:
                    message["headers"] = [*message.get("headers", []), *CORS_HEADERS]
            await send(message)

        try:
            await self.app(scope, receive, send_with_cors)
        except Exception:  # the last resort: a JSON 500 with CORS, never a traceback
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await send_json(send, 500, error_body("internal error"), CORS_HEADERS)


class RequestTooLarge(HTTPException):
    """Raised while a chunked body streams past the bound (an HTTP 413 for the app's handler)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, too_large_message(max_bytes))


def too_large_message(max_bytes: int) -> str:
    return (
        f"リクエストが大きすぎます ({max_bytes} バイトまで)"
        f" / request body is too large (at most {max_bytes} bytes)"
    )


class BodyLimitMiddleware:
    """Refuses request bodies over ``max_bytes`` with 413 ``request too large``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = error_body("request too large", too_large_message(self.max_bytes))
        for name, value in scope.get("headers") or []:
            if name.lower() == b"content-length":
                try:
                    too_big = int(value) > self.max_bytes
                except ValueError:
                    too_big = True
                if too_big:
                    await send_json(send, 413, message)
                    return

        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            event = await receive()
            if event["type"] == "http.request":
                seen += len(event.get("body", b""))
                if seen > self.max_bytes:
                    raise RequestTooLarge(self.max_bytes)
            return event

        async def tracking_send(event: Message) -> None:
            nonlocal started
            if event["type"] == "http.response.start":
                started = True
            await send(event)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except RequestTooLarge:
            if not started:
                await send_json(send, 413, message)
