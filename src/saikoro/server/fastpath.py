"""The hot route without FastAPI's per-request machinery.

``GET /v2/game_system/{id}/roll?command=…`` is what every chat line of every client
costs. FastAPI's entry (its telemetry check), Starlette's error middleware, routing and
parameter solving each take a share of a request that the dice themselves barely
register in, so :class:`SaikoroAPI` — the app ``create_app`` builds — answers that one
route before any of them, with the same logic (the app's roller and
:func:`saikoro.server.bodies.answer`), the same errors, headers and JSON as the FastAPI
route, which stays for the OpenAPI document, for HEAD and POST, and for a GET that
carries a body (its size bound is :class:`~saikoro.server.middleware.ServerMiddleware`'s).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI

from saikoro.server.bodies import wants_extras
from saikoro.server.jobs import RollJob
from saikoro.server.middleware import (
    EVERY_RESPONSE_HEADERS,
    Receive,
    Scope,
    Send,
    client_key,
    error_body,
)
from saikoro.server.proxy import TrustedProxies, forwarded_scope
from saikoro.server.whole_answers import WHOLE_ANSWER

log = logging.getLogger("saikoro.server")

ROLL_PATH = re.compile(r"/v2/game_system/([^/]+)/roll")

#: Requests whose job is remembered (path and query → job), and the longest query that is:
#: chat lines repeat (``2D6``, a palette's commands), so most requests skip the parsing.
KNOWN_JOBS = 1024
KNOWN_QUERY_BYTES = 256

Answering = Callable[[Scope], Awaitable[tuple[int, bytes]] | None]


def fast_roll(state: Any) -> Answering:
    """The answerer of ``GET …/roll``: for a GET scope, the awaitable answer (status,
    encoded body), or None for other paths and for a request with a body."""
    known: dict[tuple[str, bytes], RollJob] = {}

    def job_of(scope: Scope) -> RollJob | None:
        path, query_string = scope["path"], scope["query_string"]
        job = known.get((path, query_string))
        if job is not None:
            return job
        match = ROLL_PATH.fullmatch(path)
        if match is None:
            return None
        # As Starlette's QueryParams: latin-1 query, last value wins.
        query = dict(parse_qsl(query_string.decode("latin-1"), keep_blank_values=True))
        job = RollJob("roll", match[1], query.get("command"), wants_extras(query))
        if len(query_string) <= KNOWN_QUERY_BYTES:
            if len(known) >= KNOWN_JOBS:
                known.clear()
            known[path, query_string] = job
        return job

    def answering(scope: Scope) -> Awaitable[tuple[int, bytes]] | None:
        job = job_of(scope)
        if job is None:
            return None
        for name, _ in scope["headers"]:
            if name == b"content-length" or name == b"transfer-encoding":
                return None  # a body: the whole stack reads (and bounds) it
        reply: Awaitable[tuple[int, bytes]] = state.roller.run(client_key(scope), job)
        return reply

    return answering


class SaikoroAPI(FastAPI):
    """FastAPI with saikoro's front door: ``X-Forwarded-*`` of trusted proxies applied to
    every HTTP and WebSocket scope (:func:`saikoro.server.proxy.forwarded_scope`), then
    ``GET …/roll`` answered by :attr:`fast` (see the module) before FastAPI's own entry."""

    fast: Answering | None = None
    trusted: TrustedProxies | None = None
    #: Sends a fast answer through the protocol's :data:`WHOLE_ANSWER` extension when the
    #: scope has it (see :mod:`saikoro.server.whole_answers`).
    takes_whole_answers = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" or kind == "websocket":
            if self.trusted:  # in place, as uvicorn's own proxy middleware: its log reads it
                scope.update(forwarded_scope(scope, self.trusted))
            if kind == "http" and self.fast is not None and scope["method"] == "GET":
                answering = self.fast(scope)
                if answering is not None:
                    await _answer(scope, send, answering)
                    return
        await super().__call__(scope, receive, send)


_JSON = b"application/json"
_EXTRA_HEADERS = tuple(EVERY_RESPONSE_HEADERS)


async def _answer(scope: Scope, send: Send, answering: Awaitable[tuple[int, bytes]]) -> None:
    try:
        status, body = await answering
    except Exception:  # the last resort: a JSON 500 with CORS, never a traceback
        log.exception("unhandled error in GET %s", scope.get("path"))
        status, body = error_body(scope, "internal error")
    extensions = scope.get("extensions")
    whole = extensions.get(WHOLE_ANSWER) if extensions else None
    if whole is not None and whole(scope, status, body, _JSON, _EXTRA_HEADERS):
        return
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", _JSON),
                (b"content-length", str(len(body)).encode()),
                *EVERY_RESPONSE_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
