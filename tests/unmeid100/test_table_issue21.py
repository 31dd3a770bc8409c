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
