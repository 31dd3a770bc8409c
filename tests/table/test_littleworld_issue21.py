"""帽子世界TRPG at the table, issue 21: one gate for every action, consumables as items,
actions on another's turn, and every reading the seed leaves open as a GM setting.

Each test types player lines into ``saikoro play`` (``--as NAME``: a player's line; a
GM's line is a ruling) with scripted dice; the last ones go through a live server's
table API (a player's link).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import test_littleworld_issue13 as issue13
from .helpers import SHEETS, final_state
from .test_littleworld_issue13 import GIN, LILY, MIMI, d6, lw, player, state

party = issue13.party  # the fixture: ギン, ミミ and リリィ at the table

#: Every LittleWorld verb a player types for ギン (体力4−1 技巧3 理知1, cards 剣術 罠設置),
#: none of which needs dice to be refused.
EVERY_VERB = [
    "@ギン /attack ミミ 体力",
    "@ギン /card 剣術",
    "@ギン /act 罠設置 8",
    "@ギン /act 口笛 技巧 8",
    "@ギン /ride 馬 8",
    "@ギン /drive 車 8",
    "@ギン /device 携帯電話",
    "@ギン /language 古代語 8",
    "@ギン /herb 野山",
    "@ギン /cure ギン 中和剤",
    "@ギン /use 薬草",
    "@ギン /hat on",
    "@ギン /reward exp 1",
]
MOVES = ["@ギン /swim"]  # movement: a confused character may


def snapshot(db: str) -> tuple[dict[str, Any], str]:
    out = lw(db, ["/state", "/log 200"])
    return final_state(out[:1]), out[1]["text"]


def to_turn(db: str, name: str) -> None:
    """Start a combat and advance to ``name``'s turn."""
    lw(db, ["/combat start"])
    for _ in range(10):
        if final_state(lw(db, ["/state"]))["combat"]["current"] == name:
            return
        lw(db, ["/next"])
    raise AssertionError(f"{name}'s turn never came")


# -- point 1: one gate for every action --------------------------------------------------------


@pytest.mark.rule("LW-TABLE-07", "LW-COND-03", via="table")
@pytest.mark.parametrize("line", EVERY_VERB + MOVES)
def test_paralysis_stops_every_verb(party: str, line: str) -> None:
    lw(party, ["/cond add ギン 麻痺"])
    before = snapshot(party)
    out = player(party, [line])
    assert not out[0]["ok"] and out[0]["reason"] == "cannot act", out[0]
    assert "ギン: 麻痺で一切の行動が取れません" in out[0]["ja"]
    assert "paralysed: no action at all" in out[0]["en"]
    assert snapshot(party) == before


@pytest.mark.rule("LW-TABLE-07", "LW-COND-05", via="table")
@pytest.mark.parametrize("line", EVERY_VERB)
def test_confusion_allows_nothing_but_moving(party: str, line: str) -> None:
    lw(party, ["/cond add ギン 混乱"])
    before = snapshot(party)
    out = player(party, [line])
    assert not out[0]["ok"] and "ギン: 混乱で移動以外の行動が取れません" in out[0]["ja"]
    assert snapshot(party) == before


@pytest.mark.rule("LW-TABLE-07", "LW-COND-05", via="table")
def test_a_confused_character_may_move(party: str) -> None:
    lw(party, ["/cond add ギン 混乱"])
    out = player(party, ["@ギン /swim", "@ギン /swim off"])
    assert all(o["ok"] for o in out), out
    assert "ギン は水中へ" in out[0]["text"] and "水から上がった" in out[1]["text"]


@pytest.mark.rule("LW-TABLE-07", "LW-HP-02", via="table")
@pytest.mark.parametrize("line", EVERY_VERB + MOVES)
def test_hp_zero_stops_every_verb(party: str, line: str) -> None:
    lw(party, ["@ギン :HP=0"])
    before = snapshot(party)
    out = player(party, [line])
    assert not out[0]["ok"] and "自力での行動ができません" in out[0]["ja"], out[0]
    assert snapshot(party) == before


@pytest.mark.rule("LW-TABLE-07", "LW-COND-04", via="table")
@pytest.mark.parametrize(
    "line",
    ["@ギン /card 剣術", "@ギン /act 罠設置 8", "@ミミ /herb 野山", "@リリィ /cure ギン 治癒魔法"],
)
def test_sleep_stops_skill_cards(party: str, line: str) -> None:
    name = line.split()[0][1:]
    lw(party, [f"/cond add {name} 睡眠", "/cond add ギン 毒 1"])
    before = snapshot(party)
    out = player(party, [line])
    assert not out[0]["ok"] and "睡眠中はスキルカードを使えません" in out[0]["ja"], out[0]
    assert snapshot(party) == before


