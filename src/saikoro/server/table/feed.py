"""Live feeds of room events for the WebSocket: in order, without gaps, from the store.

A :class:`FeedHub` listens to the :mod:`~saikoro.server.pubsub` notifications ("room R is
at seq N"). For each room with subscribers in this process it reads the new events from
the store ONCE and hands them to every subscriber's queue. A :class:`Subscription` keeps
the last ``seq`` it delivered; whatever it did not get through its queue (it subscribed
in the middle, it fell behind and its queue was dropped, a notification was lost) it
reads from the store itself — so what it yields is exactly ``after+1, after+2, …``.

Not every writer notifies: ``saikoro play --db`` on the server's SQLite file appends
without telling anyone. So while a room has subscribers here the hub also looks at its
end every :data:`POLL_SECONDS` (one query for all the watched rooms; none when nobody
watches) and reads what anyone appended, as if it had been notified.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Collection
from typing import Any

from sqlalchemy import select

from saikoro.server.pubsub import PubSub
from saikoro.store.sql import SqlStore
from saikoro.store.sql import events as events_table
from saikoro.store.sql import rooms as rooms_table
from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.changes import StateChange, state_change, view_change, view_key
from saikoro.table.events import Event
from saikoro.table.state import STATE_KINDS, RoomState, apply_in_place
from saikoro.table.storage import RoomRecord

Numbered = tuple[int, Event]

#: Batches a subscriber may have queued before it is told to re-read from the store.
QUEUE_BOUND = 256
#: Events read from the store at once.
READ_BATCH = 500
#: Encoded WebSocket messages kept for the next readers of the same event.
ENCODED_KEPT = 4096
#: Seconds between two looks at the watched rooms' ends (appends nobody announced).
POLL_SECONDS = 1.0

log = logging.getLogger("saikoro.server.feed")

#: Kinds outside ``STATE_KINDS`` that still change the state (the fold replaces it).
_REFOLDS = frozenset({ev.UNDONE, ev.ROOM_CREATED})


def events_after(
    store: SqlStore, room: RoomRecord, after: int, limit: int = READ_BATCH
) -> list[Numbered]:
    """The room's events with ``seq > after``, numbered, oldest first (at most ``limit``)."""
    query = (
        select(events_table.c.seq, events_table.c.body)
        .where(events_table.c.room_id == room.id, events_table.c.seq > after)
        .order_by(events_table.c.seq)
        .limit(limit)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [(row.seq, Event.from_json(json.loads(row.body))) for row in rows]


def room_ends(store: SqlStore, room_ids: Collection[int]) -> dict[int, int]:
    """Each room's last ``seq`` (its version, moved in the append's own transaction)."""
    query = select(rooms_table.c.id, rooms_table.c.version).where(
        rooms_table.c.id.in_(list(room_ids))
    )
    with store.engine.connect() as conn:
        return {row.id: row.version for row in conn.execute(query)}


def events_of_kind(store: SqlStore, room: RoomRecord, kind: str) -> list[Numbered]:
    """Every event of one kind in the room, numbered (a scan of the room's rows that
    decodes only the few matching bodies: cheaper than reading the whole log)."""
    query = (
        select(events_table.c.seq, events_table.c.body)
        .where(events_table.c.room_id == room.id, events_table.c.kind == kind)
        .order_by(events_table.c.seq)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    return [(row.seq, Event.from_json(json.loads(row.body))) for row in rows]


class Subscription:
    """One reader of one room: ``await next_batch()`` gives the next events in seq order."""

    def __init__(self, hub: FeedHub, room: RoomRecord, after: int) -> None:
        self.hub = hub
        self.room = room
        self.last = after
        self.queue: asyncio.Queue[list[Numbered]] = asyncio.Queue()
        self.resync = True  # first read: the store, from ``after``
        self.closed = False

    def offer(self, batch: list[Numbered]) -> None:
        if self.resync:
            return  # it reads the store anyway
        if self.queue.qsize() >= QUEUE_BOUND:  # a slow reader: drop the queue, re-read later
            self._drain()
            self.resync = True
        self.queue.put_nowait(batch)

    def wake(self) -> None:
        """Something may have been missed: read the store on the next call."""
        self.resync = True
        self.queue.put_nowait([])

    def _drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def next_batch(self) -> list[Numbered]:
        """The next events after ``self.last`` (waits until there are some)."""
        while True:
            if self.resync:
                self.resync = False
                self._drain()
                batch = await self.hub.read(self.room, self.last)
                if len(batch) == READ_BATCH:
                    self.resync = True  # more to read before the queue takes over
                if batch:
                    self.last = batch[-1][0]
                    return batch
                continue
            batch = await self.queue.get()
            fresh = [(seq, event) for seq, event in batch if seq > self.last]
            if not fresh:
                continue
            if fresh[0][0] != self.last + 1:  # a gap: fill it from the store
                self.resync = True
                continue
            self.last = fresh[-1][0]
            return fresh

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.hub._unsubscribe(self)


class _RoomFeed:
    def __init__(self, room: RoomRecord, state: RoomState) -> None:
        self.room = room
        self.last = state.version
        #: The room at ``last``, folded forward as events are read (None: lost track, the
        #: frames go without ``change`` and readers fetch ``/state``).
        self.state: RoomState | None = state
        self.subscribers: set[Subscription] = set()
        self.lock = asyncio.Lock()
        self.wanted = 0  # highest seq announced


class FeedHub:
    """Per process: the rooms someone watches, fed from pubsub notifications and, once
    :meth:`start` ran, from a look at their ends every ``poll_seconds``."""

    def __init__(
        self, store: SqlStore, pubsub: PubSub, *, poll_seconds: float = POLL_SECONDS
    ) -> None:
        self.store = store
        self.pubsub = pubsub
        self.poll_seconds = poll_seconds
        self.feeds: dict[str, _RoomFeed] = {}
        self._encoded: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._changes: OrderedDict[tuple[str, int], StateChange] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._poller: asyncio.Task[None] | None = None
        pubsub.add_listener(self._notified)

    def start(self) -> None:
        """Start looking for appends nobody announced (in the running event loop)."""
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll_forever())

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            await self.poll()

    async def poll(self) -> None:
        """Read the watched rooms' ends (one query; nothing when nobody watches) and fetch
        what is new, exactly as a notification would."""
        if not self.feeds:
            return
        watched = {feed.room.id: name for name, feed in self.feeds.items()}
        try:
            ends = await asyncio.to_thread(room_ends, self.store, watched.keys())
        except Exception as error:  # the database is down: the next look tries again
            log.warning("cannot read the watched rooms' ends (%s)", type(error).__name__)
            return
        for room_id, end in ends.items():
            self._notified(watched[room_id], end)

    def encoded(
        self, room: str, seq: int, event: Event, *, redacted: bool, hidden: bool, actor: Actor
    ) -> str:
        """The WebSocket message of an event, encoded once for all readers who see the same
        (an appended event never changes; each of its views, and its state change as each
        kind of reader sees it, are each the same for all). ``redacted``: ``event`` is not
        the stored one; ``hidden``: the reader may not see it (another's secret roll), so
        its change shows them nothing."""
        change = self.change(room, seq, event)
        shape = view_key(change, actor) if change is not None else None
        key = (room, seq, redacted, hidden, shape)
        text = self._encoded.get(key)
        if text is None:
            body = {"type": "event", "seq": seq, **event.to_json()}
            if change is not None:
                body["change"] = view_change(change, actor, redacted=hidden)
            text = self._encoded[key] = json.dumps(body, ensure_ascii=False)
            if len(self._encoded) > ENCODED_KEPT:
                self._encoded.popitem(last=False)
        return text

    def change(self, room: str, seq: int, event: Event) -> StateChange | None:
        """What the event at ``seq`` changed, if this hub knows (it folds what it reads);
        an event of a kind that changes nothing needs no state to say so."""
        known = self._changes.get((room, seq))
        if known is None and event.kind not in STATE_KINDS and event.kind not in _REFOLDS:
            return StateChange(seq)
        return known

    def _fold(self, feed: _RoomFeed, batch: list[Numbered]) -> None:
        """Fold ``batch`` into the feed's state and keep each event's change (once per
        event for every subscriber)."""
        for seq, event in batch:
            state = feed.state
            if state is None:
                return
            if state.version != seq - 1:
                feed.state = None
                return
            try:
                apply_in_place(state, event)
                change = state_change(state, event)
            except Exception as error:
                log.warning("cannot follow room state (%s)", type(error).__name__)
                feed.state = None
                return
            self._changes[(feed.room.name, seq)] = change
            if len(self._changes) > ENCODED_KEPT:
                self._changes.popitem(last=False)

    async def read(self, room: RoomRecord, after: int) -> list[Numbered]:
        return await asyncio.to_thread(events_after, self.store, room, after)

    async def subscribe(self, room: RoomRecord, after: int) -> Subscription:
        feed = self.feeds.get(room.name)
        if feed is None:
            fresh = _RoomFeed(room, await asyncio.to_thread(self.store.load_state, room))
            feed = self.feeds.setdefault(room.name, fresh)
        subscription = Subscription(self, room, after)
        feed.subscribers.add(subscription)
        return subscription

    def _unsubscribe(self, subscription: Subscription) -> None:
        feed = self.feeds.get(subscription.room.name)
        if feed is None:
            return
        feed.subscribers.discard(subscription)
        if not feed.subscribers:
            del self.feeds[subscription.room.name]

    def known_end(self, room: str) -> int | None:
        """The last ``seq`` of a watched room as this hub last read it (None: unwatched —
        nobody here would have been told of an append)."""
        feed = self.feeds.get(room)
        if feed is None or feed.wanted > feed.last:
            return None
        return feed.last

    def subscriber_count(self, room: str) -> int:
        feed = self.feeds.get(room)
        return len(feed.subscribers) if feed else 0

    def _notified(self, room: str | None, seq: int | None) -> None:
        if room is None or seq is None:  # the LISTEN connection was lost: everyone re-reads
            for watched in self.feeds.values():
                for subscription in watched.subscribers:
                    subscription.wake()
            return
        feed = self.feeds.get(room)
        if feed is None or seq <= feed.last:
            return
        feed.wanted = max(feed.wanted, seq)
        task = asyncio.get_running_loop().create_task(self._fetch(feed))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fetch(self, feed: _RoomFeed) -> None:
        async with feed.lock:  # one read per room at a time; later notices find it done
            while feed.last < feed.wanted and feed.subscribers:
                batch = await self.read(feed.room, feed.last)
                if not batch:
                    return
                feed.last = batch[-1][0]
                self._fold(feed, batch)
                for subscription in list(feed.subscribers):
                    subscription.offer(batch)

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poller
            self._poller = None
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
