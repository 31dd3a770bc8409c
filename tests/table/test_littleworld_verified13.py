"""帽子世界TRPG at the table: defects an independent verifier found (issue 13, second pass).

Each test drives ``saikoro play`` with scripted dice and failed before its fix: bounded rest
and time (LW-HP-01), specialist actions under other names (LW-SPECIAL-01), licence vehicles
as a setting (LW-SPECIAL-03), 価値観/禁忌値 only the GM's (LW-ABIL-05), no riding while
swimming (LW-SPECIAL-02/05) and English output without Japanese prose (LW-TABLE-06).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from . import test_littleworld_issue13 as issue13
from .helpers import SHEETS, final_state
from .test_littleworld_issue13 import LILY, d6, lw, player, state

party = issue13.party  # the fixture: ギン, ミミ and リリィ at the table


def snapshot(db: str) -> tuple[dict[str, Any], str]:
    """The room's state and its log: what a refused line must leave as it was."""
    out = lw(db, ["/state", "/log 200"])
    return final_state(out[:1]), out[1]["text"]


# -- 1: /gm rest and /gm time are bounded ----------------------------------------------------


@pytest.mark.rule("LW-HP-01", "LW-COND-02", via="table")
def test_rest_and_time_are_bounded_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {SHEETS / 'alice.json'}", f"/char add {SHEETS / 'bob.json'}"])
    lw(db, ["@アリス :HP=2", "/cond add ボブ 毒 1"])
    before = snapshot(db)
    huge = "9" * 5000
    lines = [
        "/gm rest 0",
        "/gm rest -1",
        "/gm rest 31",
        "/gm rest 1000000",
        f"/gm rest {huge}",
        "/gm time 43201",
        f"/gm time {huge}",
    ]
    out = lw(db, lines)
    assert [o["ok"] for o in out] == [False] * len(lines)
    assert all(o["reason"] == "out of range" for o in out), out
    assert "泊数は1〜30の整数です ('0' は使えません)" in out[0]["ja"]
    assert "the number of nights must be an integer from 1 to 30" in out[3]["en"]
    assert len(out[4]["ja"]) < 100  # a huge number is not echoed whole
    assert "0〜43200" in out[5]["ja"] and "0 to 43200" in out[5]["en"]
    out = lw(db, ["/gm setting night_minutes 1441", "/gm setting night_minutes -1"])
    assert not any(o["ok"] for o in out) and "1440" in out[0]["ja"] and "1440" in out[0]["en"]
    assert snapshot(db) == before  # nothing changed, nothing logged
    # the longest rest allowed: 30 nights of a whole day each, one HP line per night and
    # character however many poison ticks a night holds (48 a day)
    lw(db, ["/gm setting night_minutes 1440", "@ボブ :HP=10", "/gm setting rest_bonus 100"])
    out = lw(db, ["/gm rest 30"])
    assert out[0]["ok"]
    shown = out[0]["text"].splitlines()
    assert sum("1440分経過" in line for line in shown) == 30
    assert sum("ボブ: 毒で 48 ダメージ" in line for line in shown) == 30
    assert len(shown) <= 30 * 4  # per night: the clock, each character, the party
    assert state(db)["ボブ"]["hp"] == 10 - 30 * 48


# -- 2: specialist actions under any of their names ---------------------------------------------


