"""The BCDice-API v2 routes: version, admin, game systems, roll, original table.

Shapes and status codes follow BCDice-API 3.0.0 (``bcdice/bcdice-api``,
``lib/bcdice_api/controller/v2.rb``). Dice work (rolls, original tables) goes to the
app's roller (:mod:`saikoro.server.pool`), never onto the event loop.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from saikoro import __version__
from saikoro.dice.commands.version import BCDICE_VERSION
from saikoro.server import schemas
from saikoro.server.bodies import wants_extras
from saikoro.server.jobs import RollJob
from saikoro.server.middleware import client_key

#: The BCDice-API release whose behaviour this server matches (run with BCDice 3.16.1).
API_VERSION = "3.0.0"

FORM_TYPE = "application/x-www-form-urlencoded"
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def utf8_form_body(body: bytes) -> bytes:
    """A form body whose unescaped bytes read as UTF-8, as Sinatra reads every parameter.

    Starlette reads unescaped bytes of a form body as latin-1 (``curl -d`` with Japanese
    gave mojibake) but percent escapes as UTF-8; escaping every byte past ASCII makes both
    read as UTF-8 whatever ``charset`` the content type names, invalid bytes as U+FFFD.
    """
    return _HIGH_BYTE.sub(lambda byte: b"%%%02X" % byte[0][0], body)


class Utf8FormRoute(APIRoute):
    """An API route whose form-encoded body is read as UTF-8 (see :func:`utf8_form_body`)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def utf8_handler(request: Request) -> Response:
            content_type = request.headers.get("content-type", "").split(";")[0]
            if content_type.strip().lower() != FORM_TYPE:
                return await handler(request)
            body = utf8_form_body(await request.body())

            async def receive() -> dict[str, Any]:
                return {"type": "http.request", "body": body, "more_body": False}

            return await handler(Request(request.scope, receive))

        return utf8_handler


router = APIRouter(prefix="/v2", route_class=Utf8FormRoute)

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorBody, "description": "unsupported game system / command"},
    500: {"model": schemas.ErrorBody, "description": "BCDice failed (e.g. too many dice)"},
    503: {"model": schemas.ErrorBody, "description": "timeout or busy"},
}


def admin_info() -> dict[str, str]:
    """The operator's name, terms URL and e-mail, from the environment ("" when unset)."""
    return {
        key: os.environ.get(f"SAIKORO_ADMIN_{key.upper()}")
        or os.environ.get(f"BCDICE_API_ADMIN_{key.upper()}", "")
        for key in ("name", "url", "email")
    }


async def run_job(request_scope: Any, state: Any, job: RollJob) -> Response:
    status, body = await state.roller.run(client_key(request_scope), job)
    return Response(body, status_code=status, media_type="application/json")


@router.get("/version", response_model=schemas.VersionBody, summary="API and engine versions")
async def version(request: Request) -> JSONResponse:
    body = {"api": API_VERSION, "bcdice": BCDICE_VERSION}
    if wants_extras(dict(request.query_params)):
        body["saikoro"] = __version__
    return JSONResponse(body)


@router.get("/admin", response_model=schemas.AdminBody, summary="The server operator")
async def admin() -> JSONResponse:
    return JSONResponse(admin_info())


def game_system_list_body() -> dict[str, list[dict[str, str]]]:
    from saikoro.systems import systems

    return {
        "game_system": [
            {"id": s.id, "name": s.name, "sort_key": s.sort_key}
            for s in systems.sorted_by_sort_key()
        ]
    }


@router.get(
    "/game_system", response_model=schemas.GameSystemListBody, summary="Game systems by sort key"
)
async def game_system_list(request: Request) -> JSONResponse:
    state = request.app.state
    if state.game_system_list is None:
        state.game_system_list = game_system_list_body()
    return JSONResponse(state.game_system_list)


def _system(system_id: str) -> Any:
    from saikoro.systems import systems

    return systems.get_system(system_id)


@router.get(
    "/game_system/{id}",
    response_model=schemas.GameSystemInfoBody,
    responses=_ERRORS,
    summary="One game system: command pattern and help",
)
async def game_system_info(id: str) -> JSONResponse:
    system = _system(id)
    return JSONResponse(
        {
            "ok": True,
            "id": system.id,
            "name": system.name,
            "sort_key": system.sort_key,
            "command_pattern": system.command_pattern.pattern,
            "help_message": system.help_message,
        }
    )


async def _roll(request: Request, system_id: str, command: str | None) -> Response:
    extras = wants_extras(dict(request.query_params))
    return await run_job(
        request.scope, request.app.state, RollJob("roll", system_id, command, extras)
    )


CommandQuery = Annotated[str | None, Query(description="The command, e.g. `2D6>=7`")]


@router.get(
    "/game_system/{id}/roll",
    response_model=schemas.RollBody,
    responses=_ERRORS,
    summary="Roll a command",
)
async def roll_get(request: Request, id: str, command: CommandQuery = None) -> Response:
    return await _roll(request, id, command)


@router.post(
    "/game_system/{id}/roll",
    response_model=schemas.RollBody,
    responses=_ERRORS,
    summary="Roll a command (form body or query)",
)
async def roll_post(
    request: Request,
    id: str,
    command: Annotated[str | None, Form(description="The command")] = None,
    command_in_query: Annotated[str | None, Query(alias="command", include_in_schema=False)] = None,
) -> Response:
    return await _roll(request, id, command if command is not None else command_in_query)


@router.post(
    "/original_table",
    response_model=schemas.OriginalTableBody,
    responses={500: {"model": schemas.ErrorBody, "description": "invalid table"}},
    summary="Roll a user-defined table (BCDice's original table format)",
)
async def original_table(
    request: Request,
    table: Annotated[str | None, Form(description="The table text")] = None,
    table_in_query: Annotated[str | None, Query(alias="table", include_in_schema=False)] = None,
) -> Response:
    """As BCDice-API (Sinatra's params), the table may also come in the query; the body wins."""
    text = table if table is not None else table_in_query
    extras = wants_extras(dict(request.query_params))
    return await run_job(request.scope, request.app.state, RollJob("table", "", text, extras))


__all__ = ["API_VERSION", "admin_info", "game_system_list_body", "router", "run_job"]
