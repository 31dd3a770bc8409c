"""帽子世界TRPG at the table (issue 13): each rule through ``saikoro play`` with scripted dice.

Fixes 1–5 (HP ≤ 0, a night's rest, sleep, rows, 価値観/禁忌値), the special situations
(LW-SPECIAL-01…08), 帽子解放 and the 価値観 ledger (LW-KEEPER-01/02), and the table-wide
items (HP edits LW-TABLE-02, BCDice conventions LW-TABLE-03, /help LW-TABLE-01).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app

from .helpers import SHEETS, by_name, final_state, play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "littleworld"
GIN = EXAMPLES / "pc_gin_fighter.yaml"  # 体力4 技巧3 理知1 (機械オンチ), cards 剣術 罠設置
MIMI = EXAMPLES / "pc_mimi_scout.json"  # 体力1 (カナヅチ) 技巧4 理知3, スカウト 偵察 開錠, 毒1
LILY = EXAMPLES / "pc_lily_keeper.yaml"  # keeper, 価値観 99, 禁忌値 12, 理知4


def d6(*faces: int) -> list[str]:
    return [f"{f}/6" for f in faces]


def lw(db: str, lines: list[str], rands: list[str] | None = None, **kw: Any) -> list[dict]:
    return play(db, "r", lines, rands, system="LittleWorld", **kw)


def texts(out: list[dict]) -> str:
    return "\n".join(o.get("text", "") for o in out)


def state(db: str) -> dict[str, dict[str, Any]]:
    return by_name(final_state(lw(db, ["/state"])))


# -- fix 1: HP ≤ 0 ------------------------------------------------------------------------


@pytest.mark.rule("LW-HP-02", "LW-ABIL-01", via="table")
def test_hp_at_zero_recovers_only_by_a_logged_gm_ruling(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {SHEETS / 'bob.json'}", "@ボブ :HP=0"])
    out = player(db, ["@ボブ :HP+5", "@ボブ :HP=3", "@ボブ :HP-1"])
    assert [o["ok"] for o in out] == [False, False, True]
    assert out[0]["reason"] == "cannot recover" and "GMの裁定" in out[0]["ja"]
    assert state(db)["ボブ"]["hp"] == -1  # damage still lands
    out = lw(db, ["@ボブ :HP+5", "/log 3"])  # the GM may: logged as a ruling
    assert "GM裁定: HP -1 の ボブ の HP を変更" in out[0]["text"]
    assert "[GM] GM裁定" in out[1]["text"]
    assert state(db)["ボブ"]["hp"] == 4
    lw(db, ["@ボブ :HP=0"])
    out = lw(db, ["/gm set ボブ HP 2"])
    assert out[0]["ok"] and out[0]["text"].count("GM裁定") == 1  # one ruling line
    assert state(db)["ボブ"]["hp"] == 2


# -- fix 2: a night's rest is 安静状態 for its whole length -----------------------------------


@pytest.mark.rule("LW-HP-01", "LW-COND-02", "LW-COND-03", "LW-COND-04", via="table")
def test_a_nights_rest_passes_its_time_at_rest(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(
        db,
        [
            f"/char add {SHEETS / 'alice.json'}",  # 体力3, max HP 12
            f"/char add {SHEETS / 'bob.json'}",  # 体力4, max HP 10
            f"/char add {SHEETS / 'goblin.json'}",
            "@アリス :HP=2",
            "@ボブ :HP=9",
            "/cond add アリス 睡眠",  # asleep: 体力 3 → 1, but she wakes during the night
            "/cond add ゴブリン 麻痺",
            "/cond add ボブ 毒 1",
            "/gm setting night_minutes 120",  # a short night: 4 poison ticks
        ],
    )
    out = lw(db, ["/gm rest"])
    shown = texts(out)
    assert "120分経過" in shown
    s = state(db)
    assert s["アリス"]["conditions"] == [] and s["ゴブリン"]["conditions"] == []
    assert s["アリス"]["hp"] == 2 + 3 + 6  # the real 体力 3 of the woken sleeper
    assert s["ボブ"]["hp"] == min(10, 9 - 4 + 4 + 6)  # four ticks at rest, then 体力+6
    assert s["ボブ"]["conditions"] == ["毒:1"]  # poison does not heal by itself
    # poison that takes HP to 0 during the night: no recovery in the morning (LW-HP-02)
    lw(db, ["@ボブ :HP=3", "/gm setting night_minutes default"])  # 8 hours: 16 ticks
    out = lw(db, ["/gm rest"])
    assert "ボブ は HP 0 以下なので休息で回復しない" in texts(out)
    assert state(db)["ボブ"]["hp"] == 3 - 16
    assert "night_minutes = 480" in texts(lw(db, ["/gm setting"]))


# -- fix 3: sleep lifts after three own actions spent asleep ----------------------------------


@pytest.mark.rule("LW-COND-04", "LW-CHECK-06", via="table")
def test_sleep_lifts_after_the_third_turn_spent_asleep(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(
        db,
        [
            f"/char add {SHEETS / 'alice.json'}",  # 技巧 4
            f"/char add {SHEETS / 'goblin.json'}",
            "/cond add アリス 睡眠",
            "/combat start",
        ],
    )

    def alice_skill() -> tuple[int, list[str]]:
        out = lw(db, ["@アリス LW{技巧}", "/state"], d6(3, 3))
        alice = by_name(out[-1]["state"])["アリス"]
        return int(out[0]["text"].split("+")[1].split()[0]), alice["conditions"]

    for turn in (1, 2, 3):  # every one of the three turns is played asleep (技巧 4 → 2)
        current = final_state(lw(db, ["/state"]))["combat"]["current"]
        if current != "アリス":
            lw(db, ["/next"])
        assert alice_skill() == (2, ["睡眠"]), turn
        out = lw(db, ["/next"])  # her turn ends
        if turn < 3:
            assert "から回復" not in texts(out)
    assert "アリス wakes" in texts(lw(db, ["/log 8"], lang="en"))
    assert alice_skill() == (4, [])  # awake after the third turn


# -- fix 4: rows ------------------------------------------------------------------------------


@pytest.mark.rule("LW-COMBAT-16", via="table")
def test_rows_stay_as_set_and_collapse_only_in_combat(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(
        db,
        [
            f"/char add {SHEETS / 'alice.json'} back",  # no front-liner yet: stays back
            f"/char add {SHEETS / 'bob.json'} front",
            f"/char add {SHEETS / 'goblin.json'}",
        ],
    )
    assert state(db)["アリス"]["row"] == "後衛"
    lw(db, ["@ボブ :HP=0"])
    assert state(db)["アリス"]["row"] == "後衛"  # out of combat: as set
    out = lw(db, ["/combat start"])
    assert "アリス は前衛へ" in texts(out)  # in combat the front row is all down
    assert state(db)["アリス"]["row"] == "前衛"
    kenta = tmp_path / "kenta.json"
    kenta.write_text(
        json.dumps(
            {
                "system": "LittleWorld",
                "name": "ケンタ",
                "max_hp": 10,
                "abilities": {"体力": 3, "技巧": 1, "理知": 2},
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    out = lw(db, [f"/char add {kenta} front"])  # a front-liner joins: re-evaluated
    assert "アリス は後衛に戻る" in texts(out)
    assert state(db)["アリス"]["row"] == "後衛"
    lw(db, ["@ケンタ :HP=0"])  # the front row is down again
    assert state(db)["アリス"]["row"] == "前衛"
    lw(db, ["/combat end"])
    assert state(db)["アリス"]["row"] == "後衛"  # back to the row she was set to
    lw(db, ["/combat start"])  # ボブ and ケンタ are down: アリス moves up again
    lw(db, ["/gm set ケンタ HP 5"])  # healed: by default she stays in front
    assert state(db)["アリス"]["row"] == "前衛"
    lw(db, ["/gm setting rows_return_when_front_recovers true", "/gm set ボブ HP 5"])
    assert state(db)["アリス"]["row"] == "後衛"


# -- fix 5: 価値観 1–99, 禁忌値 0–100 ------------------------------------------------------------


@pytest.mark.rule("LW-ABIL-05", via="table")
def test_values_and_taboo_stay_in_range(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {LILY}"])
    out = lw(
        db,
        [
            "@リリィ :価値観=100",
            "@リリィ :価値観=0",
            "@リリィ :価値観-99",
            "@リリィ :価値観=1",
            "@リリィ :禁忌値=-1",
            "@リリィ :禁忌値-13",
            "@リリィ :禁忌値+200",
        ],
    )
    assert [o["ok"] for o in out] == [False, False, False, True, False, False, True]
    assert "価値観は1〜99%" in out[0]["ja"] and "禁忌値は0以上" in out[4]["ja"]
    assert "禁忌値 12 → 100" in out[6]["text"] and "達した" in out[6]["text"]
    s = state(db)["リリィ"]["statuses"]
    assert s == {"価値観": 1, "禁忌値": 100}


# -- HP edits at the table (table-wide) --------------------------------------------------------


@pytest.mark.rule("LW-TABLE-02", "LW-HP-01", via="table")
def test_hp_edits_are_checked(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(db, [f"/char add {SHEETS / 'alice.json'}"])  # max HP 12
    out = lw(db, ["@アリス :HP=100", "@アリス :MHP=-3", "@アリス :HP--3", "@アリス :MHP=0"])
    assert out[0]["ok"] and "HP 12 → 12" in out[0]["text"]  # healing stops at max HP
    assert [o["ok"] for o in out[1:]] == [False, False, False]
    assert "最大HPは1以上" in out[1]["ja"] and ":HP-3" in out[2]["ja"]
    assert state(db)["アリス"]["hp"] == 12 and state(db)["アリス"]["max_hp"] == 12
    um = str(tmp_path / "um.db")
    out = play(
        um,
        "u",
        [f"/char add {SHEETS / 'ken.json'}", "@ケン :HP=999", "@ケン :MHP=-3", "@ケン :HP--3"],
        system="UnmeiD100",
    )
    assert [o["ok"] for o in out] == [True, False, False, False]
    assert "最大HP" in out[1]["ja"] and "超えられません" in out[1]["ja"]


@pytest.mark.rule("LW-TABLE-02", "LW-ABIL-06", via="table")
def test_a_sheet_without_hp_is_refused_naming_the_field(tmp_path: Path) -> None:
    for system, sheet in (
        ("LittleWorld", {"abilities": {"体力": 2, "技巧": 2, "理知": 2}}),
        (
            "UnmeiD100",
            {
                "abilities": {k: {"value": 10} for k in ("体格", "敏捷度", "魅力", "運命")},
                "skills": {"combat": 50, "thief": 30, "magic": 10},
            },
        ),
    ):
        path = tmp_path / f"{system}.json"
        path.write_text(
            json.dumps({"system": system, "name": "名無し", **sheet}, ensure_ascii=False),
            encoding="utf-8",
        )
        out = play(str(tmp_path / f"{system}.db"), "r", [f"/char add {path}"], system=system)
        assert out[0]["ok"] is False and out[0]["reason"] == "no hp", out
        assert "max_hp" in out[0]["ja"] and "max_hp" in out[0]["en"]


# -- special situations ---------------------------------------------------------------------


@pytest.fixture
def party(tmp_path: Path) -> str:
    db = str(tmp_path / "party.db")
    lw(db, [f"/char add {GIN}", f"/char add {MIMI}", f"/char add {LILY}"])
    return db


def player(db: str, lines: list[str], rands: list[str] | None = None) -> list[dict]:
    """Lines of players (no --gm), each run as the character it speaks for (``--as``); with
    scripted dice, every line is one player's."""
    groups: list[tuple[str, list[str]]] = []
    for line in lines:
        name = line.split()[0].removeprefix("@")
        if groups and groups[-1][0] == name:
            groups[-1][1].append(line)
        else:
            groups.append((name, [line]))
    assert rands is None or len(groups) == 1, "scripted dice for one player at a time"
    out: list[dict] = []
    for name, group in groups:
        out += lw(db, group, rands, gm=False, speaker=name)
    return out


