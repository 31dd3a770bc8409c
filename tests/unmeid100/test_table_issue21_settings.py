"""Issue 21 point 7 (UnmeiD100): each ambiguity of the seed is a named GM setting, default as
the table did before; one test per value, through ``saikoro play`` (player lines where a
player acts) and the table API."""

from __future__ import annotations

import pytest

from tests.unmeid100.issue21_tables import ApiTable, PlayTable, refused


@pytest.mark.rule("UM-LEVEL-07", "UM-LEVEL-06", via="table")
@pytest.mark.parametrize("value", ["zero", "refuse"])
def test_no_growth_rates(tmp_path, value):
    table = PlayTable(tmp_path, ("ken",))  # every growth rate of ケン is 0
    table.gm([f"/gm setting no_growth_rates {value}", "/gm session end"])
    out = table.player("ケン", ["/levelup ケン"], ("1/100", "2/100", "3/100", "4/100"))
    if value == "zero":
        assert refused(out) == []
        assert "(GROW体格0,敏捷度0,魅力0,運命0)" in out[0]["text"]
    else:
        assert out[0]["reason"] == "no growth rates" and "[UM-LEVEL-07]" in out[0]["ja"]
        assert table.chars()["ケン"]["levelups_owed"] == 1  # nothing spent


@pytest.mark.rule("UM-MAGIC-04", "UM-MAGIC-02", via="table")
@pytest.mark.parametrize(
    ("value", "target", "result"),
    [("minus_then_half", 30, "発動"), ("half_then_minus", 25, "発動失敗(詠唱継続)")],
)
def test_off_school_half_order(tmp_path, value, target, result):
    table = PlayTable(tmp_path, ("mia",))
    table.gm([f"/gm setting off_school_half_order {value}"])
    out = table.player("ミア", ["MG{魔術},O,H"], ("28/100",))  # 魔術70: −10 and halved
    assert f"(1D100<={target})" in out[0]["text"]
    assert out[0]["text"].endswith(f"(1D100<={target}) ＞ 28 ＞ {result}")


@pytest.mark.rule("UM-FATE-08", "UM-FATE-04", via="table")
@pytest.mark.parametrize("value", ["true", "false"])
def test_spent_mob_dying_check(tmp_path, value):
    table = PlayTable(tmp_path)
    table.gm(
        [
            f"/gm setting spent_mob_dying_check {value}",
            "/gm set オーク fate_left 0",
            "/gm set オーク hp 3",
        ]
    )
    dice = ("30/100", "8/8", "10/100") if value == "true" else ("30/100", "8/8")
    out = table.player("リン", ["/melee オーク"], dice)
    assert refused(out) == []
    if value == "true":  # the dying check is rolled: 10 <= 運命4×5 = 20: 気絶
        assert "オーク の運命判定 (1D100<=20) ＞ 10 ＞ 成功: 気絶" in out[0]["text"]
        assert table.chars()["オーク"]["conditions"] == ["気絶"]
    else:
        assert "オーク: mobの運命判定は使い切った: 死亡" in out[0]["text"]
        assert table.chars()["オーク"]["conditions"] == ["死亡"]


@pytest.mark.rule("UM-MELEE-03", "UM-MELEE-01", via="table")
@pytest.mark.parametrize("value", ["full", "zero"])
def test_down_ac(tmp_path, value):
    table = PlayTable(tmp_path)
    table.gm([f"/gm setting down_ac {value}", "/cond add オーク 気絶"])
    dice = ("12/100",) if value == "full" else ("12/100", "5/8")
    out = table.player("リン", ["/melee オーク"], dice)  # 12 ≤ 60; ≤ AC15, > 敏捷度10
    assert refused(out) == []
    if value == "full":
        assert "AC15" in out[0]["text"] and "アーマークラスに防がれた" in out[0]["text"]
    else:
        assert "AC0" in out[0]["text"] and "オーク に 5 ダメージ" in out[0]["text"]


@pytest.mark.rule("UM-FATE-09", "UM-TABLE-05", via="table")
@pytest.mark.parametrize("value", ["false", "true"])
def test_down_states_exclusive(tmp_path, value):
    table = PlayTable(tmp_path)
    out = table.gm(
        [f"/gm setting down_states_exclusive {value}", "/cond add リン 気絶", "/cond add リン 死亡"]
    )
    assert refused(out) == []
    expected = ["気絶", "死亡"] if value == "false" else ["死亡"]
    assert table.chars()["リン"]["conditions"] == expected


@pytest.mark.rule("UM-MOVE-02", "UM-MOVE-01", via="table")
@pytest.mark.parametrize("value", ["false", "true"])
def test_mount_takes_turn(tmp_path, value):
    table = PlayTable(tmp_path)
    table.gm([f"/gm setting mount_takes_turn {value}", "/combat start", "/next リン"])
    out = table.player("リン", ["/mount", "/aim"])
    assert refused(out) == ([] if value == "false" else ["/aim"])
    assert table.chars()["リン"]["mounted"] is True


@pytest.mark.rule("UM-MELEE-03", "UM-FATE-09", via="table")
def test_settings_through_the_table_api(tmp_path):
    api = ApiTable(tmp_path)
    try:
        for line in [
            "/gm setting down_ac zero",
            "/gm setting down_states_exclusive true",
            "/cond add オーク 死亡",
            "/cond add オーク 気絶",
        ]:
            assert api.line(line)["ok"], line
        hit = api.line("/melee オーク", ("12/100", "5/8"), who="リン")
        assert hit["ok"] and "AC0" in hit["text"]
        assert api.chars()["オーク"]["conditions"] == ["気絶"]
    finally:
        api.close()
