"""帽子世界TRPG's action gate, consumables and turns (issue 21) through a live server's
table API: a player's link types the lines, as the web table sends them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .table_live import Link, Room, Server, create_room, start_server

HEALER = json.dumps(
    {
        "system": "LittleWorld",
        "name": "セナ",
        "max_hp": 12,
        "abilities": {"体力": 2, "技巧": 3, "理知": 4},
        "skill_cards": ["治癒魔法", "スカウト"],
        "items": [{"name": "中和剤", "quantity": 1}],
    },
    ensure_ascii=False,
)
FIGHTER = json.dumps(
    {
        "system": "LittleWorld",
        "name": "トオル",
        "max_hp": 14,
        "abilities": {"体力": 4, "技巧": 5, "理知": 2},
    },
    ensure_ascii=False,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("table-api-lw21"))
    running = start_server(str(folder / "rooms.db"), folder, "--rooms-per-minute", "0")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def room(server: Server) -> Room:
    room = create_room(server.base)
    room.join(HEALER)
    room.join(FIGHTER)
    return room


def refused(link: Link, line: str) -> dict:
    response = link.line(line)
    body = response.json()
    assert response.status_code != 200 and body["ok"] is False, (line, response.text)
    return body


def snapshot(room: Room) -> tuple[int, list]:
    return room.gm.events()["last_seq"], room.gm.state()["characters"]


def character(room: Room, name: str) -> dict:
    return next(c for c in room.gm.state()["characters"] if c["name"] == name)


@pytest.mark.rule("LW-TABLE-07", "LW-COND-03", "LW-COND-05", via="table")
def test_a_paralysed_or_confused_player_is_refused_every_verb(room: Room) -> None:
    sena = room.players["セナ"]
    room.gm.say("/cond add セナ 麻痺")
    before = snapshot(room)
    for line in ("/herb 野山", "/act 口笛 技巧 8", "/language 古代語 8", "/swim", "/use 中和剤",
                 "/cure トオル 治癒魔法", "/ride 馬 8", "/device 携帯電話"):  # fmt: skip
        body = refused(sena, line)
        assert body["reason"] == "cannot act" and "麻痺で一切の行動が取れません" in body["message"]
    assert snapshot(room) == before
    room.gm.say("/cond remove セナ 麻痺")
    room.gm.say("/cond add セナ 混乱")
    body = refused(sena, "/herb 野山")
    assert "移動以外の行動が取れません" in body["message"]
    assert sena.say("/swim")["ok"] is True  # moving is allowed


@pytest.mark.rule("LW-TABLE-08", "LW-COND-02", via="table")
def test_a_cure_needs_an_item_held_and_uses_it_up(room: Room) -> None:
    sena = room.players["セナ"]
    room.gm.say("/cond add トオル 毒 2")
    assert sena.say("/cure トオル 中和剤")["ok"] is True
    assert character(room, "セナ")["inventory"] == {}
    room.gm.say("/cond add トオル 毒 2")
    before = snapshot(room)
    body = refused(sena, "/cure トオル 中和剤")
    assert body["reason"] == "no item" and "中和剤を持っていません" in body["message"]
    assert snapshot(room) == before
    room.gm.say("/gm item セナ 中和剤 +1")  # bought or found: the GM's line
    assert sena.say("/cure トオル 中和剤")["ok"] is True


@pytest.mark.rule("LW-TABLE-09", "LW-COND-01", via="table")
def test_healing_on_anothers_turn_is_refused_by_default(room: Room) -> None:
    sena = room.players["セナ"]
    room.gm.say("/cond add トオル 毒 2")
    room.gm.say("/combat start")  # トオル (技巧5) acts first
    before = snapshot(room)
    body = refused(sena, "/cure トオル 治癒魔法")
    assert body["reason"] == "not your turn" and "off_turn_actions" in body["message"]
    assert snapshot(room) == before
    room.gm.say("/gm setting off_turn_actions cost")
    assert sena.say("/cure トオル 治癒魔法")["ok"] is True
    room.gm.say("/next")  # セナ's turn is spent: round 2 begins with トオル
    state = room.gm.state()
    assert state["combat"]["round"] == 2 and state["combat"]["current"] == "トオル"
