"""Issue 13, UnmeiD100 fixes 6–11, each through ``saikoro play`` with scripted dice.

Sheets (tests/table/sheets): リン (PC lv3: 片手剣 1D8 + 盾 in hand, 弓 1D6, 大槍 2D6 両手;
戦闘60 盗賊50 敏捷度10 運命10 → fate 50), ケン (PC lv2: 剣 2D6 in hand, 弓 1D6), ミア (PC lv1,
no weapon: chants 火球), オーク (mob: 斧 1D10, AC15), 騎士 (named lv4, mounted), セージ (the
formula table on: 戦闘 = 体格×3+敏捷度, AC = 敏捷度×2, 最大HP = 体格×2).
"""

from __future__ import annotations

import pytest

from tests.unmeid100.table_helpers import NEXT_ROUND, chars, refused, run, text

# -- fix 6: fate (a) after any failed check ---------------------------------------------


@pytest.mark.rule("UM-FATE-02", "UM-CHECK-01", via="table")
def test_fate_turns_a_failed_check_typed_at_the_table_into_a_success(tmp_path):
    out = run(
        tmp_path,
        [
            "@リン /fate success",  # refused: no failed check yet (no fate use spent)
            "@リン 1D100<={戦闘}",  # 80 > 60: failure
            "@リン /fate success",  # 運命10 × 5 = 50: 30 succeeds → the check succeeds
            "@リン /fate success",  # refused: that check is already rescued
            "@ケン 1D100<=40",  # 90: failure …
            "@ケン 1D100<=40",  # … then 10: success — the failed check is no longer the last
            "@ケン /fate success",  # refused
            "@ミア FATE12",  # a failed fate roll is not an action check
            "@ミア /fate success",  # refused
        ],
        ["80/100", "30/100", "90/100", "10/100", "99/100"],
    )
    assert refused(out) == [
        "@リン /fate success",
        "@リン /fate success",
        "@ケン /fate success",
        "@ミア /fate success",
    ]
    rescued = next(o for o in out if o["ok"] and o["line"] == "@リン /fate success")
    assert "「(1D100<=60) ＞ 80 ＞ 失敗」を成功にした" in rescued["text"]
    assert chars(out)["リン"]["fate_left"] == 2  # lv3: one of three spent
    assert chars(out)["ケン"]["fate_left"] == 2


@pytest.mark.rule("UM-FATE-02", "UM-MELEE-01", via="table")
def test_fate_after_a_typed_melee_command(tmp_path):
    out = run(tmp_path, ["@リン MA60,30,10", "@リン /fate a"], ["61/100", "50/100"])
    assert refused(out) == []
    assert "を成功にした" in out[1]["text"]


# -- fix 7: /shoot needs a bow, /melee a melee weapon; a weapon not held is refused ---------


@pytest.mark.rule("UM-EQUIP-01", "UM-RANGED-01", "UM-MELEE-01", "UM-DMG-01", via="table")
def test_attacks_use_the_weapon_in_hand(tmp_path):
    out = run(
        tmp_path,
        [
            "/combat start",  # offered order: ケン 12, リン 10, オーク 10, ミア 8
            "@ケン /shoot オーク",  # refused: ケン holds 剣, his 弓 is not in hand
            "@ケン /melee オーク 弓",  # refused: a bow is not a melee weapon
            "@ケン /melee オーク 斧",  # refused: no such weapon on ケン's sheet
            "@ケン /melee オーク",  # 剣 2D6: 30 hits, [3,4] → オーク 15 → 8
            "/next リン",
            "@リン /melee オーク 大槍",  # refused: 大槍 is not in hand
            "@リン /shoot オーク 片手剣",  # refused: not a bow
            "@リン /melee オーク",  # 片手剣 1D8: 40 hits, [5] → オーク 8 → 3
            "/next オーク",
            "@オーク /shoot リン",  # refused: オーク has no bow at all
            "@オーク /melee リン",  # 斧 1D10: 50 ≤ 50 > AC10, [2] → リン 20 → 18
        ],
        ["30/100", "3/6", "4/6", "40/100", "5/8", "50/100", "2/10"],
    )
    assert refused(out) == [
        "@ケン /shoot オーク",
        "@ケン /melee オーク 弓",
        "@ケン /melee オーク 斧",
        "@リン /melee オーク 大槍",
        "@リン /shoot オーク 片手剣",
        "@オーク /shoot リン",
    ]
    assert "弓 を手に持っていません" in text(out, "@ケン /shoot オーク")["ja"]
    assert "射撃武器" in text(out, "@ケン /melee オーク 弓")["ja"]
    assert "弓が必要" in text(out, "@オーク /shoot リン")["ja"]
    c = chars(out)
    assert (c["オーク"]["hp"], c["リン"]["hp"]) == (3, 18)