@pytest.mark.rule("LW-SPECIAL-01", via="table")
@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("@リリィ /act 忍び足 技巧 8", "足音を立てない歩行"),
        ("@リリィ /act 忍び足 8", "足音を立てない歩行"),  # refused before "which ability?"
        ("@リリィ /act 忍び歩き 8", "足音を立てない歩行"),
        ("@リリィ /act 鍵開け 技巧 8", "開錠"),
        ("@リリィ /act 解錠 8", "開錠"),
        ("@リリィ /act ピッキング 8", "開錠"),
        ("@リリィ /act 読心術 理知 8", "読心"),
        ("@リリィ /act 偵察する 技巧 8", "偵察"),
        ("@リリィ /act 偵察 8", "偵察"),
        ("@リリィ /act ｽﾆｰｸ 8", "足音を立てない歩行"),  # half-width katakana
        ("@リリィ /act 口笛 8", None),  # not specialist: which ability? (no roll)
        ("@リリィ /act 罠 8", "罠設置"),
        ("@リリィ /act トラップ 8", "罠設置"),
        ("@リリィ /act ＴＲＡＰ 8", "罠設置"),  # full-width, upper case
        ("@リリィ /act 潜入する 8", "潜入"),
        ("@リリィ /act 尾行 8", "尾行"),
        ("@リリィ /act 読心 8", "読心"),
    ],
)
def test_specialist_actions_are_known_by_their_other_names(
    tmp_path: Path, line: str, action: str | None
) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {LILY}"])  # no specialist card at all
    before = snapshot(db)
    out = player(db, [line])  # no dice scripted: a roll would fail the line differently
    assert not out[0]["ok"]
    if action is None:
        assert "使う能力値が分かりません" in out[0]["ja"]
    else:
        assert f"({action})" in out[0]["ja"] or f"「{action}」" in out[0]["ja"], out[0]
        assert "スキルカード" in out[0]["ja"] and "needs the skill card" in out[0]["en"]
    assert snapshot(db) == before


@pytest.mark.rule("LW-SPECIAL-01", via="table")
def test_a_card_holder_acts_under_another_name_and_the_gm_extends_the_names(party: str) -> None:
    out = player(party, ["@ミミ /act 鍵開け 10"], d6(3, 4))  # ミミ holds 開錠: 技巧 by default
    assert out[0]["text"].startswith("ミミ: 鍵開け (技巧) ＞ (LW4>=10) ＞ 7[3,4]+4 ＞ 11 ＞ 成功")
    out = player(party, ["@ギン /act 落とし穴 5"], d6(2, 2))  # ギン holds 罠設置
    assert out[0]["ok"] and "(LW3>=5)" in out[0]["text"]
    out = player(party, ["@ギン /act 錠前を外す 技巧 5"], d6(2, 2))  # not known: any task
    assert out[0]["ok"]
    lw(party, ['/gm setting specialist_names {"開錠":["錠前を外す"]}'])
    out = player(party, ["@ギン /act 錠前を外す 技巧 5"])  # now it is 開錠, ギン has no card
    assert not out[0]["ok"] and "(開錠)" in out[0]["ja"]


# -- 3: licence vehicles are a setting, matched as names, not substrings ----------------------


@pytest.mark.rule("LW-SPECIAL-03", via="table")
def test_licence_vehicles_are_refused_by_name_and_the_gm_can_change_the_lists(
    party: str,
) -> None:
    licence = ["ジェット機", "戦闘機", "セスナ", "ヘリ", "戦闘ヘリ", "ロケット", "気球", "熱気球"]
    licence += ["戦車", "潜水艦", "ヨット", "大型ボート", "ｾｽﾅ", "Helicopter"]
    before = snapshot(party)
    out = player(party, [f"@ギン /drive {kind} 5" for kind in licence])
    assert [o["ok"] for o in out] == [False] * len(licence)
    assert all("免許" in o["ja"] and "licence" in o["en"] for o in out), out
    out = player(party, ["@ギン /drive 風船 5", "@ギン /drive 馬車 5"])  # neither: the GM's
    assert [o["ok"] for o in out] == [False, False]
    assert all("GMが判断" in o["ja"] and "免許が必要" not in o["ja"] for o in out), out
    assert snapshot(party) == before  # refused: no roll, nothing logged
    out = player(
        party, ["@ギン /drive スポーツカー 10", "@ギン /drive オートバイ 10"], d6(4, 4, 1, 1)
    )
    assert (
        "スポーツカーの運転 (技巧, 目標値10を上回る) ＞ (LW3>=11) ＞ 8[4,4]+3 ＞ 11 ＞ 成功"
        in (out[0]["text"])
    )
    assert "ファンブル" in out[1]["text"]
    out = lw(party, ["@ギン /drive 風船 5"], d6(3, 3))  # the GM's line: a ruling and the check
    assert "GM裁定" in out[0]["text"] and "(LW3>=6)" in out[0]["text"]
    lw(party, ['/gm setting check_vehicles ["車","バイク","風船"]'])
    out = player(party, ["@ギン /drive 風船 5", "@ギン /drive トラック 5"], d6(3, 3))
    assert out[0]["ok"] and "(LW3>=6)" in out[0]["text"]
    assert not out[1]["ok"] and "GMが判断" in out[1]["ja"]  # no longer in the list
    lw(party, ['/gm setting licence_vehicles ["船"]'])
    out = player(party, ["@ギン /drive 漁船 5"])  # 船 matches only whole: now the GM's call
    assert not out[0]["ok"] and "GMが判断" in out[0]["ja"]


