"""The SQL store: rooms with a version column, an append-only events table, snapshots.

Writers never lose or reorder events: an append is one transaction that first moves the
room's version from the version the writer saw to the new one
(``UPDATE … WHERE version = :seen``); if another writer got there first nothing is
written and :class:`VersionConflict` tells the caller to re-read and try again. The
events' ``(room, seq)`` primary key is a second guard. A process killed mid-append
leaves the room at its last committed event (the transaction never commits).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError, SQLAlchemyError

from saikoro.errors import SaikoroError, require_extra
from saikoro.i18n import Message
from saikoro.table.events import Event
from saikoro.table.state import RoomState, apply_in_place, replay
from saikoro.table.storage import ROOM_NAME_LENGTH, RoomRecord, VersionConflict

T = TypeVar("T")

#: A snapshot is written every this many events (a cache: replay never needs it).
SNAPSHOT_EVERY = 500

metadata = MetaData()

rooms = Table(
    "saikoro_rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(ROOM_NAME_LENGTH), nullable=False),
    Column("system", String(64), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    UniqueConstraint("name", name="uq_saikoro_rooms_name"),
)

events = Table(
    "saikoro_events",
    metadata,
    Column("room_id", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("command_id", String(64), nullable=False, index=True),
    Column("body", Text, nullable=False),
)

snapshots = Table(
    "saikoro_snapshots",
    metadata,
    Column("room_id", Integer, primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("state", Text, nullable=False),
)


class StoreError(SaikoroError):
    reason = "store error"


def database_url(url_or_path: str) -> str:
    """``postgresql://…`` → psycopg 3's dialect; a plain path → a SQLite file URL."""
    if "://" not in url_or_path:
        return "sqlite:///" + str(Path(url_or_path).expanduser().resolve())
    for plain in ("postgresql://", "postgres://"):
        if url_or_path.startswith(plain):
            return "postgresql+psycopg://" + url_or_path[len(plain) :]
    return url_or_path


def open_store(url_or_path: str) -> SqlStore:
    return SqlStore(url_or_path)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=60000")
    cursor.close()


