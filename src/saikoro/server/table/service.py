"""The table as one server process holds it: store, links, live feeds, limits, sessions.

One :class:`TableService` per app (``app.state.table``). The store is synchronous
(SQLAlchemy), so its calls run in worker threads; each room has ONE
:class:`~saikoro.table.session.TableSession` in this process, used under a lock (lines of a
room are carried out one at a time here; other processes are kept in step by the store's
version check). After a line's events are appended, the room's new ``seq`` is published.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from saikoro.dice.randomizer import DiceSource
from saikoro.server.pubsub import PubSub, pubsub_for
from saikoro.server.table.errors import no_such_room, unauthorized
from saikoro.server.table.feed import FeedHub, Numbered, events_after, events_of_kind
from saikoro.server.table.limits import ConnectionCaps, TableLimits, TokenBuckets
from saikoro.store.links import Link, LinkStore
from saikoro.store.sql import SqlStore, open_store
from saikoro.table.actors import Actor
from saikoro.table.dispatch import Outcome
from saikoro.table.events import REVEALED
from saikoro.table.rooms import actor_for
from saikoro.table.session import TableSession
from saikoro.table.state import RoomState
from saikoro.table.storage import RoomRecord
from saikoro.table.view import revealed_ids, view_event

#: Rooms whose state this process keeps in memory (the most recently used).
MAX_CACHED_SESSIONS = 256


@dataclass(frozen=True)
class Caller:
    """Who is calling: the link their token resolved to, its actor, the room."""

    link: Link
    actor: Actor
    room: RoomRecord


@dataclass
class LineResult:
    outcome: Outcome
    first_seq: int  # seq of the outcome's first event (when it has any)
    version: int


class _RoomSession:
    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.lock = threading.Lock()


class TableService:
    def __init__(
        self,
        db_url: str,
        *,
        limits: TableLimits | None = None,
        source_factory: Callable[[], DiceSource] | None = None,
        pubsub: PubSub | None = None,
    ) -> None:
        self.db_url = db_url
        self.limits = limits or TableLimits()
        self.source_factory = source_factory
        self.store: SqlStore = open_store(db_url)
        self.links = LinkStore(self.store)
        self.pubsub = pubsub or pubsub_for(self.store.url)
        self.hub = FeedHub(self.store, self.pubsub)
        self.line_buckets = TokenBuckets(self.limits.line_rate, self.limits.line_burst)
        self.room_buckets = TokenBuckets(
            self.limits.rooms_per_minute / 60.0, max(1, int(self.limits.rooms_per_minute))
        )
        self.caps = ConnectionCaps(self.limits.max_ws_per_room, self.limits.max_ws_per_link)
        #: The open WebSockets of this process per link id, each a coroutine function that
        #: ends it as revoked (other processes notice at their next heartbeat).
        self.socket_enders: dict[str, set[Callable[[], Awaitable[None]]]] = {}
        self._sessions: OrderedDict[str, _RoomSession] = OrderedDict()
        self._sessions_lock = threading.Lock()

    async def start(self) -> None:
        await self.pubsub.start()
        self.hub.start()  # catches appends nobody announced (saikoro play on the database)

    async def stop(self) -> None:
        await self.hub.close()
        await self.pubsub.stop()
        self.store.close()

    # -- who is calling ------------------------------------------------------------
    def room(self, name: str) -> RoomRecord:
        record = self.store.get_room(name)
        if record is None:
            raise no_such_room(name)
        return record

    def caller(self, room_name: str, token: str | None) -> Caller:
        """The caller of ``room_name`` holding ``token`` (401 without a valid token)."""
        record = self.room(room_name)
        if not token:
            raise unauthorized()
        link = self.links.resolve(room_name, token)
        if link is None:
            raise unauthorized()
        return Caller(link, actor_for(link), record)

    async def caller_async(self, room_name: str, token: str | None) -> Caller:
        return await asyncio.to_thread(self.caller, room_name, token)

    # -- lines -----------------------------------------------------------------------
    def _room_session(self, room: RoomRecord) -> _RoomSession:
        with self._sessions_lock:
            held = self._sessions.get(room.name)
            if held is not None:
                self._sessions.move_to_end(room.name)
            else:
                session = TableSession.open(self.store, room.name, allow_files=False)
                held = _RoomSession(session)
                self._sessions[room.name] = held
                if len(self._sessions) > MAX_CACHED_SESSIONS:
                    # The least recently used room's state is dropped (re-read when needed);
                    # a line still running on it is safe: the store's version check orders
                    # writers of one room, whichever session they use.
                    self._sessions.popitem(last=False)
            return held

    def run_line(self, room: RoomRecord, actor: Actor, line: str) -> LineResult:
        held = self._room_session(room)
        with held.lock:
            session = held.session
            if self.source_factory is not None:
                session.source = self.source_factory()
            outcome = session.run(line, actor=actor)
            version = session.state.version
        return LineResult(outcome, version - len(outcome.events) + 1, version)

    async def publish_latest(self, room: str) -> None:
        """Announce the room's current end (after a change made outside ``run_line``)."""
        record = await asyncio.to_thread(self.room, room)
        await self.pubsub.publish(room, await asyncio.to_thread(self.store.version, record))

    async def run_line_async(self, caller: Caller, line: str) -> LineResult:
        result = await asyncio.to_thread(self.run_line, caller.room, caller.actor, line)
        if result.outcome.events:
            await self.pubsub.publish(caller.room.name, result.version)
        return result

    def state(self, room: RoomRecord) -> RoomState:
        held = self._room_session(room)
        with held.lock:
            held.session.refresh()
            return held.session.state.clone()

    # -- reading the log -------------------------------------------------------------
    def events_after(self, room: RoomRecord, after: int) -> list[Numbered]:
        out: list[Numbered] = []
        while True:
            batch = events_after(self.store, room, out[-1][0] if out else after)
            out.extend(batch)
            if not batch:
                return out

    def revealed(self, room: RoomRecord) -> set[str]:
        """The command ids of every secret roll revealed in the room so far."""
        return revealed_ids(e for _seq, e in events_of_kind(self.store, room, REVEALED))

    def viewed_events(self, room: RoomRecord, actor: Actor, after: int = 0) -> list[Numbered]:
        """The caller's view of the log after ``after`` (reveals anywhere in the log count)."""
        revealed = self.revealed(room)
        return view_numbered(self.events_after(room, after), actor, revealed, after)


def view_numbered(
    numbered: Iterable[Numbered], actor: Actor, revealed: set[str], after: int = 0
) -> list[Numbered]:
    out: list[Numbered] = []
    for seq, event in numbered:
        if seq <= after:
            continue
        shown = view_event(event, actor, revealed)
        if shown is not None:
            out.append((seq, shown))
    return out
