"""BCDice-API's response bodies: a roll, an original table, and every error.

By default a client sees exactly what BCDice-API 3.0.0 (with BCDice 3.16.1) answers:
roll bodies with BCDice-API's keys only, ``400 {"ok": false, "reason": …}`` for an
unknown system or command, and ``500 {"ok": false}`` wherever BCDice itself fails
(too many dice, an invalid original table, …). saikoro's extras — the bilingual
``message`` of an error, a roll's ``warnings`` and ``rules`` — are added when the
client asks with ``?saikoro=1``; then errors of bad input answer 400.
saikoro's own bounds, which BCDice-API does not have, answer with their own status
and ``{"ok": false, "reason": …}``.
"""

from __future__ import annotations

import json
from typing import Any

from saikoro.dice.randomizer import DiceSource, Randomizer
from saikoro.errors import BCDICE_API_REASONS, SaikoroError, UnsupportedCommandError
from saikoro.i18n import Message
from saikoro.server.jobs import RollJob

#: saikoro's own refusals (no BCDice-API counterpart) and their status.
SAIKORO_LIMIT_STATUS: dict[str, int] = {
    "bad request": 400,
    "input too long": 400,
    "expression too deeply nested": 400,  # AddDice past 100 levels (Calc has no bound)
    "output too long": 400,
    "repeat too long": 400,
    "request timeout": 408,
    "request too large": 413,
    "too many requests": 429,
    "timeout": 503,
    "busy": 503,
    "too many connections": 503,
}

EXTRAS_FLAGS = frozenset({"1", "true", "yes", "on"})


def wants_extras(query: dict[str, str]) -> bool:
    """Whether the client asked for saikoro's extras (``?saikoro=1``)."""
    return query.get("saikoro", "").lower() in EXTRAS_FLAGS


#: One encoder for every answer (``json.dumps`` with options builds one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def encode(body: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON, as Starlette's JSONResponse."""
    return _ENCODER.encode(body).encode("utf-8")


def error_json(reason: str, message: str | None = None) -> dict[str, Any]:
    """``ok: false``, the reason, and a message when there is one."""
    body: dict[str, Any] = {"ok": False, "reason": reason}
    if message:
        body["message"] = message
    return body


def error_answer(reason: str, message: Message | None, extras: bool) -> tuple[int, dict[str, Any]]:
    """The status and body of an error with ``reason`` (see the module's description)."""
    text = message.both() if extras and message is not None else None
    if reason in BCDICE_API_REASONS:
        return 400, error_json(reason, text)
    if reason == "not found":
        return 404, error_json(reason, text)
    if reason in SAIKORO_LIMIT_STATUS:
        return SAIKORO_LIMIT_STATUS[reason], error_json(reason, text)
    if reason == "internal error":
        return 500, error_json(reason, text) if extras else {"ok": False}
    if extras:  # bad input saikoro explains
        return 400, error_json(reason, text)
    return 500, {"ok": False}  # BCDice fails here: BCDice-API's generic error answer


def error_status_and_body(error: SaikoroError, extras: bool = False) -> tuple[int, dict[str, Any]]:
    return error_answer(error.reason, error.message, extras)


def _no_command(system_id: str, command: str | None) -> Message:
    return Message(
        f"{command!r} は {system_id} のコマンドではありません",
        f"{command!r} is not a command of {system_id}",
    )


def roll_body(
    system_id: str, command: str | None, source: DiceSource | None = None, extras: bool = False
) -> dict[str, Any]:
    """BCDice-API's roll body for ``command``; raises :class:`SaikoroError` for its errors."""
    from saikoro.dice.engine import evaluate
    from saikoro.systems import systems

    system = systems.get_system(system_id)
    if not command:
        raise UnsupportedCommandError(_no_command(system_id, command))
    result = evaluate(command, system, Randomizer(source))
    if result is None:
        raise UnsupportedCommandError(_no_command(system_id, command))
    body = result.to_json()
    if extras:
        body["warnings"] = [w.both() for w in result.warnings]
        body["rules"] = list(result.rules)
    return body


def table_body(table: str | None, source: DiceSource | None = None) -> dict[str, Any]:
    """BCDice-API's original-table body; raises ``InvalidTableError`` for a bad table."""
    from saikoro.server.original_table import InvalidTableError, roll_table

    if table is None:
        raise InvalidTableError(Message("table がありません", "no 'table' field"))
    result = roll_table(table, Randomizer(source))
    return {"ok": True, "text": result.text, "rands": [d.to_json() for d in result.rands]}


def answer(job: RollJob, source: DiceSource | None = None) -> tuple[int, bytes]:
    """Run one job: its status and JSON body, errors included (never raises SaikoroError)."""
    try:
        if job.kind == "table":
            body = table_body(job.text, source)
        elif job.kind == "simulate":
            from saikoro.server.simulate_route import simulate_body

            body = simulate_body(job.text or "")
        else:
            body = roll_body(job.system_id, job.text, source, job.extras)
        return 200, encode(body)
    except SaikoroError as error:
        status, error_body = error_status_and_body(error, job.extras)
        return status, encode(error_body)
