"""The GM's encounter simulation on the web table (issue 25).

``POST /api/rooms/{room}/simulate`` (the GM's Bearer token only: a player or a spectator
gets 403) with ``{"fights": N, "seed": S, "only": [name, …], "npcs": [sheet text, …]}``
plays the room's characters as they are now (``only`` these, when given) — the PCs against
the NPCs, plus the NPC sheets sent — through
``saikoro simulate`` and answers its summary (``Summary.to_json``: win rates with 95 %
intervals, each character's chance to go down or die, rounds, damage) with
``fights_asked``. The fights run in the roll pool's workers like every costly request (a
hard deadline, per-address limits, a nice'd worker); the run itself stops after
``SIMULATE_SECONDS`` with the fights played so far (``fights`` says how many).
"""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.jobs import RollJob
from saikoro.server.middleware import client_key
from saikoro.server.table.errors import TableApiError

router = APIRouter()

#: Fights one request may ask for, and the default.
MAX_FIGHTS = 2000
DEFAULT_FIGHTS = 300
#: NPC sheets one request may add.
MAX_NPCS = 12
#: Seconds of fighting one request gets (the pool's hard deadline stops a run past its own).
SIMULATE_SECONDS = 3.0


class SimulateRequest(BaseModel):
    fights: int = Field(default=DEFAULT_FIGHTS, ge=1, le=MAX_FIGHTS)
    seed: int = Field(default=0, ge=0, le=2**31)
    npcs: list[str] = Field(default_factory=list, max_length=MAX_NPCS)
    #: Only these of the room's characters fight (None: all of them).
    only: list[str] | None = Field(default=None, max_length=100)


def _forbidden() -> TableApiError:
    return TableApiError(
        403,
        "forbidden",
        Message("戦闘シミュレーションは GM だけが使えます", "only the GM runs the simulation"),
    )


def _refused(error: SaikoroError) -> TableApiError:
    return TableApiError(422, error.reason or "bad request", error.message)


@router.post("/api/rooms/{room:path}/simulate")
async def simulate_room(room: str, body: SimulateRequest, request: Request) -> Any:
    """Simulate the room's fight (the GM's only)."""
    from fastapi.responses import Response
    from starlette.concurrency import run_in_threadpool

    from saikoro.server.table_api import caller_for_request

    caller = await caller_for_request(request, room)
    if not caller.actor.is_gm:
        raise _forbidden()
    payload = await run_in_threadpool(_payload, request.app.state.table_store, caller.room, body)
    deadline = getattr(getattr(request.app.state.roller, "limits", None), "deadline", None)
    seconds = SIMULATE_SECONDS if deadline is None else min(SIMULATE_SECONDS, 0.6 * deadline)
    payload["seconds"] = seconds
    job = RollJob("simulate", payload["system"], json.dumps(payload, ensure_ascii=False))
    status, answer = await request.app.state.roller.run(client_key(request.scope), job)
    return Response(answer, status_code=status, media_type="application/json")


def _payload(store: Any, record: Any, body: SimulateRequest) -> dict[str, Any]:
    """What the worker needs (the room's characters and house rules, the NPC sheets),
    checked here first: a bad sheet or an unplayable encounter is a 422 at once."""
    from saikoro.sheets import parse_sheet_text
    from saikoro.simulate import from_state

    state = store.load_state(record)
    try:
        sheets = [parse_sheet_text(text, ".json", record.system) for text in body.npcs]
        from_state(state, only=body.only, extra=[(sheet, "npc") for sheet in sheets])
    except SaikoroError as error:
        raise _refused(error) from None
    kept = state.to_json()
    kept["undo_stack"] = []  # the fight needs none of it
    return {
        "system": record.system,
        "state": kept,
        "npcs": [sheet.model_dump(mode="json") for sheet in sheets],
        "fights": body.fights,
        "seed": body.seed,
        "only": body.only,
    }


def simulate_body(text: str) -> dict[str, Any]:
    """Run a simulation job (in a roll worker): the summary's JSON body."""
    stop_at = time.perf_counter() + float(json.loads(text)["seconds"])  # the job's start
    from saikoro.sheets import sheet_from_data
    from saikoro.simulate import Plan, from_state, simulate
    from saikoro.table.state import RoomState

    payload = json.loads(text)
    state = RoomState.from_json(payload["state"])
    extra = [(sheet_from_data(sheet), "npc") for sheet in payload["npcs"]]
    encounter = from_state(state, only=payload.get("only"), extra=extra)
    summary = simulate(
        encounter,
        Plan(fights=int(payload["fights"]), seed=int(payload["seed"])),
        should_stop=lambda: time.perf_counter() > stop_at,
    )
    return {"ok": True, "fights_asked": int(payload["fights"]), **summary.to_json()}