@pytest.mark.rule("LW-TABLE-07", "LW-COND-04", via="table")
def test_a_sleeper_still_acts_with_halved_values(party: str) -> None:
    lw(party, ["/cond add ギン 睡眠"])
    out = player(party, ["@ギン /act 口笛 技巧 8", "@ギン /language 共通語"], d6(4))
    assert all(o["ok"] for o in out), out
    assert "(LW1>=8)" in out[0]["text"]  # 技巧 3 halved to 1: a weak action (1D6)
    lw(party, ["/gm setting sleeping_can_act false"])
    out = player(party, ["@ギン /language 共通語"])
    assert not out[0]["ok"] and "睡眠中は行動できません" in out[0]["ja"]


@pytest.mark.rule("LW-TABLE-07", "LW-COND-03", via="table")
def test_a_gm_line_passes_the_gate_as_a_logged_ruling(party: str) -> None:
    lw(party, ["/cond add ギン 麻痺"])
    out = lw(party, ["@ギン /act 口笛 技巧 8", "/log 3"], d6(3, 3))
    assert out[0]["ok"]
    assert "GM裁定: ギン: 麻痺で一切の行動が取れません" in out[0]["text"]
    assert "(LW3>=8)" in out[0]["text"]
    assert "[GM] GM裁定" in out[1]["text"]


@pytest.mark.rule("LW-TABLE-07", "LW-COND-03", "LW-COND-05", via="table")
def test_in_combat_the_gate_holds_on_ones_own_turn(party: str) -> None:
    lw(party, ["/cond add ギン 混乱"])
    to_turn(party, "ギン")  # confused: his turn comes (he may move)
    out = player(party, ["@ギン /attack ミミ 体力", "@ギン /act 罠設置 8", "@ギン /swim"])
    assert [o["ok"] for o in out] == [False, False, True], out
    assert all("移動以外" in o["ja"] for o in out[:2])


# -- point 4: consumables are items -----------------------------------------------------------


@pytest.mark.rule("LW-TABLE-08", "LW-COND-02", via="table")
def test_a_neutraliser_is_held_and_used_up(party: str) -> None:
    lw(party, ["/cond add ギン 毒 2"])
    out = player(party, ["@リリィ /cure ギン 中和剤"])  # リリィ's sheet: 中和剤 ×2
    assert "ギン: 中和剤で毒が治った" in out[0]["text"]
    assert state(party)["リリィ"]["inventory"] == {"中和剤": 1, "魔法の栞": 1}
    lw(party, ["/cond add ギン 毒 2"])
    player(party, ["@リリィ /cure ギン 中和剤"])
    lw(party, ["/cond add ギン 毒 2"])
    before = snapshot(party)
    out = player(party, ["@リリィ /cure ギン 中和剤", "@ギン /cure ギン 中和剤"])
    assert not any(o["ok"] for o in out) and all(o["reason"] == "no item" for o in out)
    assert "リリィ: 中和剤を持っていません" in out[0]["ja"] and "holds no" in out[0]["en"]
    assert snapshot(party) == before  # two neutralisers cured twice, not three times
    assert state(party)["リリィ"]["inventory"] == {"魔法の栞": 1}


@pytest.mark.rule("LW-TABLE-08", "LW-SPECIAL-08", via="table")
def test_items_are_given_found_used_and_taken_by_the_gm(party: str) -> None:
    out = player(party, ["@ミミ /use 薬草", "@ミミ /use 薬草", "@ミミ /use 中和剤"])
    assert out[0]["ok"] and "ミミ は薬草を使った (残り0; 効果はGMが判断)" in out[0]["text"]
    assert [o["ok"] for o in out[1:]] == [False, False]
    assert "ミミ は薬草を持っていません" in out[1]["ja"]
    out = lw(party, ["/gm item ミミ 解毒草 +2", "/gm item ミミ 中和剤", "/gm item ミミ 解毒草 -1"])
    assert all(o["ok"] for o in out) and "GM: ミミ の解毒草 0 → 2" in out[0]["text"]
    assert state(party)["ミミ"]["inventory"] == {"解毒草": 1, "中和剤": 1}
    out = lw(party, ["/gm item ミミ 中和剤 -5", "/gm item ミミ 中和剤 x", "/gm item ミミ"])
    assert not any(o["ok"] for o in out)
    assert player(party, ["@ミミ /gm item ミミ 中和剤"])[0]["ok"] is False  # the GM's only
    lw(party, ["/cond add ギン 毒 1"])
    out = player(party, ["@ミミ /cure ギン 解毒草"])
    assert out[0]["ok"] and state(party)["ミミ"]["inventory"] == {"中和剤": 1}