@pytest.mark.rule("LW-SPECIAL-01", "LW-ABIL-02", "LW-ABIL-03", via="table")
def test_specialist_actions_need_their_skill_card(party: str) -> None:
    out = player(party, ["@リリィ /act 開錠 10", "@ギン /act 読心 8", "@リリィ /act 落とし穴 8"])
    assert not any(o["ok"] for o in out)  # refused: no card, no roll (no dice scripted)
    assert "スキルカード「開錠」が必要" in out[0]["ja"]
    out = player(party, ["@ミミ /act 開錠 10"], d6(3, 4))  # card held: 技巧 (setting) check
    assert (
        out[0]["text"] == "ミミ: 開錠 (技巧) ＞ (LW4>=10) ＞ 7[3,4]+4 ＞ 11 ＞ 成功(難易度:難しい)"
    )
    out = player(party, ["@ギン /act 落とし穴 理知 5"], d6(4))  # a booby trap is 罠設置; 理知 1
    assert "(LW1>=5) ＞ 1D6(苦手行動)" in out[0]["text"]
    out = player(party, ["@リリィ /act 水泳 7", "@リリィ /act 落下 9"], d6(2, 2, 5, 5))
    assert "水泳 (体力) ＞ (LW2>=7)" in out[0]["text"]  # not specialist: the task table
    assert "落下 (技巧) ＞ (LW3>=9)" in out[1]["text"]  # a fall: the higher of 体力 2/技巧 3
    out = lw(party, ["@リリィ /act 開錠 技巧 10"], d6(6, 6))  # the GM may allow it
    assert "GM裁定" in out[0]["text"] and "クリティカル" in out[0]["text"]


