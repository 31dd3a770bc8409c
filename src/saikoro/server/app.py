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
from saikoro.server.routes_v2 import error_status_and_body, router

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
    return _error(400, "bad request", "リクエストの形式が正しくありません / malformed request")


def create_app(
    db_url: str | None = None,
    *,
    source_factory: Callable[[], DiceSource] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    roll_timeout: float = ROLL_TIMEOUT_SECONDS,
) -> FastAPI:
    """Build the server.

    ``db_url`` is kept in ``app.state.db_url`` for the table API (rooms); the BCDice-API
    routes do not use it. ``source_factory`` gives each request its dice source (tests
    pass scripted dice; default: the OS random source).
    """
    app = FastAPI(
        title="saikoro BCDice-API",
        version=__version__,
        description=DESCRIPTION,
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
    # Outermost last: CORS wraps everything, including the 413 of the body bound.
    app.add_middleware(FastRollMiddleware, state=app.state)
    app.add_middleware(BodyLimitMiddleware, max_bytes=max_body_bytes)
    app.add_middleware(OpenCorsMiddleware)
    return app