@pytest.mark.rule("LW-TABLE-08", "LW-COND-02", via="table")
def test_a_gm_cure_without_the_item_is_a_ruling(party: str) -> None:
    lw(party, ["/cond add ギン 毒 2"])
    out = lw(party, ["@ミミ /cure ギン 中和剤"])
    assert out[0]["ok"] and "GM裁定: ミミ: 中和剤を持っていません" in out[0]["text"]
    assert state(party)["ギン"]["conditions"] == []


# -- point 6: an action on another's turn ----------------------------------------------------


@pytest.mark.rule("LW-TABLE-09", "LW-COND-01", via="table")
@pytest.mark.parametrize("value", ["refuse", "cost", "free"])
def test_healing_on_anothers_turn(party: str, value: str) -> None:
    if value != "refuse":
        lw(party, [f"/gm setting off_turn_actions {value}"])
    lw(party, ["/cond add ギン 毒 2"])
    to_turn(party, "ミミ")  # order: ミミ (技巧4), ギン, リリィ
    before = snapshot(party)
    out = player(party, ["@リリィ /cure ギン 治癒魔法"])
    if value == "refuse":
        assert not out[0]["ok"] and out[0]["reason"] == "not your turn"
        assert "いまは ミミ の手番です: 他人の手番には行動できません" in out[0]["ja"]
        assert snapshot(party) == before
        return
    assert out[0]["ok"] and "ギン: 治癒魔法で毒が治った" in out[0]["text"]
    out = lw(party, ["/next", "/next"])  # ミミ → ギン → リリィ's turn
    shown = "\n".join(o["text"] for o in out)
    current = final_state(lw(party, ["/state"]))["combat"]["current"]
    if value == "cost":
        assert "リリィ: この手番は手番外の行動で使用済み" in shown
        assert current == "ミミ"  # her turn passed by itself: round 2
        assert final_state(lw(party, ["/state"]))["combat"]["round"] == 2
    else:
        assert current == "リリィ"


@pytest.mark.rule("LW-TABLE-09", via="table")
def test_a_second_action_out_of_turn_is_refused_when_the_turn_is_already_spent(party: str) -> None:
    lw(party, ["/gm setting off_turn_actions cost", "/cond add ギン 毒 2"])
    to_turn(party, "ミミ")
    out = player(party, ["@リリィ /cure ギン 治癒魔法", "@リリィ /language 共通語"])
    assert out[0]["ok"] and not out[1]["ok"] and "すでに使っています" in out[1]["ja"]


@pytest.mark.rule("LW-TABLE-09", "LW-COMBAT-04", via="table")
@pytest.mark.parametrize("value", ["free", "cost", "refuse"])
def test_a_card_on_anothers_turn(party: str, value: str) -> None:
    lw(party, [f"/gm setting off_turn_cards {value}"])
    to_turn(party, "ミミ")
    out = player(party, ["@ギン /card 剣術"])  # the target of ミミ's attack declares its card
    assert out[0]["ok"] is (value != "refuse"), out[0]
    if value == "refuse":
        assert "/gm setting off_turn_cards" in out[0]["ja"]
    lw(party, ["/next"])
    current = final_state(lw(party, ["/state"]))["combat"]["current"]
    assert current == ("リリィ" if value == "cost" else "ギン")


# -- point 7: every reading the seed leaves open is a setting ----------------------------------


@pytest.mark.rule("LW-TABLE-10", "LW-COMBAT-16", via="table")
@pytest.mark.parametrize("value", [True, False])
def test_rows_collapse_counts_conditions(tmp_path: Path, value: bool) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {GIN}", f"/char add {LILY}"])  # ギン front, リリィ back
    lw(db, [f"/gm setting rows_collapse_counts_conditions {str(value).lower()}"])
    lw(db, ["/cond add ギン 麻痺", "/combat start"])
    assert state(db)["リリィ"]["row"] == ("前衛" if value else "後衛")


@pytest.mark.rule("LW-TABLE-10", "LW-COMBAT-16", via="table")
@pytest.mark.parametrize("value", [True, False])
def test_rows_return_when_combat_ends(tmp_path: Path, value: bool) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {GIN}", f"/char add {LILY}"])
    lw(db, [f"/gm setting rows_return_when_combat_ends {str(value).lower()}"])
    lw(db, ["@ギン :HP=0", "/combat start"])
    assert state(db)["リリィ"]["row"] == "前衛"
    lw(db, ["/combat end"])
    assert state(db)["リリィ"]["row"] == ("後衛" if value else "前衛")