@pytest.mark.rule("LW-SPECIAL-02", via="table")
def test_riding_needs_a_skill_check_and_no_combat_mounted(party: str) -> None:
    out = player(party, ["@ギン /ride 馬 8", "@ギン /ride 馬 8"], d6(1, 3, 2, 4))
    assert "失敗" in out[0]["text"] and "乗った" not in out[0]["text"]  # 4+3 < 8
    assert "成功" in out[1]["text"] and "ギン は馬に乗った" in out[1]["text"]
    assert state(party)["ギン"]["mounted"] == "馬"
    out = player(party, ["@ミミ /ride ドラゴン 8"])
    assert not out[0]["ok"] and "GMが判断" in out[0]["ja"]
    lw(party, ["/combat start"])
    current = final_state(lw(party, ["/state"]))["combat"]["current"]
    while current != "ギン":
        lw(party, ["/next"])
        current = final_state(lw(party, ["/state"]))["combat"]["current"]
    lw(party, ["/gm setting off_turn_actions free"])  # ミミ may act on ギン's turn (LW-TABLE-09)
    out = player(party, ["@ギン /attack ミミ 体力", "@ミミ /ride 馬 5"])
    assert "騎乗中なので戦闘できません" in out[0]["ja"]
    assert "騎乗したままでは戦闘できません" in out[1]["ja"]  # no mounting in a combat
    out = player(party, ["@ギン /ride off", "@ギン /attack ミミ 体力"], d6(3, 3, 1, 1))
    assert all(o["ok"] for o in out) and "ギン の攻撃" in out[1]["text"]


