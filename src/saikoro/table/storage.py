"""What the table needs from a store of rooms: the interface ``saikoro.store`` implements.

The table (``session.py``) talks to a :class:`RoomStore`; ``saikoro.store.sql.SqlStore`` is
the SQL implementation (SQLite, PostgreSQL). The store depends on the table's events and its
public fold (:func:`saikoro.table.state.apply_in_place`), never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from saikoro.table.capabilities import LinkRegistry
from saikoro.table.events import Event
from saikoro.table.state import RoomState

T = TypeVar("T")

#: The longest room name a store keeps (characters).
ROOM_NAME_LENGTH = 200


class VersionConflict(Exception):
    """Another writer appended first; re-read the room and try again."""


@dataclass(frozen=True)
class RoomRecord:
    id: int
    name: str
    system: str
    version: int


class RoomStore(Protocol):
    """An append-only event log per room (optimistic versions, snapshots as a cache)."""

    def get_room(self, name: str) -> RoomRecord | None: ...

    def create_room(self, name: str, system: str, first: Event) -> RoomRecord: ...

    def append(
        self,
        room: RoomRecord,
        seen_version: int,
        new_events: Sequence[Event],
        snapshot: RoomState | None = None,
    ) -> int:
        """Append after ``seen_version`` in one transaction; VersionConflict if it moved on."""
        ...

    def append_locked(
        self,
        room: RoomRecord,
        state: RoomState,
        produce: Callable[[RoomState], tuple[Sequence[Event], RoomState | None, T]],
    ) -> tuple[RoomState, T]:
        """Append while holding the room's write lock (the fallback that always progresses)."""
        ...

    def iter_events(
        self, room: RoomRecord, after: int = 0, upto: int | None = None, batch: int = 5000
    ) -> Iterator[Event]: ...

    def recent_events(self, room: RoomRecord, count: int) -> list[tuple[int, Event]]: ...

    def first_seq_of(self, room: RoomRecord, command_id: str) -> int | None: ...

    def load_state(self, room: RoomRecord, at: int | None = None) -> RoomState: ...


class SharedRoomStore(RoomStore, Protocol):
    """A store of rooms that also keeps their capability links (shared rooms)."""

    @property
    def links(self) -> LinkRegistry: ...


__all__ = ["ROOM_NAME_LENGTH", "RoomRecord", "RoomStore", "SharedRoomStore", "VersionConflict"]
