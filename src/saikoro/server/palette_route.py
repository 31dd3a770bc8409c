"""The speaker's chat palette with each line's chance of success, for the web table.

``GET /api/rooms/{room}/palette?name=NAME`` (Bearer token of the GM or of NAME's player)
answers ``{"name", "items": [{"line", "label", "command", "chance"}]}``: saikoro's own part
of the character's chat palette (the one ``saikoro export`` writes), each line's ``{…}``
references filled in from the character as it is now, and its chance of success from
``saikoro odds`` (None for a line without success or failure, such as a check without a
target).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.table.errors import TableApiError
from saikoro.table.emit import fail
from saikoro.table.state import Character

router = APIRouter()

#: Time budget of one line's odds, as `saikoro odds` (exact for every palette line of both systems:
#: the exact methods give way to Monte Carlo only past half of it).
ODDS_SECONDS = 2.0


@lru_cache(maxsize=4096)
def chance_of_success(system: str, command: str) -> float | None:
    """The chance ``command`` succeeds, or None when not every outcome is a success or a
    failure (a check without a target: only its criticals and fumbles say one)."""
    from saikoro.odds import odds

    try:
        result = odds(command, system, seconds=ODDS_SECONDS)
    except SaikoroError:
        return None
    if abs(float(result.success + result.failure) - 1) > 1e-9:
        return None
    return float(result.success)


def palette_items(system: str, character: Character) -> list[dict[str, Any]]:
    """saikoro's part of ``character``'s chat palette, resolved, each with its chance."""
    from saikoro.sheets import sheet_from_data
    from saikoro.table.dispatch import substitute, tracker_for
    from saikoro.transfer.palette import SAIKORO_HEADER, build_palette

    lines = build_palette(sheet_from_data(character.sheet, system)).splitlines()
    own = lines[lines.index(SAIKORO_HEADER) + 1 :] if SAIKORO_HEADER in lines else lines
    refs = tracker_for(system).references(character)
    items = []
    for line in own:
        if line.startswith("//"):
            continue
        command, _, label = line.partition(" ")
        try:
            resolved: str | None = substitute(command, refs)
        except SaikoroError:
            resolved = None
        chance = chance_of_success(system, resolved) if resolved else None
        items.append(
            {"line": line, "label": label or command, "command": resolved, "chance": chance}
        )
    return items


@router.get("/api/rooms/{room:path}/palette")
async def palette(room: str, name: str, request: Request) -> dict[str, Any]:
    """The chat palette of character ``name`` with each line's chance of success."""
    from saikoro.server.table_api import actor_for_request

    actor = await actor_for_request(request, room)
    if actor.role != "gm" and name not in actor.characters:
        raise fail(
            f"{name} のチャットパレットは見られません",
            f"not allowed to see {name}'s palette",
            "forbidden",
        )
    return await run_in_threadpool(_palette_of, request.app.state.table_store, room, name)


def _palette_of(store: Any, room: str, name: str) -> dict[str, Any]:
    record = store.get_room(room)
    character = store.load_state(record).characters.get(name) if record else None
    if character is None:
        raise TableApiError(
            404,
            "no such character",
            Message(f"キャラクター {name!r} はいません", f"no character {name!r}"),
        )
    return {"name": name, "items": palette_items(record.system, character)}
