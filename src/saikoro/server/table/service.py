"""The table as one server process holds it: store, links, live feeds, limits, sessions.

One :class:`TableService` per app (``app.state.table``). The store is synchronous
(SQLAlchemy), so its calls run in worker threads; each room has ONE
:class:`~saikoro.table.session.TableSession` in this process, used under a lock (lines of a
room are carried out one at a time here; other processes are kept in step by the store's
version check). After a line's events are appended, the room's new ``seq`` is published.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from saikoro.dice.randomizer import DiceSource
from saikoro.errors import SaikoroError
from saikoro.server.pubsub import PubSub, pubsub_for
from saikoro.server.table.errors import (
    TableApiError,
    no_such_room,
    quota_exceeded,
    rate_limited,
    room_full,
    too_many_rooms,
    unauthorized,
)
from saikoro.server.table.feed import FeedHub, Numbered, events_after, events_of_kind
from saikoro.server.table.limits import ConnectionCaps, TableLimits, TokenBuckets
from saikoro.store.changes import commit_counter
from saikoro.store.images import StoredImage
from saikoro.store.links import REVOKED_COUNT, Link, LinkStore, token_hash
from saikoro.store.sql import REVOKED_SEQ, SqlStore, open_store
from saikoro.table.actors import Actor
from saikoro.table.changes import state_change, view_change
from saikoro.table.dispatch import Outcome
from saikoro.table.events import REVEALED
from saikoro.table.rooms import actor_for
from saikoro.table.session import TableSession
from saikoro.table.state import RoomState, apply_in_place
from saikoro.table.storage import RoomRecord
from saikoro.table.view import may_see, revealed_ids, view_event

#: Rooms whose state this process keeps in memory (the most recently used).
MAX_CACHED_SESSIONS = 256
#: Rooms and link tokens kept resolved in memory (the most recently used).
MAX_CACHED_LOOKUPS = 4096
#: The ``seq`` of a pubsub notice that says "a link of this room was revoked" (every
#: process drops its resolved tokens of the room at once).
REVOKED_NOTICE = REVOKED_SEQ
#: Events decoded at once while the published log streams.
PUBLISH_BATCH = 1000


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
        joins = self.limits.joins_per_minute
        self.join_buckets = TokenBuckets(joins / 60.0, max(1, int(joins)))
        #: client address → rooms it created (in this process).
        self.rooms_made: dict[str, int] = {}
        #: room id → bytes of its stored events, counted once, then added to per line.
        self._usage: dict[int, int] = {}
        self._usage_lock = threading.Lock()
        self._join_lock = threading.Lock()
        #: The open WebSockets of this process per link id, each a coroutine function that
        #: ends it as revoked (other processes notice at their next heartbeat).
        self.socket_enders: dict[str, set[Callable[[], Awaitable[None]]]] = {}
        self._sessions: OrderedDict[str, _RoomSession] = OrderedDict()
        self._sessions_lock = threading.Lock()
        #: name → room (a room's id, name and system never change once made).
        self._rooms: OrderedDict[str, RoomRecord] = OrderedDict()
        #: (room, token hash) → its live link; dropped when a link of the room is revoked
        #: (here, by another process's notice, or seen by the periodic look at revocations).
        self._links: OrderedDict[tuple[str, str], Link] = OrderedDict()
        self._lookups_lock = threading.Lock()
        self._forgotten = 0  # times tokens were forgotten (a link read before is not kept)
        self._revocations: int | None = None
        #: SQLite: noticed before each use of a resolved token, a commit by anyone else
        #: (``saikoro room revoke`` in another process) makes the revocations be counted
        #: again, so such a revoke takes effect at the very next request.
        self._commits = commit_counter(self.store.engine)
        self._commits_seen: int | None = None
        self._commits_lock = threading.Lock()
        self.pubsub.add_listener(self._notified)

    async def start(self) -> None:
        await self.pubsub.start()
        self.hub.start()  # catches appends nobody announced (saikoro play on the database)
        await asyncio.to_thread(self.check_revocations)
        self._watcher = asyncio.get_running_loop().create_task(self._watch_revocations())

    async def _watch_revocations(self) -> None:
        while True:
            await asyncio.sleep(self.hub.poll_seconds)
            try:
                await asyncio.to_thread(self.check_revocations)
            except Exception:
                self.forget_links()

    async def stop(self) -> None:
        watcher = getattr(self, "_watcher", None)
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watcher
        await self.hub.close()
        await self.pubsub.stop()
        if self._commits is not None:
            self._commits.close()
        self.store.close()

    # -- who is calling ------------------------------------------------------------
    def room(self, name: str) -> RoomRecord:
        with self._lookups_lock:
            record = self._rooms.get(name)
        if record is None:
            record = self.store.get_room(name)
            if record is None:
                raise no_such_room(name)
            with self._lookups_lock:
                self._remember(self._rooms, name, record)
        return record

    def caller(self, room_name: str, token: str | None) -> Caller:
        """The caller of ``room_name`` holding ``token`` (401 without a valid token)."""
        record = self.room(room_name)
        if not token or len(token) > 200:
            raise unauthorized()
        key = (room_name, token_hash(token))
        with self._lookups_lock:
            link = self._links.get(key)
        if link is not None and self._written_elsewhere():
            with self._lookups_lock:
                link = self._links.get(key)
        if link is None:
            generation = self._forgotten
            link = self.links.resolve(room_name, token)
            if link is None:
                raise unauthorized()
            with self._lookups_lock:
                if generation == self._forgotten:  # not revoked while it was being read
                    self._remember(self._links, key, link)
        return Caller(link, actor_for(link), record)

    @staticmethod
    def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        cache[key] = value
        cache.move_to_end(key)
        if len(cache) > MAX_CACHED_LOOKUPS:
            cache.popitem(last=False)

    def forget_links(self, room: str | None = None) -> None:
        """Drop the resolved tokens of ``room`` (of every room: None); the next call of
        each reads its link again."""
        with self._lookups_lock:
            self._forgotten += 1
            for key in [k for k in self._links if room is None or k[0] == room]:
                del self._links[key]

    async def revoked(self, room: str) -> None:
        """A link of ``room`` was revoked: forget its tokens here and in every process."""
        self.forget_links(room)
        await self.pubsub.publish(room, REVOKED_NOTICE)

    def _notified(self, room: str | None, seq: int | None) -> None:
        if room is None:  # notices may have been lost: trust nothing resolved before
            self.forget_links()
        elif seq == REVOKED_NOTICE:
            self.forget_links(room)

    def _written_elsewhere(self) -> bool:
        """Whether the database was committed to by anyone else since last asked; if so,
        the revocations are counted again first (a changed count forgets every token).
        One at a time: a caller asking meanwhile waits for the count, never trusting a
        token the count is about to drop."""
        if self._commits is None:  # PostgreSQL: every revoke is heard by its NOTIFY
            return False
        with self._commits_lock:
            seen = self._commits.read()
            if seen == self._commits_seen:
                return False
            self.check_revocations()
            self._commits_seen = seen
            return True

    def check_revocations(self) -> None:
        """Forget every resolved token when the number of revoked links changed (a revoke
        made by a process that could not tell us: ``saikoro room revoke`` on SQLite)."""
        count = self._commits.scalar(REVOKED_COUNT) if self._commits is not None else None
        if count is None:
            count = self.links.revoked_count()
        if self._revocations is not None and count != self._revocations:
            self.forget_links()
        self._revocations = count

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

    def run_line(
        self, room: RoomRecord, actor: Actor, line: str, tab: str | None = None
    ) -> LineResult:
        from saikoro.table.bounds import stored_size

        self.check_quota(room)
        held = self._room_session(room)
        with held.lock:
            session = held.session
            if self.source_factory is not None:
                session.source = self.source_factory()
            outcome = session.run(line, actor=actor, tab=tab)
            version = session.state.version
        if outcome.events:
            added = sum(stored_size(event) for event in outcome.events)
            with self._usage_lock:
                if room.id in self._usage:
                    self._usage[room.id] += added
        return LineResult(outcome, version - len(outcome.events) + 1, version)

    # -- what one invite, address and room may take ----------------------------------------
    def room_usage(self, room: RoomRecord) -> int:
        """Bytes of the room's stored events (counted in the store once per process)."""
        with self._usage_lock:
            known = self._usage.get(room.id)
        if known is None:
            known = self.store.room_bytes(room)
            with self._usage_lock:
                self._usage[room.id] = known
        return known

    def forget_usage(self, room: RoomRecord) -> None:
        """Count the room's bytes again next time (after a change outside ``run_line``)."""
        with self._usage_lock:
            self._usage.pop(room.id, None)

    def check_quota(self, room: RoomRecord) -> None:
        """A room at its storage quota takes nothing more (a line may pass it by at most
        one line's bounded events: saikoro.table.bounds)."""
        quota = self.limits.room_quota_bytes
        if quota and self.room_usage(room) >= quota:
            raise quota_exceeded(self.room_usage(room), quota)

    def check_join(self, room: RoomRecord, invite: str) -> None:
        """Before a join: the invite's rate, the room's players and its quota."""
        key = f"{room.name}\0{token_hash(invite)}"
        if not self.join_buckets.allow(key):
            raise rate_limited(self.join_buckets.retry_after(key))
        most = self.limits.max_players
        if most and self.player_count(room) >= most:
            raise room_full(most)
        self.check_quota(room)

    def join(
        self, room: RoomRecord, invite: str, character: str | bytes, name: str | None = None
    ) -> tuple[Link, str, str]:
        """Join through ``invite`` after :meth:`check_join`, one join of this process at a
        time (so the players' cap holds under a flood of concurrent joins); ``name``: which
        character of a file of several."""
        from saikoro.table.rooms import join

        with self._join_lock:
            self.check_join(room, invite)
            try:
                return join(self.store, room.name, invite, character, name)
            finally:
                self.forget_usage(room)

    def player_count(self, room: RoomRecord) -> int:
        return sum(link.role == "player" for link in self.links.list(room.name, live_only=True))

    def check_new_room(self, client: str) -> None:
        most = self.limits.rooms_per_address
        if most and self.rooms_made.get(client, 0) >= most:
            raise too_many_rooms(most)

    def room_made(self, client: str) -> None:
        self.rooms_made[client] = self.rooms_made.get(client, 0) + 1

    def limits_view(self, room: RoomRecord) -> dict[str, Any]:
        """The room's limits and what it uses of them, for the GM's ``/state``."""
        from saikoro.table.bounds import MAX_DICE, MAX_EVENT_BYTES, MAX_TEXT_CHARS

        limits = self.limits
        return {
            "players": {"used": self.player_count(room), "max": limits.max_players or None},
            "storage": {
                "used_bytes": self.room_usage(room),
                "quota_bytes": limits.room_quota_bytes or None,
            },
            "joins_per_invite_per_minute": limits.joins_per_minute or None,
            "rooms_per_address": limits.rooms_per_address or None,
            "lines_per_second_per_link": limits.line_rate or None,
            "event": {
                "text_chars": MAX_TEXT_CHARS,
                "dice": MAX_DICE,
                "bytes": MAX_EVENT_BYTES,
            },
        }

    async def publish_latest(self, room: str) -> None:
        """Announce the room's current end (after a change made outside ``run_line``)."""
        record = await asyncio.to_thread(self.room, room)
        await self.pubsub.publish(room, await asyncio.to_thread(self.store.version, record))

    async def run_line_async(self, caller: Caller, line: str, tab: str | None = None) -> LineResult:
        result = await asyncio.to_thread(self.run_line, caller.room, caller.actor, line, tab)
        if result.outcome.events:
            await self.pubsub.publish(caller.room.name, result.version)
        return result

    def state(self, room: RoomRecord) -> RoomState:
        held = self._room_session(room)
        with held.lock:
            held.session.refresh()
            return held.session.state.clone()

    def view(self, room: RoomRecord, actor: Actor) -> dict[str, Any]:
        """``/state`` for ``actor``, made from this process's copy of the room without
        copying it; the store is read only when the room may have moved without this
        process knowing (the live feed knows the end of every room someone watches here)."""
        from saikoro.table.view import view_state

        held = self._room_session(room)
        with held.lock:
            if self.hub.known_end(room.name) != held.session.state.version:
                held.session.refresh()
            state = held.session.state
            body = view_state(state, actor)
            body["version"] = state.version
            return body

    # -- faces -----------------------------------------------------------------------
    def check_face(self, room: RoomRecord, actor: Actor, name: str) -> str:
        """The room's name of the character whose face ``actor`` may change (refused:
        no such character, someone else's)."""
        from saikoro.table.faces import face_owner

        held = self._room_session(room)
        with held.lock:
            held.session.refresh()
            return face_owner(held.session.state, actor, name)

    def set_face(
        self, room: RoomRecord, actor: Actor, name: str, image: StoredImage | None
    ) -> str | None:
        """Give the character ``name`` the face ``image`` (None: take it off), as
        ``actor``; the address of its face now (None: none). The image is stored first,
        so an event never names an image the room does not have."""
        from saikoro.table.actors import find_name
        from saikoro.table.faces import icon_url

        if image is not None:
            self.check_quota(room)
            self.store.images.put(room, image)
            self.forget_usage(room)
        held = self._room_session(room)
        with held.lock:
            session = held.session
            digest = image.digest if image is not None else None
            session.set_icon(name, digest, image.content_type if image else "", actor=actor)
            found = find_name(name, session.state.characters)
            character = session.state.characters[found] if found else None
            return icon_url(room.name, character) if character is not None else None

    def faces_from_file(
        self, room: RoomRecord, actor: Actor, content: str | bytes, names: list[str]
    ) -> list[str]:
        """The faces an Udonarium zip holds for the characters ``names`` just brought in
        from it, given to them as ``actor`` (an image that is no picture saikoro reads is
        left out: the character came in, its face did not). The names that got one."""
        from saikoro.server.table.faces import normalise_face
        from saikoro.transfer import udonarium_faces

        if not isinstance(content, bytes):
            return []
        try:
            found = udonarium_faces(content, room.system)
        except SaikoroError:
            return []
        given: list[str] = []
        for name in names:
            if name not in found:
                continue
            try:
                self.set_face(room, actor, name, normalise_face(found[name]))
            except TableApiError:
                continue
            given.append(name)
        return given

    def face(self, room: RoomRecord, name: str, digest: str | None) -> StoredImage | None:
        """The stored image ``digest`` of the room (any of its faces, past or present),
        else the current face of the character ``name`` (None: it has none)."""
        from saikoro.table.faces import face_owner

        if digest:
            return self.store.images.get(room, digest) if len(digest) == 64 else None
        held = self._room_session(room)
        with held.lock:
            if self.hub.known_end(room.name) != held.session.state.version:
                held.session.refresh()
            state = held.session.state
            found = face_owner(state, Actor.gm(), name)
            current = state.characters[found].icon
        return self.store.images.get(room, current) if current else None

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

    def changed_events(
        self, room: RoomRecord, actor: Actor, after: int, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The caller's view of the events after ``after``, each with its state change
        (``change``, as on the WebSocket): the room at ``after`` folded forward."""
        numbered = self.events_after(room, after)
        if limit is not None:
            numbered = numbered[:limit]
        state = self.store.load_state(room, at=after)
        revealed = self.revealed(room)
        out: list[dict[str, Any]] = []
        for seq, event in numbered:
            apply_in_place(state, event)
            change = state_change(state, event)
            shown = view_event(event, actor, revealed)
            if shown is None:  # a whisper to someone else: nothing of it
                continue
            hidden = not may_see(event, actor, revealed)
            body = {"seq": seq, **shown.to_json()}
            body["change"] = view_change(change, actor, redacted=hidden)
            out.append(body)
        return out

    def published_events(
        self, room: RoomRecord, revealed: set[str], *, whispers: bool = False
    ) -> Iterator[Numbered]:
        """Every event as a spectator sees it, read from the store in batches (lazily);
        ``whispers`` (the GM's download only): with every whisper, as the GM reads it."""
        spectator = Actor.spectator()
        for seq, event in enumerate(self.store.iter_events(room, batch=PUBLISH_BATCH), 1):
            if whispers and event.whisper:
                yield seq, event
                continue
            shown = view_event(event, spectator, revealed)
            if shown is not None:
                yield seq, shown

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
