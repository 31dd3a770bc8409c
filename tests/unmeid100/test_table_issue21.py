"""Issue 21 (UnmeiD100) at the table: one gate for every action (UM-TABLE-08), growth once
per session survived (UM-LEVEL-06), dying without fate (UM-FATE-07) — through ``saikoro
play`` (player lines ``--as NAME`` and the GM's) and through the table API."""

from __future__ import annotations

import pytest

from tests.unmeid100.issue21_tables import ApiTable, PlayTable, refused

# -- point 1: one gate for every action (UM-TABLE-08) ------------------------------------------

EVERY_ACTION = [
    "/melee オーク",
    "/shoot オーク",
    "/aim",
    "/chant 火球",
    "/cast オーク",
    "/defend",
    "/move 3",
    "/switch 弓",
    "/mount",
]


@pytest.mark.rule("UM-TABLE-08", "UM-FATE-04", via="table")
def test_an_unconscious_player_can_take_no_action_but_a_fate_check(tmp_path):
    table = PlayTable(tmp_path)
    # オーク hits リン (HP 6) for 10: HP -4, the dying check (5 <= 50): 気絶
    table.gm(["/gm set リン hp 6", "@オーク /melee リン"], ("20/100", "10/10", "5/100"))
    out = table.player("リン", [*EVERY_ACTION, "/fate half"], ("1/100",))
    assert refused(out) == EVERY_ACTION
    assert all(o["reason"] == "cannot act" for o in out[:-1])
    assert "リン は気絶しているので攻撃できません [UM-TABLE-08]" in out[0]["ja"]
    assert "リン is unconscious and cannot move [UM-TABLE-08]" in out[6]["en"]
    assert out[-1]["ok"]  # the damage halved: 10 → 5, HP 1, no longer down
    rin = table.chars()["リン"]
    assert rin["hp"] == 1 and rin["conditions"] == []
    assert table.player("リン", ["/aim"])[0]["ok"]


@pytest.mark.rule("UM-TABLE-08", via="table")
def test_hp_at_or_below_zero_stops_actions_without_a_condition(tmp_path):
    table = PlayTable(tmp_path)
    table.gm(["/gm setting dying_check_mandatory false", "@リン :HP-20"])
    out = table.player("リン", ["/melee オーク", "/move 1"])
    assert refused(out) == ["/melee オーク", "/move 1"]
    assert "リン は HP 0 (0以下) なので攻撃できません" in out[0]["ja"]


@pytest.mark.rule("UM-TABLE-08", via="table")
def test_the_gms_line_passes_the_gate_as_a_logged_ruling(tmp_path):
    table = PlayTable(tmp_path)
    table.gm(["@リン :HP-25"], ("5/100",))
    out = table.gm(["@リン /aim"])
    assert out[0]["ok"]
    assert out[0]["text"].startswith("GM裁定: リン は気絶しているので行動できません")


@pytest.mark.rule("UM-TABLE-08", via="table")
def test_the_gate_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path)
    try:
        assert api.line("/gm set リン hp 6")["ok"]
        assert api.line("@オーク /melee リン", ("20/100", "10/10", "5/100"))["ok"]
        refusal = api.line("/melee オーク", who="リン")
        assert refusal["ok"] is False and refusal["reason"] == "cannot act"
        assert "UM-TABLE-08" in refusal["messages"]["ja"]
        assert api.line("/fate half", ("1/100",), who="リン")["ok"]
        assert api.line("/aim", who="リン")["ok"]
    finally:
        api.close()


# -- point 2: a level-up per session survived (UM-LEVEL-06) ------------------------------------

GROWTH_DICE = ("90/100", "90/100", "90/100", "90/100")  # リン: nothing rises (then a pick)


