"""``GET /api/rooms/{room}/palette``: the speaker's chat palette, each line resolved and with
its chance of success from saikoro's odds, for the GM and the character's own player only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.server.table_live import Server, create_room, sheet, start_server
from tests.web.characters import ccfolia


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("palette"))
    running = start_server(str(folder / "rooms.db"), folder, "--log-level", "warning")
    yield running
    running.stop()


def test_palette_lines_resolved_with_their_chance(server: Server) -> None:
    room = create_room(server.base, "LittleWorld")
    alice = room.join(sheet("alice"))
    name = alice.state()["you"]["characters"][0]
    values = next(c for c in alice.state()["characters"] if c["name"] == name)["values"]
    response = alice.http.get(f"{alice.path}/palette", params={"name": name})
    assert response.status_code == 200, response.text
    items = {item["line"]: item for item in response.json()["items"]}
    check = items["LW{体力}>=10 【体力】判定 目標値10"]
    assert check["command"] == f"LW{values['体力']}>=10"
    assert check["label"] == "【体力】判定 目標値10"
    assert check["label_en"] == "Body check, target 10"  # the English page's label
    # 2D6 + 体力 ≥ 10 (1D6 for an ability of 1): counted here, not by the odds code
    dice = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    wanted = Fraction(sum(a + b + values["体力"] >= 10 for a, b in dice), 36)
    assert values["体力"] > 1 and check["chance"] == pytest.approx(float(wanted))
    assert items["LW{体力} 【体力】判定"]["chance"] is None  # no target: no success to count
    assert not any(line.startswith("//") for line in items)


def test_only_the_gm_and_the_owner_see_a_palette(server: Server) -> None:
    room = create_room(server.base, "UnmeiD100")
    room.add_character((Path("examples") / "unmeid100" / "mob_goblin.json").read_text("utf-8"))
    player = room.join((Path("examples") / "unmeid100" / "pc_lina.yaml").read_text("utf-8"))
    path = f"{room.gm.path}/palette"
    gm_view = room.gm.http.get(path, params={"name": "ゴブリン"})
    assert gm_view.status_code == 200
    assert any(i["command"] == "FATE5" and i["chance"] == 0.25 for i in gm_view.json()["items"])
    assert player.http.get(path, params={"name": "ゴブリン"}).status_code == 403
    assert room.spectator.http.get(path, params={"name": "リナ"}).status_code == 403
    assert room.gm.http.get(path, params={"name": "いない"}).status_code == 404
    stranger = room.gm.http.get(
        path, params={"name": "リナ"}, headers={"Authorization": "Bearer x"}
    )
    assert stranger.status_code == 401


def _items(link, name: str, **params: str) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    response = link.http.get(f"{link.path}/palette", params={"name": name, **params})
    assert response.status_code == 200, response.text
    return {item["line"]: item for item in response.json()["items"]}


def test_the_pieces_own_palette_comes_first_with_its_chances(server: Server) -> None:
    piece = json.loads(ccfolia("ミナ", 14, {"体力": 5, "技巧": 4, "理知": 2}))
    piece["data"]["commands"] = (
        "//体力=5\n2D6+{体力}>=9 ジャンプ\n2D6+{筋力}>=9 知らない値\nよろしく\nLW{体力} 【体力】判定"
    )
    room = create_room(server.base, "LittleWorld")
    mina = room.join(json.dumps(piece, ensure_ascii=False))
    items = _items(mina, "ミナ")
    lines = list(items)
    assert lines[:3] == ["2D6+{体力}>=9 ジャンプ", "2D6+{筋力}>=9 知らない値", "よろしく"]
    assert lines.count("LW{体力} 【体力】判定") == 1  # saikoro's own line, once
    jump = items["2D6+{体力}>=9 ジャンプ"]
    assert jump["own"] is True and jump["command"] == "2D6+5>=9" and jump["edit"] is False
    assert jump["label_en"] == jump["label"]  # the player's own words stay theirs
    assert jump["chance"] == pytest.approx(33 / 36)  # 2D6 ≥ 4: all but 2 and 3
    unknown = items["2D6+{筋力}>=9 知らない値"]
    assert unknown["command"] is None and unknown["edit"] is True and unknown["chance"] is None
    assert items["よろしく"]["chance"] is None and items["よろしく"]["edit"] is False


def test_a_palette_of_costly_lines_is_answered_within_its_budget(server: Server) -> None:
    """A player writes their own palette: 20 lines of odds that each cost ≈2 s took 40 s;
    the whole palette now has one time budget, and saikoro's own lines keep their chances.
    (That the budget stops the lines past it is shown with an injected clock below: a
    wall-time bound here would fail on a loaded machine.)"""
    piece = json.loads(ccfolia("ミナ", 14, {"体力": 5, "技巧": 4, "理知": 2}))
    piece["data"]["commands"] = "\n".join(f"100D6>={300 + i} 攻撃{i}" for i in range(20))
    room = create_room(server.base, "LittleWorld")
    mina = room.join(json.dumps(piece, ensure_ascii=False))
    items = _items(mina, "ミナ")
    assert items["LW{体力} 【体力】判定"]["own"] is False
    assert any(item["chance"] is not None for item in items.values() if not item["own"])
    assert sum(item["own"] for item in items.values()) == 20


def test_the_palette_budget_stops_the_lines_past_it() -> None:
    """A clock that moves a quarter second each time a line reads it: the palette's 3 s
    budget is spent after twelve lines, and every line past it gets no chance (saikoro's
    own lines come first, so they are the ones computed)."""
    from saikoro.server.palette_route import PALETTE_SECONDS, palette_items
    from saikoro.sheets import sheet_from_data
    from saikoro.table.dispatch import tracker_for

    tracker = tracker_for("LittleWorld")
    data = json.loads(sheet("alice"))
    data.setdefault("notes", {})["チャットパレット"] = "\n".join(
        f"2D6>={i} 自作{i}" for i in range(2, 12)
    )
    character = tracker.new_character(sheet_from_data(data, "LittleWorld"), None, None)
    ticks = iter(range(10_000))
    items = palette_items("LittleWorld", character, {}, clock=lambda: next(ticks) / 4)
    computed = [item for item in items if item["chance"] is not None]
    mine = [item for item in items if item["own"]]
    assert len(mine) == 10 and all(item["chance"] is None for item in mine)
    within = items[len(mine) :][: int(PALETTE_SECONDS * 4) - 1]
    assert computed and all(item in within for item in computed)
    unlimited = palette_items("LittleWorld", character, {})  # the real clock: all in budget
    assert sum(item["chance"] is not None for item in unlimited) > len(computed)


@pytest.mark.rule("LW-CHECK-03")
def test_lines_asking_for_a_value_are_edited_first_and_chances_follow_house_rules(
    server: Server,
) -> None:
    room = create_room(server.base, "LittleWorld")
    alice = room.join(sheet("alice"))
    name = alice.state()["you"]["characters"][0]
    body = _items(alice, name)
    attack = next(item for line, item in body.items() if line.startswith("LWA{体力}-X"))
    assert attack["edit"] is True and attack["chance"] is None
    start, end = attack["select"]
    assert attack["command"][start:end] == "X" and end == len(attack["command"])
    opposed = next(item for line, item in body.items() if line.startswith("LWO{体力}-3"))
    assert opposed["edit"] is True and opposed["chance"] is None
    assert opposed["command"][slice(*opposed["select"])] == "3"

    # LW-CHECK-03 under the house rule "one 6 is a critical": the chance goes up
    check = "LW{理知}>=10 【理知】判定 目標値10"
    before = body[check]["chance"]
    assert room.gm.say("/gm setting critical_sixes 1")["ok"] is True
    after = _items(alice, name)[check]["chance"]
    assert before is not None and after is not None and after > before
    assert all(item["chance"] is None for item in _items(alice, name, chances="false").values())


@pytest.mark.rule("UM-LEVEL-02")
@pytest.mark.rule("UM-MELEE-01")
def test_unmeid100_growth_has_no_chance_and_ac_lines_are_edited(server: Server) -> None:
    room = create_room(server.base, "UnmeiD100")
    lina = room.join((Path("examples") / "unmeid100" / "pc_lina.yaml").read_text("utf-8"))
    items = _items(lina, "リナ")
    growth = next(item for line, item in items.items() if line.startswith("GROW"))
    assert growth["chance"] is None and growth["edit"] is False
    melee = next(item for line, item in items.items() if line.startswith("MA{戦闘},0,"))
    assert melee["edit"] is True and melee["chance"] is None
    assert melee["command"][slice(*melee["select"])] == "0"
    assert melee["command"].split(",")[1] == "0"
    fate = next(item for line, item in items.items() if line.startswith("FATE"))
    assert fate["chance"] is not None and fate["edit"] is False
    aimed = next(item for line, item in items.items() if line.startswith("RA{盗賊},0,{敏捷度},1"))
    assert aimed["edit"] is True and aimed["chance"] is None  # its AC is to be filled in too
    assert aimed["command"][slice(*aimed["select"])] == "0"
