"""Odds checked against hand calculations; each case documents its derivation."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

import saikoro

# --------------------------------------------------------------- DiceBot (generic sums)


def test_2d6_at_least_7():
    """2D6>=7: 6+5+4+3+2+1 = 21 of 36 sequences reach 7 → 7/12."""
    result = saikoro.odds("2D6>=7")
    assert result.exact and result.outcomes == 36
    assert result.success == F(7, 12) and result.failure == F(5, 12)
    assert result.critical == result.fumble == 0
    assert result.mean == 7 and result.stdev == pytest.approx(math.sqrt(35 / 6))


def test_d100_at_most_65():
    """1D100<=65: faces 1..65 of 100 → 65 %."""
    result = saikoro.odds("1D100<=65")
    assert result.success == F(65, 100) and result.outcomes == 100


def test_4d6_keep_highest_3():
    """4D6KH3 (4d6 drop lowest): the classic mean 15869/1296 ≈ 12.2446; 18 needs ≥ three 6s.

    P(18) = P(at least three 6s in 4d6) = (4·5 + 1)/1296 = 21/1296; P(3) = 1/1296.
    (The issue's brief quotes 15.2847 — not possible for three dice; 12.2446 is right.)
    """
    result = saikoro.odds("4D6KH3")
    assert result.mean == F(15869, 1296)
    assert result.distribution[18] == F(21, 1296) and result.distribution[3] == F(1, 1296)


def test_difference_of_dice():
    """3D6-1D4: mean 10.5 − 2.5 = 8; variance 3·35/12 + 15/12 = 10; range −1..17."""
    result = saikoro.odds("3D6-1D4")
    assert result.mean == 8 and result.stdev == pytest.approx(math.sqrt(10))
    assert min(result.distribution) == -1 and max(result.distribution) == 17
    assert result.distribution[-1] == F(1, 864)


def test_d20_plus_3d4():
    """D20+3D4>=15: for a 3D4 sum s, P(d20 ≥ 15 − s) = (6 + s)/20; E[s] = 7.5 → 13.5/20 = 27/40."""
    assert saikoro.odds("D20+3D4>=15").success == F(27, 40)


def test_barabara_success_count():
    """3B6>=4: the value counts dice ≥ 4, Binomial(3, 1/2): mean 1.5, P(3) = 1/8."""
    result = saikoro.odds("3B6>=4")
    assert result.mean == F(3, 2) and result.distribution[3] == F(1, 8)


def test_choice_has_no_value_but_even_words():
    """choice[a,b,c]: three sequences, each word 1/3, no value to average."""
    result = saikoro.odds("choice[a,b,c]")
    assert result.outcomes == 3 and result.mean is None and result.distribution == {}
    assert result.words == {"a": F(1, 3), "b": F(1, 3), "c": F(1, 3)}


# --------------------------------------------------------------- LittleWorld


@pytest.mark.rule("LW-CHECK-01", "LW-CHECK-03", "LW-CHECK-04")
def test_lw_check_3_against_10():
    """LW3>=10: 2D6+3 ≥ 10 ⇔ 2D6 ≥ 7 → 21/36; the critical [6,6] already succeeds,
    the fumble [1,1] already fails. 10 is in the band 難しい (10–14)."""
    result = saikoro.odds("LW3>=10", "LittleWorld")
    assert result.success == F(21, 36) and result.failure == F(15, 36)
    assert result.critical == F(1, 36) and result.fumble == F(1, 36)
    assert any("難しい" in str(v) for v in result.context.values()), result.context


@pytest.mark.rule("LW-CHECK-02", "LW-CHECK-03")
def test_lw_weak_check():
    """LW1>=5: ability 1 rolls 1D6+1; ≥ 5 ⇔ die ≥ 4 → 1/2; a lone 1 fumbles (1/6); no critical."""
    result = saikoro.odds("LW1>=5", "LittleWorld")
    assert result.outcomes == 6
    assert result.success == F(1, 2) and result.fumble == F(1, 6) and result.critical == 0


@pytest.mark.rule("LW-CHECK-03")
def test_lw_generic_sum_with_criticals():
    """3D6>=15 in LittleWorld: sums ≥ 15 are 10+6+3+1 = 20 of 216; two 6s make a
    critical success even below 15: [6,6,1] and [6,6,2] in 3 orders each → +6; 26/216.
    Criticals: three 6s (1) + exactly two (3·5) = 16/216."""
    result = saikoro.odds("3D6>=15", "LittleWorld")
    assert result.success == F(26, 216) and result.critical == F(16, 216)
    assert result.fumble == F(1, 216)


@pytest.mark.rule("LW-COMBAT-07", "LW-COMBAT-11")
def test_lw_attack_on_a_defenceless_target_with_a_weak_ability():
    """LWA1-X: attack 1D6+1, no defence: damage = attack, except the fumble (a 1) → 0.
    Damage 3..7 each 1/6 and 0 with 1/6: success 5/6, mean 25/6. No critical on 1D6."""
    result = saikoro.odds("LWA1-X", "LittleWorld")
    assert result.outcomes == 6
    assert result.success == F(5, 6) and result.fumble == F(1, 6) and result.critical == 0
    assert result.distribution == {0: F(1, 6), **{d: F(1, 6) for d in range(3, 8)}}
    assert result.mean == F(25, 6)


def _lwa_by_hand(a: int, d: int) -> tuple[F, F, dict[int, F]]:
    """LWA<a>-<d> from the rules (LW-COMBAT-05…10), independently of the engine."""
    success, damage_sum = F(0), F(0)
    dist: dict[int, F] = {}
    for x in range(1, 7):
        for y in range(1, 7):
            if (x, y) == (1, 1):
                dist[0] = dist.get(0, F(0)) + F(1, 36)
                continue
            crit = (x, y) == (6, 6)
            attack = x + y + a
            for u in range(1, 7):
                for v in range(1, 7):
                    p = F(1, 36 * 36)
                    if (u, v) == (6, 6):
                        damage = 0
                    elif (u, v) == (1, 1):
                        damage = attack
                    else:
                        damage = max(0, attack - (u + v + (0 if crit else d)))
                    dist[damage] = dist.get(damage, F(0)) + p
                    success += p if damage > 0 else 0
                    damage_sum += p * damage
    return success, damage_sum, dist


@pytest.mark.rule(
    "LW-COMBAT-05", "LW-COMBAT-06", "LW-COMBAT-07", "LW-COMBAT-08", "LW-COMBAT-09", "LW-COMBAT-10"
)
def test_lw_attack_5_against_3():
    """LWA5-3: 1 fumble sequence (no defence dice) + 35 × 36 others = 1261 sequences;
    the damage distribution is the rules' own, worked out in _lwa_by_hand."""
    success, mean, dist = _lwa_by_hand(5, 3)
    result = saikoro.odds("LWA5-3", "LittleWorld")
    assert result.exact and result.outcomes == 1261
    assert result.success == success and result.mean == mean
    assert result.distribution == dict(sorted(dist.items()))
    assert result.fumble == F(1, 36) and result.critical == F(1, 36)


# --------------------------------------------------------------- UnmeiD100


@pytest.mark.rule("UM-CHECK-01")
def test_um_basic_check():
    """1D100<=65 in UnmeiD100 (the basic check): 65 %, with the rate shown."""
    result = saikoro.odds("1D100<=65", "UnmeiD100")
    assert result.success == F(65, 100)
    assert "65" in str(result.context.get("target"))


@pytest.mark.rule("UM-MELEE-01")
def test_um_melee():
    """MA60,30,12: critical on 1–12 (12 %), hit on 31–60 (30 %) → 42 %;
    stopped by armour on 13–30 (18 %), miss on 61–100 (40 %)."""
    result = saikoro.odds("MA60,30,12", "UnmeiD100")
    assert result.success == F(42, 100) and result.critical == F(12, 100)
    assert sorted(result.words.values()) == [F(12, 100), F(18, 100), F(30, 100), F(40, 100)]


@pytest.mark.rule("UM-FATE-01")
def test_um_fate():
    """FATE10: target 10 × 5 = 50 → 1/2."""
    result = saikoro.odds("FATE10", "UnmeiD100")
    assert result.success == F(1, 2) and result.context.get("target") == 50


@pytest.mark.rule("UM-RANGED-01", "UM-AIM-01")
@pytest.mark.parametrize(
    ("command", "chance", "critical"),
    [
        # target ⌊55/2⌋ = 27; critical 1–10, hit 21–27 → 17 %
        ("RA55,20,10", F(17, 100), F(10, 100)),
        # one aiming turn: target 45; critical 1–8, hit 11–45 → 8 + 35 = 43 %
        ("RA45,10,8,1", F(43, 100), F(8, 100)),
        # two: target ⌊45·3/2⌋ = 67, critical ≤ 16; hit 17–67 (all > AC 10) → 67 %
        ("RA45,10,8,2", F(67, 100), F(16, 100)),
    ],
)
def test_um_ranged_with_aim(command, chance, critical):
    result = saikoro.odds(command, "UnmeiD100")
    assert result.success == chance and result.critical == critical


@pytest.mark.rule("UM-MAGIC-02", "UM-MAGIC-03")
@pytest.mark.parametrize(
    ("command", "chance"),
    [
        # off school and halved: ⌊(70 − 10)/2⌋ = 30; ≤ 15 charm wins, 16–30 resisted by RC 40
        ("MG70,40,15,O,H", F(15, 100)),
        # off school: 60; ≤ 10 charm, 11–25 resisted, 26–60 takes effect → 10 + 35 = 45 %
        ("MG70,25,10,O", F(45, 100)),
        # halved only, no resistance: ⌊70/2⌋ = 35 %
        ("MG70,H", F(35, 100)),
    ],
)
def test_um_magic(command, chance):
    assert saikoro.odds(command, "UnmeiD100").success == chance


@pytest.mark.rule("UM-LEVEL-02")
def test_um_growth_nothing_rose():
    """GROW50,30: nothing rises with (1 − 0.5)(1 − 0.3) = 35 % → the player picks one."""
    result = saikoro.odds("GROW50,30", "UnmeiD100")
    assert result.outcomes == 100 * 100
    nothing = [p for word, p in result.words.items() if "好きな能力値" in word]
    assert nothing == [F(35, 100)]


@pytest.mark.rule("UM-LEVEL-02")
def test_um_growth_counts_the_abilities_that_rose():
    """GROW50,30: the value is how many rose — 0: 0.5·0.7, 1: 0.5·0.7 + 0.5·0.3, 2: 0.5·0.3;
    success = at least one rose."""
    result = saikoro.odds("GROW50,30", "UnmeiD100")
    assert result.distribution == {0: F(35, 100), 1: F(50, 100), 2: F(15, 100)}
    assert result.success == F(65, 100) and result.failure == F(35, 100)
    assert result.mean == F(80, 100)
