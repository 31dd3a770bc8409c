"""Attacks (LWA): attack and defence values, criticals, fumbles, no defence, damage floor."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import LittleWorldSettings

from .helpers import lw


@pytest.mark.rule("LW-COMBAT-05", "LW-COMBAT-10")
def test_damage_is_attack_minus_defence() -> None:
    result = lw("LWA3-2", 4, 5, 3, 5)
    assert result.detail["attack_value"] == 12
    assert result.detail["defence_value"] == 10
    assert result.value == result.detail["damage"] == 2
    assert result.text == "(LWA3-2) ＞ 攻撃値 9[4,5]+3=12 ＞ 防御値 8[3,5]+2=10 ＞ ダメージ2"
    assert result.success and not result.failure
    assert "LW-COMBAT-10" in result.rules


@pytest.mark.rule("LW-COMBAT-05", "LW-CHECK-02")
def test_weak_attacker_and_defender_roll_1d6() -> None:
    result = lw("LWA1-1", 5, 2)
    assert result.detail["attack_value"] == 6
    assert result.detail["defence_value"] == 3
    assert result.value == 3
    assert [d.value for d in result.rands] == [5, 2]


@pytest.mark.rule("LW-COMBAT-06")
def test_attacker_critical_makes_defender_ability_count_as_0() -> None:
    result = lw("LWA3-5", 6, 6, 3, 4)
    assert result.critical and not result.fumble
    assert result.detail["defence_value"] == 7  # dice only, the 5 is not added
    assert result.value == 15 - 7
    assert "(能力値0)" in result.text
    assert "LW-COMBAT-06" in result.rules


@pytest.mark.rule("LW-COMBAT-06", "LW-CHECK-02")
def test_attacker_critical_against_weak_defender_keeps_one_die_by_default() -> None:
    assert lw("LWA3-1", 6, 6, 4).detail["defence_value"] == 4
    changed = LittleWorldSettings(weak_dice_from_real_ability=False)
    attack = R.judge_check(3, [6, 6])
    assert R.defence_dice_count(1, attack) == 1
    assert R.defence_dice_count(1, attack, changed) == 1  # 0 is weak too (below 1)
    assert R.defence_dice_count(4, attack, changed) == 1  # counted 0 → weak
    assert R.defence_dice_count(4, attack) == 2


@pytest.mark.rule("LW-COMBAT-07")
def test_attacker_fumble_deals_0_and_rolls_no_defence_dice() -> None:
    result = lw("LWA9-2", 1, 1)  # only two dice scripted: a defence roll would fail
    assert result.fumble and result.failure and not result.success
    assert result.value == 0
    assert result.detail["defence"] is None
    assert len(result.rands) == 2
    assert result.text == "(LWA9-2) ＞ 攻撃値 2[1,1]+9=11 ファンブル ＞ 攻撃失敗 ＞ ダメージ0"


@pytest.mark.rule("LW-COMBAT-07")
def test_attacker_fumble_leaves_extra_scripted_dice_unused() -> None:
    with pytest.raises(SaikoroError):
        lw("LWA3-2", 1, 1, 3, 4)


@pytest.mark.rule("LW-COMBAT-07", "LW-CHECK-02")
def test_weak_attacker_fumbles_on_a_single_1() -> None:
    result = lw("LWA1-3", 1)
    assert result.fumble and result.value == 0 and len(result.rands) == 1


@pytest.mark.rule("LW-COMBAT-08")
def test_defender_critical_evades_completely() -> None:
    result = lw("LWA9-2", 6, 5, 6, 6)
    assert result.value == 0 and result.failure
    assert result.detail["evaded"] is True
    assert "完全回避" in result.text
    assert not result.critical  # the flags are the attacker's roll


@pytest.mark.rule("LW-COMBAT-08", "LW-COMBAT-06")
def test_defender_critical_beats_attacker_critical_by_default() -> None:
    result = lw("LWA5-2", 6, 6, 6, 6)
    assert result.critical
    assert result.value == 0
    assert result.detail["evaded"] is True


@pytest.mark.rule("LW-COMBAT-08", "LW-COMBAT-06")
def test_attacker_critical_wins_when_the_gm_turns_the_default_off() -> None:
    settings = LittleWorldSettings(defender_critical_beats_attacker_critical=False)
    attack = R.judge_check(5, [6, 6])
    defence = R.judge_defence(2, [6, 6], attack, settings)
    outcome = R.resolve_attack(attack, defence, settings=settings)
    assert not outcome.evaded
    assert outcome.defence_value == 12  # ability counted as 0
    assert outcome.damage == 17 - 12


@pytest.mark.rule("LW-COMBAT-09")
def test_defender_fumble_makes_defence_value_0() -> None:
    result = lw("LWA3-8", 2, 3, 1, 1)
    assert result.detail["defence_value"] == 0
    assert result.value == 8
    assert "ファンブル(防御値0)" in result.text
    assert not result.fumble  # the attacker did not fumble


@pytest.mark.rule("LW-COMBAT-09", "LW-CHECK-02")
def test_weak_defender_fumbles_on_a_single_1() -> None:
    result = lw("LWA2-1", 2, 2, 1)
    assert result.detail["defence_value"] == 0 and result.value == 6


@pytest.mark.rule("LW-COMBAT-10")
def test_damage_never_negative_and_tie_deals_0() -> None:
    low = lw("LWA1-9", 2, 5, 5)
    assert low.value == 0 and low.failure and not low.success
    tie = lw("LWA3-3", 3, 4, 4, 3)
    assert tie.value == 0 and tie.failure


@pytest.mark.rule("LW-COMBAT-10")
def test_negative_damage_when_the_floor_is_turned_off() -> None:
    settings = LittleWorldSettings(damage_floor_zero=False)
    attack = R.judge_check(1, [2])
    defence = R.judge_defence(9, [5, 5], attack, settings)
    assert R.resolve_attack(attack, defence, settings=settings).damage == 3 - 19


@pytest.mark.rule("LW-COMBAT-11")
@pytest.mark.parametrize("command", ["LWA4", "LWA4-X"])
def test_defender_who_cannot_defend_takes_the_attack_value(command: str) -> None:
    result = lw(command, 3, 5)  # no defence dice
    assert result.value == 12
    assert result.detail["can_defend"] is False
    assert result.detail["defence"] is None
    assert result.text == f"({command}) ＞ 攻撃値 8[3,5]+4=12 ＞ 防御不能 ＞ ダメージ12"


@pytest.mark.rule("LW-COMBAT-11", "LW-COMBAT-07")
def test_fumble_against_defenceless_target_still_deals_0() -> None:
    assert lw("LWA4-X", 1, 1).value == 0


@pytest.mark.rule("LW-COMBAT-05")
def test_resolve_attack_refuses_a_defence_roll_that_should_not_exist() -> None:
    attack = R.judge_check(3, [1, 1])
    with pytest.raises(SaikoroError):
        R.resolve_attack(attack, R.judge_check(2, [3, 3]))
    with pytest.raises(SaikoroError):
        R.resolve_attack(R.judge_check(3, [3, 3]), None, can_defend=True)


@pytest.mark.rule("LW-COMBAT-05")
def test_secret_attack_and_comment() -> None:
    result = lw("SLWA3-2 ゴブリンへ", 4, 4, 1, 2)
    assert result.secret
    assert result.value == 11 - 5