# -- 4: 価値観 and 禁忌値 are the GM's to change ---------------------------------------------------


@pytest.mark.rule("LW-ABIL-05", "LW-KEEPER-02", via="table")
def test_players_cannot_set_values_or_taboo(party: str) -> None:
    out = player(party, ["@リリィ /reward money 3000"])  # 100 %: more than she has
    assert not out[0]["ok"]
    before = snapshot(party)
    lines = ["@リリィ :禁忌値=0", "@リリィ :価値観=99", "@リリィ :価値観+1", "@ギン :禁忌値-5"]
    out = player(party, lines)
    assert [o["ok"] for o in out] == [False] * len(lines)
    assert all(o["reason"] == "forbidden" for o in out), out
    assert "PCが自由に決められない特別な能力値" in out[0]["ja"] and "GMだけ" in out[0]["ja"]
    assert "LW-ABIL-05" in out[0]["ja"] and "only the GM" in out[1]["en"]
    assert snapshot(party) == before
    out = player(party, ["@リリィ /reward exp 5"])  # the rules still spend 価値観
    assert out[0]["ok"] and "価値観 99 → 79" in out[0]["text"]
    out = lw(party, ["@リリィ :価値観=50", "/gm set リリィ 禁忌値 20", "@ギン :禁忌値+3"])
    assert all(o["ok"] for o in out), out  # the GM may
    lily, gin = state(party)["リリィ"]["statuses"], state(party)["ギン"]["statuses"]
    assert (lily["価値観"], lily["禁忌値"], gin["禁忌値"]) == (50, 20, 3)


# -- 5: no riding while swimming (and no swimming while mounted) ---------------------------------


@pytest.mark.rule("LW-SPECIAL-02", "LW-SPECIAL-05", via="table")
def test_a_swimmer_cannot_mount_and_a_rider_cannot_swim(party: str) -> None:
    player(party, ["@ギン /swim"])
    before = snapshot(party)
    out = player(party, ["@ギン /ride 馬 8", "@ギン /ride 8"])  # no dice: no roll either
    assert [o["ok"] for o in out] == [False, False]
    assert "水泳中・水中では騎乗できません" in out[0]["ja"] and "/swim off" in out[0]["en"]
    assert snapshot(party) == before
    out = player(party, ["@ギン /swim off", "@ギン /ride 馬 8"], d6(3, 3))
    assert "ギン は馬に乗った" in out[1]["text"]
    out = player(party, ["@ギン /swim", "@ギン /swim off"])
    assert not out[0]["ok"] and "騎乗したままでは泳げません" in out[0]["ja"]
    assert not out[1]["ok"] and "水中にいません" in out[1]["ja"]  # not in the water
    assert state(party)["ギン"]["mounted"] == "馬" and not state(party)["ギン"]["swimming"]
    # the GM may rule otherwise: then one state ends where the other begins
    out = lw(party, ["@ギン /swim"])
    assert "GM裁定" in out[0]["text"] and "ギン は降りた" in out[0]["text"]
    gin = state(party)["ギン"]
    assert gin["swimming"] and not gin["mounted"]
    out = lw(party, ["@ギン /ride 馬 5"], d6(3, 3))
    assert "GM裁定" in out[0]["text"] and "ギン は水から上がった" in out[0]["text"]
    gin = state(party)["ギン"]
    assert gin["mounted"] == "馬" and not gin["swimming"]


# -- 6: English output is English ----------------------------------------------------------------

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]+")
#: Japanese a player types in these lines, which the English text may name (ability labels,
#: the means of /cure, card names on the sheet, /attack's 不意打ち, rows).
TYPED = {"体力", "技巧", "理知", "不意打ち", "前衛", "後衛", "スカウト", "錬金術師", "農民"}
TYPED |= {"治癒魔法", "中和剤", "解毒草", "病院", "教会", "薬草"}