@pytest.mark.rule("LW-SPECIAL-03", via="table")
def test_vehicles_need_a_check_that_exceeds_the_target(party: str) -> None:
    out = player(party, ["@ギン /drive 船 5", "@ギン /drive 飛行機 5", "@ギン /drive ボート 5"])
    assert not any(o["ok"] for o in out) and "免許" in out[0]["ja"]
    out = player(party, ["@ギン /drive 車 10", "@ギン /drive バイク 10"], d6(3, 4, 4, 4))
    assert "(LW3>=11) ＞ 7[3,4]+3 ＞ 10 ＞ 失敗" in out[0]["text"]  # equal is not above
    assert "目標値10を上回る" in out[0]["text"]
    assert "(LW3>=11) ＞ 8[4,4]+3 ＞ 11 ＞ 成功" in out[1]["text"]
    lw(party, ["/gm setting vehicle_must_exceed false"])
    out = player(party, ["@ギン /drive 車 10"], d6(3, 4))
    assert "(LW3>=10) ＞ 7[3,4]+3 ＞ 10 ＞ 成功" in out[0]["text"]


@pytest.mark.rule("LW-SPECIAL-04", "LW-SPECIAL-05", via="table")
def test_swimming(party: str) -> None:
    out = player(party, ["@ミミ /swim"])
    assert not out[0]["ok"] and "カナヅチなので泳げません" in out[0]["ja"]
    out = player(party, ["@ギン /swim 8"], d6(3, 2))
    assert "潜水限界 約90秒" in out[0]["text"]  # 体力 4 − 1 (lost sword) × 30 s
    assert "(LW3>=8) ＞ 5[3,2]+3 ＞ 8 ＞ 成功" in out[0]["text"]
    lw(party, ["/combat start"])
    while final_state(lw(party, ["/state"]))["combat"]["current"] != "ギン":
        lw(party, ["/next"])
    out = player(party, ["@ギン /attack リリィ 体力"])
    assert "水中なので戦闘できません" in out[0]["ja"]
    lw(party, ["/gm setting water_penalty false"])  # a world with breathable water
    out = player(party, ["@ギン /attack リリィ 体力"], d6(3, 3, 1, 1))
    assert out[0]["ok"]
    out = player(party, ["@ギン /swim off", "@リリィ /swim"])
    assert "水中ペナルティはありません" in out[1]["text"]


