"""Publishing "room R has events up to seq N": one interface, two implementations.

A notification carries only the room and the last appended ``seq``; subscribers read the
events themselves from the store (so nothing is lost when a notification is: the next
one, or a reconnect with ``after``, catches up). DESIGN.md "Sharing a table":

- :class:`InMemoryPubSub` — one process (the SQLite default): listeners are called directly.
- :class:`PostgresPubSub` — several processes or hosts on one PostgreSQL database:
  ``NOTIFY saikoro_events`` with a JSON payload, and one ``LISTEN`` connection per process
  (psycopg 3, async) that calls the same listeners. No broker of our own. The store's
  append sends the same NOTIFY in its own transaction (:mod:`saikoro.store.sql`), so an
  append by any process — ``saikoro play`` too — is heard; a server's own ``publish``
  after its lines repeats it, and the feeds drop the repeat (nothing past what they have).

Whatever is not notified at all (``saikoro play`` on SQLite) the feeds find by looking at
the watched rooms' ends every second (:class:`~saikoro.server.table.feed.FeedHub`).

``pubsub_for(db_url)`` picks the implementation from the database URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from saikoro.store.sql import NOTIFY_CHANNEL as CHANNEL
from saikoro.store.sql import notify_payload as _encode

log = logging.getLogger("saikoro.server.pubsub")

#: ``listener(room, seq)``: room ``room`` has events up to ``seq`` (``seq`` None: anything
#: may have been missed — after the LISTEN connection was lost — so re-read every room).
Listener = Callable[[str | None, int | None], None]


class PubSub(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, room: str, seq: int) -> None: ...

    def add_listener(self, listener: Listener) -> None: ...


class _Listeners:
    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def add_listener(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def _deliver(self, room: str | None, seq: int | None) -> None:
        for listener in list(self.listeners):
            try:
                listener(room, seq)
            except Exception:  # one broken listener must not stop the others
                log.exception("pubsub listener failed")


class InMemoryPubSub(_Listeners):
    """Fan-out inside one process: ``publish`` calls every listener."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, room: str, seq: int) -> None:
        self._deliver(room, seq)


def psycopg_conninfo(db_url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://…``) as the plain URL psycopg connects to."""
    from sqlalchemy.engine import make_url

    from saikoro.store.sql import database_url

    url = make_url(database_url(db_url)).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _decode(payload: str) -> tuple[str, int] | None:
    try:
        body: Any = json.loads(payload)
        room, seq = body["room"], body["seq"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(room, str) or not isinstance(seq, int):
        return None
    return room, seq


class PostgresPubSub(_Listeners):
    """``LISTEN``/``NOTIFY`` on the database the rooms live in.

    One connection listens (re-connecting with a back-off when it is lost, then telling the
    listeners to re-read every room); another sends ``pg_notify`` after each append.
    """

    def __init__(self, db_url: str, *, retry_seconds: float = 1.0) -> None:
        super().__init__()
        self._conninfo = psycopg_conninfo(db_url)
        self._retry = retry_seconds
        self._task: asyncio.Task[None] | None = None
        self._sender: Any = None
        self._send_lock = asyncio.Lock()
        self._listening = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen_forever())
        # Wait (bounded) for LISTEN so that a line posted right after start-up is heard.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender.close()
            self._sender = None

    async def publish(self, room: str, seq: int) -> None:
        import psycopg

        payload = _encode(room, seq)
        async with self._send_lock:
            for attempt in (1, 2):  # one retry on a fresh connection
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = await psycopg.AsyncConnection.connect(
                            self._conninfo, autocommit=True
                        )
                    await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except psycopg.Error as error:
                    self._sender = None
                    if attempt == 2:  # subscribers still catch up on the next event
                        log.warning("NOTIFY failed: %s", type(error).__name__)

    async def _listen_forever(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        self._deliver(None, None)  # we may have missed some: re-read
                    first = False
                    async for notify in conn.notifies():
                        decoded = _decode(notify.payload)
                        if decoded is not None:
                            self._deliver(*decoded)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as error:
                log.warning("LISTEN connection lost (%s); reconnecting", type(error).__name__)
                await asyncio.sleep(self._retry)


def pubsub_for(db_url: str) -> PubSub:
    """PostgreSQL LISTEN/NOTIFY for a ``postgresql://`` database, else in-memory."""
    if db_url.startswith(("postgresql", "postgres:")):
        return PostgresPubSub(db_url)
    return InMemoryPubSub()