def japanese_left(text: str, line: str) -> list[str]:
    """The Japanese words of an English text that are neither a character's name nor a word
    of the typed line."""
    allowed = {"ギン", "ミミ", "リリィ", "ゴブリン", *TYPED}
    allowed |= set(CJK.findall(line))
    return [w for w in CJK.findall(text) if w not in allowed]


@pytest.mark.rule("LW-TABLE-06", via="table")
def test_english_output_has_no_japanese_prose(party: str) -> None:
    lw(party, [f"/char add {SHEETS / 'goblin.json'}"])
    lines = [
        "/gm rest 2",
        "/cond add ギン 毒 2",
        "/cond add ギン 混乱",
        "/cond add ゴブリン 麻痺",
        "/gm time 30",
        "@ミミ /cure ギン 病院",
        "@リリィ /cure ギン 治癒魔法",
        "@ミミ /act 開錠 10",
        "@ギン /ride 10",
        "@ギン /ride off",
        "@ギン /swim 5",
        "@ギン /swim off",
        "@ギン /drive 車 10",
        "@ミミ /herb 野山 解毒草",
        "/gm scenario end",
        "@リリィ /reward exp 2",
        "@リリィ :禁忌値+100",
        "/gm row ギン 後衛",
        "/gm row ミミ back",
        "/combat start",
        "/gm lock",
        "/next",
        "/combat end",
    ]
    out = lw(party, lines, d6(*[3, 4, 5] * 12), lang="en")
    assert all(o["ok"] for o in out), [o for o in out if not o["ok"]]
    shown = {o["line"]: o["text"] for o in out}
    assert "ギン: back row" in shown["/gm row ギン 後衛"]
    assert "order manipulation: the order is locked" in shown["/gm lock"]
    assert "ギン: a hospital cures confusion" in shown["@ミミ /cure ギン 病院"]
    assert "ミミ: 開錠 (Skill)" in shown["@ミミ /act 開錠 10"]
    assert "ギン rides the horse" in shown["@ギン /ride 10"]
    assert "costs 8% of Values (99 → 91)" in shown["@リリィ /reward exp 2"]
    assert "リリィ's Taboo reached 100" in shown["@リリィ :禁忌値+100"]
    left = {o["line"]: japanese_left(o["text"], o["line"]) for o in out}
    assert {line: words for line, words in left.items() if words} == {}
    refused = lw(
        party,
        [
            "@ミミ /swim",  # カナヅチ: the GM's line is a ruling, its reason in English
            "@ギン /device スマホ",  # 機械オンチ
            "@リリィ :価値観=100",
            "@ギン /herb 野山 毒草",
        ],
        lang="en",
    )
    assert "a non-swimmer cannot swim" in refused[0]["text"]
    assert "hopeless with machines" in refused[1]["text"]
    assert refused[2]["en"] == "Values (価値観) are 1 to 99 % (not 100)"
    for o in refused:
        assert japanese_left(o.get("text") or o["en"], o["line"]) == [], o
    # /help: the descriptions of LittleWorld's lines name game terms in English
    help_text = lw(party, ["/help"], lang="en")[0]["text"]
    for gone in ("(行動順操作)", "体力+6", "カナヅチ", "治癒魔法 all conditions", "価値観"):
        assert gone not in help_text
    for row in help_text.splitlines():
        description = row.split("  ", 1)[1]
        assert japanese_left(description, "") == [], row


@pytest.mark.rule("LW-HP-01", via="table")
def test_a_night_stored_longer_than_the_bound_plays_by_default_and_can_be_reset(
    tmp_path: Path,
) -> None:
    from saikoro.store.sql import open_store
    from saikoro.table import events as ev

    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {SHEETS / 'bob.json'}", "/cond add ボブ 毒 1"])
    store = open_store(db)  # a change stored by a version without the bound
    room = store.get_room("r")
    assert room is not None
    store.append(
        room, room.version, [ev.Event(ev.SETTING_SET, {"key": "night_minutes", "value": 10**6})]
    )
    out = lw(db, ["/gm rest", "1D6", "/gm setting night_minutes default", "1D6"], d6(4, 4))
    assert out[0]["ok"] and "480分経過" in out[0]["text"]  # the default night, no hang
    assert not out[1]["ok"] and "night_minutes" in out[1]["ja"]  # dice name the bad setting
    assert out[2]["ok"] and out[3]["ok"]  # the GM resets it: the room plays again
