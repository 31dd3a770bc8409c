"""Issue 13: ``/levelup NAME`` at the table (UM-LEVEL-05) through ``saikoro play``, scripted dice.

Sheets (tests/table/sheets): リン (PC lv3: 片手剣 1D8 + 盾 in hand, 弓 1D6, 大槍 2D6 両手;
戦闘60 盗賊50 敏捷度10 運命10 → fate 50), ケン (PC lv2: 剣 2D6 in hand, 弓 1D6), ミア (PC lv1,
no weapon: chants 火球), オーク (mob: 斧 1D10, AC15), 騎士 (named lv4, mounted), セージ (the
formula table on: 戦闘 = 体格×3+敏捷度, AC = 敏捷度×2, 最大HP = 体格×2).
"""

from __future__ import annotations

import pytest

from tests.table.helpers import SHEETS, play
from tests.unmeid100.table_helpers import UM, chars, refused, run


@pytest.mark.rule("UM-LEVEL-05", "UM-LEVEL-02", "UM-LEVEL-01", "UM-LEVEL-04", via="table")
def test_levelup_rolls_the_growth_rates_with_the_ritual_bonus(tmp_path):
    out = run(
        tmp_path,
        [
            # 体格 30 + ほにゃらら儀式 20 = 50: 45 rises; 敏捷度 41 > 40; 魅力 11 > 10; 運命 6 > 5
            "/levelup リン",
            "@リン 1D100<={体格}",
            "/gm fate reset",  # the fate count follows the new level from the reset
        ],
        ["45/100", "41/100", "11/100", "6/100", "1/100"],
        sheets=("rin",),
    )
    assert refused(out) == []
    rolled = out[0]["text"]
    assert "(GROW体格50,敏捷度40,魅力10,運命5) ＞ 成長判定" in rolled
    assert "[体格]45<=50↑ [敏捷度]41>40 [魅力]11>10 [運命]6>5 ＞ 体格が+1" in rolled
    assert "リン: 体格 12 → 13" in rolled
    assert "レベル 3 → 4 (運命判定 3 → 4 回/セッション" in rolled
    assert "(1D100<=13)" in out[1]["text"]
    assert chars(out)["リン"]["fate_left"] == 4


@pytest.mark.rule("UM-LEVEL-05", "UM-LEVEL-02", via="table")
def test_growth_rate_references_work_in_typed_commands(tmp_path):
    out = run(
        tmp_path,
        ["@リン GROW体格{体格成長率},運命{運命成長率}", "@リン :体格成長率+60"],
        ["50/100", "99/100"],
        sheets=("rin",),
    )
    assert "(GROW体格50,運命5)" in out[0]["text"]
    assert refused(out) == ["@リン :体格成長率+60"]  # 110 > 100


@pytest.mark.rule("UM-LEVEL-05", "UM-LEVEL-02", via="table")
def test_when_no_ability_rose_the_player_picks_one(tmp_path):
    out = run(
        tmp_path,
        [
            "/levelup ケン",  # every growth rate is 0: nothing rises
            "/levelup ケン",  # refused: the pick comes first
            "/levelup ケン 幸運",  # refused: not an ability
            "/levelup ケン 魅力",  # 8 → 9
            "/levelup ケン 魅力",  # refused: no pick owed
        ],
        ["1/100", "2/100", "3/100", "4/100"],
        sheets=("ken",),
    )
    assert refused(out) == ["/levelup ケン", "/levelup ケン 幸運", "/levelup ケン 魅力"]
    assert "好きな能力値を1つ選んで+1 (/levelup ケン 体格|敏捷度|魅力|運命)" in out[0]["text"]
    c = chars(out)["ケン"]
    assert c["statuses"] == {"レベル": 3, "魅力": 9}
    assert c.get("levelup_pick") is None


@pytest.mark.rule("UM-LEVEL-05", "UM-LEVEL-01", via="table")
def test_levelup_is_refused_at_level_10_for_the_dead_and_in_combat(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm set リン レベル 10",
            "/levelup リン",  # refused: maximum level
            "/gm dying オーク 死亡",
            "/levelup オーク",  # refused: only survivors
            "/combat start",
            "/levelup ケン",  # refused: at the end of a session, not in a combat
        ],
        sheets=("rin", "ken", "orc"),
    )
    assert refused(out) == ["/levelup リン", "/levelup オーク", "/levelup ケン"]
    assert "最大 10" in out[1]["ja"]


@pytest.mark.rule("UM-LEVEL-05", via="table")
def test_a_player_levels_up_only_their_own_character(tmp_path):
    db = str(tmp_path / "p.db")
    added = play(
        db,
        "r",
        [*(f"/char add {SHEETS}/{n}.json" for n in ("ken", "mia")), "/gm session end"],
        system=UM,
    )
    assert all(o["ok"] for o in added)  # the session survived lets each level up (UM-LEVEL-06)
    out = play(
        db,
        "r",
        ["/levelup ミア", "/levelup ケン", "/levelup ケン 体格", "/state"],
        ["1/100", "2/100", "3/100", "4/100"],
        gm=False,
        speaker="ケン",  # ケン's player
    )
    assert refused(out) == ["/levelup ミア"]
    assert "本人か GM だけ" in out[0]["ja"]
    assert chars(out)["ケン"]["statuses"] == {"レベル": 3, "体格": 11}
