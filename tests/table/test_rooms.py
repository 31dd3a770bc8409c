"""Shared rooms and their capability links: tokens (256-bit, stored hashed), create / join /
revoke / reissue, characters brought as sheet text, CCFOLIA JSON or an Udonarium zip, and
sessions acting as a link's holder (no file names over the network)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from saikoro.errors import SaikoroError
from saikoro.sheets import dump_sheet_text, load_sheet
from saikoro.store import LinkStore, open_store
from saikoro.store.links import links as links_table
from saikoro.table import rooms
from saikoro.table.actors import Actor
from saikoro.transfer import (
    export_ccfolia,
    export_udonarium,
    export_udonarium_xml,
    register_with_table,
)

from .helpers import SHEETS


@pytest.fixture(autouse=True)
def _tool_formats():
    register_with_table()  # what saikoro play and the server do at start-up


@pytest.fixture
def store(tmp_path):
    s = open_store(str(tmp_path / "rooms.db"))
    yield s
    s.close()


def test_create_room_hands_out_three_links_once(store):
    made = rooms.create_room(store, "卓", "LittleWorld")
    assert (made.room, made.system) == ("卓", "LittleWorld")
    tokens = {made.gm_token, made.invite_token, made.spectator_token}
    assert len(tokens) == 3 and all(len(t) >= 43 for t in tokens)  # 32 bytes: 256 bits
    urls = made.urls("https://table.example/")
    assert urls["gm_url"] == f"https://table.example/#room=%E5%8D%93&token={made.gm_token}"
    assert urls["invite_url"].endswith(f"&invite={made.invite_token}")
    roles = {link.role for link in rooms.list_links(store, "卓")}
    assert roles == {"gm", "invite", "spectator"}
    # only hashes are stored
    with store.engine.connect() as conn:
        dumped = repr(conn.execute(select(links_table)).all())
    assert not any(token in dumped for token in tokens)
    # the name is taken now: no second set of GM links for it
    with pytest.raises(SaikoroError) as caught:
        rooms.create_room(store, "卓", "LittleWorld")
    assert caught.value.reason == "room exists"
    with pytest.raises(SaikoroError):
        rooms.create_room(store, "別", "NoSuchSystem")


def test_tokens_resolve_to_their_link_and_role(store):
    made = rooms.create_room(store, "r", "LittleWorld")
    assert rooms.actor_for(rooms.authenticate(store, "r", made.gm_token)) == Actor.gm()
    watcher = rooms.actor_for(rooms.authenticate(store, "r", made.spectator_token))
    assert watcher.is_spectator
    assert rooms.actor_for(rooms.authenticate(store, "r", made.invite_token)).is_spectator
    rooms.create_room(store, "other", "LittleWorld")
    for room, token in (
        ("other", made.gm_token),
        ("r", made.gm_token[:-1]),
        ("r", ""),
        ("r", "x" * 500),
    ):
        with pytest.raises(SaikoroError) as caught:
            rooms.authenticate(store, room, token)
        assert caught.value.reason == "unauthorized"
        assert token[:8] not in caught.value.message.both() or not token


def test_a_revoked_link_is_refused_and_a_reissued_one_works(store):
    made = rooms.create_room(store, "r", "LittleWorld")
    gm_link = rooms.authenticate(store, "r", made.gm_token)
    watcher = rooms.authenticate(store, "r", made.spectator_token)
    with pytest.raises(SaikoroError) as caught:  # only the GM manages links
        rooms.revoke(store, "r", gm_link.id, by=watcher)
    assert caught.value.reason == "forbidden"
    rooms.revoke(store, "r", watcher.id, by=gm_link)
    with pytest.raises(SaikoroError) as caught:
        rooms.authenticate(store, "r", made.spectator_token)
    assert caught.value.reason == "unauthorized"
    with pytest.raises(SaikoroError) as caught:
        rooms.revoke(store, "r", watcher.id)
    assert caught.value.reason == "no such link"
    new_link, new_token = rooms.revoke(store, "r", gm_link.id, reissue=True)
    assert new_link.role == "gm" and new_token != made.gm_token
    with pytest.raises(SaikoroError):
        rooms.authenticate(store, "r", made.gm_token)
    assert rooms.authenticate(store, "r", new_token).id == new_link.id
    live = [link.role for link in LinkStore(store).list("r", live_only=True)]
    assert sorted(live) == ["gm", "invite"]


def _invite(store, system="LittleWorld"):
    made = rooms.create_room(store, "r", system)
    return made


def test_join_with_sheet_json_yaml_ccfolia_and_udonarium(store):
    made = _invite(store)
    alice = load_sheet(SHEETS / "alice.json")
    link, token, name = rooms.join(store, "r", made.invite_token, dump_sheet_text(alice))
    assert (link.role, link.character, name) == ("player", "アリス", "アリス")
    assert rooms.actor_for(rooms.authenticate(store, "r", token)) == Actor.player("アリス")
    bob = load_sheet(SHEETS / "bob.json")
    bob_yaml = dump_sheet_text(bob, ".yaml")
    assert not bob_yaml.lstrip().startswith("{")
    assert rooms.join(store, "r", made.invite_token, bob_yaml)[2] == "ボブ"
    carol = load_sheet(SHEETS / "carol.json")
    assert rooms.join(store, "r", made.invite_token, export_ccfolia(carol))[2] == carol.name
    goblin = load_sheet(SHEETS / "goblin.json").model_copy(update={"name": "ミア"})
    assert rooms.join(store, "r", made.invite_token, export_udonarium(goblin))[2] == "ミア"
    dan = goblin.model_copy(update={"name": "ダン"})
    assert rooms.join(store, "r", made.invite_token, export_udonarium_xml(dan))[2] == "ダン"
    state = rooms.open_session(store, "r", link).state
    assert {"アリス", "ボブ", carol.name, "ミア", "ダン"} <= set(state.characters)
    with pytest.raises(SaikoroError) as caught:  # another system's character
        orc = load_sheet(SHEETS / "orc.json")
        rooms.join(store, "r", made.invite_token, export_udonarium_xml(orc))
    assert "体力" in caught.value.message.both()  # names what a LittleWorld sheet needs


def test_join_refusals_change_nothing(store):
    made = _invite(store)
    alice_text = (SHEETS / "alice.json").read_text(encoding="utf-8")
    rooms.join(store, "r", made.invite_token, alice_text)
    gm = rooms.authenticate(store, "r", made.gm_token)
    rooms.add_character(store, "r", gm, (SHEETS / "goblin.json").read_text(encoding="utf-8"), "npc")
    version = store.get_room("r").version
    links_before = len(LinkStore(store).list("r"))
    cases = [
        (made.gm_token, alice_text, "forbidden"),  # joining takes the invite
        (made.spectator_token, alice_text, "forbidden"),
        ("not-a-token", alice_text, "unauthorized"),
        (made.invite_token, alice_text, "conflict"),  # アリス is held by a player already
        (made.invite_token, "アリス", "conflict"),
        (made.invite_token, "ゴブリン", "forbidden"),  # an NPC
        (made.invite_token, "ダレカ", "no such character"),  # nobody by that name
        (made.invite_token, "{not json", None),
        (made.invite_token, b"\xff\xfe\x00garbage", None),
        (made.invite_token, (SHEETS / "ken.json").read_text(encoding="utf-8"), None),  # UnmeiD100
    ]
    for token, character, reason in cases:
        with pytest.raises(SaikoroError) as caught:
            rooms.join(store, "r", token, character)
        if reason:
            assert caught.value.reason == reason, (character, caught.value.reason)
        message = caught.value.message
        assert message.ja and message.en and message.ja != message.en
        assert token not in message.both()
    assert store.get_room("r").version == version
    assert len(LinkStore(store).list("r")) == links_before
    with pytest.raises(SaikoroError) as caught:
        rooms.join(store, "nowhere", made.invite_token, alice_text)
    assert caught.value.reason == "unauthorized"


def test_join_as_a_character_already_in_the_room(store):
    made = _invite(store)
    gm = rooms.authenticate(store, "r", made.gm_token)
    rooms.add_character(store, "r", gm, (SHEETS / "bob.json").read_text(encoding="utf-8"))
    link, _token, name = rooms.join(store, "r", made.invite_token, "ボブ")
    assert name == "ボブ" and link.character == "ボブ"
    # after the GM revokes it, the character can be joined again
    rooms.revoke(store, "r", link.id, by=gm)
    assert rooms.join(store, "r", made.invite_token, "ボブ")[2] == "ボブ"


def test_a_network_session_acts_as_the_link_and_reads_no_files(store):
    made = _invite(store)
    alice_text = (SHEETS / "alice.json").read_text(encoding="utf-8")
    _link, token, _ = rooms.join(store, "r", made.invite_token, alice_text)
    player = rooms.open_session(store, "r", rooms.authenticate(store, "r", token))
    out = player.run(":HP-2")
    assert out.events[0].data["name"] == "アリス"
    gm = rooms.open_session(store, "r", rooms.authenticate(store, "r", made.gm_token))
    with pytest.raises(SaikoroError) as caught:
        gm.run(f"/char add {SHEETS / 'bob.json'}")
    assert caught.value.reason == "forbidden"
    with pytest.raises(SaikoroError) as caught:
        player.run("/combat start")
    assert caught.value.reason == "forbidden"
    # one session, a different actor per line (the server's cached session)
    gm.run("/combat start", actor=Actor.gm())
    assert gm.state.combat is not None
    with pytest.raises(SaikoroError):
        gm.run("/combat end", actor=Actor.player("アリス"))


def test_links_on_postgresql(postgres_url):
    store = open_store(postgres_url)
    try:
        import uuid

        room = f"pg-{uuid.uuid4().hex[:8]}"
        made = rooms.create_room(store, room, "LittleWorld")
        link = rooms.authenticate(store, room, made.gm_token)
        assert link.role == "gm"
        rooms.revoke(store, room, link.id)
        with pytest.raises(SaikoroError):
            rooms.authenticate(store, room, made.gm_token)
        _, token, name = rooms.join(
            store, room, made.invite_token, (SHEETS / "alice.json").read_text(encoding="utf-8")
        )
        assert rooms.actor_for(rooms.authenticate(store, room, token)) == Actor.player(name)
        with pytest.raises(SaikoroError) as caught:  # the partial unique index on PostgreSQL
            store.links.create(room, "player", name)
        assert caught.value.reason == "conflict"
    finally:
        store.close()


def test_one_live_personal_link_per_character_even_in_a_race(store):
    """Two joins as one character at the same moment: the store's unique index lets one win."""
    made = _invite(store)
    links = store.links
    first, _ = links.create("r", "player", "アリス")
    with pytest.raises(SaikoroError) as caught:  # what the loser of a race meets
        links.create("r", "player", "アリス")
    assert caught.value.reason == "conflict" and "アリス" in caught.value.message.ja
    with pytest.raises(SaikoroError) as caught:
        rooms.issue(store, "r", "player", "アリス")
    assert caught.value.reason == "conflict"
    links.create("other room", "player", "アリス")  # another room's アリス is another character
    rooms.revoke(store, "r", first.id)
    again, token = rooms.issue(store, "r", "player", "アリス")  # free again once revoked
    assert rooms.authenticate(store, "r", token).id == again.id
    assert made.gm_token  # the room's own links are untouched
    assert len([x for x in links.list("r") if x.role == "player"]) == 2
