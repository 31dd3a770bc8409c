"""Pages of a room's log, newest last, read back from the store (``/events?before=``).

Opening a room costs one page, whatever the length of its log: the page shows the newest
events and asks for older ones as its reader scrolls up. A stored event body is sent as it
is stored (no decode, no re-validation, no re-encoding) whenever the reader may see it
whole — every event for the GM; for others every event but a secret roll, a whisper, a
joining character's sheet and an undo's saved room, which go through
:func:`saikoro.table.view.view_event` as everywhere else.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sqlalchemy import select

from saikoro.store.sql import events as events_table
from saikoro.table import events as ev
from saikoro.table.events import Event
from saikoro.table.view import view_event

if TYPE_CHECKING:
    from saikoro.server.table.service import Caller, TableService

#: Kinds whose stored body a reader other than the GM may not get whole.
_VIEWED_KINDS = frozenset({ev.UNDONE, ev.CHARACTER_ADDED, ev.SHEET_SET})


def _passes_through(kind: str, body: str, gm: bool) -> bool:
    # "secret" / "whisper" anywhere in the body (the flag, or a word in a text) sends it
    # through the view: a needless decode at worst, never a secret or a whisper sent whole.
    # A body stored before tabs (no "tab") is decoded to read its tab by kind.
    if '"tab"' not in body:
        return False
    return gm or (kind not in _VIEWED_KINDS and "secret" not in body and "whisper" not in body)


def with_seq(seq: int, body: str) -> str:
    """A stored event body (a JSON object) with ``"seq"`` first, as the API sends it."""
    inner = body.strip()[1:]
    return f'{{"seq":{seq}{"," if inner.strip() != "}" else ""}{inner}'


def page_before(service: TableService, caller: Caller, before: int, limit: int) -> str:
    """``{"events": [...], "last_seq": N}`` — the ``limit`` events with ``seq < before``
    as the caller sees them, oldest first — as JSON text."""
    room = caller.room
    query = (
        select(events_table.c.seq, events_table.c.kind, events_table.c.body)
        .where(events_table.c.room_id == room.id, events_table.c.seq < before)
        .order_by(events_table.c.seq.desc())
        .limit(limit)
    )
    with service.store.engine.connect() as conn:
        rows = conn.execute(query).all()
    version = service.store.version(room)
    actor = caller.actor
    revealed: set[str] | None = None
    parts: list[str] = []
    for row in reversed(rows):
        if _passes_through(row.kind, row.body, actor.is_gm):
            parts.append(with_seq(row.seq, row.body))
            continue
        if revealed is None:
            revealed = service.revealed(room)
        event = view_event(Event.from_json(json.loads(row.body)), actor, revealed)
        if event is None:  # a whisper to someone else: nothing of it
            continue
        parts.append(json.dumps({"seq": row.seq, **event.to_json()}, ensure_ascii=False))
    return f'{{"events":[{",".join(parts)}],"last_seq":{version}}}'
