"""What an event's result was, in one word the page and the HTML log colour it by.

Pure: an event in, one of :data:`OUTCOMES` (or ``""``: nothing to colour) out. Rolls carry
their result in several shapes — a dice roll's flags (``result: {success, critical, …}``),
a system attack's judgement (``result: "hit" | "miss" | …``), a check's ``success`` flag, an
attack's ``damage`` — and HP changes say ``old`` and ``value``; this reads them all, and any
other shape (an older log, another system's own data) is simply not coloured.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from saikoro.table import events as ev
from saikoro.table.events import Event

#: Every word :func:`outcome` may answer (the CSS classes of the page and the log).
OUTCOMES = (
    "critical",
    "fumble",
    "success",
    "failure",
    "hit",
    "miss",
    "damage",
    "heal",
)

#: Dice-roll flags, strongest first (a critical is also a success).
_FLAGS = ("critical", "fumble", "success", "failure")

#: A system's judgement word (``result`` as a string) → the outcome shown.
_JUDGEMENTS = {
    "critical": "critical",
    "fumble": "fumble",
    "hit": "hit",
    "armour": "miss",  # the armour stopped it
    "miss": "miss",
    "out_of_range": "miss",
    "took_effect": "hit",  # a spell on its target: it took effect, or was resisted
    "charm_override": "hit",
    "resisted": "miss",
    "not_activated": "failure",
    "success": "success",
    "failure": "failure",
}


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def outcome(event: Event) -> str:
    """The event's outcome word (see :data:`OUTCOMES`), or ``""``."""
    data: Mapping[str, Any] = event.data if isinstance(event.data, Mapping) else {}
    result = data.get("result")
    if isinstance(result, Mapping):
        return next((flag for flag in _FLAGS if result.get(flag) is True), "")
    if isinstance(result, str):
        return _JUDGEMENTS.get(result, "")
    if event.kind == ev.STATUS_SET and data.get("key") == "hp":
        new, old = _number(data.get("value")), _number(data.get("old"))
        if new is not None and old is not None and new != old:
            return "damage" if new < old else "heal"
        return ""
    success = data.get("success")
    if isinstance(success, bool):
        return "success" if success else "failure"
    damage = _number(data.get("damage"))
    if damage is not None:
        if event.kind == ev.ROLL:  # an attack: through the defence or not
            return "damage" if damage > 0 else "miss"
        return "damage" if damage > 0 else ""
    return ""
