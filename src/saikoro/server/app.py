"""The ASGI application: BCDice-API v2 routes, BCDice-API's error bodies, bounds.

``create_app()`` builds a fresh FastAPI app. Every answer is JSON with
``Access-Control-Allow-Origin: *`` and BCDice-API's status codes and bodies (see
:mod:`saikoro.server.bodies`): 400 for an unknown game system or command, 404
``not found`` for unknown routes (also with a trailing slash or the wrong method, as
BCDice-API's Sinatra router), 500 ``{"ok": false}`` where BCDice fails; saikoro's own
bounds add 413 (body too large), 429 (too many requests from one address) and 503
(a command past the deadline, or no worker free in time).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from saikoro import __version__
from saikoro.dice.randomizer import DiceSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.bodies import error_answer, error_status_and_body, wants_extras
from saikoro.server.face_routes import router as face_router
from saikoro.server.fastpath import SaikoroAPI, fast_roll
from saikoro.server.middleware import ServerMiddleware
from saikoro.server.palette_route import router as palette_router
from saikoro.server.pool import InlineRoller, PoolLimits, RollPool
from saikoro.server.proxy import TrustedProxies
from saikoro.server.routes_v2 import router
from saikoro.server.simulate_route import router as simulate_router
from saikoro.server.table.errors import TableApiError
from saikoro.server.table.limits import TableLimits
from saikoro.server.table_api import (
    TABLE_API_PREFIX,
    fallback_router,
    refusal_response,
    table_lifespan,
)
from saikoro.server.table_api import install as install_table_api
from saikoro.server.web_routes import router as web_router

#: The bound on a request body: BCDice-API (Puma) has none; 1 MiB takes any legal command
#: (10240 characters are ≤ 92 kB percent-encoded) and original tables far beyond realistic
#: ones (a 10 399-character table is ≈90 kB), while bounding what a client can make the
#: server buffer.
MAX_BODY_BYTES = 1024 * 1024
#: The largest body of a face's upload (``PUT …/icon``; server.table.faces.MAX_FACE_BYTES).
FACE_UPLOAD_BYTES = 2 * 1024 * 1024
ROLL_TIMEOUT_SECONDS = 5.0

DESCRIPTION = """\
A [BCDice-API](https://github.com/bcdice/bcdice-api) v2 compatible server backed by
saikoro's engine: BCDice's generic commands plus the game systems listed by
`GET /v2/game_system` (帽子世界TRPG, 運命判定d100, …). Point any BCDice-API client
(Udonarium, CCFOLIA-style tools, Discord bots) at this server's base URL. Add `?saikoro=1`
to a request for saikoro's extras (error messages, a roll's warnings and rule IDs).
"""


def _answer(request: Request, reason: str, message: Message | None = None) -> JSONResponse:
    status, body = error_answer(reason, message, wants_extras(dict(request.query_params)))
    return JSONResponse(body, status_code=status)


async def _saikoro_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SaikoroError)
    if request.url.path.startswith(TABLE_API_PREFIX):  # the table's statuses (401/403/…)
        return refusal_response(error)
    status, body = error_status_and_body(error, wants_extras(dict(request.query_params)))
    return JSONResponse(body, status_code=status)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code in (404, 405):
        return _answer(request, "not found")
    detail = Message(str(error.detail), str(error.detail))
    if error.status_code == 413:  # a chunked body that streamed past the bound
        return _answer(request, "request too large", detail)
    return _answer(request, "bad request", detail)


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    """A body the route cannot read: JSON 400 ``bad request`` when it is not JSON at all
    (malformed syntax, as every saikoro and BCDice-API error); on the table API, a JSON body
    that is not the route's is 422 (FastAPI's convention for a body that fails its schema)."""
    assert isinstance(error, RequestValidationError)
    malformed = Message("リクエストの形式が正しくありません", "malformed request")
    not_json = any(problem.get("type") == "json_invalid" for problem in error.errors())
    if request.url.path.startswith(TABLE_API_PREFIX):  # the table's bodies carry a message
        return refusal_response(TableApiError(400 if not_json else 422, "bad request", malformed))
    return _answer(request, "bad request", malformed)


def _socket_not_found(http_not_found: ASGIApp) -> ASGIApp:
    """What answers when no route matches: a WebSocket handshake gets BCDice-API's JSON 404
    with CORS, like every other error answer (the server's own would be a bare 403)."""

    async def not_found(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await http_not_found(scope, receive, send)
            return
        answer = JSONResponse(
            {"ok": False, "reason": "not found"},
            status_code=404,
            headers={"Access-Control-Allow-Origin": "*"},
        )
        await WebSocket(scope, receive, send).send_denial_response(answer)

    return not_found


def create_app(
    db_url: str | None = None,
    *,
    source_factory: Callable[[], DiceSource] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    roll_timeout: float = ROLL_TIMEOUT_SECONDS,
    pool: PoolLimits | None = None,
    table_limits: TableLimits | None = None,
    trusted_proxies: TrustedProxies | None = None,
    public_url: str | None = None,
) -> FastAPI:
    """Build the server.

    ``db_url`` (SQLite path or database URL) is the table API's store (``/api/rooms…``,
    opened when the app starts; without it those routes answer 503); the BCDice-API
    routes do not use it. ``pool`` runs dice work in worker processes (what ``saikoro
    serve`` does; its ``deadline`` is the hard time bound); without it, work runs in
    this process with ``roll_timeout`` checked between dice (tests and tools).
    ``source_factory`` gives each job its dice source (tests pass scripted dice; with a
    pool it must be picklable; default: the OS random source).
    ``trusted_proxies``: the reverse proxies whose ``X-Forwarded-*`` headers are believed
    (default none; see :mod:`saikoro.server.proxy`); ``public_url``: the origin every
    link the server builds starts with (default: the request's own).
    """
    roller = (
        RollPool(pool, source_factory)
        if pool is not None
        else InlineRoller(source_factory, roll_timeout)
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await roller.start()
        try:
            async with table_lifespan(app):
                yield
        finally:
            await roller.close()

    app = SaikoroAPI(
        title="saikoro BCDice-API",
        version=__version__,
        description=DESCRIPTION,
        redirect_slashes=False,  # BCDice-API answers 404 for a trailing slash, not a redirect
        lifespan=lifespan,
        exception_handlers={
            SaikoroError: _saikoro_error,
            StarletteHTTPException: _http_error,
            RequestValidationError: _validation_error,
        },
    )
    app.state.db_url = db_url
    app.state.roller = roller
    app.state.source_factory = source_factory  # the table's lines roll with it too
    app.state.game_system_list = None  # built on first use (imports every system)
    app.state.public_url = public_url  # invite/GM links: this origin, else the request's

    app.include_router(router)
    install_table_api(app, db_url, table_limits)
    app.include_router(palette_router, include_in_schema=db_url is not None)  # as the table API
    app.include_router(face_router, include_in_schema=db_url is not None)
    app.include_router(simulate_router, include_in_schema=db_url is not None)
    app.include_router(web_router)  # the web table's page at /
    app.include_router(fallback_router)  # last: the web page's own "/" wins when installed
    app.router.default = _socket_not_found(app.router.default)
    # One layer: CORS on everything (the 413 of the body bound included), HEAD as GET.
    app.add_middleware(
        ServerMiddleware,
        max_bytes=max_body_bytes,
        uploads={"/icon": max(max_body_bytes, FACE_UPLOAD_BYTES)},  # a face's image (PUT)
    )
    # In front of everything: the proxy's client (every limit counts the client it names),
    # then the roll route answered before any of FastAPI's machinery.
    app.trusted = trusted_proxies
    app.fast = fast_roll(app.state)
    return app