@pytest.mark.rule("UM-LEVEL-06", "UM-LEVEL-05", via="table")
def test_a_player_levels_up_once_per_session_survived(tmp_path):
    table = PlayTable(tmp_path, ("rin", "ken", "orc"))
    before = table.player("リン", ["/levelup リン"])
    assert refused(before) == ["/levelup リン"] and "UM-LEVEL-06" in before[0]["ja"]
    table.gm(["/gm dying オーク 死亡"])
    ended = table.gm(["/gm session end"])
    assert ended[0]["ok"]
    assert "GM裁定: セッション1 終了" in ended[0]["text"]
    assert "セッション1を生き残った: リン、ケン" in ended[0]["text"]
    assert "死亡: オーク" in ended[0]["text"]
    out = table.player(
        "リン",
        ["/levelup リン", "/levelup リン 体格", "/levelup リン", ":レベル=10", ":体格成長率+10"],
        GROWTH_DICE,
    )
    assert refused(out) == ["/levelup リン", ":レベル=10", ":体格成長率+10"]
    assert out[3]["reason"] == "forbidden" and "[UM-LEVEL-06]" in out[3]["ja"]
    chars = table.chars()
    assert chars["リン"]["statuses"] == {"レベル": 4, "体格": 13}
    assert chars["リン"]["levelups_owed"] == 0
    assert chars["ケン"]["levelups_owed"] == 1
    assert "levelups_owed" not in chars["オーク"]
    # a second session survived: one more level-up
    table.gm(["/gm session end"])
    assert table.player("リン", ["/levelup リン", "/levelup リン 魅力"], GROWTH_DICE)[1]["ok"]
    assert table.chars()["リン"]["statuses"]["レベル"] == 5


@pytest.mark.rule("UM-LEVEL-06", "UM-FATE-01", via="table")
def test_the_gm_may_grant_more_and_edit_levels_as_rulings(tmp_path):
    table = PlayTable(tmp_path)
    out = table.gm(
        ["/levelup リン", "/levelup リン 運命", "@リン :レベル=3", "@リン :レベル=6"], GROWTH_DICE
    )
    assert refused(out) == [] and out[0]["text"].startswith(
        "GM裁定: リン に生き残ったセッションの分を超えるレベルアップを認める"
    )
    # the fate reset follows the level the GM ruled, not a player's edit
    assert table.player("リン", [":レベル=10"])[0]["ok"] is False
    table.gm(["/gm fate reset"])
    assert table.chars()["リン"]["fate_left"] == 6


@pytest.mark.rule("UM-LEVEL-06", via="table")
def test_a_session_does_not_end_during_a_combat(tmp_path):
    table = PlayTable(tmp_path)
    out = table.gm(["/combat start", "/gm session end", "/gm session over"])
    assert refused(out) == ["/gm session end", "/gm session over"]
    assert out[1]["reason"] == "in combat"
    assert "levelups_owed" not in table.chars()["リン"]


@pytest.mark.rule("UM-LEVEL-06", via="table")
def test_growth_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path)
    try:
        assert api.line("/levelup リン", who="リン")["reason"] == "no session survived"
        assert api.line(":レベル=10", who="リン")["reason"] == "forbidden"
        assert api.line("/gm session end")["ok"]
        assert api.line("/levelup リン", GROWTH_DICE_API, who="リン")["ok"]
        assert api.line("/levelup リン 体格", who="リン")["ok"]
        assert api.line("/levelup リン", GROWTH_DICE_API, who="リン")["ok"] is False
        assert api.chars()["リン"]["statuses"] == {"レベル": 4, "体格": 13}
    finally:
        api.close()


GROWTH_DICE_API = GROWTH_DICE


# -- point 5: dying without fate (UM-FATE-07) --------------------------------------------------

NO_FATE = ["/gm setting dying_check_uses_fate true", "/gm set オーク fate_left 0"]


@pytest.mark.rule("UM-FATE-07", "UM-FATE-04", via="table")
def test_without_fate_left_the_attack_still_lands_and_the_check_fails(tmp_path):
    table = PlayTable(tmp_path)
    table.gm([*NO_FATE, "/gm set オーク hp 3"])
    out = table.player("リン", ["/melee オーク"], ("30/100", "8/8"))  # hit, 8 damage
    assert refused(out) == []
    assert "オーク の運命判定: 残り回数がないので失敗: 死亡" in out[0]["text"]
    orc = table.chars()["オーク"]
    assert orc["hp"] == -5 and orc["conditions"] == ["死亡"]


@pytest.mark.rule("UM-FATE-07", via="table")
def test_without_fate_left_the_gm_may_rule_the_outcome(tmp_path):
    table = PlayTable(tmp_path)
    out = table.gm([*NO_FATE, "/gm setting dying_without_fate gm", "@オーク :HP-20"])
    assert refused(out) == []
    assert "GM が決める (/gm dying オーク 気絶|死亡)" in out[-1]["text"]
    assert table.chars()["オーク"]["conditions"] == []
    assert table.player("オーク", ["/melee リン"])[0]["reason"] == "cannot act"  # HP -5
    table.gm(["/gm dying オーク 気絶"])
    assert table.chars()["オーク"]["conditions"] == ["気絶"]