@pytest.mark.rule("LW-TABLE-10", "LW-COND-02", via="table")
@pytest.mark.parametrize("value", [False, True])
def test_poison_ticks_on_skipped_turns(tmp_path: Path, value: bool) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {GIN}", f"/char add {MIMI}"])
    lw(db, [f"/gm setting poison_ticks_on_skipped_turns {str(value).lower()}"])
    lw(db, ["@ギン :HP=0", "/cond add ギン 毒 2", "/combat start", "/next", "/next"])
    assert state(db)["ギン"]["hp"] == (-4 if value else 0)  # two rounds: ミミ, (ギン)


@pytest.mark.rule("LW-TABLE-10", "LW-COND-02", via="table")
@pytest.mark.parametrize("value", [True, False])
def test_poison_below_zero_at_rest(tmp_path: Path, value: bool) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {GIN}", f"/gm setting poison_below_zero_at_rest {str(value).lower()}"])
    lw(db, ["@ギン :HP=3", "/cond add ギン 毒 2", "/gm time 60"])
    assert state(db)["ギン"]["hp"] == (-1 if value else 0)
    lw(db, ["/gm time 60"])
    assert state(db)["ギン"]["hp"] == (-5 if value else 0)


@pytest.mark.rule("LW-TABLE-10", "LW-COND-05", via="table")
@pytest.mark.parametrize("value", [True, False])
def test_cure_place_anywhere(party: str, value: bool) -> None:
    lw(party, [f"/gm setting cure_place_anywhere {str(value).lower()}", "/cond add ギン 混乱"])
    out = player(party, ["@ミミ /cure ギン 病院"])
    assert out[0]["ok"] is value, out[0]
    if not value:
        assert "病院での治療はGMの裁定で" in out[0]["ja"]
        out = lw(party, ["@ミミ /cure ギン 病院"])
        assert out[0]["ok"] and "GM裁定" in out[0]["text"]
    assert state(party)["ギン"]["conditions"] == []


@pytest.mark.rule("LW-TABLE-10", "LW-COMBAT-11", via="table")
@pytest.mark.parametrize("value", [False, True])
def test_downed_target_can_defend(tmp_path: Path, value: bool) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {MIMI}", f"/char add {SHEETS / 'goblin.json'}"])
    lw(db, [f"/gm setting downed_target_can_defend {str(value).lower()}", "@ゴブリン :HP=0"])
    lw(db, ["/combat start"])  # ミミ (技巧4, a PC) first
    dice = d6(3, 3, 2, 3) if value else d6(3, 3)
    out = player(db, ["@ミミ /attack ゴブリン 技巧"], dice)
    assert out[0]["ok"], out[0]
    if value:
        assert "＞ 防御値 5[2,3]+4=9 ＞ ダメージ1" in out[0]["text"]
    else:
        assert "＞ 防御不能 ＞ ダメージ10" in out[0]["text"]


@pytest.mark.rule("LW-TABLE-10", "LW-SPECIAL-02", via="table")
@pytest.mark.parametrize("value", [False, True])
def test_mount_in_combat(party: str, value: bool) -> None:
    lw(party, [f"/gm setting mount_in_combat {str(value).lower()}"])
    to_turn(party, "ギン")
    out = player(party, ["@ギン /ride 馬 5"], d6(3, 3) if value else None)
    assert out[0]["ok"] is value, out[0]
    assert (state(party)["ギン"].get("mounted") == "馬") is value


@pytest.mark.rule("LW-TABLE-10", "LW-SPECIAL-02", "LW-SPECIAL-05", via="table")
@pytest.mark.parametrize("value", [True, False])
def test_ride_swim_exclusive(party: str, value: bool) -> None:
    lw(party, [f"/gm setting ride_swim_exclusive {str(value).lower()}"])
    player(party, ["@ギン /swim"])
    out = player(party, ["@ギン /ride 馬 5"], None if value else d6(3, 3))
    assert out[0]["ok"] is not value, out[0]
    ginn = state(party)["ギン"]
    assert bool(ginn.get("mounted")) is not value and ginn["swimming"] is True


@pytest.mark.rule("LW-TABLE-10", "LW-KEEPER-01", "LW-SPECIAL-05", via="table")
@pytest.mark.parametrize("value", [False, True])
def test_minor_actions_cost_action(party: str, value: bool) -> None:
    lw(party, [f"/gm setting minor_actions_cost_action {str(value).lower()}"])
    to_turn(party, "リリィ")
    out = player(party, ["@リリィ /hat off"])
    assert out[0]["ok"]
    current = final_state(lw(party, ["/state"]))["combat"]["current"]
    assert (current != "リリィ") is value  # True: the hat ended her turn
    out = player(party, ["@リリィ /hat on"])  # on ミミ's turn (value True) or her own
    assert out[0]["ok"] is not value, out[0]
