"""The state of a room and the pure fold over its events.

``apply(state, event)`` returns a new state and never changes its input;
``replay(events)`` folds a whole log (working on one private copy, for speed).
A snapshot is only a cache of ``replay`` at some version.

Effects that expire store *absolute* timing — the character's own-turn count or the
round at which they end — never countdowns, so rewinding (undo) stays correct.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from saikoro.table import events as ev
from saikoro.table.actors import GM_SPEAKER
from saikoro.table.events import Event
from saikoro.table.tabs import room_tabs

#: How many commands ``/undo`` can take back, newest first (a *default* of the table).
UNDO_DEPTH = 200


class Condition(BaseModel):
    """A condition on a character (毒, 麻痺, 睡眠, 気絶, 全力防御, …).

    ``level`` is the poison level (or 0). ``ends_at_own_turn``: the condition ends when
    the character starts their own turn number N (absolute count, see ``Character.own_turns``).
    ``ends_at_round``: it ends when round N starts. None: it lasts until removed.
    """

    label: str
    level: int = 0
    ends_at_own_turn: int | None = None
    ends_at_round: int | None = None
    #: The character's own-turn count when it began (absolute; recovery counts from it).
    since_own_turn: int | None = None
    #: The room's game clock (minutes, ``/gm time``) when it began, for out-of-combat recovery.
    since_minute: int | None = None
    #: Value changes while it lasts (運命判定d100: {"AC": -20, "RC": -20}).
    mods: dict[str, int] = Field(default_factory=dict)
    rules: list[str] = Field(default_factory=list)


class Character(BaseModel):
    name: str
    side: str = "pc"  # "pc" or "npc"
    sheet: dict[str, Any] = Field(default_factory=dict)
    hp: int = 0
    max_hp: int = 0
    statuses: dict[str, int] = Field(default_factory=dict)
    conditions: list[Condition] = Field(default_factory=list)
    #: Tracker data (row, chant, aim, fate uses, …), set by FIELD_SET events.
    fields: dict[str, Any] = Field(default_factory=dict)
    #: How many of their own turns this character has started in the current combat.
    own_turns: int = 0
    #: The SHA-256 of the character's face (its icon, stored beside the log) or None;
    #: set by ICON_SET events (:mod:`saikoro.table.faces`).
    icon: str | None = None

    def condition(self, label: str) -> Condition | None:
        for c in self.conditions:
            if c.label == label:
                return c
        return None

    @property
    def down(self) -> bool:
        return self.hp <= 0


class Combat(BaseModel):
    round: int = 1
    order: list[str] = Field(default_factory=list)
    current: str | None = None
    #: Global turn counter in this combat.
    turn: int = 0
    #: Who finished a turn this round (a name once per turn taken).
    acted: list[str] = Field(default_factory=list)
    #: Tracker data (帽子世界TRPG: passed, locked; 運命判定d100: …).
    fields: dict[str, Any] = Field(default_factory=dict)


class RoomState(BaseModel):
    room: str = ""
    system: str = ""
    #: Number of events folded into this state.
    version: int = 0
    characters: dict[str, Character] = Field(default_factory=dict)
    combat: Combat | None = None
    #: ``[command id, actor, line as typed]`` of the lines ``/undo`` can take back, the newest
    #: last (logs written before the line was kept give ``[command id, actor]``); the actor
    #: of a line the GM typed is ``GM``, whoever it spoke as.
    undo_stack: list[list[str]] = Field(default_factory=list)
    #: Fate uses and other per-room counters the GM may reset (unused by the fold itself).
    fields: dict[str, Any] = Field(default_factory=dict)

    def clone(self, *, on_write: bool = False) -> RoomState:
        """A deep copy (every table line works on one): built field by field, since the state
        holds only JSON-like values and these models — several times faster than
        ``model_copy(deep=True)``'s generic deep copy, which was the table's hot path. A
        character's ``sheet`` dict is shared: nothing changes it in place; so are the undo
        stack's entries (the fold appends and drops whole entries, never edits one).

        ``on_write``: a new room object holding this one's characters, combat, undo stack and
        fields, for a holder that copies each part before an event changes it (a line's
        working copy, :class:`saikoro.table.emit.Emit`, see :func:`changed_characters` and
        :data:`COMBAT_CHANGES`)."""
        values = dict(self.__dict__)
        if on_write:
            values["characters"] = dict(self.characters)
        else:
            values["characters"] = {name: copy_character(c) for name, c in self.characters.items()}
            values["combat"] = None if self.combat is None else copy_combat(self.combat)
            values["undo_stack"] = list(self.undo_stack)
            values["fields"] = copy_json(self.fields)
        made: RoomState = _model(RoomState, self.model_fields_set, values)
        return made

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomState:
        return cls.model_validate(data)

    def character(self, name: str) -> Character | None:
        return self.characters.get(name)


_new = object.__new__
_set = object.__setattr__


def _model(cls: type[Any], fields_set: set[str], values: dict[str, Any]) -> Any:
    """A model instance from values already valid (what ``model_construct`` does, without
    its per-field defaults pass: every field is given)."""
    made = _new(cls)
    _set(made, "__dict__", values)
    _set(made, "__pydantic_fields_set__", set(fields_set))
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", None)
    return made


#: Values copied by reference (immutable).
_ATOMS = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars; a tuple or another value is
    kept as it is: nothing in a room's state is mutable but dicts, lists and models)."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_json(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_json(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_copy(deep=True)
    return value


def _copy_condition(c: Condition) -> Condition:
    values = dict(c.__dict__)
    values["mods"] = dict(c.mods)
    values["rules"] = list(c.rules)
    made: Condition = _model(Condition, c.model_fields_set, values)
    return made


def copy_character(c: Character) -> Character:
    """A deep copy of a character (as :meth:`RoomState.clone` makes them)."""
    return _character_with(c, [_copy_condition(x) for x in c.conditions], copy_json(c.fields))


def written_copy(c: Character) -> Character:
    """A copy of a character for the fold of an event that changes only it
    (:func:`changed_characters` names it): those handlers assign — a status, a field's value,
    a new conditions list, the turn count — and never change the values inside in place, so
    the copy has its own dicts and list and shares what they hold."""
    return _character_with(c, list(c.conditions), dict(c.fields))


def _character_with(c: Character, conditions: list[Condition], fields: dict[str, Any]) -> Character:
    values = dict(c.__dict__)  # the sheet dict is shared: an event replaces it, never edits it
    values["statuses"] = dict(c.statuses)
    values["conditions"] = conditions
    values["fields"] = fields
    made: Character = _model(Character, c.model_fields_set, values)
    return made


def copy_combat(c: Combat) -> Combat:
    values = dict(c.__dict__)
    values["order"] = list(c.order)
    values["acted"] = list(c.acted)
    values["fields"] = copy_json(c.fields)
    made: Combat = _model(Combat, c.model_fields_set, values)
    return made


#: Kinds whose fold changes the character ``data["name"]`` in place (and no other).
_CHANGES_ONE = frozenset(
    {
        ev.STATUS_SET,
        ev.CONDITION_ADDED,
        ev.CONDITION_REMOVED,
        ev.FIELD_SET,
        ev.SHEET_SET,
        ev.TURN_STARTED,
        ev.ICON_SET,
    }
)
#: Kinds whose fold changes every character in place (or, undoing, replaces them all).
_CHANGES_ALL = frozenset({ev.COMBAT_STARTED, ev.COMBAT_ENDED, ev.UNDONE})
#: Kinds whose fold changes the room's combat in place (the others replace it or leave it).
COMBAT_CHANGES = frozenset(
    {ev.ROUND_STARTED, ev.TURN_STARTED, ev.TURN_ENDED, ev.COMBAT_SET, ev.CHARACTER_REMOVED}
)
#: Kinds whose fold changes the room's ``fields`` in place.
FIELDS_CHANGES = frozenset({ev.PARTY_DOWN, ev.SETTING_SET, ev.CLOCK_SET, ev.ROOM_SET})


def changed_characters(event: Event) -> tuple[str, ...] | None:
    """The characters whose objects :func:`apply_in_place` changes for ``event`` (None:
    every one); a character added is a new object, one removed only leaves the dict. Kept
    beside the fold's handlers: a handler that changes a character must be listed here."""
    if event.kind in _CHANGES_ONE:
        return (str(event.data["name"]),)
    if event.kind in _CHANGES_ALL:
        return None
    return ()


