"""The ASGI application: BCDice-API v2 routes, BCDice-API's error bodies, bounds.

``create_app()`` builds a fresh FastAPI app. Every error a client can cause is a JSON
body ``{"ok": false, "reason": …}`` (plus a bilingual ``message`` where saikoro has
one) with BCDice-API's status codes: 400 for an unknown game system, an unknown or
empty command or other bad input, 404 ``not found`` for unknown routes (and, as
BCDice-API's Sinatra router, for a known path with the wrong method), 413 for a
body over the size bound, 503 when a command runs past the time bound.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from saikoro import __version__
from saikoro.dice.randomizer import DiceSource
from saikoro.errors import SaikoroError
from saikoro.server.fastpath import FastRollMiddleware
from saikoro.server.middleware import BodyLimitMiddleware, OpenCorsMiddleware, error_json
from saikoro.server.palette_route import router as palette_router
from saikoro.server.routes_v2 import error_status_and_body, router
from saikoro.server.table.limits import TableLimits
from saikoro.server.table_api import (
    TABLE_API_PREFIX,
    fallback_router,
    refusal_response,
    table_lifespan,
)
from saikoro.server.table_api import install as install_table_api
from saikoro.server.web_routes import router as web_router

MAX_BODY_BYTES = 64 * 1024
ROLL_TIMEOUT_SECONDS = 5.0

DESCRIPTION = """\
A [BCDice-API](https://github.com/bcdice/bcdice-api) v2 compatible server backed by
saikoro's engine: BCDice's generic commands plus the game systems listed by
`GET /v2/game_system` (帽子世界TRPG, 運命判定d100, …). Point any BCDice-API client (Udonarium, CCFOLIA-style
tools, Discord bots) at this server's base URL.
"""


def _error(status: int, reason: str, message: str | None = None) -> JSONResponse:
    return JSONResponse(error_json(reason, message), status_code=status)


async def _saikoro_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SaikoroError)
    if request.url.path.startswith(TABLE_API_PREFIX):  # the table's statuses (401/403/…)
        return refusal_response(error)
    status, body = error_status_and_body(error)
    return JSONResponse(body, status_code=status)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code in (404, 405):
        return _error(404, "not found")
    if error.status_code == 413:  # a chunked body that streamed past the bound
        return _error(413, "request too large", str(error.detail))
    return _error(error.status_code, "bad request", str(error.detail))


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    # BCDice-API answers 400; the table API (/api/…) the usual 422 of a body it cannot take.
    status = 422 if request.url.path.startswith("/api/") else 400
    return _error(status, "bad request", "リクエストの形式が正しくありません / malformed request")


def create_app(
    db_url: str | None = None,
    *,
    source_factory: Callable[[], DiceSource] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    roll_timeout: float = ROLL_TIMEOUT_SECONDS,
    table_limits: TableLimits | None = None,
) -> FastAPI:
    """Build the server.

    ``db_url`` (SQLite path or database URL) is the table API's store (``/api/rooms…``,
    opened when the app starts; without it those routes answer 503); the BCDice-API
    routes do not use it. ``source_factory`` gives each request its dice source (tests
    pass scripted dice; default: the OS random source).
    """
    app = FastAPI(
        title="saikoro BCDice-API",
        version=__version__,
        description=DESCRIPTION,
        lifespan=table_lifespan,
        exception_handlers={
            SaikoroError: _saikoro_error,
            StarletteHTTPException: _http_error,
            RequestValidationError: _validation_error,
        },
    )
    app.state.db_url = db_url
    app.state.source_factory = source_factory
    app.state.roll_timeout = roll_timeout
    app.state.game_system_list = None  # built on first use (imports every system)
    app.include_router(router)
    install_table_api(app, db_url, table_limits)
    app.include_router(palette_router, include_in_schema=db_url is not None)  # as the table API
    app.include_router(web_router)  # the web table's page at /
    app.include_router(fallback_router)  # last: the web page's own "/" wins when installed
    # Outermost last: CORS wraps everything, including the 413 of the body bound.
    app.add_middleware(FastRollMiddleware, state=app.state)
    app.add_middleware(BodyLimitMiddleware, max_bytes=max_body_bytes)
    app.add_middleware(OpenCorsMiddleware)
    return app
