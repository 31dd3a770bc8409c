"""The SQL store: rooms with a version column, an append-only events table, snapshots.

Writers never lose or reorder events: an append is one transaction that first moves the
room's version from the version the writer saw to the new one
(``UPDATE … WHERE version = :seen``); if another writer got there first nothing is
written and :class:`VersionConflict` tells the caller to re-read and try again. The
events' ``(room, seq)`` primary key is a second guard. A process killed mid-append
leaves the room at its last committed event (the transaction never commits).

On PostgreSQL the same transaction sends ``NOTIFY saikoro_events`` (delivered when it
commits), so servers listening there hear of every append — also one made by
``saikoro play`` — at once.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError
from sqlalchemy import (
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    cast,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.schema import CreateIndex, CreateTable

from saikoro.errors import SaikoroError, require_extra
from saikoro.i18n import Message
from saikoro.table.events import Event
from saikoro.table.state import RoomState, apply_in_place, replay
from saikoro.table.storage import ROOM_NAME_LENGTH, RoomRecord, VersionConflict

if TYPE_CHECKING:
    from saikoro.store.images import ImageStore
    from saikoro.store.links import LinkStore

T = TypeVar("T")

#: A snapshot is written every this many events (a cache: replay never needs it).
SNAPSHOT_EVERY = 500

#: The PostgreSQL channel each append notifies and every saikoro server listens on.
NOTIFY_CHANNEL = "saikoro_events"
#: The ``seq`` of a notice that says "a link of this room was revoked" (every server
#: drops its resolved tokens of the room at once).
REVOKED_SEQ = -1

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
#: The reveals of a room (``events_of_kind``) without scanning its whole log.
Index("ix_saikoro_events_room_kind", events.c.room_id, events.c.kind)

snapshots = Table(
    "saikoro_snapshots",
    metadata,
    Column("room_id", Integer, primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("state", Text, nullable=False),
)


class StoreError(SaikoroError):
    """The database refused, or what it holds cannot be read (a damaged record)."""

    reason = "store error"


class StorageUnavailableError(StoreError):
    """The database cannot take or give data now — a full disk, a read-only file, a server
    that is down or restarting — and may again later: not the caller's mistake (the table
    API answers 503 with ``Retry-After``)."""

    reason = "storage unavailable"


#: Words of a driver's message that mean an outage, whatever the exception's class
#: (PostgreSQL's read-only transaction is an InternalError, SQLite's full disk an
#: OperationalError, psycopg's lost connection an OperationalError or InterfaceError).
_OUTAGE_WORDS = (
    "disk is full",
    "no space left",
    "readonly",
    "read-only",
    "disk i/o error",
    "unable to open database",
    "connection",
    "server closed",
    "terminating",
    "shutting down",
    "starting up",
    "recovery mode",
    "could not extend",
)


def is_outage(error: BaseException) -> bool:
    """Whether a database error is an outage (full, read-only, down) rather than bad data."""
    if isinstance(error, (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)):
        return True
    text = str(getattr(error, "orig", None) or error).lower()
    return any(word in text for word in _OUTAGE_WORDS)


_PASSWORD_IN_URL = re.compile(r"(://[^/:@\s]*:)[^@\s]*@")
#: A secret given as a query parameter: libpq's ``password`` and ``sslpassword``, and any
#: other key that names a password or a secret (``?password=…&sslmode=…``).
_SECRET_IN_QUERY = re.compile(
    r"([?&][^=&#\s]*(?:password|passwd|pwd|secret)[^=&#\s]*=)[^&#\s]*", re.IGNORECASE
)


def notify_payload(room: str, seq: int) -> str:
    """The NOTIFY payload "room ``room`` has events up to ``seq``"."""
    return json.dumps({"room": room, "seq": seq}, ensure_ascii=False)


def hide_url_secrets(text: str) -> str:
    """``text`` with every password of a URL in it shown as ``***``: the one before the
    ``@`` and those given as query parameters."""
    return _SECRET_IN_QUERY.sub(r"\1***", _PASSWORD_IN_URL.sub(r"\1***@", text))


def redact_url(url_or_path: str) -> str:
    """A database URL fit to print: its passwords shown as ``***`` (a path is unchanged)."""
    if "://" not in url_or_path:
        return url_or_path
    try:
        shown = make_url(url_or_path).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        shown = url_or_path
    return hide_url_secrets(shown)


def _secrets_of(url: str) -> list[str]:
    """The passwords in a database URL (before the ``@`` and as query parameters), longest
    first: the values to hide in a driver's message."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return []
    found = [str(parsed.password)] if parsed.password else []
    for key, value in parsed.query.items():
        if _SECRET_IN_QUERY.match(f"?{key}="):
            found.extend([value] if isinstance(value, str) else value)
    return sorted({secret for secret in found if secret}, key=len, reverse=True)