@pytest.mark.rule("LW-SPECIAL-06", "LW-SPECIAL-07", via="table")
def test_electronics_and_special_languages(party: str) -> None:
    out = player(party, ["@ギン /device スマホ", "@ミミ /device スマホ"])
    assert not out[0]["ok"] and "機械オンチ" in out[0]["ja"]
    assert out[1]["ok"] and "判定なし" in out[1]["text"]
    out = player(party, ["@リリィ /language 古代語 10", "@リリィ /language 共通語"], d6(3, 2))
    assert "古代語の読解 (理知) ＞ (LW4>=10) ＞ 5[3,2]+4 ＞ 9 ＞ 失敗" in out[0]["text"]
    assert "判定なし" in out[1]["text"]


@pytest.mark.rule("LW-SPECIAL-08", "LW-ABIL-07", via="table")
def test_herb_gathering(party: str) -> None:
    out = player(party, ["@ギン /herb 野山"])
    assert not out[0]["ok"] and "スカウト" in out[0]["ja"]
    out = player(party, ["@ミミ /herb 野山 解毒草"], d6(3, 3))  # 技巧4 + 6 = 10 ≥ 10
    assert "(LW4>=10) ＞ 6[3,3]+4 ＞ 10 ＞ 成功" in out[0]["text"]
    assert "ミミ は解毒草を入手" in out[0]["text"]
    out = player(party, ["@ミミ /herb 野山"])  # once per field per scenario
    assert not out[0]["ok"] and "既に野草採取" in out[0]["ja"]
    out = player(party, ["@ミミ /herb 草原 2"], d6(1, 1))  # target set by the GM; a fumble
    assert "ファンブル" in out[0]["text"] and "入手" not in out[0]["text"]
    out = player(party, ["@ミミ /herb 草原"])  # used up whatever the outcome
    assert not out[0]["ok"]
    assert state(party)["ミミ"]["herbs"] == ["解毒草"]
    out = lw(party, ["/gm scenario end"])
    assert "ミミ の解毒草・薬草は失われた" in texts(out)  # and her sheet's scenario-only 薬草
    assert state(party)["ミミ"]["herbs"] == []
    assert state(party)["ミミ"]["items_lost"] == ["薬草"]
    assert "失われた" not in texts(lw(party, ["/gm scenario end"]))  # nothing left to lose
    out = player(party, ["@ミミ /herb 野山"], d6(1, 2))  # a new scenario: the field again
    assert out[0]["ok"]