@pytest.mark.rule("UM-EQUIP-01", "UM-RANGED-01", "UM-SWITCH-01", via="table")
def test_a_shot_after_taking_the_bow_in_hand_uses_the_bow_damage(tmp_path):
    out = run(
        tmp_path,
        [
            "/combat start",  # リン first (敏捷度 10, tied with オーク: listed first)
            "@リン /switch 弓",  # a turn; the shield stays (弓 is not two-handed in the sheet)
            "@リン /shoot オーク",  # refused: the turn was used by the switch
            *NEXT_ROUND,
            "@リン /shoot オーク",  # 盗賊50/2 = 25: 20 > AC15 hits; 弓 1D6 [4] → オーク 15 → 11
        ],
        ["20/100", "4/6"],
        sheets=("rin", "orc"),
    )
    assert refused(out) == ["@リン /shoot オーク"]
    assert chars(out)["リン"]["held"] == ["弓"]
    assert chars(out)["オーク"]["hp"] == 11
    shot = next(o for o in out if o["line"] == "@リン /shoot オーク" and o["ok"])
    assert "ダメージ 1D6 ＞ 4" in shot["text"]


@pytest.mark.rule("UM-EQUIP-01", "UM-MELEE-01", via="table")
def test_bare_hands_are_the_named_default_melee_weapon(tmp_path):
    out = run(
        tmp_path,
        ["/gm setting default_melee_damage 1D3", "@ミア /melee オーク"],
        ["16/100", "3/3"],
        sheets=("mia", "orc"),
    )
    assert refused(out) == []
    assert "ダメージ 1D3 ＞ 3" in out[1]["text"]
    assert chars(out)["オーク"]["hp"] == 12


# -- fix 8: any HP loss breaks a chant ------------------------------------------------------


@pytest.mark.rule("UM-MAGIC-01", via="table")
@pytest.mark.parametrize(
    "hurt",
    ["@ミア :HP-1", "/gm set ミア hp 10", "@ミア :HP=13"],
    ids=["player-edit", "gm-set", "poison-like-edit"],
)
def test_any_hp_loss_breaks_the_chant(tmp_path, hurt):
    out = run(tmp_path, ["@ミア /chant 火球", hurt, "@ミア :HP+1"], sheets=("mia",))
    assert refused(out) == []
    assert "詠唱が途切れた" in out[1]["text"]
    assert chars(out)["ミア"]["chant"] is None


@pytest.mark.rule("UM-MAGIC-01", via="table")
def test_healing_does_not_break_the_chant(tmp_path):
    out = run(tmp_path, ["@ミア :HP-1", "@ミア /chant 火球", "@ミア :HP+1"], sheets=("mia",))
    assert chars(out)["ミア"]["chant"] == {"spell": "火球", "since_own_turn": 0}


# -- fix 9: switching costs the turn, except dropping the shield ---------------------------


@pytest.mark.rule("UM-SWITCH-01", "UM-EQUIP-01", via="table")
def test_switching_weapons_costs_the_turn_but_dropping_the_shield_does_not(tmp_path):
    out = run(
        tmp_path,
        [
            "/combat start",  # リン first
            "@リン /switch shield",  # no turn used: リン now wields 片手剣 in both hands
            "@リン /switch shield",  # refused: no shield any more
            "@リン /melee オーク",  # and attacks at once: 40 hits, 1D8 [6] → 15 → 9
            *NEXT_ROUND,
            "@リン /switch 大槍",  # a turn
            "@リン /melee オーク",  # refused: the turn is used
            *NEXT_ROUND,
            "@リン /melee オーク",  # 大槍 2D6: 30 hits, [1,2] → 9 → 6
        ],
        ["40/100", "6/8", "30/100", "1/6", "2/6"],
        sheets=("rin", "orc"),
    )
    assert refused(out) == ["@リン /switch shield", "@リン /melee オーク"]
    c = chars(out)
    assert (c["リン"]["held"], c["リン"]["shield"], c["オーク"]["hp"]) == (["大槍"], False, 6)


