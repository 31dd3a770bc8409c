"""The BCDice-API v2 routes: version, admin, game systems, roll, original table.

Shapes and status codes follow BCDice-API (``bcdice/bcdice-api``, ``docs/api_v2.md``).
Dice work runs in a worker thread under a time bound, so the event loop keeps
answering other clients.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import JSONResponse

from saikoro import __version__
from saikoro.dice.randomizer import Randomizer
from saikoro.errors import SaikoroError, UnsupportedCommandError, UnsupportedSystemError
from saikoro.i18n import Message
from saikoro.server import schemas

#: The BCDice-API release whose v2 API this server implements.
API_VERSION = "2.0.1"
#: The BCDice release whose behaviour saikoro's engine follows.
BCDICE_VERSION = "3.16.1"

T = TypeVar("T")

router = APIRouter(prefix="/v2")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": schemas.ErrorBody, "description": "unsupported game system / command"},
}


class RollTimeoutError(SaikoroError):
    reason = "timeout"


def admin_info() -> dict[str, str]:
    """The operator's name, terms URL and e-mail, from the environment ("" when unset)."""
    return {
        key: os.environ.get(f"SAIKORO_ADMIN_{key.upper()}")
        or os.environ.get(f"BCDICE_API_ADMIN_{key.upper()}", "")
        for key in ("name", "url", "email")
    }


async def run_bounded(request: Request, work: Callable[[], T]) -> T:
    """Run CPU work in a thread; give up (503 ``timeout``) after the app's time bound."""
    seconds: float = request.app.state.roll_timeout
    try:
        with anyio.fail_after(seconds):
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except TimeoutError:
        raise RollTimeoutError(
            Message(
                f"{seconds:g} 秒以内に処理が終わりませんでした",
                f"the command did not finish within {seconds:g} s",
            )
        ) from None


def _randomizer(request: Request) -> Randomizer:
    factory = request.app.state.source_factory
    return Randomizer(factory() if factory is not None else None)


@router.get("/version", response_model=schemas.VersionBody, summary="API and engine versions")
async def version() -> JSONResponse:
    return JSONResponse({"api": API_VERSION, "bcdice": BCDICE_VERSION, "saikoro": __version__})


@router.get("/admin", response_model=schemas.AdminBody, summary="The server operator")
async def admin() -> JSONResponse:
    return JSONResponse(admin_info())


@router.get(
    "/game_system", response_model=schemas.GameSystemListBody, summary="Game systems by sort key"
)
async def game_system_list(request: Request) -> JSONResponse:
    state = request.app.state
    if state.game_system_list is None:
        from saikoro.server.app import game_system_list

        state.game_system_list = game_system_list()
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
async def game_system_info(id: str) -> JSONResponse:  # noqa: A002 - BCDice-API's name
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


async def _roll(request: Request, system_id: str, command: str | None) -> JSONResponse:
    system = _system(system_id)
    if not command:
        raise UnsupportedCommandError(_no_command(system_id, command))

    from saikoro.dice.engine import evaluate

    randomizer = _randomizer(request)
    result = await run_bounded(request, lambda: evaluate(command, system, randomizer))
    if result is None:
        raise UnsupportedCommandError(_no_command(system_id, command))
    body = result.to_json()
    if result.warnings:  # a BCDice limit was hit (too many dice, too many sides)
        body["warnings"] = [w.both() for w in result.warnings]
    return JSONResponse(body)


def _no_command(system_id: str, command: str | None) -> Message:
    return Message(
        f"{command!r} は {system_id} のコマンドではありません",
        f"{command!r} is not a command of {system_id}",
    )


CommandQuery = Annotated[
    str | None, Query(description="The command, e.g. `2D6>=7`")
]


@router.get(
    "/game_system/{id}/roll",
    response_model=schemas.RollBody,
    responses=_ERRORS,
    summary="Roll a command",
)
async def roll_get(request: Request, id: str, command: CommandQuery = None) -> JSONResponse:  # noqa: A002
    return await _roll(request, id, command)


@router.post(
    "/game_system/{id}/roll",
    response_model=schemas.RollBody,
    responses=_ERRORS,
    summary="Roll a command (form body or query)",
)
async def roll_post(
    request: Request,
    id: str,  # noqa: A002
    command: Annotated[str | None, Form(description="The command")] = None,
    command_in_query: Annotated[
        str | None, Query(alias="command", include_in_schema=False)
    ] = None,
) -> JSONResponse:
    return await _roll(request, id, command if command is not None else command_in_query)


@router.post(
    "/original_table",
    response_model=schemas.OriginalTableBody,
    responses={400: {"model": schemas.ErrorBody, "description": "invalid table"}},
    summary="Roll a user-defined table (BCDice's original table format)",
)
async def original_table(
    request: Request,
    table: Annotated[str | None, Form(description="The table text")] = None,
) -> JSONResponse:
    from saikoro.server.original_table import InvalidTableError, roll_table

    if table is None:
        raise InvalidTableError(Message("table がありません", "no 'table' field"))
    randomizer = _randomizer(request)
    result = await run_bounded(request, lambda: roll_table(table, randomizer))
    return JSONResponse({"ok": True, "text": result.text, "rands": result.to_json()["rands"]})


__all__ = ["router", "admin_info", "UnsupportedSystemError"]
