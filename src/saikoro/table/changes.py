"""What an event changed in the room, as a reader may see it (pure).

A live reader (the web page) keeps the room's state from ``/state`` and then updates it
from each event: :func:`state_change` says, once per event, which characters and combat
fields the event touched, as :func:`saikoro.table.view.view_state` shows them (its rows are
made by the same :func:`~saikoro.table.view.character_row`); :func:`view_change` picks
for one reader what they may see of it (``values`` only for the GM and the character's
player; nothing at all of an event they see redacted).

The change's JSON (``change`` of a WebSocket ``event`` frame, docs/table-api.md)::

    {"version": 42,                       # the room's version after the event (= its seq)
     "characters": [{row as /state}, …],  # touched characters, whole rows (replace by name)
     "removed": ["name", …],              # characters that left
     "combat": {…} | null,                # present when the combat changed (null: ended)
     "all": true,                         # characters = the whole list, in order (undo)
     "system": "…",                       # with "all"
     "settings": true,                    # the house rules changed (palette chances)
     "stale": true}                       # the reader must fetch /state (nothing shown)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.events import Event
from saikoro.table.state import STATE_KINDS, RoomState, public_combat
from saikoro.table.view import character_rows, reader_row

#: Kinds that change one character, named by ``data["name"]``.
_ONE_CHARACTER = frozenset(
    {
        ev.STATUS_SET,
        ev.CONDITION_ADDED,
        ev.CONDITION_REMOVED,
        ev.FIELD_SET,
        ev.TURN_STARTED,
        ev.SHEET_SET,
        ev.ICON_SET,
    }
)
#: Kinds that change the combat view (round, order, current).
_COMBAT = frozenset(
    {
        ev.COMBAT_STARTED,
        ev.ROUND_STARTED,
        ev.TURN_STARTED,
        ev.TURN_ENDED,
        ev.COMBAT_SET,
        ev.COMBAT_ENDED,
        ev.CHARACTER_REMOVED,
    }
)
#: Kinds that may change every character (own-turn counts restart, house rules).
_EVERY_CHARACTER = frozenset({ev.COMBAT_STARTED, ev.COMBAT_ENDED, ev.SETTING_SET})
#: Kinds after which the whole view is sent again.
_WHOLE = frozenset({ev.UNDONE, ev.ROOM_CREATED})
#: State kinds whose change no reader's view shows (room fields: clock, ledgers).
_UNSEEN = frozenset({ev.CLOCK_SET, ev.ROOM_SET, ev.PARTY_DOWN})


@dataclass(frozen=True)
class StateChange:
    """One event's change, for every reader at once (rows made once, values once)."""

    version: int
    #: name → the public row (``/state``'s, without ``values`` and ``mine``).
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: name → the character's values (only the GM and its player get them).
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    combat_touched: bool = False
    combat: dict[str, Any] | None = None
    whole: bool = False
    system: str = ""
    settings: bool = False
    #: Something changed that this function does not know how to describe.
    unknown: bool = False

    @property
    def touches(self) -> bool:
        return bool(self.rows or self.removed or self.combat_touched or self.whole or self.unknown)


def state_change(after: RoomState, event: Event) -> StateChange:
    """The change ``event`` made, read from the state right after it (``after``)."""
    kind, data = event.kind, event.data
    version = after.version
    if kind in _WHOLE:
        rows, values = character_rows(after, list(after.characters))
        return StateChange(
            version,
            rows,
            values,
            combat_touched=True,
            combat=public_combat(after),
            whole=True,
            system=after.system,
        )
    if (kind not in STATE_KINDS and kind != ev.ICON_SET) or kind in _UNSEEN:
        return StateChange(version)
    names: list[str] = []
    removed: tuple[str, ...] = ()
    if kind in _EVERY_CHARACTER:
        names = list(after.characters)
    elif kind in _ONE_CHARACTER or kind == ev.CHARACTER_ADDED:
        name = data.get("name")
        if kind == ev.CHARACTER_ADDED:
            name = (data.get("character") or {}).get("name")
        if not isinstance(name, str) or name not in after.characters:
            return StateChange(version, unknown=True)
        names = [name]
    elif kind == ev.CHARACTER_REMOVED:
        removed = (str(data.get("name", "")),)
    elif kind not in _COMBAT:
        return StateChange(version, unknown=True)  # a state kind added later: re-read
    rows, values = character_rows(after, names)
    touched_combat = kind in _COMBAT
    return StateChange(
        version,
        rows,
        values,
        removed=removed,
        combat_touched=touched_combat,
        combat=public_combat(after) if touched_combat else None,
        settings=kind == ev.SETTING_SET,
    )


def view_key(change: StateChange, actor: Actor) -> tuple[str, ...]:
    """Readers with the same key get the same :func:`view_change` (for encoding once)."""
    if not change.values:
        return ()
    if actor.is_gm:
        return ("gm",)
    mine = sorted(n for n in change.values if actor.role == "player" and actor.owns(n))
    return ("player", *mine)


def view_change(change: StateChange, actor: Actor, *, redacted: bool) -> dict[str, Any]:
    """The change as ``actor`` may see it. An event they see redacted (another's secret
    roll) shows them nothing of it: its version only, and ``stale`` when it changed the
    room (what ``/state`` shows them is all they may know)."""
    out: dict[str, Any] = {"version": change.version}
    if redacted:
        if change.touches:
            out["stale"] = True
        return out
    if change.unknown:
        out["stale"] = True
        return out
    if change.rows or change.whole:
        out["characters"] = [
            reader_row(row, change.values.get(name), actor) for name, row in change.rows.items()
        ]
    if change.removed:
        out["removed"] = list(change.removed)
    if change.combat_touched:
        out["combat"] = change.combat
    if change.whole:
        out["all"] = True
        out["system"] = change.system
    if change.settings:
        out["settings"] = True
    return out


__all__ = ["StateChange", "state_change", "view_change", "view_key"]