@pytest.mark.rule("LW-KEEPER-01", "LW-KEEPER-02", "LW-CHECK-06", via="table")
def test_hat_release_and_the_values_ledger(party: str) -> None:
    out = player(party, ["@ギン /hat release", "@リリィ /hat off", "@リリィ /hat release"])
    assert [o["ok"] for o in out] == [False, True, False]
    assert "管理人ではありません" in out[0]["ja"] and "帽子を被って" in out[2]["ja"]
    out = player(party, ["@リリィ /hat on", "@リリィ /hat release"])
    assert "帽子解放" in out[1]["text"]
    assert state(party)["リリィ"]["hat_released"] is True
    out = player(
        party,
        [
            "@リリィ /reward artifact 3 聖杯 16",  # 28 % less 25 % found discount = 21 %
            "@リリィ /reward exp 10",  # 40 %
            "@リリィ /reward money 1200",  # 40 %: would leave −2 %
            "@リリィ /reward exp 11",
        ],
    )
    assert "価値観21% (28%, 発見割引25%) 価値観 99 → 78" in out[0]["text"]
    assert "価値観 78 → 38" in out[1]["text"]
    assert not out[2]["ok"] and "価値観が足りません" in out[2]["ja"]
    assert not out[3]["ok"] and "10点まで" in out[3]["ja"]
    assert state(party)["リリィ"]["statuses"]["価値観"] == 38


# -- BCDice conventions (LW-TABLE-03) ---------------------------------------------------------


def roll(command: str, rands: str) -> str:
    result = CliRunner().invoke(app, ["roll", "-s", "LittleWorld", "--rands", rands, command])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


@pytest.mark.rule("LW-TABLE-03", "LW-CHECK-01", "LW-CHECK-03", "LW-CHECK-04", via="cli")
def test_bcdice_conventions_on_checks() -> None:
    assert roll("LW3>=10", "1/6,1/6") == "(LW3>=10) ＞ 2[1,1]+3 ＞ 5 ＞ ファンブル"
    assert roll("LW3+1>=10", "4/6,5/6") == "(LW3+1>=10) ＞ 9[4,5]+3+1 ＞ 13 ＞ 成功(難易度:難しい)"
    assert (
        roll("LW1-2>=1", "3/6")
        == "(LW1-2>=1) ＞ 1D6(苦手行動) ＞ 3[3]+1-2 ＞ 2 ＞ 成功(難易度:易しい)"
    )
    assert roll("LW2>=15", "6/6,6/6").endswith("クリティカル(難易度:専門技術があっても困難)")
    assert roll("LWT落下", "") == "(LWT落下) ＞ 高所からの落下(体力/技巧)"
    for command, rands in (("LWA3-2", "6/6,6/6,1/6,2/6"), ("LWO3-2", "3/6,3/6,2/6,4/6")):
        text = roll(command, rands)
        assert not set("（）【】") & set(text), text  # one kind of parentheses