def apply(state: RoomState, event: Event) -> RoomState:
    """The state after ``event`` (pure: ``state`` is not changed)."""
    new = state.clone()
    apply_in_place(new, event)
    return new


def replay(events: Iterable[Event], start: RoomState | None = None) -> RoomState:
    """Fold ``events`` over ``start`` (or an empty room); ``start`` is not changed."""
    state = start.clone() if start is not None else RoomState()
    for event in events:
        apply_in_place(state, event)
    return state


# -- the fold ---------------------------------------------------------------------

#: Kinds that change the table (a line producing one of them can be undone).
STATE_KINDS = frozenset(
    {
        ev.CHARACTER_ADDED,
        ev.CHARACTER_REMOVED,
        ev.STATUS_SET,
        ev.CONDITION_ADDED,
        ev.CONDITION_REMOVED,
        ev.FIELD_SET,
        ev.COMBAT_STARTED,
        ev.ROUND_STARTED,
        ev.TURN_STARTED,
        ev.TURN_ENDED,
        ev.COMBAT_SET,
        ev.COMBAT_ENDED,
        ev.PARTY_DOWN,
        ev.SETTING_SET,
        ev.CLOCK_SET,
        ev.ROOM_SET,
        ev.SHEET_SET,
    }
)


def apply_in_place(state: RoomState, event: Event) -> None:
    """One step of the fold, changing ``state`` (the store and the table's working copies
    use it to catch up without copying; :func:`apply` is the pure form)."""
    kind, data = event.kind, event.data
    state.version += 1
    if kind == ev.UNDONE:
        restored = RoomState.from_json(data["restore"])
        restored.version = state.version
        # A face is no line's effect: undoing a line keeps every face as it is now.
        faces = {name: c.icon for name, c in state.characters.items()}
        for name, character in restored.characters.items():
            character.icon = faces.get(name, character.icon)
        state.__dict__.update(restored.__dict__)
        return
    if kind in STATE_KINDS and event.command_id:
        stack = state.undo_stack
        if not stack or stack[-1][0] != event.command_id:
            typed = event.data.get("line")
            owner = GM_SPEAKER if event.by_gm else event.actor
            stack.append([event.command_id, owner, *([typed] if typed else [])])
            if len(stack) > UNDO_DEPTH:
                del stack[0]
    handler = _HANDLERS.get(kind)
    if handler is not None:
        handler(state, data)


