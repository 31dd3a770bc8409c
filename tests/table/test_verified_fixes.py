"""Defects verifiers found through ``saikoro play --rands …`` (issue 13, round 2): house rules
in typed commands, GM rulings that name the value applied, max HP lowered below HP,
``@NAME:HP-1`` typed with no space, status keys in any case or English, ``/gm setting``
help. Each through the table (``saikoro play``) with scripted dice."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import SHEETS, by_name, final_state, play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "littleworld"
GIN = EXAMPLES / "pc_gin_fighter.yaml"  # max HP 20
LILY = EXAMPLES / "pc_lily_keeper.yaml"  # 禁忌値 12
KEN = SHEETS / "ken.json"  # UnmeiD100, HP 20, レベル 2


def lw(tmp_path: Path, lines: list[str], rands: list[str] | None = None, **kw: Any) -> list[dict]:
    added = [f"/char add {GIN}", f"/char add {LILY}"]
    out = play(str(tmp_path / "t.db"), "r", [*added, *lines, "/state"], rands, **kw)
    return out[len(added) :]


def um(tmp_path: Path, lines: list[str], rands: list[str] | None = None, **kw: Any) -> list[dict]:
    added = [f"/char add {KEN}"]
    out = play(
        str(tmp_path / "u.db"), "r", [*added, *lines, "/state"], rands, system="UnmeiD100", **kw
    )
    return out[len(added) :]


def chars(out: list[dict]) -> dict[str, dict[str, Any]]:
    return by_name(final_state(out))


# -- item 1: the room's house rules reach typed commands ----------------------------------


@pytest.mark.rule("LW-CHECK-03", "LW-COMBAT-06", via="table")
def test_littleworld_house_rule_reaches_typed_commands_through_play(tmp_path: Path) -> None:
    out = lw(
        tmp_path,
        ["LW3>=4", "/gm setting critical_sixes 3", "LW3>=4", "LWA3-2"],
        ["6/6", "6/6", "6/6", "6/6", "6/6", "6/6", "3/6", "4/6"],
        system="LittleWorld",
    )
    assert "クリティカル" in out[0]["text"]
    assert out[2]["text"] == "GM: (LW3>=4) ＞ 12[6,6]+3 ＞ 15 ＞ 成功(難易度:易しい)"
    assert out[3]["ok"] and "クリティカル" not in out[3]["text"]


@pytest.mark.rule("UM-MELEE-01", via="table")
def test_unmeid100_house_rule_reaches_typed_commands_through_play(tmp_path: Path) -> None:
    """``melee_equal_ac_blocks false``: a roll equal to the AC hits (it is stopped by default)."""
    out = um(
        tmp_path,
        ["MA60,30,12", "/gm setting melee_equal_ac_blocks false", "MA60,30,12"],
        ["30/100", "30/100"],
    )
    assert out[0]["text"].endswith("＞ 30 ＞ 失敗(アーマークラスに防がれた)")
    assert out[2]["text"].endswith("＞ 30 ＞ 命中")


# -- item 4: a GM ruling says the value it applied ----------------------------------------


@pytest.mark.rule("LW-TABLE-04", "LW-ABIL-05", "LW-HP-01", via="table")
def test_a_gm_ruling_names_the_value_actually_applied(tmp_path: Path) -> None:
    out = lw(tmp_path, ["/gm set リリィ 禁忌値 101", "/gm set ギン HP 100"], system="LittleWorld")
    assert "禁忌値 12 → 100" in out[0]["text"]
    assert "GM裁定: リリィ の 禁忌値 を 100 に (101 は範囲外)" in out[0]["text"]
    assert "を 101 に" not in out[0]["text"]
    assert "GM裁定: ギン の HP を 20 に (100 は範囲外)" in out[1]["text"]
    assert chars(out)["リリィ"]["statuses"]["禁忌値"] == 100


# -- item 5: max HP lowered below HP brings HP down -----------------------------------------


@pytest.mark.rule("LW-TABLE-04", "LW-TABLE-02", via="table")
def test_lowering_max_hp_below_hp_brings_hp_down_in_littleworld(tmp_path: Path) -> None:
    out = lw(tmp_path, ["@ギン :MHP=5", "@ギン :MHP=30"], system="LittleWorld")
    assert "GM: ギン HP 20 → 5 (最大HP 5)" in out[0]["text"]
    gin = chars(out)["ギン"]
    assert (gin["hp"], gin["max_hp"]) == (5, 30)  # raising it again does not heal


@pytest.mark.rule("UM-TABLE-04", "UM-FATE-04", via="table")
def test_lowering_max_hp_to_zero_brings_hp_to_zero_in_unmeid100(tmp_path: Path) -> None:
    """HP follows max HP down to 0, which is the dying fate check (UM-FATE-04: 50 ≤ 運命10×5)."""
    out = um(tmp_path, ["@ケン :HP-2", "@ケン :MHP=0"], ["50/100"])
    assert "GM: ケン HP 18 → 0 (最大HP 0)" in out[1]["text"]
    assert "成功: 気絶" in out[1]["text"]
    ken = chars(out)["ケン"]
    assert (ken["hp"], ken["max_hp"]) == (0, 0)


# -- item 6: @NAME:HP-1 with no space -------------------------------------------------------


@pytest.mark.rule("UM-TABLE-01", via="table")
def test_a_status_edit_glued_to_the_name_is_a_status_edit(tmp_path: Path) -> None:
    out = um(tmp_path, ["@ケン:HP-1", "＠ケン：ＨＰ－１", "@ケン:こんにちは"])
    assert [o["ok"] for o in out[:3]] == [True, True, True]
    assert out[0]["text"] == "GM: ケン HP 20 → 19"
    assert out[1]["text"] == "GM: ケン HP 19 → 18"
    assert out[2]["text"] == "GM: @ケン:こんにちは"  # chat with a colon stays chat
    assert chars(out)["ケン"]["hp"] == 18


@pytest.mark.rule("LW-TABLE-04", via="table")
def test_a_glued_status_edit_in_littleworld(tmp_path: Path) -> None:
    out = lw(tmp_path, ["@ギン:HP-1", "@ミミ:HP-1"], system="LittleWorld")
    assert out[0]["text"] == "GM: ギン HP 20 → 19"
    assert out[1]["reason"] == "unknown character"  # not here: refused, not logged as chat


# -- item 11: status keys in any case, by English name; level 1–10 --------------------------


@pytest.mark.rule("UM-LEVEL-01", "UM-TABLE-04", via="table")
def test_status_keys_in_any_case_and_by_their_english_names(tmp_path: Path) -> None:
    out = um(
        tmp_path,
        [
            "/gm set ケン level 11",
            "/gm set ケン LEVEL 0",
            "/gm set ケン level 5",
            "/gm set ケン ac 25",
            "@ケン :Combat+5",
            "/gm set ケン nosuch 1",
        ],
    )
    assert [o["ok"] for o in out[:6]] == [False, False, True, True, True, False]
    assert out[0]["reason"] == "out of range" and "UM-LEVEL-01" in out[0]["ja"]
    assert "レベル" in out[0]["ja"] and "1〜10" in out[0]["ja"]
    assert "ケン: レベル 2 → 5" in out[2]["text"]
    assert out[5]["reason"] == "unknown status"
    ken = chars(out)["ケン"]
    assert ken["statuses"]["レベル"] == 5
    assert ken["statuses"]["AC"] == 25
    assert ken["statuses"]["戦闘"] == 65


# -- item 2: one kind of parentheses in UnmeiD100 result texts ------------------------------


@pytest.mark.rule("UM-TABLE-03", "UM-MELEE-01", "UM-RANGED-01", "UM-MAGIC-02", via="table")
def test_unmeid100_result_texts_use_one_kind_of_parentheses(tmp_path: Path) -> None:
    out = um(
        tmp_path,
        ["MA10,5,20", "MA60,30,12", "RA40,10,5", "MG70", "MG90,80,15"],
        ["30/100", "25/100", "50/100", "71/100", "80/100"],
    )
    texts = [o["text"] for o in out[:5]]
    assert texts[0].endswith("＞ 30 ＞ 失敗(外れ)")
    assert texts[1].endswith("＞ 25 ＞ 失敗(アーマークラスに防がれた)")
    assert texts[3].endswith("＞ 71 ＞ 発動失敗(詠唱継続)")
    assert texts[4].endswith("＞ 発動 ＞ 失敗(レジストクラスに抵抗された)")
    for text in texts:
        assert not set("（）") & set(text), text


# -- item 7: /gm setting explains each setting -------------------------------------------------


@pytest.mark.rule("LW-TABLE-05", "LW-HP-01", via="table")
def test_gm_setting_lists_explains_and_finds_settings_in_littleworld(tmp_path: Path) -> None:
    out = lw(
        tmp_path,
        [
            "/gm setting NIGHT_MINUTES 600",
            "/gm setting",
            "/gm setting night_minutes",
            "/gm setting nosuch 1",
            "/gm setting night_minute",
            "/gm setting night_minutes 1 2",
        ],
        system="LittleWorld",
    )
    assert [o["ok"] for o in out[:6]] == [True, True, True, False, False, False]
    assert "GM裁定: 設定 night_minutes = 600" in out[0]["text"]
    listing = out[1]["text"].splitlines()
    from saikoro.systems.littleworld.settings import LittleWorldSettings

    every = len(LittleWorldSettings.model_fields)
    assert len([row for row in listing if " = " in row]) == every  # every setting, one line each
    assert (
        "night_minutes = 600 *  (既定: 480) 一晩の休息 (/gm rest) の長さ (分)。すべて安静状態"
        in (listing)
    )
    assert out[2]["text"].startswith("night_minutes = 600 *  (既定: 480) 一晩の休息")
    assert out[3]["reason"] == "unknown setting" and "critical_sixes" in out[3]["ja"]
    assert (
        "night_minutes のことですか" in out[4]["ja"]
        and "did you mean night_minutes" in out[4]["en"]
    )


@pytest.mark.rule("LW-TABLE-05", "LW-SPECIAL-03", via="table")
def test_gm_setting_values_may_hold_spaces_and_lists_may_be_words(tmp_path: Path) -> None:
    """The value is the rest of the line; a list is JSON or words between commas (a list
    setting could not hold a name with a space: the line was refused as too many words)."""
    out = lw(
        tmp_path,
        [
            "/gm setting licence_vehicles 船、大型 ボート, 飛行機",
            "/gm setting licence_vehicles",
            '/gm setting check_vehicles ["車", "大型 トラック"]',
            "/gm setting check_vehicles",
            "/gm setting confusion_label 大 混乱",
            "/gm setting critical_sixes 3 4",
        ],
        system="LittleWorld",
    )
    assert [o["ok"] for o in out[:6]] == [True, True, True, True, True, False]
    assert out[1]["text"].startswith('licence_vehicles = ["船", "大型 ボート", "飛行機"] *')
    assert out[3]["text"].startswith('check_vehicles = ["車", "大型 トラック"] *')
    assert out[4]["text"] == "GM裁定: 設定 confusion_label = 大 混乱"
    assert "critical_sixes に '3 4' は使えません" in out[5]["ja"]


@pytest.mark.rule("UM-TABLE-06", "UM-RANGE-01", via="table")
def test_gm_setting_lists_explains_and_finds_settings_in_unmeid100(tmp_path: Path) -> None:
    out = um(
        tmp_path, ["/gm setting Bow_Range_M", "/gm setting melee_reach 2", "/gm setting"], lang="en"
    )
    assert out[0]["text"] == (
        "bow_range_m = 50  (default: 50) UM-RANGE-01/UM-RANGED-01: the bow's effective range "
        "in metres; a farther individual cannot be shot (seed: 50 m)."
    )
    assert out[1]["reason"] == "unknown setting" and "melee_reach_m" in out[1]["en"]
    rows = [row for row in out[2]["text"].splitlines() if " = " in row]
    from saikoro.systems.unmeid100.settings import UnmeiSettings

    assert len(rows) == len(UnmeiSettings.model_fields) >= 18
    assert all("(default: " in row for row in rows)


# -- item 3: /help and the web page show the room's own system ----------------------------------


@pytest.mark.rule("UM-TABLE-07", via="table")
def test_unmeid100_help_is_its_own_and_japanese(tmp_path: Path) -> None:
    out = um(tmp_path, ["/help", f"/char add {SHEETS / 'orc.json'} front"])
    ja = out[0]["text"]
    assert "{体力}" not in ja and "front|back" not in ja
    assert "1D100<={戦闘}  ダイス" in ja
    assert "/char add PATH [pc|npc] · /char list" in ja
    gm_lines = [line for line in ja.splitlines() if line.startswith("/gm ")]
    for verb in ("dying", "fate reset", "place", "hold", "cond"):
        line = next(x for x in gm_lines if x.startswith(f"/gm {verb}"))
        assert re.search(r"[\u3040-\u30ff]", line.split("  ", 1)[1]), line  # Japanese words
    assert "how soon is theirs" not in ja
    assert out[1]["reason"] is not None and "pc/npc" in out[1]["ja"]  # no rows here


@pytest.mark.rule("LW-TABLE-01", via="table")
def test_littleworld_help_keeps_its_rows_and_example(tmp_path: Path) -> None:
    out = lw(tmp_path, ["/help", "/help"], system="LittleWorld", lang="en")
    assert "2D6+{体力}>=10  dice" in out[0]["text"]
    assert "/char add PATH [pc|npc] [front|back]" in out[0]["text"]


def test_the_web_page_gets_the_systems_dice_example() -> None:
    from fastapi.testclient import TestClient

    from saikoro.server.app import create_app

    client = TestClient(create_app())
    examples = {
        system: client.get(f"/api/systems/{system}/webtable").json()["line_example"]
        for system in ("LittleWorld", "UnmeiD100", "DiceBot")
    }
    assert examples == {
        "LittleWorld": "2D6+{体力}>=10",
        "UnmeiD100": "1D100<={戦闘}",
        "DiceBot": "2D6>=8",
    }
