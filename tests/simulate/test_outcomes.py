"""The simulator's figures against what the rules say exactly (issue 25)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from saikoro.odds import odds
from saikoro.simulate import Plan, simulate, wilson
from saikoro.systems import settings as system_settings
from saikoro.systems.unmeid100 import rules as um

from .helpers import LW, UM, encounter, lw_sheet, um_sheet

#: The tests check the exact chance against a 99.9 % Wilson interval (z = 3.29) of the
#: simulated rate: a 95 % interval misses the truth one run in twenty by design, and a
#: fixed seed would then fail for ever; the report's own interval is the 95 % one.
Z999 = 3.2905267314919255


def within(count: int, trials: int, exact: Fraction) -> bool:
    low, high = wilson(count, trials, Z999)
    return low <= float(exact) <= high


def damage_at_least(command: str, system: str, hp: int) -> Fraction:
    """P(the attack command's damage ≥ hp), exactly, from the odds engine (the real rules)."""
    found = odds(command, system)
    assert found.exact
    return sum((Fraction(p) for v, p in found.distribution.items() if v >= hp), Fraction(0))


@pytest.mark.rule("LW-COMBAT-01", "LW-COMBAT-05", "LW-COMBAT-10", "LW-COMBAT-12", "LW-HP-02")
def test_a_far_stronger_littleworld_party_wins(tmp_path) -> None:
    """Four PCs whose attack downs the 1-HP goblins in one hit unless the dice fail it
    (attacker fumble, defender critical: LW-COMBAT-07/08), and whose HP no goblin can take
    within the round cap: the party loses only by failing every attack of the cap."""
    cap = 5
    party = [lw_sheet(f"勇者{i}", 150, 6, 6, 6) for i in range(1, 5)]
    goblins = [lw_sheet(f"小鬼{i}", 1, 1, 1, 1, kind="NPC") for i in range(1, 5)]
    kill = damage_at_least("LWA6-1", LW, 1)  # any damage downs a 1-HP goblin
    goblin_max = max(odds("LWA1-6", LW).distribution)
    # the goblins cannot down anyone: 4 attacks a round on one PC at most, for `cap` rounds
    assert goblin_max * 4 * cap < 150
    # each round the party makes at least one attack while a goblin stands: a draw needs
    # every one of them (≥ cap attacks) to fail
    bound = 1 - (1 - kill) ** cap
    assert bound >= Fraction(99, 100)
    summary = simulate(
        encounter(tmp_path, party, goblins), Plan(fights=1000, seed=7, round_cap=cap)
    )
    assert summary.wins["pc"].value >= float(bound) - 0.005
    assert summary.wins["pc"].value >= 0.99
    assert summary.wins["npc"].count == 0


@pytest.mark.rule("UM-TURN-01", "UM-MELEE-01", "UM-DMG-01", "UM-FATE-04")
def test_a_far_stronger_unmeid100_party_wins(tmp_path) -> None:
    cap = 4
    party = [um_sheet(f"剣士{i}", 200, 95, 20, 0, "2D6") for i in range(1, 5)]
    mobs = [um_sheet(f"雑魚{i}", 1, 10, 5, 0, "1D6", kind="mob") for i in range(1, 5)]
    hit = Fraction(odds("MA95,0,20", UM).success)
    mob_max = 6 * 2  # a 1D6 weapon, rolled twice on a critical at most (UM-CRIT-*)
    assert mob_max * 4 * cap < 200
    bound = 1 - (1 - hit) ** cap
    assert bound >= Fraction(99, 100)
    summary = simulate(encounter(tmp_path, party, mobs), Plan(fights=1000, seed=3, round_cap=cap))
    assert summary.wins["pc"].value >= 0.99
    assert summary.wins["npc"].count == 0
    assert all(c.down.count == 0 for c in summary.characters if c.side == "pc")


@pytest.mark.rule("LW-COMBAT-01", "LW-COMBAT-05", "LW-COMBAT-10", "LW-COMBAT-12")
def test_one_attack_each_littleworld_matches_the_exact_odds(tmp_path) -> None:
    """One round, 1 HP each: the PC (higher 技巧) attacks first; the NPC attacks only if it
    stands. P(PC wins) = p, P(NPC wins) = (1 − p)·q, from the LWA commands' exact odds."""
    pc = lw_sheet("アリス", 1, 3, 4, 2)
    npc = lw_sheet("ゴブリン", 1, 3, 2, 1, kind="NPC")
    # the default policy takes the ability most likely to do damage (defender: the same one)
    pairs = [(3, 3), (4, 2), (2, 1)]  # 体力, 技巧, 理知
    p = max(damage_at_least(f"LWA{a}-{d}", LW, 1) for a, d in pairs)
    q = max(damage_at_least(f"LWA{d}-{a}", LW, 1) for a, d in pairs)
    summary = simulate(encounter(tmp_path, [pc], [npc]), Plan(fights=2000, seed=11, round_cap=1))
    wins = summary.wins
    assert within(wins["pc"].count, 2000, p)
    assert within(wins["npc"].count, 2000, (1 - p) * q)
    assert within(wins["draw"].count, 2000, (1 - p) * (1 - q))
    assert summary.capped == summary.wins["draw"].count
    assert summary.rounds == {1: 2000}


@pytest.mark.rule("UM-TURN-01", "UM-MELEE-01", "UM-DMG-01")
def test_one_attack_each_unmeid100_matches_the_exact_odds(tmp_path) -> None:
    """One round, 1 HP each, 2D6 weapons (no fate check can save: half of 2+ is 1+): the
    faster fighter (敏捷度) strikes first."""
    pc = um_sheet("ケン", 1, 60, 12, 15)
    npc = um_sheet("オーク", 1, 50, 10, 20, kind="mob")
    p = Fraction(odds("MA60,20,12", UM).success)
    q = Fraction(odds("MA50,15,10", UM).success)
    cfg = system_settings(UM)
    assert um._half(2, cfg.fate_damage_halving) >= 1  # no rescue keeps a 1-HP fighter up
    summary = simulate(encounter(tmp_path, [pc], [npc]), Plan(fights=2000, seed=5, round_cap=1))
    wins = summary.wins
    assert within(wins["pc"].count, 2000, p)
    assert within(wins["npc"].count, 2000, (1 - p) * q)


@pytest.mark.parametrize("system", [LW, UM])
def test_the_same_seed_gives_the_same_result(tmp_path, system) -> None:
    if system == LW:
        fight = encounter(
            tmp_path, [lw_sheet("A", 10, 3, 3, 3)], [lw_sheet("B", 8, 3, 2, 2, kind="NPC")]
        )
    else:
        fight = encounter(tmp_path, [um_sheet("A", 12, 60, 10, 10)], [um_sheet("B", 12, 55, 9, 10)])
    first = simulate(fight, Plan(fights=60, seed=42)).to_json()
    again = simulate(fight, Plan(fights=60, seed=42)).to_json()
    other = simulate(fight, Plan(fights=60, seed=43)).to_json()
    for body in (first, again, other):
        body.pop("seconds")
    assert first == again
    assert first != other
