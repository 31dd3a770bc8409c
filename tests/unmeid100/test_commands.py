"""UnmeiD100 commands at every boundary, through `saikoro roll --json` and `saikoro.roll`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import saikoro
from saikoro.cli.main import app
from saikoro.errors import SaikoroError

runner = CliRunner()


def cli_json(command: str, *rolls: int) -> dict:
    rands = ",".join(f"{r}/100" for r in rolls)
    result = runner.invoke(
        app, ["roll", "--system", "UnmeiD100", "--rands", rands, "--json", command]
    )
    body = json.loads(result.stdout)
    assert body["ok"] is True, body
    assert [d["value"] for d in body["rands"]] == list(rolls)
    return body


def flags(body: dict) -> tuple[bool, bool, bool]:
    return body["success"], body["failure"], body["critical"]


def roll(command: str, *rolls: int) -> saikoro.RollResult:
    result = saikoro.roll(command, "UnmeiD100", rands=[(r, 100) for r in rolls])
    assert result is not None
    return result


# ------------------------------------------------------------------ FATE


@pytest.mark.rule("UM-FATE-01")
@pytest.mark.parametrize(("roll_", "ok"), [(1, True), (60, True), (61, False), (100, False)])
def test_fate_target_is_fate_times_five(roll_: int, ok: bool) -> None:
    body = cli_json("FATE12", roll_)
    assert flags(body) == (ok, not ok, False)
    assert (
        body["text"] == f"(FATE12) ＞ 運命判定 (1D100<=60) ＞ {roll_} ＞ {'成功' if ok else '失敗'}"
    )
    result = roll("FATE12", roll_)
    assert result.value == roll_ and result.detail["target"] == 60
    assert result.rules == ("UM-FATE-01",)


# ------------------------------------------------------------------ MA

MELEE_CASES = [
    # roll, outcome, success, critical   (skill 60, AC 30, agility 12)
    (1, "critical", True, True),
    (12, "critical", True, True),  # roll = agility
    (13, "armour", False, False),  # agility + 1, still ≤ AC
    (30, "armour", False, False),  # roll = AC
    (31, "hit", True, False),  # roll = AC + 1
    (60, "hit", True, False),  # roll = skill
    (61, "miss", False, False),  # roll = skill + 1
    (100, "miss", False, False),
]


@pytest.mark.rule("UM-MELEE-01")
@pytest.mark.parametrize(("roll_", "outcome", "ok", "crit"), MELEE_CASES)
def test_melee_boundaries(roll_: int, outcome: str, ok: bool, crit: bool) -> None:
    body = cli_json("MA60,30,12", roll_)
    assert flags(body) == (ok, not ok, crit)
    words = {
        "critical": "クリティカルヒット！ 命中",
        "hit": "命中",
        "armour": "失敗(アーマークラスに防がれた)",
        "miss": "失敗(外れ)",
    }
    assert body["text"] == (
        f"(MA60,30,12) ＞ 白兵攻撃 (1D100<=60) AC30 クリティカル<=12 ＞ {roll_} ＞ {words[outcome]}"
    )
    result = roll("MA60,30,12", roll_)
    assert result.detail["outcome"] == outcome
    assert result.value == roll_
    assert result.rules == ("UM-MELEE-01",)


@pytest.mark.rule("UM-MELEE-01")
def test_melee_critical_beats_any_ac_and_exceeds_skill() -> None:
    """A roll ≤ 敏捷度 hits whatever the AC, and (default) even above the skill."""
    assert roll("MA60,95,12", 12).detail["outcome"] == "critical"
    high_agility = roll("MA20,50,30", 25)
    assert high_agility.critical and high_agility.success
    assert roll("MA20,50,30", 31).detail["outcome"] == "miss"


@pytest.mark.rule("UM-MELEE-01", "UM-MOVE-01")
def test_melee_against_lowered_ac() -> None:
    """A negative effective AC (after a 5 m run) is accepted: every roll ≤ skill hits."""
    assert roll("MA60,-10,5", 6).detail["outcome"] == "hit"


# ------------------------------------------------------------------ RA

RANGED_CASES = [
    # aim, target, critical range (thief 55 odd, AC 25, agility 10)
    (0, 27, 10),
    (1, 55, 10),
    (2, 82, 20),
]


@pytest.mark.rule("UM-RANGED-01", "UM-AIM-01")
@pytest.mark.parametrize(("aim", "target", "crit_range"), RANGED_CASES)
def test_ranged_odd_thief_with_aiming(aim: int, target: int, crit_range: int) -> None:
    command = f"RA55,25,10,{aim}"
    at_target = cli_json(command, target)
    assert flags(at_target) == (True, False, False)
    assert (
        f"(1D100<={target}) AC25 クリティカル<={crit_range} ＞ {target} ＞ 命中"
        in at_target["text"]
    )
    above = cli_json(command, target + 1)
    assert flags(above) == (False, True, False)
    assert above["text"].endswith("失敗(外れ)")
    at_crit = cli_json(command, crit_range)
    assert flags(at_crit) == (True, False, True)
    past_crit = cli_json(command, crit_range + 1)
    assert past_crit["text"].endswith("失敗(アーマークラスに防がれた)")
    at_ac = roll(command, 25)
    assert at_ac.detail["outcome"] == "armour"
    assert roll(command, 26).detail["outcome"] == "hit"
    assert at_ac.detail["target"] == target and at_ac.detail["aim"] == aim


@pytest.mark.rule("UM-RANGED-01")
def test_ranged_without_aim_argument_is_half_rounded_down() -> None:
    result = roll("RA55,25,10", 27)
    assert result.detail["target"] == 27 and result.detail["outcome"] == "hit"
    assert result.rules == ("UM-RANGED-01",)
    assert roll("RA55,25,10", 28).detail["outcome"] == "miss"
    assert roll("RA1,0,0", 1).detail["outcome"] == "miss"  # target ⌊1/2⌋ = 0


@pytest.mark.rule("UM-AIM-01")
def test_aim_out_of_range_is_an_error_that_rolls_nothing() -> None:
    with pytest.raises(SaikoroError) as info:
        saikoro.roll("RA55,25,10,3", "UnmeiD100", rands=[])
    assert "0〜2" in info.value.message.ja and "0 to 2" in info.value.message.en
    result = runner.invoke(app, ["roll", "--system", "UnmeiD100", "--json", "RA55,25,10,3"])
    assert result.exit_code == 1 and json.loads(result.stdout)["ok"] is False


# ------------------------------------------------------------------ MG


@pytest.mark.rule("UM-MAGIC-02")
@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("MG70", 70),
        ("MG70,O", 60),  # off-school −10
        ("MG70,H", 35),  # halved
        ("MG71,H", 35),  # halved, rounded down
        ("MG71,O,H", 30),  # −10 then halved: ⌊61/2⌋
        ("MG71,H,O", 30),  # flags in any order
        ("MG5,O", 0),  # never below 0
    ],
)
def test_spell_activation_targets(command: str, target: int) -> None:
    if target > 0:
        body = cli_json(command, target)
        assert flags(body) == (True, False, False)
        assert body["text"].endswith(f"(1D100<={target}) ＞ {target} ＞ 発動")
    body = cli_json(command, target + 1)
    assert flags(body) == (False, True, False)
    assert body["text"].endswith("＞ 発動失敗(詠唱継続)")
    result = roll(command, target + 1)
    assert result.detail["target"] == target and result.detail["chant_continues"] is True


@pytest.mark.rule("UM-MAGIC-02", "UM-MAGIC-03")
@pytest.mark.parametrize(
    ("roll_", "outcome", "ok", "tail"),
    [
        (15, "charm_override", True, "発動 ＞ 魅力以下：抵抗を無視して効果発揮"),  # = 魅力
        (16, "resisted", False, "発動 ＞ 失敗(レジストクラスに抵抗された)"),
        (80, "resisted", False, "発動 ＞ 失敗(レジストクラスに抵抗された)"),  # = RC
        (81, "took_effect", True, "発動 ＞ 効果発揮"),  # RC + 1
        (90, "took_effect", True, "発動 ＞ 効果発揮"),  # = target
        (91, "not_activated", False, "発動失敗(詠唱継続)"),
    ],
)
def test_charm_override_beats_high_rc(roll_: int, outcome: str, ok: bool, tail: str) -> None:
    body = cli_json("MG90,80,15", roll_)
    assert flags(body) == (ok, not ok, False)
    assert body["text"] == f"(MG90,80,15) ＞ 魔法発動 (1D100<=90) RC80 魅力15 ＞ {roll_} ＞ {tail}"
    assert roll("MG90,80,15", roll_).detail["outcome"] == outcome


@pytest.mark.rule("UM-MAGIC-02", "UM-MAGIC-03")
def test_charm_needs_activation_first_and_full_form_with_flags() -> None:
    assert roll("MG30,80,50", 40).detail["outcome"] == "not_activated"
    result = roll("MG71,95,20,O,H", 20)  # target 30, charm 20 beats RC 95
    assert result.detail["outcome"] == "charm_override" and result.success
    assert "魔法発動[門外-10,発動率半分] (1D100<=30) RC95 魅力20" in result.text


@pytest.mark.rule("UM-MAGIC-02")
def test_malformed_spell_commands_are_not_commands() -> None:
    assert saikoro.roll("MG70,40", "UnmeiD100", rands=[]) is None
    assert saikoro.roll("MG70,O,O", "UnmeiD100", rands=[]) is None


# ------------------------------------------------------------------ GROW


@pytest.mark.rule("UM-LEVEL-02")
def test_growth_lists_what_rose() -> None:
    body = cli_json("GROW50,30,20", 50, 31, 1)
    assert body["text"] == (
        "(GROW50,30,20) ＞ 成長判定 ＞ [1]50<=50↑ [2]31>30 [3]1<=20↑ ＞ 能力値1,3が+1"
    )  # a failed roll shows roll > rate
    assert body["success"] is True and body["failure"] is False
    result = roll("GROW50,30,20", 50, 31, 1)
    assert result.detail["raised"] == [True, False, True]
    assert result.detail["player_chooses"] is False
    assert result.value == 2 and result.success and not result.failure  # two rose


@pytest.mark.rule("UM-LEVEL-02")
def test_growth_with_ability_names() -> None:
    body = cli_json("GROW体格20,敏捷度40,魅力50,運命30", 21, 40, 99, 1)
    assert body["text"] == (
        "(GROW体格20,敏捷度40,魅力50,運命30) ＞ 成長判定 ＞ "
        "[体格]21>20 [敏捷度]40<=40↑ [魅力]99>50 [運命]1<=30↑ ＞ 敏捷度,運命が+1"
    )
    result = roll("GROW体格20,60", 100, 60)
    assert result.detail["abilities"] == ["体格", "2"] and result.detail["raised"] == [False, True]
    assert result.text.endswith("＞ 2が+1")
    assert saikoro.roll("GROW体格", "UnmeiD100", rands=[]) is None


@pytest.mark.rule("UM-LEVEL-02")
def test_growth_none_rose_player_picks() -> None:
    result = roll("GROW10,10", 11, 100)
    assert result.text == (
        "(GROW10,10) ＞ 成長判定 ＞ [1]11>10 [2]100>10 ＞ 上昇なし ＞ 好きな能力値を1つ選んで+1"
    )
    assert result.detail["player_chooses"] is True
    assert result.value == 0 and result.failure and not result.success


@pytest.mark.rule("UM-LEVEL-02")
def test_growth_limits() -> None:
    with pytest.raises(SaikoroError):
        saikoro.roll("GROW" + ",".join(["10"] * 21), "UnmeiD100", rands=[])
    with pytest.raises(SaikoroError):
        saikoro.roll("MA99999,1,1", "UnmeiD100", rands=[])


# ------------------------------------------------------------------ generic commands


@pytest.mark.rule("UM-CHECK-01")
@pytest.mark.parametrize(("roll_", "ok"), [(65, True), (66, False), (1, True)])
def test_basic_check_is_the_generic_1d100(roll_: int, ok: bool) -> None:
    result = roll("1D100<=65", roll_)
    assert result.text == f"(1D100<=65) ＞ {roll_} ＞ {'成功' if ok else '失敗'}"
    assert (result.success, result.failure, result.critical, result.fumble) == (
        ok,
        not ok,
        False,
        False,
    )
    assert result.rules == ("UM-CHECK-01",)


@pytest.mark.rule("UM-DMG-01")
def test_damage_dice_are_plain_sums() -> None:
    result = saikoro.roll("2D6", "UnmeiD100", rands=[(3, 6), (5, 6)])
    assert result is not None and result.text == "(2D6) ＞ 8[3,5] ＞ 8"


@pytest.mark.rule("UM-MELEE-01")
def test_secret_and_lowercase_and_fullwidth() -> None:
    result = saikoro.roll("sma60,30,12", "UnmeiD100", rands=[(31, 100)])
    assert result is not None and result.secret and result.success
    result = saikoro.roll("ＭＡ６０，３０，１２", "UnmeiD100", rands=[(61, 100)])
    assert result is not None and result.detail["outcome"] == "miss"


@pytest.mark.rule("UM-MELEE-01", "UM-MAGIC-02")
def test_english_output() -> None:
    result = runner.invoke(
        app, ["roll", "-s", "UnmeiD100", "--lang", "en", "--rands", "30/100", "MA60,30,12"]
    )
    assert result.stdout.strip() == (
        "(MA60,30,12) ＞ melee attack (1D100<=60) AC30 Critical<=12 ＞ 30 ＞ "
        "Failure (stopped by armour class)"
    )
    result = runner.invoke(
        app, ["roll", "-s", "UnmeiD100", "--lang", "en", "--rands", "71/100", "MG70"]
    )
    assert result.stdout.strip().endswith("＞ 71 ＞ Not activated (still chanting)")