@pytest.mark.rule("LW-TABLE-03", "LW-CHECK-05", via="table")
def test_modifiers_work_with_sheet_references(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    out = lw(db, [f"/char add {SHEETS / 'alice.json'}", "@アリス LW{技巧}+2>=10"], d6(2, 2))
    assert out[1]["text"] == "アリス: (LW4+2>=10) ＞ 4[2,2]+4+2 ＞ 10 ＞ 成功(難易度:難しい)"


# -- /help (LW-TABLE-01) ---------------------------------------------------------------------


@pytest.mark.rule("LW-TABLE-01", via="table")
@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100", "DiceBot"])
def test_help_lists_every_line_the_table_accepts(tmp_path: Path, system: str) -> None:
    from saikoro.table.dispatch import BUILTINS, GM_BUILTINS, tracker_for

    out = play(str(tmp_path / "h.db"), "r", ["/help"], system=system)
    shown = out[0]["text"]
    tracker = tracker_for(system)
    verbs = [*BUILTINS, *tracker.verbs]
    gm = [*GM_BUILTINS, *getattr(tracker, "gm_verbs", {})]
    listed = {line.split()[0] for line in shown.splitlines()}
    listed |= {" ".join(line.split()[:2]) for line in shown.splitlines()}
    missing = [v for v in verbs if f"/{v}" not in listed] + [
        g for g in gm if f"/gm {g}" not in listed
    ]
    assert missing == [], shown
    assert ":HP-3" in shown and "@名前" in shown and "/quit" in shown
    if system == "LittleWorld":
        for line in ("/card カード名", "/gm setting", "/herb 場所", "/gm scenario end"):
            assert line in shown
    if system == "UnmeiD100":
        assert "/gm dying" in shown and "/gm fate reset" in shown
    for line in shown.splitlines():
        assert len(line.split("  ", 1)) == 2 and line.split("  ", 1)[1].strip(), line


@pytest.mark.rule("LW-COND-01", "LW-COND-02", "LW-COND-05", via="table")
def test_cures_at_the_table(party: str) -> None:
    lw(party, ["/cond add ギン 毒 2", "/cond add ギン 混乱", "/cond add ギン 睡眠"])
    lw(party, ["/combat start"])
    while final_state(lw(party, ["/state"]))["combat"]["current"] != "ギン":
        lw(party, ["/next"])
    out = player(party, ["@ギン /attack ミミ 体力"])  # confused: may only move
    assert not out[0]["ok"] and "移動以外の行動が取れません" in out[0]["ja"]
    lw(party, ["/combat end"])
    out = player(party, ["@ミミ /cure ギン 治癒魔法", "@ミミ /cure ギン 病院"])
    assert not out[0]["ok"] and "治癒魔法" in out[0]["ja"]  # ミミ has no such card
    assert "ギン: 病院で混乱が治った" in out[1]["text"]
    assert state(party)["ギン"]["conditions"] == ["毒:2", "睡眠"]
    out = player(party, ["@ミミ /cure ギン 教会"])
    assert not out[0]["ok"]  # nothing a church cures is left
    out = player(party, ["@リリィ /cure ギン 治癒魔法"])  # 治癒魔法 cures every condition
    assert "毒が治った" in out[0]["text"] and "睡眠が治った" in out[0]["text"]
    assert state(party)["ギン"]["conditions"] == []
    lw(party, ["/cond add ミミ 毒 3"])
    player(party, ["@ミミ /herb 野山"], d6(6, 6))
    assert state(party)["ミミ"]["herbs"] == ["薬草"]
    out = player(party, ["@ミミ /cure ミミ 中和剤"])  # she holds none (LW-TABLE-08)
    assert not out[0]["ok"] and "中和剤を持っていません" in out[0]["ja"]
    lw(party, ["/gm item ミミ 中和剤"])  # the GM gives her one
    out = player(party, ["@ミミ /cure ミミ 中和剤"])
    assert "毒が治った" in out[0]["text"]
    assert state(party)["ミミ"]["inventory"] == {"薬草": 1}  # used up; the sheet's 薬草 kept


@pytest.mark.rule("LW-ABIL-07", via="table")
def test_money_is_a_value_at_the_table(party: str) -> None:
    out = player(party, ["@リリィ :cr-50", "@リリィ 1D6+{cr}", "@リリィ :cr-300"], d6(1))
    assert out[0]["text"] == "リリィ: cr 300 → 250"
    assert "(1D6+250)" in out[1]["text"]
    assert not out[2]["ok"] and "所持金" in out[2]["ja"]


@pytest.mark.rule("LW-COND-04", via="table")
def test_turns_spent_asleep_carry_over_to_the_next_combat(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(
        db,
        [
            f"/char add {SHEETS / 'alice.json'}",  # 技巧 4 → 2 asleep: acts after the goblin
            f"/char add {SHEETS / 'goblin.json'}",
            "/cond add アリス 睡眠",
            "/combat start",  # ゴブリン first
            "/next",  # アリス's first turn asleep
            "/next",  # round 2: ゴブリン
            "/next",  # アリス's second turn asleep
            "/combat end",
        ],
    )
    assert state(db)["アリス"]["conditions"] == ["睡眠"]
    out = lw(db, ["/combat start", "/next", "/next"])  # ゴブリン, アリス (third), next
    assert "アリス: 睡眠 から回復 (自身の行動を3回消費)" in texts(out)
    assert state(db)["アリス"]["conditions"] == []


@pytest.mark.rule("LW-HP-01", "LW-COND-04", via="table")
def test_rest_heals_by_the_real_body_even_of_a_sleeper(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lw(
        db,
        [
            f"/char add {SHEETS / 'alice.json'}",  # 体力 3
            "@アリス :HP=1",
            "/cond add アリス 睡眠",
            "/gm setting night_minutes 30",  # too short a night to wake (about an hour)
        ],
    )
    lw(db, ["/gm rest"])
    alice = state(db)["アリス"]
    assert alice["conditions"] == ["睡眠"] and alice["hp"] == 1 + 3 + 6  # not 3 // 2
