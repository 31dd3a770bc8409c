"""Event frames carry the state change each event made, as each reader may see it; the log
pages back with ``/events?before=``; resolved rooms and tokens are cached, and a revoke
is still refused at once (in this process, from another one, and seen by the periodic look)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from saikoro.server.pubsub import InMemoryPubSub
from saikoro.server.table.errors import TableApiError
from saikoro.server.table.service import TableService
from saikoro.store.links import LinkStore
from saikoro.table.rooms import create_room as make_room

from .table_live import Room, Server, create_room, open_socket, sheet, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("frames"))
    running = start_server(str(folder / "rooms.db"), folder, "--line-burst", "100")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def room(server: Server) -> Room:
    room = create_room(server.base)
    room.join(sheet("alice"))
    room.join(sheet("bob"))
    return room


def test_frames_carry_each_readers_view_of_the_change(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]

    async def scenario() -> dict[str, list[dict]]:
        links = {"gm": room.gm, "alice": alice, "bob": bob, "spectator": room.spectator}
        sockets = {who: await open_socket(link) for who, link in links.items()}
        await asyncio.to_thread(room.gm.say, "こんにちは")
        await asyncio.to_thread(room.gm.say, "@アリス :HP-3")
        await asyncio.to_thread(alice.say, "S2D6>=7 こっそり")
        for socket in sockets.values():
            await socket.until_events(3)
        for socket in sockets.values():
            await socket.close()
        return {who: s.events for who, s in sockets.items()}

    seen = asyncio.run(scenario())
    chat, hp, secret = seen["gm"]
    assert chat["change"] == {"version": chat["seq"]}  # a chat line changes nothing
    for who in ("gm", "alice", "bob", "spectator"):
        change = seen[who][1]["change"]
        assert change["version"] == hp["seq"]
        (row,) = change["characters"]
        assert row["name"] == "アリス" and row["hp"] == row["max_hp"] - 3
        assert ("values" in row) == (who in ("gm", "alice")), who
        assert row["mine"] == (who == "alice")
        assert "combat" not in change
    # the secret roll: others learn nothing from its change either
    for who in ("bob", "spectator"):
        assert seen[who][2]["change"] == {"version": secret["seq"]}, who
    # what /state says agrees with the frames
    state = alice.state()
    mine = next(c for c in state["characters"] if c["name"] == "アリス")
    assert mine == seen["alice"][1]["change"]["characters"][0]
    assert state["version"] == secret["seq"]


def test_events_after_carry_the_same_change_as_the_frames(room: Room) -> None:
    bob = room.players["ボブ"]
    start = bob.state()["version"]
    room.gm.say("@ボブ :HP-2")
    room.gm.say("/cond add ボブ 毒 1")
    items = bob.events(after=start)["events"]
    assert [e["change"]["version"] for e in items] == [e["seq"] for e in items]
    (row,) = items[-1]["change"]["characters"]
    assert row["conditions"] == ["毒:1"] and "values" in row


def test_events_page_back_in_order(room: Room) -> None:
    for i in range(30):
        room.gm.say(f"行{i}")
    last = room.gm.state()["version"]
    seqs: list[int] = []
    before = last + 1
    while True:
        page = room.spectator.http.get(
            f"{room.spectator.path}/events", params={"before": before, "limit": 7}
        ).json()
        assert page["last_seq"] == last
        if not page["events"]:
            break
        got = [e["seq"] for e in page["events"]]
        assert got == sorted(got) and got[-1] == before - 1 and len(got) <= 7
        seqs = got + seqs
        before = got[0]
    assert seqs == list(range(1, last + 1))
    full = {e["seq"]: e for e in room.spectator.events()["events"]}
    paged = room.spectator.http.get(
        f"{room.spectator.path}/events", params={"before": last + 1, "limit": 1000}
    ).json()["events"]
    for event in paged:  # passed through or viewed, the same as the decoded log
        shown = {k: v for k, v in full[event["seq"]].items() if k != "change"}
        assert event == shown


def test_a_page_back_never_sends_a_secret_or_a_sheet_whole(room: Room) -> None:
    alice = room.players["アリス"]
    alice.say("S2D6>=7 ひみつ")
    page = (
        room.players["ボブ"]
        .http.get(f"{room.gm.path}/events", params={"before": 10_000})
        .json()["events"]
    )
    secret = [e for e in page if e.get("secret")]
    assert secret and all(e["data"] == {} and "dice" not in e for e in secret)
    added = [e for e in page if e["kind"] == "character_added"]
    alice_added = next(e for e in added if e["data"]["character"]["name"] == "アリス")
    assert "sheet" not in alice_added["data"]["character"]  # not bob's to read


def test_bad_paging_is_422(room: Room) -> None:
    for params in ({"before": 0}, {"before": "x"}, {"limit": 0}):
        response = room.gm.http.get(f"{room.gm.path}/events", params=params)
        assert response.status_code == 422, params


# -- caches -----------------------------------------------------------------------------


def _service_pair(tmp_path: Path) -> tuple[TableService, TableService]:
    """Two services on one database joined by one pubsub, as two server processes are."""
    pubsub = InMemoryPubSub()
    db = str(tmp_path / "rooms.db")
    return TableService(db, pubsub=pubsub), TableService(db, pubsub=pubsub)


def test_a_revoked_token_is_refused_at_once_despite_the_cache(tmp_path: Path) -> None:
    here, there = _service_pair(tmp_path)
    try:
        created = make_room(here.store, "卓", "DiceBot")
        for service in (here, there):  # both resolve (and keep) the GM's token
            assert service.caller("卓", created.gm_token).actor.is_gm
        calls = 0
        real = here.links.resolve

        def counting(room: str, token: str):  # type: ignore[no-untyped-def]
            nonlocal calls
            calls += 1
            return real(room, token)

        here.links.resolve = counting  # type: ignore[method-assign]
        here.caller("卓", created.gm_token)
        assert calls == 0  # the cache answered
        link = here.caller("卓", created.gm_token).link
        here.links.revoke("卓", link.id)
        asyncio.run(here.revoked("卓"))  # as the revoke route does
        for service in (here, there):
            with pytest.raises(TableApiError) as refused:
                service.caller("卓", created.gm_token)
            assert refused.value.status == 401
    finally:
        here.store.close()
        there.store.close()


def test_a_revoke_nobody_announced_is_seen_by_the_look_at_revocations(tmp_path: Path) -> None:
    service = TableService(str(tmp_path / "rooms.db"))
    try:
        created = make_room(service.store, "卓", "DiceBot")
        service.check_revocations()
        invite = service.caller("卓", created.invite_token).link
        LinkStore(service.store).revoke("卓", invite.id)  # saikoro room revoke, elsewhere
        service.check_revocations()  # what the service does every second
        with pytest.raises(TableApiError):
            service.caller("卓", created.invite_token)
    finally:
        service.store.close()


@pytest.mark.postgres
def test_a_revoke_reaches_another_process_through_the_pubsub(postgres_url: str) -> None:
    """Two services on one PostgreSQL (as two server processes, each with its LISTEN
    connection): a token both resolved and keep is refused by the other one as soon as
    the revoke's notice arrives — its once-a-second look at revocations is switched off."""
    from saikoro.server.table.service import REVOKED_NOTICE

    async def scenario() -> None:
        here, there = TableService(postgres_url), TableService(postgres_url)
        there.hub.poll_seconds = 3600.0  # only the notice can tell it
        heard = asyncio.Event()
        there.pubsub.add_listener(lambda room, seq: seq == REVOKED_NOTICE and heard.set())
        await here.start()
        await there.start()
        try:
            name = f"失効-{uuid.uuid4().hex[:8]}"
            created = await asyncio.to_thread(make_room, here.store, name, "DiceBot")
            link = (await there.caller_async(name, created.invite_token)).link  # kept
            await here.caller_async(name, created.invite_token)
            await asyncio.to_thread(here.links.revoke, name, link.id)
            await here.revoked(name)
            with pytest.raises(TableApiError):
                await here.caller_async(name, created.invite_token)  # at once, here
            await asyncio.wait_for(heard.wait(), 10)
            with pytest.raises(TableApiError):
                await there.caller_async(name, created.invite_token)  # and there
        finally:
            await here.stop()
            await there.stop()

    asyncio.run(scenario())


