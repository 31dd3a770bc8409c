"""Table events: every change to a room is one of these, appended to the room's log.

An event says who (``actor``), when (``at``, ISO-8601 UTC), what (``kind`` + ``data``),
which rules applied (``rules``: RULES.md IDs), which dice were rolled (``dice``) and
which chat line produced it (``command_id``: all events of one line share it, so
``/undo`` can take the whole line back). ``text`` is what the table is shown
(Japanese and English); ``secret`` events are shown to their roller and the GM until revealed
(:mod:`saikoro.table.view`); ``gm`` marks
GM rulings (overrides of what the rules leave to the GM); ``by_gm`` marks the events of a
line the GM typed (also when the GM speaks as a character with ``@NAME``), so that a
player neither sees the GM's secret rolls nor undoes the GM's lines.

Events are plain frozen values with a JSON form; the store keeps that form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from saikoro.dice.randomizer import Die
from saikoro.i18n import Message

# The kinds of event (``data`` keys in comments).
ROOM_CREATED = "room_created"  # system
CHAT = "chat"  # (text only)
ROLL = "roll"  # command, result: {text, success, failure, critical, fumble, value}
CHARACTER_ADDED = "character_added"  # character: CharacterState JSON
CHARACTER_REMOVED = "character_removed"  # name
STATUS_SET = "status_set"  # name, key, value (hp or any other status)
CONDITION_ADDED = "condition_added"  # name, condition: Condition JSON
CONDITION_REMOVED = "condition_removed"  # name, condition (label)
FIELD_SET = "field_set"  # name, key, value — tracker fields of a character (row, chant, …)
COMBAT_STARTED = "combat_started"  # order, system-specific combat fields
ROUND_STARTED = "round_started"  # round, order
TURN_STARTED = "turn_started"  # name, turn (global counter)
TURN_ENDED = "turn_ended"  # name
COMBAT_SET = "combat_set"  # key, value — tracker fields of the combat
COMBAT_ENDED = "combat_ended"
PARTY_DOWN = "party_down"  # (every PC unable to act: the GM decides)
UNDONE = "undone"  # command_id (the line taken back), restore: RoomState JSON before it
NOTICE = "notice"  # log-only information (a rule that fired, a GM note)
SETTING_SET = "setting_set"  # key, value (None = back to the default): GM house rules
CLOCK_SET = "clock_set"  # minutes: the room's game clock (out-of-combat time)
ROOM_SET = "room_set"  # key, value (None = removed) — tracker fields of the room (ledgers)
REVEALED = "revealed"  # command_id, seq, roll (the secret roll's data): shown to all from now
SHEET_SET = "sheet_set"  # name, sheet (the whole new sheet), changed (paths), clear (status keys)
ICON_SET = "icon_set"  # name, icon (the image's SHA-256, None = removed), type: a face

KINDS = frozenset(
    {
        ROOM_CREATED,
        CHAT,
        ROLL,
        CHARACTER_ADDED,
        CHARACTER_REMOVED,
        STATUS_SET,
        CONDITION_ADDED,
        CONDITION_REMOVED,
        FIELD_SET,
        COMBAT_STARTED,
        ROUND_STARTED,
        TURN_STARTED,
        TURN_ENDED,
        COMBAT_SET,
        COMBAT_ENDED,
        PARTY_DOWN,
        UNDONE,
        NOTICE,
        SETTING_SET,
        CLOCK_SET,
        ROOM_SET,
        REVEALED,
        SHEET_SET,
        ICON_SET,
    }
)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    actor: str = ""
    command_id: str = ""
    at: str = ""
    rules: tuple[str, ...] = ()
    dice: tuple[Die, ...] = ()
    text: Message | None = None
    secret: bool = False
    gm: bool = False
    by_gm: bool = False
    #: The chat tab (:mod:`saikoro.table.tabs`); "" in events stored before tabs: by kind.
    tab: str = ""
    #: A whisper's recipient (a character's name, or ``GM``): only the sender, the
    #: recipient's player and the GM receive it (:func:`saikoro.table.view.view_event`).
    whisper: str = ""

    @property
    def shown_tab(self) -> str:
        """The event's tab: as stored, else as its kind reads (older events)."""
        return self.tab or _tabs.default_tab(self.kind)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "actor": self.actor,
            "command_id": self.command_id,
            "at": self.at,
            "data": self.data,
            "tab": self.shown_tab,
        }
        if self.whisper:
            out["whisper"] = self.whisper
        if self.rules:
            out["rules"] = list(self.rules)
        if self.dice:
            out["dice"] = [d.to_json() for d in self.dice]
        if self.text is not None:
            out["text"] = {"ja": self.text.ja, "en": self.text.en}
        if self.secret:
            out["secret"] = True
        if self.gm:
            out["gm"] = True
        if self.by_gm:
            out["by_gm"] = True
        from saikoro.table.outcome import outcome  # it reads events: imported late

        if shown := outcome(self):  # what the page colours the line by (derived, not read back)
            out["outcome"] = shown
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        text = obj.get("text")
        return cls(
            kind=obj["kind"],
            data=obj.get("data") or {},
            actor=obj.get("actor", ""),
            command_id=obj.get("command_id", ""),
            at=obj.get("at", ""),
            rules=tuple(obj.get("rules", ())),
            dice=tuple(Die(d["kind"], d["sides"], d["value"]) for d in obj.get("dice", ())),
            text=Message(text["ja"], text["en"]) if text else None,
            secret=bool(obj.get("secret", False)),
            gm=bool(obj.get("gm", False)),
            by_gm=bool(obj.get("by_gm", False)),
            tab=str(obj.get("tab") or ""),
            whisper=str(obj.get("whisper") or ""),
        )

    def with_values(self, **changes: Any) -> Event:
        """This event with some fields changed: what ``dataclasses.replace`` does, for the
        table's hot path (every event of every line is made by it): the copy is made by its
        ``__dict__``, not by the frozen class's ``__init__`` (a ``setattr`` per field), so
        ``changes`` must be valid field values (nothing checks them)."""
        made = object.__new__(Event)
        values = made.__dict__
        values.update(self.__dict__)
        values.update(changes)
        return made


# Last: the tabs module reads this one's kinds as it loads (read as ``_tabs.NAME`` when
# called, so either module may be imported first); importing it in each call cost a
# dotted import per event of every line.
from saikoro.table import tabs as _tabs  # noqa: E402