@pytest.mark.rule("UM-SWITCH-01", "UM-EQUIP-01", via="table")
def test_a_two_handed_weapon_is_taken_without_the_shield(tmp_path):
    out = run(tmp_path, ["@リン /switch 大槍"], sheets=("rin",))
    assert (chars(out)["リン"]["held"], chars(out)["リン"]["shield"]) == (["大槍"], False)
    assert "手に: 大槍" in out[0]["text"]


# -- fix 10: level within 1–10; fate uses follow the current level -------------------------


@pytest.mark.rule("UM-LEVEL-01", "UM-FATE-01", "UM-FATE-03", "UM-LEVEL-04", via="table")
def test_level_stays_within_1_to_10_and_fate_uses_follow_it(tmp_path):
    out = run(
        tmp_path,
        [
            "@リン :レベル=11",  # refused
            "@リン :レベル-3",  # refused: 0
            "/gm set リン レベル 0",  # refused
            "@リン :レベル=5",
            "@オーク :レベル=5",  # a mob still has one fate use
            "@騎士 :レベル+2",  # a named NPC: as many as its level (4 → 6)
            "/gm fate reset",
        ],
        sheets=("rin", "orc", "knight"),
    )
    assert refused(out) == ["@リン :レベル=11", "@リン :レベル-3", "/gm set リン レベル 0"]
    assert "1〜10" in out[0]["ja"] and "UM-LEVEL-01" in out[0]["ja"]
    c = chars(out)
    assert (c["リン"]["fate_left"], c["オーク"]["fate_left"], c["騎士"]["fate_left"]) == (5, 1, 6)


# -- fix 11: the optional formula table follows raised abilities ----------------------------


@pytest.mark.rule("UM-LEVEL-03", via="table")
def test_raising_an_ability_recomputes_the_derived_values(tmp_path):
    out = run(
        tmp_path,
        [
            "@セージ 1D100<={戦闘スキル}",  # 体格10×3 + 敏捷度8 = 38
            "@セージ :体格+1",  # 戦闘 41, 最大HP 20 → 22
            "@セージ :敏捷度+2",  # 戦闘 43, AC 16 → 20
            "@セージ 1D100<={戦闘}",
            "@セージ 1D100<={AC}",
            "@セージ :戦闘=50",  # the GM's (or player's) own edit of a derived value wins
            "@セージ :体格+1",
            "@セージ 1D100<={戦闘}",
        ],
        ["1/100", "1/100", "1/100", "1/100"],
        sheets=("sage",),
    )
    assert refused(out) == []
    assert "(1D100<=38)" in out[0]["text"]
    assert "(1D100<=43)" in out[3]["text"] and "(1D100<=20)" in out[4]["text"]
    assert "(1D100<=50)" in out[7]["text"]
    assert chars(out)["セージ"]["max_hp"] == 24


# -- UM-MELEE-02 at the table: a critical triggers the weapon's abilities -------------------


@pytest.mark.rule("UM-MELEE-02", "UM-MELEE-01", "UM-DMG-01", via="table")
def test_a_critical_triggers_hissatsu_renzoku_and_gm_defined_abilities(tmp_path):
    out = run(
        tmp_path,
        # 9 ≤ 敏捷度9: critical; 必殺: 2D8 rolled twice [1,2]+[3,4] = 10 → オーク 15 → 5
        ["@騎士 /melee オーク"],
        ["9/100", "1/8", "2/8", "3/8", "4/8"],
        sheets=("knight", "orc"),
    )
    assert refused(out) == []
    said = out[0]["text"]
    assert "クリティカルヒット！ 命中" in said
    assert "クリティカル効果 (GM裁定): 連続: もう一度攻撃できる、貫通" in said
    assert "ダメージ 2D8×2 ＞ 10" in said
    assert chars(out)["オーク"]["hp"] == 5