@pytest.mark.rule("UM-FATE-07", via="table")
def test_gm_edits_are_never_refused_for_want_of_fate(tmp_path):
    table = PlayTable(tmp_path, ("rin", "ken", "orc"))
    out = table.gm(
        [*NO_FATE, "/gm set オーク hp -5", "/gm set ケン fate_left 0", "/gm dying ケン 死亡"]
    )
    assert refused(out) == []
    chars = table.chars()
    assert chars["オーク"]["hp"] == -5 and chars["オーク"]["conditions"] == ["死亡"]
    assert chars["ケン"]["hp"] == 0  # /gm dying marks the character down
    assert chars["ケン"]["conditions"] == ["死亡"]


@pytest.mark.rule("UM-FATE-07", via="table")
def test_dying_without_fate_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path)
    try:
        for line in [*NO_FATE, "/gm set オーク hp 3"]:
            assert api.line(line)["ok"], line
        hit = api.line("/melee オーク", ("30/100", "8/8"), who="リン")
        assert hit["ok"] and "残り回数がないので失敗: 死亡" in hit["text"]
        assert api.chars()["オーク"]["hp"] == -5
    finally:
        api.close()


# -- point 3: a rescue finishes the action (UM-FATE-05) ----------------------------------------

#: オーク's two turns each round (行動力2): the GM passes them and gives ミア her turn.
TO_MIA = ["/next", "/next", "/next ミア"]


def chanting_mia(tmp_path, *gm_lines: str) -> PlayTable:
    """ミア has chanted 火球 on her turn of round 1; it is her turn of round 2."""
    table = PlayTable(tmp_path, ("mia", "orc"))
    table.gm([*gm_lines, "/combat start", "/next ミア"])
    assert refused(table.player("ミア", ["/chant 火球"])) == []
    table.gm(TO_MIA)
    return table


@pytest.mark.rule("UM-FATE-05", "UM-FATE-02", "UM-MAGIC-02", "UM-MAGIC-03", via="table")
def test_a_rescued_spell_takes_effect_and_the_chant_ends(tmp_path):
    table = chanting_mia(tmp_path)
    out = table.player(
        "ミア", ["/cast オーク", "/fate success", "/fate success"], ("90/100", "10/100")
    )
    assert refused(out) == ["/fate success"]  # once: nothing failed is left to rescue
    assert "発動失敗(詠唱継続)" in out[0]["text"]
    assert (
        "運命: ミア の「火球」→ オーク ＞ 魔法発動 (1D100<=70) RC5 魅力15 ＞ 90 ＞ 発動 ＞ 効果発揮"
        in out[1]["text"]
    )
    assert "ミア: 「火球」発動、詠唱終了" in out[1]["text"]
    assert table.chars()["ミア"]["chant"] is None
    table.gm(TO_MIA)  # the next round: the chant is over, the spell cannot be cast again
    assert table.player("ミア", ["/cast オーク"])[0]["reason"] == "not chanting"


@pytest.mark.rule("UM-FATE-05", "UM-MAGIC-03", via="table")
def test_a_rescued_spell_still_meets_the_targets_resistance(tmp_path):
    table = chanting_mia(tmp_path, "/gm set オーク RC 95")
    out = table.player("ミア", ["/cast オーク", "/fate success"], ("90/100", "10/100"))
    assert "RC95 魅力15 ＞ 90 ＞ 発動 ＞ 失敗(レジストクラスに抵抗された)" in out[1]["text"]
    assert table.chars()["ミア"]["chant"] is None


@pytest.mark.rule("UM-FATE-05", "UM-RANGED-01", "UM-DMG-01", via="table")
def test_a_rescued_shot_rolls_its_damage_once(tmp_path):
    table = PlayTable(tmp_path)
    out = table.player(
        "リン",
        ["/switch 弓", "/shoot オーク", "/fate success", "/fate success"],
        ("50/100", "10/100", "4/6"),
    )
    assert refused(out) == ["/fate success"]
    assert (
        "ダメージ 1D6 ＞ 4" in out[2]["text"]
        and "オーク に 4 ダメージ (HP 15 → 11)" in out[2]["text"]
    )
    assert table.chars()["オーク"]["hp"] == 11


