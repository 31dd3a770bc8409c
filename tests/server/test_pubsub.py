"""Publishing room notifications: in memory and through PostgreSQL LISTEN/NOTIFY; the
feeds built on them give every subscriber the room's events in order without gaps."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Collection
from pathlib import Path

import pytest

from saikoro.server.pubsub import (
    InMemoryPubSub,
    PostgresPubSub,
    _decode,
    psycopg_conninfo,
    pubsub_for,
)
from saikoro.server.table import feed as feed_module
from saikoro.server.table.feed import FeedHub, events_after
from saikoro.store.sql import SqlStore, open_store
from saikoro.table.session import TableSession


def test_pubsub_for_picks_postgres_only_for_postgres_urls() -> None:
    assert isinstance(pubsub_for("sqlite:///x.db"), InMemoryPubSub)
    assert isinstance(pubsub_for("/tmp/x.db"), InMemoryPubSub)
    assert isinstance(pubsub_for("postgresql+psycopg://u:p@h/db"), PostgresPubSub)


def test_conninfo_drops_the_sqlalchemy_driver_and_keeps_the_password() -> None:
    assert psycopg_conninfo("postgresql+psycopg://u:pw@h:5/db") == "postgresql://u:pw@h:5/db"
    assert psycopg_conninfo("postgres://u@h/db") == "postgresql://u@h/db"


@pytest.mark.parametrize("payload", ["", "{", "[]", '{"room": 1, "seq": 2}', '{"room": "r"}'])
def test_a_bad_payload_is_ignored(payload: str) -> None:
    assert _decode(payload) is None


def test_in_memory_publish_reaches_every_listener_even_after_a_broken_one() -> None:
    pubsub = InMemoryPubSub()
    heard: list[tuple[str | None, int | None]] = []

    def broken(room: str | None, seq: int | None) -> None:
        raise RuntimeError("boom")

    pubsub.add_listener(broken)
    pubsub.add_listener(lambda room, seq: heard.append((room, seq)))
    asyncio.run(pubsub.publish("部屋", 7))
    assert heard == [("部屋", 7)]


def _session(tmp_path: Path, room: str = "卓") -> TableSession:
    store = open_store(str(tmp_path / "feed.db"))
    return TableSession.open(store, room, "DiceBot")


def test_events_after_numbers_the_log(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.run("こんにちは")
    session.run("よろしく")
    numbered = events_after(session.store, session.room, 1)
    assert [seq for seq, _ in numbered] == [2, 3]
    assert numbered[0][1].data["text"] == "こんにちは"


async def _watching(session: TableSession, after: int = 1):  # -> (pubsub, subscription)
    pubsub = InMemoryPubSub()
    hub = FeedHub(session.store, pubsub)
    return pubsub, await hub.subscribe(session.room, after)


async def _collect(subscription, count: int, timeout: float = 5.0) -> list[int]:
    seen: list[int] = []
    while len(seen) < count:
        batch = await asyncio.wait_for(subscription.next_batch(), timeout)
        seen.extend(seq for seq, _ in batch)
    return seen


def test_subscribers_get_every_event_in_order_from_notifications(tmp_path: Path) -> None:
    session = _session(tmp_path)

    async def scenario() -> tuple[list[int], list[int]]:
        pubsub = InMemoryPubSub()
        hub = FeedHub(session.store, pubsub)
        early = await hub.subscribe(session.room, 1)
        for i in range(5):
            await asyncio.to_thread(session.run, f"line {i}")
            await pubsub.publish(session.room.name, session.state.version)
        late = await hub.subscribe(session.room, 3)  # joins in the middle
        for i in range(3):
            await asyncio.to_thread(session.run, f"more {i}")
            await pubsub.publish(session.room.name, session.state.version)
        got = await _collect(early, 8), await _collect(late, 6)
        early.close()
        late.close()
        assert hub.subscriber_count(session.room.name) == 0
        return got

    early, late = asyncio.run(scenario())
    assert early == list(range(2, 10))
    assert late == list(range(4, 10))


def test_a_lost_notification_is_made_up_by_the_next(tmp_path: Path) -> None:
    session = _session(tmp_path)

    async def scenario() -> list[int]:
        pubsub, sub = await _watching(session)
        await asyncio.to_thread(session.run, "not announced")
        await asyncio.to_thread(session.run, "announced")
        await pubsub.publish(session.room.name, session.state.version)
        return await _collect(sub, 2)

    assert asyncio.run(scenario()) == [2, 3]


def test_a_slow_subscriber_rereads_the_store_and_misses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "QUEUE_BOUND", 2)
    session = _session(tmp_path)

    async def slow() -> list[int]:
        pubsub, sub = await _watching(session)
        for i in range(10):  # nobody reads meanwhile: the queue overflows
            await asyncio.to_thread(session.run, f"line {i}")
            await pubsub.publish(session.room.name, session.state.version)
        await _until(lambda: sub.resync)  # the hub's fetches overflowed it: dropped its queue
        return await _collect(sub, 10)

    assert asyncio.run(slow()) == list(range(2, 12))


def test_reconnect_of_the_listen_connection_makes_everyone_reread(tmp_path: Path) -> None:
    session = _session(tmp_path)

    async def scenario() -> list[int]:
        pubsub, sub = await _watching(session)
        await asyncio.to_thread(session.run, "missed while LISTEN was down")
        pubsub._deliver(None, None)
        return await _collect(sub, 1)

    assert asyncio.run(scenario()) == [2]


@pytest.mark.postgres
def test_postgres_notify_reaches_another_process_listener(postgres_url: str) -> None:
    """Two PostgresPubSub (as two server processes would have) on one database."""

    async def scenario() -> list[tuple[str | None, int | None]]:
        sender, receiver = PostgresPubSub(postgres_url), PostgresPubSub(postgres_url)
        heard: list[tuple[str | None, int | None]] = []
        got = asyncio.Event()

        def listener(room: str | None, seq: int | None) -> None:
            heard.append((room, seq))
            got.set()

        receiver.add_listener(listener)
        await receiver.start()
        await sender.start()
        try:
            await sender.publish("部屋 A", 42)
            await asyncio.wait_for(got.wait(), 10)
        finally:
            await sender.stop()
            await receiver.stop()
        return heard

    assert asyncio.run(scenario()) == [("部屋 A", 42)]


async def _until(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    """Wait for ``condition``; ``timeout`` only stops a hang, no verdict depends on it."""

    async def waiting() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(waiting(), timeout)


async def _collecting(subscription, count: int) -> asyncio.Task[list[int]]:
    """Collect in the background, once the subscription's own first read of the store is
    done (what is appended after that can only come through the hub)."""
    task = asyncio.create_task(_collect(subscription, count))
    await _until(lambda: not subscription.resync)
    return task


def test_appends_nobody_announced_reach_subscribers_by_polling(tmp_path: Path) -> None:
    """Another process (here: another store on the same file) appends and never publishes:
    the hub's periodic look at the room's end still delivers every event, in order."""
    session = _session(tmp_path)
    other = TableSession.open(open_store(str(tmp_path / "feed.db")), session.room.name)

    async def scenario() -> list[int]:
        hub = FeedHub(session.store, InMemoryPubSub(), poll_seconds=0.05)
        hub.start()
        try:
            subscription = await hub.subscribe(session.room, session.state.version)
            collecting = await _collecting(subscription, 3)
            for i in range(3):
                await asyncio.to_thread(other.run, f"from play {i}")
            first = await collecting
            collecting = await _collecting(subscription, 1)
            await asyncio.to_thread(other.run, "later")
            return first + await collecting
        finally:
            await hub.close()

    assert asyncio.run(scenario()) == [2, 3, 4, 5]


def test_polling_queries_only_while_someone_watches_and_stops_at_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(tmp_path)
    looks: list[list[int]] = []
    real_room_ends = feed_module.room_ends

    def counted(store: SqlStore, room_ids: Collection[int]) -> dict[int, int]:
        looks.append(list(room_ids))
        return real_room_ends(store, room_ids)

    monkeypatch.setattr(feed_module, "room_ends", counted)

    async def scenario() -> tuple[int, int, bool]:
        hub = FeedHub(session.store, InMemoryPubSub(), poll_seconds=0.01)
        hub.start()
        await asyncio.sleep(0.1)  # ten poll intervals with nobody watching
        idle = len(looks)
        subscription = await hub.subscribe(session.room, 1)
        await _until(lambda: len(looks) >= 2)  # polling, now that someone watches
        watching = len(looks)
        subscription.close()
        poller = hub._poller
        await hub.close()
        assert poller is not None
        return idle, watching, poller.done()

    idle, watching, stopped = asyncio.run(scenario())
    assert idle == 0 and watching >= 2 and stopped
    assert all(ids == [session.room.id] for ids in looks)


def test_a_poll_while_the_database_is_down_is_retried_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(tmp_path)
    failures = [RuntimeError("down")]
    real_room_ends = feed_module.room_ends

    def flaky(store: SqlStore, room_ids: Collection[int]) -> dict[int, int]:
        if failures:
            raise failures.pop()
        return real_room_ends(store, room_ids)

    monkeypatch.setattr(feed_module, "room_ends", flaky)

    async def scenario() -> list[int]:
        hub = FeedHub(session.store, InMemoryPubSub(), poll_seconds=0.02)
        hub.start()
        try:
            subscription = await hub.subscribe(session.room, 1)
            collecting = await _collecting(subscription, 1)
            await _until(lambda: not failures)  # a look at the room failed
            await asyncio.to_thread(session.run, "not announced")
            return await collecting
        finally:
            await hub.close()

    assert asyncio.run(scenario()) == [2]


@pytest.mark.postgres
def test_a_store_append_notifies_postgres_listeners_itself(postgres_url: str) -> None:
    """``saikoro play`` on PostgreSQL never calls publish: its append's own transaction
    sends the NOTIFY that servers LISTEN for."""
    store = open_store(postgres_url)
    session = TableSession.open(store, f"通知-{uuid.uuid4().hex[:8]}", "DiceBot")

    async def scenario() -> list[tuple[str | None, int | None]]:
        receiver = PostgresPubSub(postgres_url)
        heard: list[tuple[str | None, int | None]] = []
        got = asyncio.Event()

        def listener(room: str | None, seq: int | None) -> None:
            if room == session.room.name:
                heard.append((room, seq))
                got.set()

        receiver.add_listener(listener)
        await receiver.start()
        try:
            await asyncio.to_thread(session.run, "こんにちは")
            await asyncio.wait_for(got.wait(), 10)
        finally:
            await receiver.stop()
        return heard

    try:
        assert asyncio.run(scenario()) == [(session.room.name, 2)]
    finally:
        store.close()
