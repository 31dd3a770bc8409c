"""The hot route without FastAPI's per-request machinery.

``GET /v2/game_system/{id}/roll?command=…`` is what every chat line of every client
costs. FastAPI's routing and parameter solving take several times the dice engine's
time, so this pure ASGI middleware answers that one route itself, with the same
logic (the app's roller and :func:`saikoro.server.bodies.answer`), the same errors and the same JSON
encoding as the FastAPI route, which stays for the OpenAPI document and for POST.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from saikoro.server.bodies import wants_extras
from saikoro.server.jobs import RollJob
from saikoro.server.middleware import ASGIApp, Receive, Scope, Send, client_key, send_json

ROLL_PATH = re.compile(r"/v2/game_system/([^/]+)/roll")


class FastRollMiddleware:
    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            answering = fast_roll(self.state)(scope)
            if answering is not None:
                await send_json(send, *(await answering))
                return
        await self.app(scope, receive, send)


def fast_roll(state: Any) -> Callable[[Scope], Awaitable[tuple[int, bytes]] | None]:
    """The answerer of ``GET …/roll`` for :class:`~saikoro.server.middleware.ServerMiddleware`:
    for a GET scope, the awaitable answer (status, encoded body), or None for other paths."""

    def answering(scope: Scope) -> Awaitable[tuple[int, bytes]] | None:
        match = ROLL_PATH.fullmatch(scope["path"])
        if match is None:
            return None
        # As Starlette's QueryParams: latin-1 query, last value wins.
        query = dict(parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True))
        job = RollJob("roll", match[1], query.get("command"), wants_extras(query))
        reply: Awaitable[tuple[int, bytes]] = state.roller.run(client_key(scope), job)
        return reply

    return answering