def _room_created(state: RoomState, data: dict[str, Any]) -> None:
    state.room = data["room"]
    state.system = data["system"]


def _character_added(state: RoomState, data: dict[str, Any]) -> None:
    character = Character.model_validate(data["character"])
    state.characters[character.name] = character


def _character_removed(state: RoomState, data: dict[str, Any]) -> None:
    state.characters.pop(data["name"], None)
    if state.combat is not None:
        combat = state.combat
        combat.order = [n for n in combat.order if n != data["name"]]
        if combat.current == data["name"]:
            combat.current = None


def _status_set(state: RoomState, data: dict[str, Any]) -> None:
    character = state.characters[data["name"]]
    key, value = data["key"], int(data["value"])
    if key == "hp":
        character.hp = value
    elif key == "max_hp":
        character.max_hp = value
    else:
        character.statuses[key] = value


def _condition_added(state: RoomState, data: dict[str, Any]) -> None:
    character = state.characters[data["name"]]
    condition = Condition.model_validate(data["condition"])
    character.conditions = [c for c in character.conditions if c.label != condition.label]
    character.conditions.append(condition)


def _condition_removed(state: RoomState, data: dict[str, Any]) -> None:
    character = state.characters[data["name"]]
    character.conditions = [c for c in character.conditions if c.label != data["label"]]


def _field_set(state: RoomState, data: dict[str, Any]) -> None:
    state.characters[data["name"]].fields[data["key"]] = data.get("value")


def _sheet_set(state: RoomState, data: dict[str, Any]) -> None:
    """A character's sheet edited (``sheet_edits``): the new sheet, and the live values
    the edit replaced (``clear``: status keys now read from the sheet again)."""
    character = state.characters[data["name"]]
    character.sheet = dict(data["sheet"])
    for key in data.get("clear", ()):
        character.statuses.pop(key, None)


def _combat_started(state: RoomState, data: dict[str, Any]) -> None:
    fields = {**data.get("fields", {}), "serial": state.version}  # tells combats apart
    state.combat = Combat(round=1, order=list(data["order"]), fields=fields)
    for character in state.characters.values():
        _restart_own_turns(character)


def _round_started(state: RoomState, data: dict[str, Any]) -> None:
    combat = state.combat
    assert combat is not None
    combat.round = int(data["round"])
    combat.order = list(data["order"])
    combat.acted = []
    combat.current = None
    for key in data.get("clear", ()):
        combat.fields.pop(key, None)


def _turn_started(state: RoomState, data: dict[str, Any]) -> None:
    combat = state.combat
    assert combat is not None
    combat.current = data["name"]
    if not data.get("resume"):  # a passed character coming back keeps the turn it began
        combat.turn += 1
        state.characters[data["name"]].own_turns += 1