class SqlStore:
    def __init__(self, url_or_path: str) -> None:
        url = database_url(url_or_path)
        self.url = url
        if url.startswith("postgresql+psycopg"):
            require_extra("psycopg", "postgres", Message("PostgreSQL", "PostgreSQL"))
        try:
            if url.startswith("sqlite"):
                self.engine: Engine = create_engine(url, connect_args={"timeout": 60})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(url, pool_pre_ping=True)
            try:
                metadata.create_all(self.engine)
            except (IntegrityError, ProgrammingError):  # created at the same moment elsewhere
                metadata.create_all(self.engine)
        except (SQLAlchemyError, ImportError, ValueError) as error:
            why = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            raise StoreError(
                Message(
                    f"データベース {url_or_path} を開けません: {why}",
                    f"cannot open database {url_or_path}: {why}",
                )
            ) from None

    def close(self) -> None:
        self.engine.dispose()

    # -- rooms -----------------------------------------------------------------
    def get_room(self, name: str) -> RoomRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.name == name)).first()
        return RoomRecord(row.id, row.name, row.system, row.version) if row else None

    def create_room(self, name: str, system: str, first: Event) -> RoomRecord:
        """Create a room whose first event is ``first``; an existing room is returned as is."""
        try:
            with self.engine.begin() as conn:
                inserted = conn.execute(
                    insert(rooms).values(name=name, system=system, version=1)
                ).inserted_primary_key
                assert inserted is not None
                room_id = inserted[0]
                conn.execute(
                    insert(events).values(
                        room_id=room_id,
                        seq=1,
                        kind=first.kind,
                        command_id=first.command_id,
                        body=_dump(first.to_json()),
                    )
                )
        except IntegrityError:
            pass  # created meanwhile by another process
        room = self.get_room(name)
        assert room is not None
        return room

    # -- events ----------------------------------------------------------------
    def append(
        self,
        room: RoomRecord,
        seen_version: int,
        new_events: Sequence[Event],
        snapshot: RoomState | None = None,
    ) -> int:
        """Append ``new_events`` after ``seen_version`` in one transaction; the new version.

        Raises :class:`VersionConflict` when the room moved on since ``seen_version``.
        ``snapshot`` (the state after these events) is stored when a snapshot is due.
        """
        if not new_events:
            return seen_version
        try:
            with self.engine.begin() as conn:
                return self._write(conn, room, seen_version, new_events, snapshot)
        except IntegrityError:
            raise VersionConflict() from None
        except OperationalError as error:
            if "locked" in str(error).lower() or "deadlock" in str(error).lower():
                raise VersionConflict() from None
            raise StoreError(
                Message(f"データベースに書けません: {error}", f"cannot write: {error}")
            ) from None

    def append_locked(
        self,
        room: RoomRecord,
        state: RoomState,
        produce: Callable[[RoomState], tuple[Sequence[Event], RoomState | None, T]],
    ) -> tuple[RoomState, T]:
        """Append while holding the room's write lock: the fallback that always progresses.

        ``state`` (a private copy) is brought up to date inside the transaction, then
        ``produce(state)`` returns the events, the state after them and a result. An
        exception from ``produce`` writes nothing.
        """
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(select(rooms.c.id).where(rooms.c.id == room.id).with_for_update())
            else:  # SQLite: the first write takes the database's write lock
                conn.execute(
                    update(rooms).where(rooms.c.id == room.id).values(version=rooms.c.version)
                )
            rows = conn.execute(
                select(events.c.body)
                .where(events.c.room_id == room.id, events.c.seq > state.version)
                .order_by(events.c.seq)
            ).all()
            for row in rows:
                apply_in_place(state, Event.from_json(json.loads(row.body)))
            new_events, after, result = produce(state)
            if not new_events:
                return state, result
            assert after is not None
            self._write(conn, room, state.version, new_events, after)
            return after, result

    def _write(
        self,
        conn: Connection,
        room: RoomRecord,
        seen_version: int,
        new_events: Sequence[Event],
        snapshot: RoomState | None,
    ) -> int:
        new_version = seen_version + len(new_events)
        moved = conn.execute(
            update(rooms)
            .where(rooms.c.id == room.id, rooms.c.version == seen_version)
            .values(version=new_version)
        ).rowcount
        if moved != 1:
            raise VersionConflict()
        conn.execute(
            insert(events),
            [
                {
                    "room_id": room.id,
                    "seq": seen_version + i + 1,
                    "kind": e.kind,
                    "command_id": e.command_id,
                    "body": _dump(e.to_json()),
                }
                for i, e in enumerate(new_events)
            ],
        )
        due = new_version // SNAPSHOT_EVERY > seen_version // SNAPSHOT_EVERY
        if snapshot is not None and due:
            assert snapshot.version == new_version
            conn.execute(
                insert(snapshots).values(
                    room_id=room.id, version=new_version, state=_dump(snapshot.to_json())
                )
            )
        return new_version

    def version(self, room: RoomRecord) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(rooms.c.version).where(rooms.c.id == room.id)).scalar_one()
            )

    def iter_events(
        self, room: RoomRecord, after: int = 0, upto: int | None = None, batch: int = 5000
    ) -> Iterator[Event]:
        """Events with ``after < seq <= upto`` in order (read in batches)."""
        last = after
        while True:
            query = (
                select(events.c.seq, events.c.body)
                .where(events.c.room_id == room.id, events.c.seq > last)
                .order_by(events.c.seq)
                .limit(batch)
            )
            if upto is not None:
                query = query.where(events.c.seq <= upto)
            with self.engine.connect() as conn:
                rows = conn.execute(query).all()
            for row in rows:
                yield Event.from_json(json.loads(row.body))
            if len(rows) < batch:
                return
            last = rows[-1].seq

    def recent_events(self, room: RoomRecord, count: int) -> list[tuple[int, Event]]:
        query = (
            select(events.c.seq, events.c.body)
            .where(events.c.room_id == room.id)
            .order_by(events.c.seq.desc())
            .limit(count)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [(row.seq, Event.from_json(json.loads(row.body))) for row in reversed(rows)]

    def first_seq_of(self, room: RoomRecord, command_id: str) -> int | None:
        query = select(func.min(events.c.seq)).where(
            events.c.room_id == room.id, events.c.command_id == command_id
        )
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    # -- states ----------------------------------------------------------------
    def latest_snapshot(self, room: RoomRecord, at_most: int | None = None) -> RoomState | None:
        query = select(snapshots.c.state).where(snapshots.c.room_id == room.id)
        if at_most is not None:
            query = query.where(snapshots.c.version <= at_most)
        query = query.order_by(snapshots.c.version.desc()).limit(1)
        with self.engine.connect() as conn:
            text = conn.execute(query).scalar()
        return RoomState.from_json(json.loads(text)) if text else None

    def load_state(self, room: RoomRecord, at: int | None = None) -> RoomState:
        """The room's state (at version ``at``, or now): the latest snapshot + later events."""
        base = self.latest_snapshot(room, at)
        after = base.version if base is not None else 0
        return replay(self.iter_events(room, after=after, upto=at), base)

    def replay_all(self, room: RoomRecord) -> RoomState:
        """The state from every event, ignoring snapshots (for checks and tests)."""
        return replay(self.iter_events(room))


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
