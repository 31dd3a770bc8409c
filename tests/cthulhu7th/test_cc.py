"""Cthulhu7th (新クトゥルフ神話TRPG) as saikoro offers it: the skill roll ``CC`` only.

Its texts and flags are BCDice's, checked case by case against the real BCDice in
``tests/oracle/test_cthulhu7th_oracle.py``; here, what a user sees around it.
"""

from __future__ import annotations

import re

import saikoro
from saikoro.systems import systems


def test_cc1_rolls_a_bonus_die_as_bcdice() -> None:
    result = saikoro.roll("CC1<=50", "Cthulhu7th", rands=[(8, 10), (1, 10), (5, 10)])
    assert result is not None
    assert result.text == "(1D100<=50) ボーナス・ペナルティダイス[1] ＞ 85, 15 ＞ 15 ＞ ハード成功"
    assert result.success and not result.failure
    assert [d.to_json() for d in result.rands] == [
        {"kind": "tens_d10", "sides": 10, "value": 80},
        {"kind": "tens_d10", "sides": 10, "value": 10},
        {"kind": "normal", "sides": 10, "value": 5},
    ]
    assert result.message is not None and "hard success" in result.message.en


def test_only_cc_is_offered_and_the_help_says_so() -> None:
    system = systems["Cthulhu7th"]
    assert "CC だけ" in system.help_message
    pattern = re.compile(system.command_pattern.pattern, re.IGNORECASE)
    for command in ("CC", "CC1<=50", "cc(-1)<=75", "SCC2<=99c"):
        assert pattern.search(command), command
    for unsupported in ("CBR(50,20)", "FAR(25,70,98)", "BMR", "PH"):
        assert saikoro.roll(unsupported, "Cthulhu7th", rands=[(3, 10)]) is None


def test_the_generic_dice_language_works_too() -> None:
    result = saikoro.roll("2D6+1>=7", "Cthulhu7th", rands=[(3, 6), (4, 6)])
    assert result is not None and result.text == "(2D6+1>=7) ＞ 7[3,4]+1 ＞ 8 ＞ 成功"
