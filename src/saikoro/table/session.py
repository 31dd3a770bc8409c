"""A room opened on a store: run chat lines, persist their events, retry on conflicts.

This is the I/O edge of the table: it keeps the room's state in memory, catches up with
events other writers appended, and appends each line's events in one transaction. On a
version conflict it re-reads the room and carries the line out again against the new
state, with the *same dice* (they were already rolled), so concurrent writers never lose
or reorder events.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from saikoro.dice.randomizer import DiceSource, RandomSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.sheets import SheetBase
from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.dispatch import (
    Context,
    Outcome,
    dispatch,
    dispatch_edit,
    dispatch_sheet,
    dispatch_sheets,
)
from saikoro.table.emit import fail
from saikoro.table.events import Event, now_iso
from saikoro.table.state import RoomState, apply_in_place
from saikoro.table.storage import ROOM_NAME_LENGTH, RoomRecord, RoomStore, VersionConflict

#: Optimistic attempts before a line waits for the room's write lock.
OPTIMISTIC_TRIES = 3
MAX_RETRIES = 20


class RecordingSource:
    """Rolls from ``inner`` and remembers them; ``rewind()`` replays the same dice again."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.rolled: list[tuple[int, int]] = []
        self._replay: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        if self._replay:
            value, replay_sides = self._replay[0]
            if replay_sides == sides:
                self._replay.pop(0)
                self.rolled.append((value, sides))
                return value
            self._replay = []  # the line took another path: the rest come fresh
        value = self.inner.roll(sides)
        self.rolled.append((value, sides))
        return value

    def rewind(self) -> None:
        self._replay = list(self.rolled)
        self.rolled = []


class _StoreHistory:
    def __init__(self, session: TableSession) -> None:
        self.session = session

    def state_before(self, command_id: str) -> RoomState:
        store, room = self.session.store, self.session.room
        first = store.first_seq_of(room, command_id)
        if first is None:
            raise fail(
                "取り消すコマンドがログにありません", "the command to undo is not in the log"
            )
        return store.load_state(room, at=first - 1)

    def recent(self, count: int) -> list[tuple[int, Event]]:
        return self.session.store.recent_events(self.session.room, count)


@dataclass
class TableSession:
    store: RoomStore
    room: RoomRecord
    speaker: str | None = None
    gm: bool = False
    source: DiceSource = field(default_factory=RandomSource)
    base_dir: Path = field(default_factory=Path.cwd)
    state: RoomState = field(default_factory=RoomState)
    #: Who types the lines (None: ``gm`` / ``speaker`` as ``saikoro play`` gives them).
    actor: Actor | None = None
    #: May a line name a file (``/char add PATH``)? The network front end says False.
    allow_files: bool = True

    @classmethod
    def open(
        cls,
        store: RoomStore,
        room_name: str,
        system: str | None = None,
        **kwargs: object,
    ) -> TableSession:
        """Open ``room_name``, creating it with ``system`` on first use."""
        _storable_name("部屋名", "room name", room_name, ROOM_NAME_LENGTH)
        speaker = kwargs.get("speaker")
        if isinstance(speaker, str):
            _storable_name("話者名", "speaker name", speaker)
        room = store.get_room(room_name)
        if room is None:
            if not system:
                raise fail(
                    f"部屋 {room_name!r} はまだありません: --system で作ってください",
                    f"room {room_name!r} does not exist yet: create it with --system",
                    "no such room",
                )
            room, _created = create_room_record(store, room_name, system)
        elif system and system != room.system:
            raise fail(
                f"部屋 {room_name!r} のゲームシステムは "
                f"{room.system} です ({system} ではありません)",
                f"room {room_name!r} plays {room.system}, not {system}",
                "system mismatch",
            )
        session = cls(store=store, room=room, **kwargs)  # type: ignore[arg-type]
        session.state = store.load_state(room)
        return session

    def refresh(self) -> None:
        """Fold in the events other writers appended since our version."""
        for event in self.store.iter_events(self.room, after=self.state.version):
            apply_in_place(self.state, event)

    def run(self, line: str, *, actor: Actor | None = None, tab: str | None = None) -> Outcome:
        """Carry out one chat line (typed by ``actor``, else the session's, in the chat
        tab ``tab``: default ``main``); persisted before returning. Raises SaikoroError."""
        return self._commit(
            lambda state, ctx: dispatch(state, line, replace(ctx, tab=tab or "")), actor
        )

    def add_sheet(
        self, sheet: SheetBase, *, actor: Actor | None = None, side: str | None = None
    ) -> Outcome:
        """Bring in the character of a sheet the caller sent (joining, or the GM over the
        network); persisted before returning. Raises SaikoroError."""
        return self._commit(lambda state, ctx: dispatch_sheet(state, sheet, ctx, side), actor)

    def add_sheets(
        self, sheets: list[SheetBase], *, actor: Actor | None = None, side: str | None = None
    ) -> Outcome:
        """Bring in several characters as one line (all or none): quick NPCs by a count."""
        return self._commit(lambda state, ctx: dispatch_sheets(state, sheets, ctx, side), actor)

    def edit(self, name: str, changes: dict[str, Any], *, actor: Actor | None = None) -> Outcome:
        """Edit a character's fields (``dispatch_edit``); persisted before returning."""
        return self._commit(lambda state, ctx: dispatch_edit(state, name, changes, ctx), actor)

    def set_icon(
        self, name: str, digest: str | None, content_type: str = "", *, actor: Actor
    ) -> Outcome:
        """Give the character ``name`` the face stored as ``digest`` (None: remove it), as
        ``actor`` (its player or the GM); persisted before returning. Raises SaikoroError."""
        from saikoro.table.faces import icon_outcome

        return self._commit(
            lambda state, _ctx: icon_outcome(state, actor, name, digest, content_type), actor
        )

    def _commit(
        self, carry_out: Callable[[RoomState, Context], Outcome], actor: Actor | None
    ) -> Outcome:
        recorder = RecordingSource(self.source)
        chosen = actor or self.actor
        ctx = Context(
            # a player's own character speaks unless they say @NAME; --as is the session's
            speaker=self.speaker if actor is None else None,
            gm=self.gm if chosen is None else chosen.is_gm,
            source=recorder,
            history=_StoreHistory(self),
            base_dir=self.base_dir,
            actor=chosen,
            allow_files=self.allow_files,
        )
        self.refresh()
        for _attempt in range(OPTIMISTIC_TRIES):
            outcome = _stored_form(carry_out(self.state, ctx))
            if not outcome.events:
                return outcome
            new_state = self.state.clone()
            for event in outcome.events:
                apply_in_place(new_state, event)
            try:
                self.store.append(self.room, self.state.version, outcome.events, snapshot=new_state)
            except VersionConflict:
                recorder.rewind()
                self.refresh()
                continue
            self.state = new_state
            return outcome
        # Lost the race several times: carry the line out holding the room's write lock.

        def produce(state: RoomState) -> tuple[list[Event], RoomState | None, Outcome]:
            recorder.rewind()
            outcome = _stored_form(carry_out(state, ctx))
            if not outcome.events:
                return [], None, outcome
            after = state.clone()
            for event in outcome.events:
                apply_in_place(after, event)
            return outcome.events, after, outcome

        for _attempt in range(MAX_RETRIES):
            try:
                self.state, outcome = self.store.append_locked(
                    self.room, self.state.clone(), produce
                )
            except VersionConflict:
                continue
            return outcome
        raise SaikoroError(
            Message(
                "部屋への書き込みが混み合っています。もう一度どうぞ",
                "the room is too busy; try again",
            ),
            reason="busy",
        )


