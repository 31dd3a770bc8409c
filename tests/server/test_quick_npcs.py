"""Quick NPCs, card edits and counters over real sockets (issue 24, points 4 to 6).

The GM makes characters from the system's sheet fields with a count (ゴブリン × 3 →
ゴブリンA, B, C; names at the table are never overwritten), duplicates one, and edits any
field; a player edits only their own memo and palette lines; every change is a logged event
that reaches the other pages with its state change (no GET /state). The counters' buttons
are the lines the table accepts from that reader: a player gets no button whose typed line
would be refused, and the line of every button offered is accepted."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .table_live import Link, Server, create_room, open_socket, sheet, start_server

GOBLIN = {
    "LittleWorld": {
        "name": "ゴブリン",
        "max_hp": 6,
        "abilities": {"体力": 3, "技巧": 2, "理知": 1},
    },
    "UnmeiD100": {
        "name": "ゴブリン",
        "max_hp": 8,
        "kind": "mob",
        "abilities": {a: {"value": 10} for a in ("体格", "敏捷度", "魅力", "運命")},
    },
}
#: A player character of each system (the join's sheet).
PLAYER = {
    "LittleWorld": sheet("alice"),
    "UnmeiD100": (
        '{"system": "UnmeiD100", "name": "ケン", "max_hp": 20, "level": 2, "abilities": '
        '{"体格": {"value": 12}, "敏捷度": {"value": 11}, "魅力": {"value": 9}, "運命": {"value": 10}}}'
    ),
}
SYSTEMS = ("LittleWorld", "UnmeiD100")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("quick"))
    running = start_server(str(folder / "rooms.db"), folder, "--line-rate", "0")
    try:
        yield running
    finally:
        running.stop()


def add(link: Link, body: dict[str, Any]) -> httpx.Response:
    return link.http.post(f"{link.path}/characters", json=body)


def edit(link: Link, name: str, fields: dict[str, Any]) -> httpx.Response:
    return link.http.patch(f"{link.path}/characters", json={"name": name, "fields": fields})


def read_sheet(link: Link, name: str) -> dict[str, Any]:
    response = link.http.get(f"{link.path}/sheet", params={"name": name})
    assert response.status_code == 200, response.text
    return response.json()["sheet"]


def names(link: Link) -> list[str]:
    return [c["name"] for c in link.state()["characters"]]


def refused(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and body["messages"]["ja"] and body["messages"]["en"]
    assert body["messages"]["ja"] != body["messages"]["en"]
    return body


@pytest.mark.parametrize("system", SYSTEMS)
def test_quick_npc_with_count_three_makes_three_named_characters(
    server: Server, system: str
) -> None:
    room = create_room(server.base, system)
    player = room.join(PLAYER[system])

    async def scenario() -> list[dict[str, Any]]:
        socket = await open_socket(player, after=player.state()["version"])
        made = add(room.gm, {"fields": GOBLIN[system], "count": 3, "side": "npc"})
        assert made.status_code == 201, made.text
        assert made.json()["added"] == ["ゴブリンA", "ゴブリンB", "ゴブリンC"]
        events = await socket.until_events(3)
        await socket.close()
        return events

    events = asyncio.run(scenario())
    # the player's page learns of all three from the events alone (issue 20)
    assert [e["kind"] for e in events] == ["character_added"] * 3
    rows = [row for e in events for row in e["change"]["characters"]]
    assert [row["name"] for row in rows] == ["ゴブリンA", "ゴブリンB", "ゴブリンC"]
    assert all(row["side"] == "npc" and "values" not in row for row in rows)
    assert all(e["actor"] == "GM" and e["tab"] == "info" for e in events)
    assert len({e["command_id"] for e in events}) == 1  # one line: all of them or none
    state = room.gm.state()
    assert [c["name"] for c in state["characters"]][-3:] == ["ゴブリンA", "ゴブリンB", "ゴブリンC"]

    # names already at the table are never overwritten: the next free letters
    again = add(room.gm, {"fields": GOBLIN[system], "count": 2, "side": "npc"})
    assert again.status_code == 201, again.text
    assert again.json()["added"] == ["ゴブリンD", "ゴブリンE"]
    copied = add(room.gm, {"copy_of": "ゴブリンA"})
    assert copied.status_code == 201, copied.text
    assert copied.json()["added"] == ["ゴブリンF"]

    # bad input: a clear bilingual 422 and nothing written
    version = room.gm.state()["version"]
    bad = dict(GOBLIN[system], max_hp="たくさん")
    body = refused(add(room.gm, {"fields": bad, "count": 3}), 422)
    assert "max_hp" in body["messages"]["ja"] and "max_hp" in body["messages"]["en"]
    refused(add(room.gm, {"fields": GOBLIN[system], "count": 27}), 422)
    refused(add(room.gm, {"fields": GOBLIN[system], "count": 0}), 422)
    refused(add(room.gm, {"fields": {"max_hp": 5}}), 422)  # no name
    refused(add(room.gm, {"fields": GOBLIN[system], "count": 21}), 409)  # 20 letters left
    refused(add(room.gm, {"copy_of": "だれか"}), 422)
    # a player makes no NPC
    refused(add(player, {"fields": GOBLIN[system], "count": 1}), 403)
    assert room.gm.state()["version"] == version
    assert len(names(room.gm)) == 1 + 6


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_edits_only_their_own_memo_and_palette(server: Server, system: str) -> None:
    room = create_room(server.base, system)
    player = room.join(PLAYER[system])
    mine = next(iter(room.players))
    assert add(room.gm, {"fields": GOBLIN[system], "count": 1}).status_code == 201
    other = room.join(sheet("bob")) if system == "LittleWorld" else None
    version = room.gm.state()["version"]
    before = read_sheet(room.gm, "ゴブリン")

    # another's fields, or their own fields but the memo and palette: refused, nothing changed
    refused(edit(player, "ゴブリン", {"notes.メモ": "乗っ取り"}), 403)
    ability = "abilities.体力" if system == "LittleWorld" else "abilities.体格.value"
    refused(edit(player, mine, {ability: 9}), 403)
    refused(edit(player, mine, {"max_hp": 99}), 403)
    refused(edit(room.spectator, mine, {"notes.メモ": "x"}), 403)
    refused(player.http.get(f"{player.path}/sheet", params={"name": "ゴブリン"}), 403)
    if other is not None:
        refused(edit(other, mine, {"palette": ["2D6 乗っ取り"]}), 403)
    assert room.gm.state()["version"] == version
    assert read_sheet(room.gm, "ゴブリン") == before

    # their own memo and palette lines
    done = edit(player, mine, {"notes.メモ": "宝の地図を持っている", "palette": ["2D6+1 様子見"]})
    assert done.status_code == 200, done.text
    own = read_sheet(player, mine)
    assert own["notes"]["メモ"] == "宝の地図を持っている"
    palette = player.http.get(f"{player.path}/palette", params={"name": mine, "chances": "false"})
    assert [i["line"] for i in palette.json()["items"] if i["own"]] == ["2D6+1 様子見"]
    # the GM edits any field; the log says so, and HP through the table's own bounds
    done = edit(room.gm, "ゴブリン", {ability: 4, "hp": 2})
    assert done.status_code == 200, done.text
    events = room.gm.events(version)["events"]
    texts = [e["text"]["ja"] for e in events]
    assert f"{mine} の メモ、{'チャットパレット'} を変更" in texts
    assert any(t.startswith("GM: ゴブリン の 体") and "→ 4" in t for t in texts), texts
    assert "GM: ゴブリン HP " in " ".join(texts)
    goblin = next(c for c in room.gm.state()["characters"] if c["name"] == "ゴブリン")
    assert goblin["hp"] == 2
    # another player reads the change but never the sheet it carries
    if other is not None:
        seen = other.events(version)["events"]
        assert all("sheet" not in e["data"] for e in seen if e["kind"] == "sheet_set")
        assert "宝の地図" not in str(seen)
    # the name is the character's identity at the table: not a field to edit
    refused(edit(room.gm, "ゴブリン", {"name": "オーク"}), 422)
    refused(edit(room.gm, "ゴブリン", {ability: "つよい"}), 422)


def counters_of(link: Link, name: str) -> dict[str, dict[str, Any]]:
    row = next(c for c in link.state()["characters"] if c["name"] == name)
    return {c["label"]: c for c in row.get("counters", [])}


def test_counter_buttons_are_the_lines_the_table_accepts_littleworld(server: Server) -> None:
    room = create_room(server.base, "LittleWorld")
    player = room.join(sheet("alice"))
    room.join(sheet("bob"))
    bob = room.players["ボブ"]
    theirs, gms = counters_of(player, "アリス"), counters_of(room.gm, "アリス")
    assert set(theirs) == set(gms) == {"HP", "禁忌値", "cr"}
    assert theirs["HP"]["max"] == 12 and theirs["cr"]["max"] is None  # a bar; a counter
    assert "counters" not in next(c for c in bob.state()["characters"] if c["name"] == "アリス")
    # 禁忌値 is the GM's (LW-ABIL-05): no button for the player, and the typed line is refused
    assert theirs["禁忌値"]["up"] is None and theirs["禁忌値"]["down"] is None
    refused(player.line(":禁忌値+1"), 403)
    assert gms["禁忌値"]["up"] == "@アリス :禁忌値+1"
    # cr 0 has no − for anyone (never negative): the typed line is refused too
    assert theirs["cr"]["down"] is None and gms["cr"]["down"] is None
    refused(player.line(":cr-1"), 422)
    # every button offered is a line the table carries out for that reader
    for link, counters in ((player, theirs), (room.gm, gms)):
        for counter in counters.values():
            for line in (counter["down"], counter["up"]):
                if line is not None:
                    assert link.line(line).status_code == 200, line
    assert counters_of(room.gm, "アリス")["禁忌値"]["value"] == 1
    assert counters_of(player, "アリス")["cr"]["value"] == 2  # the player's + and the GM's
    # at HP 0 a player's character cannot recover (LW-HP-02): no + for them, + for the GM
    room.gm.say("@アリス :HP=0")
    assert counters_of(player, "アリス")["HP"]["up"] is None
    refused(player.line(":HP+1"), 422)
    assert counters_of(room.gm, "アリス")["HP"]["up"] == "@アリス :HP+1"


def test_counter_buttons_unmeid100_fate_checks_are_the_gms(server: Server) -> None:
    room = create_room(server.base, "UnmeiD100")
    player = room.join(PLAYER["UnmeiD100"])
    theirs, gms = counters_of(player, "ケン"), counters_of(room.gm, "ケン")
    fate = gms["運命判定回数"]
    assert (fate["value"], fate["max"]) == (2, 2)  # level 2 (UM-FATE-01)
    assert fate["up"] is None and fate["down"] == "/gm set ケン fate_left 1"
    assert theirs["運命判定回数"]["down"] is None  # /gm is the GM's
    refused(player.line("/gm set ケン fate_left 1"), 403)
    assert room.gm.line(fate["down"]).status_code == 200
    after = counters_of(room.gm, "ケン")["運命判定回数"]
    assert after["value"] == 1 and after["up"] == "/gm set ケン fate_left 2"
    assert theirs["HP"]["down"] == "@ケン :HP-1"
    assert player.line(theirs["HP"]["down"]).status_code == 200
    assert counters_of(player, "ケン")["HP"]["value"] == 19
