"""Checks: 2D6 + ability, weak 1D6, criticals and fumbles, difficulty, opposed checks."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import LittleWorldSettings

from .helpers import lw


@pytest.mark.rule("LW-CHECK-01")
@pytest.mark.parametrize(
    ("ability", "dice", "target", "total", "success"),
    [(3, (4, 5), 12, 12, True), (3, (4, 4), 12, 11, False), (2, (3, 2), 7, 7, True)],
)
def test_total_is_ability_plus_2d6_and_success_at_or_above_target(
    ability: int, dice: tuple[int, int], target: int, total: int, success: bool
) -> None:
    check = R.judge_check(ability, dice)
    assert check.total == total
    assert R.check_against(check, target).success is success
    result = lw(f"LW{ability}>={target}", *dice)
    assert result.value == total
    assert (result.success, result.failure) == (success, not success)
    assert result.text.startswith(
        f"(LW{ability}>={target}) ＞ {sum(dice)}[{dice[0]},{dice[1]}]+{ability} ＞ {total}"
    )


@pytest.mark.rule("LW-CHECK-02")
def test_ability_1_is_a_weak_action_rolling_1d6() -> None:
    assert R.dice_count(1) == 1
    assert R.dice_count(2) == 2
    result = lw("LW1>=5", 4)  # exactly one die is consumed
    assert result.value == 5
    assert result.success
    assert "苦手行動" in result.text
    assert result.detail["weak"] is True
    assert [d.sides for d in result.rands] == [6]


@pytest.mark.rule("LW-CHECK-02")
def test_ability_lowered_to_0_is_weak_by_default_and_settable() -> None:
    assert R.dice_count(0) == 1
    assert R.dice_count(-2) == 1
    strict = LittleWorldSettings(weak_action_below_one=False)
    assert R.dice_count(1, strict) == 1
    assert R.dice_count(0, strict) == 2


@pytest.mark.rule("LW-CHECK-03")
def test_two_sixes_are_critical_and_always_succeed() -> None:
    result = lw("LW2>=15", 6, 6)  # 14 < 15, yet a success
    assert result.critical and result.success and not result.failure
    assert "クリティカル" in result.text


@pytest.mark.rule("LW-CHECK-03")
def test_all_ones_fumble_and_always_fail() -> None:
    result = lw("LW9>=4", 1, 1)  # 11 ≥ 4, yet a failure
    assert result.fumble and result.failure and not result.success
    assert "ファンブル" in result.text


@pytest.mark.rule("LW-CHECK-02", "LW-CHECK-03")
def test_weak_1d6_never_critical_but_a_single_1_fumbles() -> None:
    six = lw("LW1>=8", 6)
    assert not six.critical
    assert six.failure  # 7 < 8: a single 6 is no critical
    one = lw("LW1>=2", 1)
    assert one.fumble and one.failure  # 2 ≥ 2 but a fumble


@pytest.mark.rule("LW-CHECK-03")
def test_check_without_target_still_reports_critical_and_fumble() -> None:
    crit = lw("LW3", 6, 6)
    assert crit.text == "(LW3) ＞ 12[6,6]+3 ＞ 15 ＞ クリティカル"
    assert crit.critical and crit.success
    plain = lw("LW3", 2, 3)
    assert plain.text == "(LW3) ＞ 5[2,3]+3 ＞ 8"
    assert not (plain.success or plain.failure or plain.critical or plain.fumble)


@pytest.mark.rule("LW-CHECK-04")
@pytest.mark.parametrize(
    ("target", "key", "ja"),
    [
        (0, "easy", "易しい"),
        (4, "easy", "易しい"),
        (5, "normal", "普通"),
        (9, "normal", "普通"),
        (10, "hard", "難しい"),
        (14, "hard", "難しい"),
        (15, "expert", "専門技術があっても困難"),
        (30, "expert", "専門技術があっても困難"),
    ],
)
def test_difficulty_band_of_target(target: int, key: str, ja: str) -> None:
    band = R.difficulty_band(target)
    assert (band.key, band.ja) == (key, ja)
    result = lw(f"LW3>={target}", 3, 3)
    assert result.text.endswith(f"(難易度:{ja})")
    assert result.detail["band"] == key


@pytest.mark.rule("LW-CHECK-05")
def test_opposed_tie_goes_to_the_passive_side() -> None:
    result = lw("LWO3-3", 3, 4, 2, 5)
    assert result.detail["active"]["total"] == result.detail["passive"]["total"] == 10
    assert result.failure and not result.success
    assert result.text.endswith("受動側の勝ち(同値)")


@pytest.mark.rule("LW-CHECK-05")
def test_opposed_higher_active_wins_and_lower_loses() -> None:
    assert lw("LWO3-2", 4, 5, 3, 4).success
    assert lw("LWO2-3", 3, 4, 4, 5).failure


@pytest.mark.rule("LW-CHECK-05", "LW-CHECK-03")
@pytest.mark.parametrize(
    ("command", "dice", "active_wins", "reason"),
    [
        ("LWO2-9", (6, 6, 5, 5), True, "critical"),  # active critical beats a higher total
        ("LWO9-2", (5, 5, 6, 6), False, "critical"),  # passive critical wins
        ("LWO3-3", (6, 6, 6, 6), False, "both_critical"),  # both critical: passive
        ("LWO9-2", (1, 1, 2, 2), False, "fumble"),  # active fumble loses
        ("LWO2-9", (2, 2, 1, 1), True, "fumble"),  # passive fumble loses
        ("LWO3-3", (1, 1, 1, 1), False, "fumble"),  # both fumble: passive
    ],
)
def test_opposed_criticals_and_fumbles(
    command: str, dice: tuple[int, ...], active_wins: bool, reason: str
) -> None:
    result = lw(command, *dice)
    assert result.success is active_wins
    assert result.detail["reason"] == reason
    assert result.critical == (dice[0] == dice[1] == 6)
    assert result.fumble == (dice[0] == dice[1] == 1)


@pytest.mark.rule("LW-CHECK-05", "LW-CHECK-02")
def test_opposed_weak_sides_roll_1d6_each() -> None:
    result = lw("LWO1-1", 3, 3)
    assert result.failure  # 4 vs 4: tie → passive
    assert len(result.rands) == 2


@pytest.mark.rule("LW-CHECK-06")
def test_divisions_round_down() -> None:
    assert R.halve(7) == 3
    assert R.halve(1) == 0
    cond = R.Conditions(sleep=True)
    assert R.effective_ability(5, 0, cond) == 2


@pytest.mark.rule("LW-CHECK-01")
def test_wrong_number_of_dice_is_refused() -> None:
    with pytest.raises(SaikoroError):
        R.judge_check(3, [4])
    with pytest.raises(SaikoroError):
        R.judge_check(1, [4, 4])
    with pytest.raises(SaikoroError):
        R.judge_check(3, [7, 1])


def test_roll_defaults_equal_the_settings_defaults() -> None:
    """The chat commands' light defaults (no pydantic) are the GM settings' defaults."""
    from dataclasses import fields

    settings = LittleWorldSettings()
    for field in fields(R.RollDefaults):
        assert getattr(R.ROLL_DEFAULTS, field.name) == getattr(settings, field.name), field.name


def test_a_chat_roll_does_not_import_pydantic() -> None:
    import subprocess
    import sys

    code = (
        "import sys, saikoro\n"
        "saikoro.roll('LWA3-2', 'LittleWorld', rands=[(4, 6), (5, 6), (3, 6), (5, 6)])\n"
        "saikoro.roll('2D6+3>=10', 'LittleWorld', rands=[(6, 6), (6, 6)])\n"
        "print('pydantic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
