"""Chat tabs: every event of the log belongs to one (CCFOLIA's メイン / 情報 / 雑談).

``main`` (メイン) and ``other`` (雑談) take what is typed into them; ``info`` (情報) takes
the table's own lines by default — joins, combats, rounds and turns, rule notices, house
rules. The GM adds more tabs (``/gm tab add NAME``, kept in the room's ``tabs`` field).
An event stores its tab; an event stored before tabs existed reads as ``info`` by its kind,
else ``main`` (:func:`tab_of`).
"""

from __future__ import annotations

from typing import Any

from saikoro.i18n import Message
from saikoro.table import events as ev

MAIN, OTHER, INFO = "main", "other", "info"
#: The tabs of every room, in the order the page shows them, with their labels.
BUILTIN_TABS: dict[str, Message] = {
    MAIN: Message("メイン", "Main"),
    INFO: Message("情報", "Info"),
    OTHER: Message("雑談", "Other"),
}
#: The room field (``ROOM_SET``) that holds the GM's tabs.
TABS_FIELD = "tabs"
#: The longest name of a GM's tab, and how many a room may have.
TAB_NAME_LENGTH = 20
MAX_ROOM_TABS = 20

#: Kinds that go to ``info`` whatever tab the line was typed in.
INFO_KINDS = frozenset(
    {
        ev.ROOM_CREATED,
        ev.CHARACTER_ADDED,
        ev.CHARACTER_REMOVED,
        ev.COMBAT_STARTED,
        ev.ROUND_STARTED,
        ev.TURN_STARTED,
        ev.TURN_ENDED,
        ev.COMBAT_ENDED,
        ev.PARTY_DOWN,
        ev.NOTICE,
        ev.SETTING_SET,
        ev.CLOCK_SET,
        ev.SHEET_SET,
        ev.ICON_SET,
    }
)


def default_tab(kind: str, typed_in: str = MAIN) -> str:
    """The tab of an event of ``kind`` from a line typed in ``typed_in``."""
    return INFO if kind in INFO_KINDS else typed_in


def room_tabs(fields: dict[str, Any]) -> list[str]:
    """Every tab of a room: the built-in ones, then the GM's in the order added."""
    extra = fields.get(TABS_FIELD) or []
    return [*BUILTIN_TABS, *(t for t in extra if isinstance(t, str) and t not in BUILTIN_TABS)]


def checked_tab(tab: str | None, fields: dict[str, Any]) -> str:
    """``tab`` if the room has it (None or empty: ``main``); else a bilingual refusal."""
    if not tab:
        return MAIN
    known = room_tabs(fields)
    if tab not in known:
        from saikoro.table.emit import fail

        raise fail(
            f"タブ {tab!r} はありません (あるのは: {'、'.join(known)})",
            f"no tab {tab!r} (there are: {', '.join(known)})",
            "unknown tab",
        )
    return tab


__all__ = [
    "BUILTIN_TABS",
    "INFO",
    "INFO_KINDS",
    "MAIN",
    "OTHER",
    "TABS_FIELD",
    "checked_tab",
    "default_tab",
    "room_tabs",
]
