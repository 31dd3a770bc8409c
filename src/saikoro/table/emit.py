"""A small builder the command handlers use: emit events onto a working copy of the state.

Handlers validate against ``emit.state`` (which already reflects the events emitted so
far by the same line), add events and reply lines; nothing else is changed. If a handler
raises a :class:`~saikoro.errors.SaikoroError`, the whole line is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from saikoro.dice.randomizer import Die, Randomizer
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.table import events as ev
from saikoro.table.events import Event
from saikoro.table.state import (
    COMBAT_CHANGES,
    FIELDS_CHANGES,
    STATE_KINDS,
    Character,
    Condition,
    RoomState,
    apply_in_place,
    changed_characters,
    copy_character,
    copy_combat,
    copy_json,
    written_copy,
)
from saikoro.table.tabs import MAIN, default_tab


class TableError(SaikoroError):
    """A chat line that cannot be carried out; nothing was changed."""

    reason = "invalid table command"


#: What every event starts from: the fields a line leaves unset as the class sets them.
_BLANK = Event(kind="")


@dataclass(frozen=True)
class LineStamp:
    """What every event of one line carries: who is shown typing it (``actor``, unless the
    event names its own), its command id, when, whether the GM typed it, the chat tab it
    was typed in, and the line as typed (kept in its first state event, for ``/undo``)."""

    actor: str = ""
    command_id: str = ""
    at: str = ""
    by_gm: bool = False
    tab: str = MAIN
    typed: str = ""


def fail(ja: str, en: str, reason: str | None = None) -> TableError:
    return TableError(Message(ja, en), reason=reason)


@dataclass
class Emit:
    state: RoomState
    randomizer: Randomizer
    gm: bool = False
    stamp: LineStamp = LineStamp()
    events: list[Event] = field(default_factory=list)
    lines: list[Message] = field(default_factory=list)
    secret_lines: list[Message] = field(default_factory=list)
    _dice_used: int = 0
    #: The characters of ``state`` copied for this line (the others are the caller's) →
    #: whether deeply (for an event that changes every character).
    _own: dict[str, bool] = field(default_factory=dict)
    #: Whether the undo stack, the combat and the room's fields are this line's copies.
    _own_undo: bool = False
    _own_combat: bool = False
    _own_fields: bool = False
    #: Whether the line as typed is kept already (in its first state event).
    _typed_kept: bool = False

    def __post_init__(self) -> None:
        # Copy on write: a line changes a character or two, and copying every character
        # for every line was the table's hot path. A character (the combat, the undo stack,
        # the room's fields) is copied just before the first event that changes it.
        self.state = self.state.clone(on_write=True)

    # -- events ------------------------------------------------------------
    def add(
        self,
        kind: str,
        data: dict[str, Any] | None = None,
        *,
        rules: tuple[str, ...] | list[str] = (),
        text: Message | None = None,
        secret: bool = False,
        gm: bool | None = None,
        actor: str = "",
        whisper: str = "",
    ) -> Event:
        """Emit one event (carrying the dice rolled since the previous event and the line's
        stamp) and apply it: ``state`` is then the room after the line so far, exactly what
        folding :attr:`events` into the room it started from gives."""
        rands = self.randomizer.rands
        dice: tuple[Die, ...] = ()
        if len(rands) > self._dice_used:
            dice = tuple(rands[self._dice_used :])
            self._dice_used = len(rands)
        stamp = self.stamp
        if data is None:
            data = {}
        if not self._typed_kept and kind in STATE_KINDS:
            self._typed_kept = True
            if stamp.typed:  # the line as typed, for /undo to name it
                data = {**data, "line": stamp.typed}
        event = _BLANK.with_values(  # Event(...) without its frozen __init__'s cost
            kind=kind,
            data=data,
            actor=actor or stamp.actor,
            command_id=stamp.command_id,
            at=stamp.at,
            rules=rules if type(rules) is tuple else tuple(rules),
            dice=dice,
            text=text,
            secret=secret,
            gm=self.gm if gm is None else gm,
            by_gm=stamp.by_gm,
            tab=default_tab(kind, stamp.tab),
            whisper=whisper,
        )
        self.events.append(event)
        self._copy_for(event)
        apply_in_place(self.state, event)
        if text is not None:
            # a whisper's line is, like a secret roll's, the caller's only (Outcome.caller_text)
            (self.secret_lines if secret or whisper else self.lines).append(text)
        return event

    def _copy_for(self, event: Event) -> None:
        """Make the parts of the room ``event`` changes this line's own copies."""
        state, kind = self.state, event.kind
        if kind in STATE_KINDS and event.command_id and not self._own_undo:
            state.undo_stack = list(state.undo_stack)
            self._own_undo = True
        if kind in COMBAT_CHANGES and state.combat is not None and not self._own_combat:
            state.combat = copy_combat(state.combat)
            self._own_combat = True
        if kind in FIELDS_CHANGES and not self._own_fields:
            state.fields = copy_json(state.fields)
            self._own_fields = True
        names = changed_characters(event)
        if names == ():
            return
        characters, own = state.characters, self._own
        if names is None:  # every character, deeply (the fold changes their conditions)
            for name in list(characters):
                if not own.get(name):
                    characters[name] = copy_character(characters[name])
                    own[name] = True
            return
        for name in names:
            if name not in own and name in characters:
                characters[name] = written_copy(characters[name])
                own[name] = False

    def refuse_or_rule(
        self,
        refusal: Message,
        reason: str,
        ruling: Message,
        data: dict[str, Any],
        rules: tuple[str, ...] = (),
    ) -> None:
        """What the rules do not allow: a player's line is refused (``refusal``, nothing
        changed); the GM's line does it all the same, logged as a ruling (``ruling``)."""
        if not self.gm:
            raise TableError(refusal, reason=reason)
        self.add(ev.NOTICE, data, rules=rules, text=ruling)

    def say(self, ja: str, en: str) -> None:
        self.lines.append(Message(ja, en))

    @property
    def dice(self) -> list[Die]:
        return list(self.randomizer.rands)

    # -- lookups -----------------------------------------------------------
    def character(self, name: str) -> Character:
        character = self.state.characters.get(name)
        if character is None:
            known = "、".join(self.state.characters) or "なし"
            raise fail(
                f"キャラクター {name!r} はいません (いるのは: {known})",
                f"no character {name!r} (present: {', '.join(self.state.characters) or 'none'})",
                "unknown character",
            )
        return character

    # -- common changes ----------------------------------------------------
    def set_status(
        self,
        name: str,
        key: str,
        value: int,
        *,
        rules: tuple[str, ...] = (),
        note: Message | None = None,
        old: int | None = None,
        actor: str = "",
    ) -> None:
        """Set HP, max HP or a status; ``old`` is the value before (a status not set yet: its
        sheet value, which the caller knows); ``actor``: who is shown making the change (the
        line's speaker when empty — ``GM`` for a GM's edit of a character)."""
        character = self.character(name)
        if old is None:
            old = (
                character.hp
                if key == "hp"
                else character.max_hp
                if key == "max_hp"
                else character.statuses.get(key)
            )
        label = {"hp": "HP", "max_hp": "最大HP"}.get(key, key)
        text = note or Message(
            f"{name}: {label} {old} → {value}", f"{name}: {label} {old} → {value}"
        )
        self.add(
            ev.STATUS_SET,
            {"name": name, "key": key, "value": value, "old": old},
            rules=rules,
            text=text,
            actor=actor,
        )

    def add_condition(
        self, name: str, condition: Condition, *, text: Message | None = None
    ) -> None:
        self.character(name)
        label = f"{condition.label}{condition.level or ''}"
        self.add(
            ev.CONDITION_ADDED,
            {"name": name, "condition": condition.model_dump(mode="json")},
            rules=tuple(condition.rules),
            text=text or Message(f"{name}: {label} を受けた", f"{name}: now {label}"),
        )

    def remove_condition(
        self, name: str, label: str, *, rules: tuple[str, ...] = (), text: Message | None = None
    ) -> None:
        self.add(
            ev.CONDITION_REMOVED,
            {"name": name, "label": label},
            rules=rules,
            text=text or Message(f"{name}: {label} が解けた", f"{name}: {label} ended"),
        )

    def set_field(
        self,
        name: str,
        key: str,
        value: Any,
        *,
        rules: tuple[str, ...] = (),
        text: Message | None = None,
    ) -> None:
        self.add(ev.FIELD_SET, {"name": name, "key": key, "value": value}, rules=rules, text=text)

    def set_combat(
        self, key: str, value: Any, *, rules: tuple[str, ...] = (), text: Message | None = None
    ) -> None:
        self.add(ev.COMBAT_SET, {"key": key, "value": value}, rules=rules, text=text)


def roll_summary(result: RollResult) -> dict[str, Any]:
    """A roll's outcome as a ``roll`` event keeps it (text and flags, value)."""
    return {
        "text": result.text,
        "success": result.success,
        "failure": result.failure,
        "critical": result.critical,
        "fumble": result.fumble,
        "value": result.value,
    }