@pytest.mark.rule("UM-FATE-05", "UM-CHECK-01", via="table")
def test_a_rescued_plain_check_succeeds_once(tmp_path):
    table = PlayTable(tmp_path)
    out = table.player(
        "リン", ["1D100<={戦闘}", "/fate success", "/fate success"], ("90/100", "10/100")
    )
    assert refused(out) == ["/fate success"]
    assert "運命: 「(1D100<=60) ＞ 90 ＞ 失敗」を成功にした" in out[1]["text"]


@pytest.mark.rule("UM-FATE-05", via="table")
def test_a_rescued_spell_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path, ("mia", "orc"))
    try:
        for line in ["/combat start", "/next ミア"]:
            assert api.line(line)["ok"], line
        assert api.line("/chant 火球", who="ミア")["ok"]
        for line in TO_MIA:
            assert api.line(line)["ok"], line
        assert api.line("/cast オーク", ("90/100",), who="ミア")["ok"]
        rescued = api.line("/fate success", ("10/100",), who="ミア")
        assert rescued["ok"] and "効果発揮" in rescued["text"] and "詠唱終了" in rescued["text"]
        assert api.chars()["ミア"]["chant"] is None
    finally:
        api.close()


# -- point 6: only what is happening now (UM-FATE-06) ------------------------------------------

HIT_RIN = ("20/100", "10/10")  # オーク → リン: 20 ≤ 50, > AC10: hit; 1D10 → 10


@pytest.mark.rule("UM-FATE-06", "UM-FATE-02", via="table")
def test_a_rescue_after_acting_is_refused_and_spends_nothing(tmp_path):
    table = PlayTable(tmp_path, ("rin", "ken", "orc"))
    table.gm(["@オーク /melee リン", "/gm cond ケン 呪い"], HIT_RIN)  # リン HP 20 → 10
    out = table.player("リン", ["/aim", "/fate half"])
    assert refused(out) == ["/fate half"]
    assert out[1]["reason"] == "not now" and "[UM-FATE-06]" in out[1]["ja"]
    assert table.chars()["リン"]["fate_left"] == 3  # nothing spent
    kept = table.player("ケン", ["1D100<={戦闘}", "/fate cancel"], ("10/100",))
    assert refused(kept) == ["/fate cancel"]  # ケン acted (a check) after the curse
    # the GM may still rule it: logged as a ruling
    ruled = table.gm(["@リン /fate half"], ("10/100",))
    assert ruled[0]["ok"]
    assert ruled[0]["text"].startswith("GM裁定: リン はその後に行動したが、運命判定を認める")
    assert table.chars()["リン"]["hp"] == 15


@pytest.mark.rule("UM-FATE-06", via="table")
def test_a_rescue_before_acting_again_works_even_rounds_later(tmp_path):
    table = PlayTable(tmp_path)
    table.gm(["@オーク /melee リン", "/combat start", "/next", "/next"], HIT_RIN)
    out = table.player("リン", ["/fate half"], ("10/100",))
    assert refused(out) == [] and table.chars()["リン"]["hp"] == 15


@pytest.mark.rule("UM-FATE-06", via="table")
def test_only_the_latest_check_is_rescued_and_not_after_acting(tmp_path):
    table = PlayTable(tmp_path)
    out = table.player(
        "リン", ["1D100<={戦闘}", "1D100<={盗賊}", "/fate success"], ("90/100", "95/100", "10/100")
    )
    assert "「(1D100<=50) ＞ 95 ＞ 失敗」を成功にした" in out[2]["text"]
    late = table.player("リン", ["1D100<={戦闘}", "/aim", "/fate success"], ("90/100",))
    assert refused(late) == ["/fate success"] and late[2]["reason"] == "not now"


@pytest.mark.rule("UM-FATE-06", via="table")
def test_the_time_limit_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path)
    try:
        assert api.line("@オーク /melee リン", HIT_RIN)["ok"]
        assert api.line("/aim", who="リン")["ok"]
        late = api.line("/fate half", who="リン")
        assert late["ok"] is False and late["reason"] == "not now"
        assert api.chars()["リン"]["fate_left"] == 3
    finally:
        api.close()