def _turn_ended(state: RoomState, data: dict[str, Any]) -> None:
    combat = state.combat
    assert combat is not None
    if not data.get("passed"):
        combat.acted.append(data["name"])
    if combat.current == data["name"]:
        combat.current = None


def _combat_set(state: RoomState, data: dict[str, Any]) -> None:
    combat = state.combat
    assert combat is not None
    if data["key"] == "order":
        combat.order = list(data["value"])
    elif data.get("value") is None:
        combat.fields.pop(data["key"], None)
    else:
        combat.fields[data["key"]] = data["value"]


def _restart_own_turns(character: Character) -> None:
    """The own-turn count starts again at 0; conditions keep the turns they have counted
    (a sleeper who spent two turns asleep needs one more in the next combat)."""
    for condition in character.conditions:
        if condition.since_own_turn is not None:
            condition.since_own_turn -= character.own_turns
        if condition.ends_at_own_turn is not None:
            condition.ends_at_own_turn -= character.own_turns
    character.own_turns = 0


def _combat_ended(state: RoomState, data: dict[str, Any]) -> None:
    state.combat = None
    for character in state.characters.values():
        _restart_own_turns(character)


def _icon_set(state: RoomState, data: dict[str, Any]) -> None:
    character = state.characters.get(data["name"])
    if character is not None:
        character.icon = data.get("icon") or None


def _party_down(state: RoomState, data: dict[str, Any]) -> None:
    state.fields["party_down"] = bool(data.get("down", True))


def _setting_set(state: RoomState, data: dict[str, Any]) -> None:
    settings = dict(state.fields.get("settings") or {})
    if data.get("value") is None:
        settings.pop(data["key"], None)
    else:
        settings[data["key"]] = data["value"]
    state.fields["settings"] = settings


def _clock_set(state: RoomState, data: dict[str, Any]) -> None:
    state.fields["minutes"] = int(data["minutes"])


def _room_set(state: RoomState, data: dict[str, Any]) -> None:
    if data.get("value") is None:
        state.fields.pop(data["key"], None)
    else:
        state.fields[data["key"]] = data["value"]


_HANDLERS = {
    ev.SETTING_SET: _setting_set,
    ev.CLOCK_SET: _clock_set,
    ev.ROOM_SET: _room_set,
    ev.ROOM_CREATED: _room_created,
    ev.CHARACTER_ADDED: _character_added,
    ev.CHARACTER_REMOVED: _character_removed,
    ev.STATUS_SET: _status_set,
    ev.CONDITION_ADDED: _condition_added,
    ev.CONDITION_REMOVED: _condition_removed,
    ev.FIELD_SET: _field_set,
    ev.SHEET_SET: _sheet_set,
    ev.COMBAT_STARTED: _combat_started,
    ev.ROUND_STARTED: _round_started,
    ev.TURN_STARTED: _turn_started,
    ev.TURN_ENDED: _turn_ended,
    ev.COMBAT_SET: _combat_set,
    ev.COMBAT_ENDED: _combat_ended,
    ev.PARTY_DOWN: _party_down,
    ev.ICON_SET: _icon_set,
}


def public_character(c: Character) -> dict[str, Any]:
    """What everyone at the table sees of a character (not its sheet: abilities, weapons,
    notes are the GM's and its player's)."""
    conditions = [
        f"{cond.label}:{cond.level}" if cond.level else cond.label for cond in c.conditions
    ]
    return {
        "name": c.name,
        "side": c.side,
        "hp": c.hp,
        "max_hp": c.max_hp,
        "conditions": conditions,
        "down": c.down,
        "statuses": dict(c.statuses),
        **{k: v for k, v in c.fields.items() if not k.startswith("_")},
    }


def public_view(state: RoomState, lang_labels: dict[str, str] | None = None) -> dict[str, Any]:
    """``/state``'s JSON: room, system, characters (name, hp, max_hp, conditions, …), combat."""
    characters = [public_character(c) for c in state.characters.values()]
    return {
        "room": state.room,
        "system": state.system,
        "characters": characters,
        "combat": public_combat(state),
        "tabs": room_tabs(state.fields),
    }


def public_combat(state: RoomState) -> dict[str, Any] | None:
    """The combat as everyone sees it (round, order, whose turn), or None."""
    if state.combat is None:
        return None
    return {
        "round": state.combat.round,
        "order": list(state.combat.order),
        "current": state.combat.current,
    }


#: The former private name (kept so that code written against it keeps working).
_apply_in_place = apply_in_place
