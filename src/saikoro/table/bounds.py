"""What one event may store (issue 18): a huge legal roll keeps its totals and a bounded
record of its dice, saying that the record was cut.

A legal command may answer half a megabyte (``x100 100B66``: every die in the text, twice —
Japanese and English — and 10000 dice): stored whole, ten links made a room grow by 25 MB
in three seconds, and every such event was pushed to every socket of the room. The table
stores at most :data:`MAX_TEXT_CHARS` characters of each text (its beginning, and its end
where the totals are, with the number of characters left out between them) and the first
:data:`MAX_DICE` dice; ``data["cut"]`` says what was cut. Whatever is still larger than
:data:`MAX_EVENT_BYTES` (no event saikoro makes) is refused before anything is written.
The caller's own answer (``Outcome.lines``) keeps the whole text: only what is stored and
sent to the room is bounded.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.table import events as ev
from saikoro.table.events import Event

#: Characters of an event's text (each language) and of a roll's result text stored.
MAX_TEXT_CHARS = 2000
#: Dice of one event stored (the first ones; the totals are in the text and the result).
MAX_DICE = 200
#: The JSON of one stored roll, chat line or notice, at most (a safety net past the cuts
#: above; a character's sheet and an undo's saved state have bounds of their own).
MAX_EVENT_BYTES = 64 * 1024
_NETTED = frozenset({ev.ROLL, ev.CHAT, ev.NOTICE})


def cut_text(text: str, limit: int, marker: str) -> str:
    """``text`` itself when it fits; else its beginning and its end (where a roll's totals
    are) with ``marker`` (formatted with the number of characters left out) between."""
    if len(text) <= limit:
        return text
    tail = limit // 3
    head = limit - tail
    return f"{text[:head]}{marker.format(len(text) - head - tail)}{text[-tail:]}"


_JA = " …({} 文字省略)… "
_EN = " …({} characters cut)… "


def bounded(event: Event) -> Event:
    """``event`` as the table stores it (see the module's doc)."""
    cut: dict[str, Any] = {}
    text = event.text
    if text is not None and max(len(text.ja), len(text.en)) > MAX_TEXT_CHARS:
        cut["text"] = {"ja": len(text.ja), "en": len(text.en)}
        text = Message(
            cut_text(text.ja, MAX_TEXT_CHARS, _JA), cut_text(text.en, MAX_TEXT_CHARS, _EN)
        )
    data = event.data
    result = data.get("result")
    result_text = result.get("text") if isinstance(result, dict) else None
    if isinstance(result_text, str) and len(result_text) > MAX_TEXT_CHARS:
        cut["result_text"] = len(result_text)
        data = {
            **data,
            "result": {**data["result"], "text": cut_text(result_text, MAX_TEXT_CHARS, _JA)},
        }
    dice = event.dice
    if len(dice) > MAX_DICE:
        cut["dice"] = len(dice)
        dice = dice[:MAX_DICE]
    if not cut:
        return event
    return replace(event, text=text, data={**data, "cut": cut}, dice=dice)


def stored_size(event: Event) -> int:
    """Bytes of the event's stored JSON (as the store writes it)."""
    body = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"))
    return len(body.encode("utf-8"))


class EventTooLargeError(SaikoroError):
    reason = "event too large"

    def __init__(self, size: int) -> None:
        super().__init__(
            Message(
                f"この行の記録が大きすぎます ({size} バイト、上限 {MAX_EVENT_BYTES} バイト)。"
                "何も書き込まれていません",
                f"this line's record is too large ({size} bytes, at most {MAX_EVENT_BYTES});"
                " nothing was written",
            )
        )


def bounded_events(events: list[Event]) -> list[Event]:
    """Every event bounded; :class:`EventTooLargeError` when one is still too large."""
    out = [bounded(event) for event in events]
    for event in out:
        if event.kind not in _NETTED:
            continue
        size = stored_size(event)
        if size > MAX_EVENT_BYTES:
            raise EventTooLargeError(size)
    return out
