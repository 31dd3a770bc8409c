"""``POST /api/rooms/{room}/simulate`` on a real ``saikoro serve`` (its roll pool's workers
run the fights): the GM gets the room's win rate and down chances, players and spectators
get nothing (issue 25)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .table_live import Room, Server, create_room, serving, sheet


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("simulate-api"))
    # --deadline 60: the pool's hard bound never cuts a run short on a busy machine (the
    # run stops itself after its few seconds; what a deadline does is tested in test_pool)
    yield from serving(folder, "--rooms-per-minute", "0", "--deadline", "60")


@pytest.fixture
def room(server: Server) -> Room:
    """アリス and ボブ (players) against the GM's ゴブリン."""
    room = create_room(server.base)
    room.join(sheet("alice"))
    room.join(sheet("bob"))
    room.add_character(sheet("goblin"), side="npc")
    return room


def simulate(link, body: dict | None = None) -> httpx.Response:  # type: ignore[no-untyped-def]
    return link.http.post(f"{link.path}/simulate", json=body or {"fights": 120})


def test_the_gm_gets_the_win_rate_and_the_down_chances(room: Room) -> None:
    room.gm.say("@アリス :HP=5")  # as the room is now
    response = simulate(room.gm)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True and body["system"] == "LittleWorld"
    assert 1 <= body["fights"] <= body["fights_asked"] == 120
    wins = body["win"]
    assert sum(wins[s]["count"] for s in ("pc", "npc", "draw")) == body["fights"]
    low, high = wins["pc"]["ci95"]
    assert low <= wins["pc"]["rate"] <= high
    names = {c["name"]: c for c in body["characters"]}
    assert set(names) == {"アリス", "ボブ", "ゴブリン"}
    assert names["ゴブリン"]["side"] == "npc"
    # every fight the party won downed the goblin (its only enemy)
    assert names["ゴブリン"]["down"]["count"] >= wins["pc"]["count"]
    # nothing was written to the room
    assert all(e["kind"] != "combat_started" for e in room.gm.events()["events"])
    # Same seed, same fights: a run stops at its time bound with the fights it finished, so
    # a loaded machine may finish fewer the second time; the fights both ran are the same
    # (each has its own seed), and tests/simulate checks that without a time bound.
    again = json.loads(simulate(room.gm).text)
    assert 1 <= again["fights"] <= 120
    if again["fights"] == body["fights"]:
        assert again["win"] == wins


def test_players_and_spectators_get_nothing(room: Room) -> None:
    for link in (*room.players.values(), room.spectator):
        response = simulate(link)
        assert response.status_code == 403, response.text
        assert "GM" in response.json()["message"]
        assert "win" not in response.json()
    anonymous = httpx.post(f"{room.gm.base}{room.gm.path}/simulate", json={}, timeout=60)
    assert anonymous.status_code == 401


def test_chosen_npcs_and_bad_requests(room: Room) -> None:
    """``only`` picks who fights; ``npcs`` adds sheets; what cannot be played is a 422 in
    both languages, never a fight."""
    extra = json.dumps(
        {
            "system": "LittleWorld",
            "name": "オーガ",
            "kind": "NPC",
            "max_hp": 20,
            "abilities": {"体力": 5, "技巧": 2, "理知": 1},
        },
        ensure_ascii=False,
    )
    response = simulate(room.gm, {"fights": 50, "only": ["アリス", "ボブ"], "npcs": [extra]})
    assert response.status_code == 200, response.text
    assert [c["name"] for c in response.json()["characters"]] == ["アリス", "ボブ", "オーガ"]
    alone = simulate(room.gm, {"fights": 10, "only": ["アリス", "ボブ"]})
    assert alone.status_code == 422
    assert "敵" in alone.json()["message"] and "enemies" in alone.json()["message"]
    bad = simulate(room.gm, {"npcs": ["{not json"]})
    assert bad.status_code == 422
    for body in ({"fights": 0}, {"fights": 100000}, {"npcs": ["x"] * 50}):
        assert simulate(room.gm, body).status_code == 422


def test_a_long_run_is_bounded_by_the_server(room: Room) -> None:
    """2000 fights of a long fight: the answer comes with the fights played in the run's
    time (``fights`` ≤ ``fights_asked``), or the pool's timeout (503) — never a hang."""
    tough = json.dumps(
        {
            "system": "LittleWorld",
            "name": "巨人",
            "kind": "NPC",
            "max_hp": 400,
            "abilities": {"体力": 1, "技巧": 1, "理知": 1},
        },
        ensure_ascii=False,
    )
    response = simulate(room.gm, {"fights": 2000, "npcs": [tough]})
    assert response.status_code in (200, 503), response.text
    if response.status_code == 200:
        body = response.json()
        assert body["fights"] <= body["fights_asked"] == 2000