def _stored_form(outcome: Outcome) -> Outcome:
    """The outcome with its events as the room stores them (:mod:`saikoro.table.bounds`:
    a huge roll's record is cut; the caller's own lines keep the whole text)."""
    from saikoro.table.bounds import bounded_events

    outcome.events = bounded_events(outcome.events)
    return outcome


def create_room_record(store: RoomStore, room_name: str, system: str) -> tuple[RoomRecord, bool]:
    """Create the room (its first event); whether this call created it (False: it existed,
    or another writer created it at the same moment)."""
    usable_room_name(room_name)
    _storable_name("部屋名", "room name", room_name, ROOM_NAME_LENGTH)
    from saikoro.systems import systems

    systems.get_system(system)  # unknown system → UnsupportedSystemError
    first = Event(
        ev.ROOM_CREATED,
        {"room": room_name, "system": system},
        actor="",
        command_id=uuid.uuid4().hex,
        at=now_iso(),
        text=Message(f"部屋 {room_name} ({system}) を作成", f"room {room_name} ({system}) created"),
    )
    room = store.create_room(room_name, system, first)
    return room, store.first_seq_of(room, first.command_id) == 1


def usable_room_name(name: str) -> str:
    """``name`` without surrounding blanks, refused when nothing is left, when it holds a
    control character, or when it is ``.``/``..`` or has such a part between slashes
    (``a/../b``: a web address drops or climbs such a segment, so the name would reach
    another room's routes). A ``/`` is fine otherwise: every route takes the rest of the
    path up to its own suffix."""
    trimmed = name.strip()
    if not trimmed:
        raise fail("部屋の名前が空です", "the room name is empty", "bad request")
    if any(unicodedata.category(ch) == "Cc" for ch in trimmed):
        raise fail(
            "部屋の名前に制御文字 (改行・タブなど) は使えません",
            "the room name cannot contain control characters (line breaks, tabs, …)",
            "bad request",
        )
    dots = next((part for part in trimmed.split("/") if part in {".", ".."}), None)
    if dots is not None:
        raise fail(
            f"部屋の名前 (の / で区切った部分) を {dots!r} だけにはできません",
            f"the room name (or a part of it between slashes) cannot be just {dots!r}",
            "bad request",
        )
    return trimmed


def _storable_name(what_ja: str, what_en: str, name: str, limit: int | None = None) -> None:
    """A name every store keeps: UTF-8 text (a command-line argument that is not UTF-8 comes
    with surrogate escapes), no NUL (PostgreSQL), within the column's length."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise fail(
            f"{what_ja} {name!r} は UTF-8 の文字列ではありません",
            f"the {what_en} {name!r} is not UTF-8 text",
        ) from None
    if "\0" in name:
        raise fail(
            f"{what_ja}に NUL 文字は使えません", f"the {what_en} cannot contain a NUL character"
        )
    if limit is not None and len(name) > limit:
        raise fail(
            f"{what_ja}は {limit} 文字までです ({len(name)} 文字)",
            f"the {what_en} has at most {limit} characters ({len(name)})",
        )
