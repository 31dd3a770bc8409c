"""The BCDice-API v2 routes: version, admin, game systems, roll, original table.

Shapes and status codes follow BCDice-API (``bcdice/bcdice-api``, ``docs/api_v2.md``).
Commands run inline on the event loop: BCDice's limits bound them (1000 characters,
10000 dice; ~60 ms at worst) and :class:`DeadlineSource` stops one at the time bound.
"""

from __future__ import annotations

import os
import time
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import JSONResponse

from saikoro import __version__
from saikoro.dice.randomizer import DiceSource, Randomizer, RandomSource
from saikoro.errors import BCDICE_API_REASONS, SaikoroError, UnsupportedCommandError
from saikoro.i18n import Message
from saikoro.server import schemas
from saikoro.server.middleware import error_json

#: The BCDice-API release whose v2 API this server implements.
API_VERSION = "2.0.1"
#: The BCDice release whose behaviour saikoro's engine follows.
BCDICE_VERSION = "3.16.1"

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


class DeadlineSource:
    """Wraps a dice source; a die asked for after the deadline ends the command (503).

    Every unit of engine work past parsing (bounded by the 1000-character input limit)
    is a die, and BCDice's limits cap a command at 10000 dice, so commands run inline
    on the event loop (a thread hop would cost ten times the roll) and still stop at
    the time bound.
    """

    def __init__(self, source: DiceSource, seconds: float) -> None:
        self.source = source
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def roll(self, sides: int) -> int:
        if time.monotonic() > self.deadline:
            raise RollTimeoutError(
                Message(
                    f"{self.seconds:g} 秒以内に処理が終わりませんでした",
                    f"the command did not finish within {self.seconds:g} s",
                )
            )
        return self.source.roll(sides)


def _randomizer(state: Any) -> Randomizer:
    source = state.source_factory() if state.source_factory is not None else RandomSource()
    return Randomizer(DeadlineSource(source, state.roll_timeout))


@router.get("/version", response_model=schemas.VersionBody, summary="API and engine versions")
async def version() -> JSONResponse:
    return JSONResponse({"api": API_VERSION, "bcdice": BCDICE_VERSION, "saikoro": __version__})


@router.get("/admin", response_model=schemas.AdminBody, summary="The server operator")
async def admin() -> JSONResponse:
    return JSONResponse(admin_info())


def error_status_and_body(error: SaikoroError) -> tuple[int, dict[str, object]]:
    """BCDice-API's status and body for one of saikoro's errors."""
    if error.reason in BCDICE_API_REASONS:  # BCDice-API's own errors: its body exactly
        return 400, error_json(error.reason)
    status = 503 if isinstance(error, RollTimeoutError) else 400
    return status, error_json(error.reason, error.message.both())


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


def roll_body(state: Any, system_id: str, command: str | None) -> dict[str, Any]:
    """BCDice-API's roll body for ``command``; raises :class:`SaikoroError` for its errors."""
    system = _system(system_id)
    if not command:
        raise UnsupportedCommandError(_no_command(system_id, command))

    from saikoro.dice.engine import evaluate

    result = evaluate(command, system, _randomizer(state))
    if result is None:
        raise UnsupportedCommandError(_no_command(system_id, command))
    body = result.to_json()
    if result.warnings:  # a BCDice limit was hit (too many dice, too many sides)
        body["warnings"] = [w.both() for w in result.warnings]
    return body


async def _roll(request: Request, system_id: str, command: str | None) -> JSONResponse:
    return JSONResponse(roll_body(request.app.state, system_id, command))


def _no_command(system_id: str, command: str | None) -> Message:
    return Message(
        f"{command!r} は {system_id} のコマンドではありません",
        f"{command!r} is not a command of {system_id}",
    )


CommandQuery = Annotated[str | None, Query(description="The command, e.g. `2D6>=7`")]


@router.get(
    "/game_system/{id}/roll",
    response_model=schemas.RollBody,
    responses=_ERRORS,
    summary="Roll a command",
)
async def roll_get(request: Request, id: str, command: CommandQuery = None) -> JSONResponse:
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
    result = roll_table(table, _randomizer(request.app.state))
    return JSONResponse({"ok": True, "text": result.text, "rands": result.to_json()["rands"]})


__all__ = [
    "RollTimeoutError",
    "admin_info",
    "error_status_and_body",
    "game_system_list_body",
    "roll_body",
    "router",
]