#: A record that cannot be read back (garbled JSON, a shape saikoro never wrote).
DAMAGED_RECORD = (ValueError, KeyError, TypeError, AttributeError, ValidationError)


def database_url(url_or_path: str) -> str:
    """``postgresql://…`` → psycopg 3's dialect; a plain path → a SQLite file URL."""
    if "://" not in url_or_path:
        return "sqlite:///" + str(Path(url_or_path).expanduser().resolve())
    for plain in ("postgresql://", "postgres://"):
        if url_or_path.startswith(plain):
            return "postgresql+psycopg://" + url_or_path[len(plain) :]
    return url_or_path


def open_store(url_or_path: str, *, create: bool = True) -> SqlStore:
    """The database at ``url_or_path``; ``create=False``: a SQLite file that is not there is
    refused rather than made (a command that only reads a room leaves no empty file)."""
    return SqlStore(url_or_path, create=create)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=60000")  # first: switching to WAL may wait for a lock
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


#: Attempts at creating the tables when other processes create them at the same moment.
CREATE_TRIES = 5


class SqlStore:
    def __init__(self, url_or_path: str, *, create: bool = True) -> None:
        url = database_url(url_or_path)
        self.url = url
        self.shown_url = redact_url(url_or_path)
        self._secrets = _secrets_of(url)
        path = url.removeprefix("sqlite:///")
        if not create and path not in (url, ":memory:") and not Path(path).exists():
            raise StoreError(
                Message(
                    f"データベース {self.shown_url} はありません (ファイルがありません)",
                    f"no database {self.shown_url} (no such file)",
                )
            )
        if url.startswith("postgresql+psycopg"):
            require_extra("psycopg", "postgres", Message("PostgreSQL", "PostgreSQL"))
        try:
            if url.startswith("sqlite"):
                self.engine: Engine = create_engine(url, connect_args={"timeout": 60})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(url, pool_pre_ping=True)
            self._create_tables()
            if url.startswith("sqlite"):
                self._check_sqlite_file()
        except (SQLAlchemyError, ImportError, ValueError) as error:
            raise StoreError(
                Message(
                    f"データベース {self.shown_url} を開けません: {self._why(error)}",
                    f"cannot open database {self.shown_url}: {self._why(error)}",
                )
            ) from None

    def _create_tables(self) -> None:
        """``CREATE … IF NOT EXISTS`` for every table and index, retried when another
        process created one in between (SQLite: "table … already exists"; PostgreSQL: a
        unique violation in its catalog)."""
        for attempt in range(CREATE_TRIES):
            try:
                with self.engine.begin() as conn:
                    for table in metadata.sorted_tables:
                        conn.execute(CreateTable(table, if_not_exists=True))
                        for index in table.indexes:
                            conn.execute(CreateIndex(index, if_not_exists=True))
                return
            except (IntegrityError, ProgrammingError, OperationalError) as error:
                text = str(error).lower()
                racing = "already exists" in text or "locked" in text or "duplicate" in text
                if not racing or attempt == CREATE_TRIES - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def _check_sqlite_file(self) -> None:
        """``PRAGMA quick_check`` at open: a damaged page is refused before anything is
        read from it or written next to it (SQLite itself notices only pages it touches)."""
        try:
            with self.engine.connect() as conn:
                rows = conn.exec_driver_sql("PRAGMA quick_check(3)").all()
                problems = [str(row[0]) for row in rows]
        except DatabaseError as error:  # so damaged that the check itself cannot run
            problems = [self._why(error)]
        if problems != ["ok"]:
            raise StoreError(
                Message(
                    f"データベース {self.shown_url} のファイルが壊れています ({problems[0]})。"
                    "バックアップから戻すか、sqlite3 の .recover で取り出してください",
                    f"database {self.shown_url} is damaged ({problems[0]}); restore a backup "
                    "or salvage it with sqlite3's .recover",
                )
            )

    def _why(self, error: BaseException) -> str:
        """The first line of a driver's message, without the password."""
        lines = str(getattr(error, "orig", None) or error).strip().splitlines()
        why = lines[0] if lines else type(error).__name__
        for secret in self._secrets:
            why = why.replace(secret, "***")
        return hide_url_secrets(why)  # a URL quoted by the driver

    def _failure(self, what_ja: str, what_en: str, error: BaseException) -> StoreError:
        kind = StorageUnavailableError if is_outage(error) else StoreError
        return kind(
            Message(
                f"データベース {self.shown_url} で{what_ja}できません: {self._why(error)}",
                f"cannot {what_en} in database {self.shown_url}: {self._why(error)}",
            )
        )

    @contextlib.contextmanager
    def _faults(self, what_ja: str, what_en: str) -> Iterator[None]:
        """A database that is down or damaged → :class:`StoreError` (never a traceback)."""
        try:
            yield
        except SQLAlchemyError as error:
            raise self._failure(what_ja, what_en, error) from None

    def _event(self, room: RoomRecord, seq: int, body: str) -> Event:
        try:
            return Event.from_json(json.loads(body))
        except DAMAGED_RECORD as error:
            raise StoreError(
                Message(
                    f"データベース {self.shown_url} の部屋 {room.name!r} のイベント {seq} が"
                    f"壊れています ({type(error).__name__})。バックアップから戻してください",
                    f"event {seq} of room {room.name!r} in database {self.shown_url} is damaged"
                    f" ({type(error).__name__}); restore a backup",
                )
            ) from None

    def close(self) -> None:
        self.engine.dispose()

    @functools.cached_property
    def links(self) -> LinkStore:
        """The rooms' capability links, in this database (:mod:`saikoro.store.links`)."""
        from saikoro.store.links import LinkStore

        return LinkStore(self)

    @functools.cached_property
    def images(self) -> ImageStore:
        """The rooms' images (faces), in this database (:mod:`saikoro.store.images`)."""
        from saikoro.store.images import ImageStore

        return ImageStore(self)

    # -- rooms -----------------------------------------------------------------
    def get_room(self, name: str) -> RoomRecord | None:
        """The room called ``name``; StoreError when its record disagrees with its events
        (a version that is not the number of its last event: written by something else)."""
        newest = (
            select(func.max(events.c.seq))
            .where(events.c.room_id == rooms.c.id)
            .scalar_subquery()
            .label("last")
        )
        with self._faults("部屋を読み込", "read rooms"), self.engine.connect() as conn:
            # one statement: a writer appending meanwhile cannot make the two disagree
            row = conn.execute(select(rooms, newest).where(rooms.c.name == name)).first()
        if row is None:
            return None
        last = row.last
        if not (isinstance(row.version, int) and row.version == last):
            raise StoreError(
                Message(
                    f"データベース {self.shown_url} の部屋 {name!r} が壊れています (版 "
                    f"{row.version!r}、最後のイベント {last!r})。バックアップから戻してください",
                    f"room {name!r} in database {self.shown_url} is damaged (version "
                    f"{row.version!r}, last event {last!r}); restore a backup",
                )
            )
        return RoomRecord(row.id, row.name, row.system, row.version)

    def create_room(self, name: str, system: str, first: Event) -> RoomRecord:
        """Create a room whose first event is ``first``; an existing room is returned as is."""
        try:
            with self._faults("部屋を作成", "create a room"), self.engine.begin() as conn:
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
        except SQLAlchemyError as error:
            text = str(error).lower()
            if isinstance(error, OperationalError) and ("locked" in text or "deadlock" in text):
                raise VersionConflict() from None
            raise self._failure("書き込み", "write", error) from None

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
        with self._faults("書き込み", "write"), self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(select(rooms.c.id).where(rooms.c.id == room.id).with_for_update())
            else:  # SQLite: the first write takes the database's write lock
                conn.execute(
                    update(rooms).where(rooms.c.id == room.id).values(version=rooms.c.version)
                )
            rows = conn.execute(
                select(events.c.seq, events.c.body)
                .where(events.c.room_id == room.id, events.c.seq > state.version)
                .order_by(events.c.seq)
            ).all()
            for row in rows:
                apply_in_place(state, self._event(room, row.seq, row.body))
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
        if conn.dialect.name == "postgresql":  # sent on commit, dropped on rollback
            payload = notify_payload(room.name, new_version)
            conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, payload)))
        due = new_version // SNAPSHOT_EVERY > seen_version // SNAPSHOT_EVERY
        if snapshot is not None and due:
            assert snapshot.version == new_version
            conn.execute(
                insert(snapshots).values(
                    room_id=room.id, version=new_version, state=_dump(snapshot.to_json())
                )
            )
        return new_version

    def room_bytes(self, room: RoomRecord) -> int:
        """Bytes of the room's stored events (their JSON, UTF-8) and images: what its
        quota counts."""
        return self._event_bytes(room) + self.images.room_bytes(room)

    def _event_bytes(self, room: RoomRecord) -> int:
        body = events.c.body
        with self._faults("読み込み", "read"), self.engine.connect() as conn:
            size = (
                func.octet_length(body)
                if conn.dialect.name == "postgresql"
                else func.length(cast(body, LargeBinary))
            )
            query = select(func.coalesce(func.sum(size), 0)).where(events.c.room_id == room.id)
            return int(conn.execute(query).scalar_one())

    def version(self, room: RoomRecord) -> int:
        with self._faults("読み込み", "read"), self.engine.connect() as conn:
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
            with self._faults("イベントを読み込", "read events"), self.engine.connect() as conn:
                rows = conn.execute(query).all()
            for row in rows:
                yield self._event(room, row.seq, row.body)
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
        with self._faults("イベントを読み込", "read events"), self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [(row.seq, self._event(room, row.seq, row.body)) for row in reversed(rows)]

    def first_seq_of(self, room: RoomRecord, command_id: str) -> int | None:
        query = select(func.min(events.c.seq)).where(
            events.c.room_id == room.id, events.c.command_id == command_id
        )
        with self._faults("イベントを読み込", "read events"), self.engine.connect() as conn:
            return conn.execute(query).scalar()

    # -- states ----------------------------------------------------------------
    def latest_snapshot(self, room: RoomRecord, at_most: int | None = None) -> RoomState | None:
        """The newest readable snapshot (a damaged one is skipped: snapshots are a cache)."""
        query = select(snapshots.c.version, snapshots.c.state).where(snapshots.c.room_id == room.id)
        if at_most is not None:
            query = query.where(snapshots.c.version <= at_most)
        query = query.order_by(snapshots.c.version.desc()).limit(5)
        with (
            self._faults("スナップショットを読み込", "read snapshots"),
            self.engine.connect() as conn,
        ):
            rows = conn.execute(query).all()
        for row in rows:
            try:
                state = RoomState.from_json(json.loads(row.state))
            except DAMAGED_RECORD:
                continue
            if state.version == row.version:
                return state
        return None

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