@pytest.mark.postgres
def test_a_revoke_by_a_process_without_a_server_is_heard_on_postgresql(postgres_url: str) -> None:
    """``saikoro room revoke`` on PostgreSQL (a store of its own, no pubsub, nobody calling
    the service's ``revoked``): the revoke's transaction notifies, and a server whose
    once-a-second look at revocations is switched off refuses the token it kept."""
    from saikoro.server.table.service import REVOKED_NOTICE
    from saikoro.store.sql import open_store

    async def scenario() -> None:
        there = TableService(postgres_url)
        there.hub.poll_seconds = 3600.0  # only the notice can tell it
        heard = asyncio.Event()
        there.pubsub.add_listener(lambda room, seq: seq == REVOKED_NOTICE and heard.set())
        await there.start()
        cli = open_store(postgres_url)
        try:
            name = f"失効-{uuid.uuid4().hex[:8]}"
            created = await asyncio.to_thread(make_room, cli, name, "DiceBot")
            link = (await there.caller_async(name, created.invite_token)).link  # kept
            await there.caller_async(name, created.invite_token)
            assert await asyncio.to_thread(LinkStore(cli).revoke, name, link.id)
            await asyncio.wait_for(heard.wait(), 10)
            with pytest.raises(TableApiError):
                await there.caller_async(name, created.invite_token)
        finally:
            cli.close()
            await there.stop()

    asyncio.run(scenario())
