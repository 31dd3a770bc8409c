"""Invariants of checks and attacks over every ability and every face (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.systems.littleworld import rules as R

abilities = st.integers(min_value=0, max_value=12)
d6 = st.integers(min_value=1, max_value=6)


@pytest.mark.rule("LW-COMBAT-05", "LW-COMBAT-07", "LW-COMBAT-10", "LW-COMBAT-11")
@settings(max_examples=300, deadline=None)
@given(a=abilities, d=st.one_of(st.none(), abilities), faces=st.lists(d6, min_size=4, max_size=4))
def test_attack_invariants(a: int, d: int | None, faces: list[int]) -> None:
    n_attack = R.dice_count(a)
    attack = R.judge_check(a, faces[:n_attack])
    can_defend = d is not None
    defence = None
    if R.defence_needed(attack, can_defend):
        assert d is not None
        n_def = R.defence_dice_count(d, attack)
        defence = R.judge_defence(d, faces[n_attack : n_attack + n_def], attack)
    outcome = R.resolve_attack(attack, defence, can_defend=can_defend)
    assert outcome.damage >= 0
    if attack.fumble:
        assert outcome.damage == 0 and outcome.defence is None
    elif not can_defend:
        assert outcome.damage == attack.total
    elif defence is not None and defence.critical:
        assert outcome.damage == 0
    else:
        assert outcome.defence_value is not None
        assert outcome.damage == max(attack.total - outcome.defence_value, 0)
        assert outcome.damage <= attack.total
    # the command consumes exactly the dice the rules asked for
    used = n_attack + (len(defence.dice) if defence else 0)
    command = f"LWA{a}" + ("" if d is None else f"-{d}")
    result = saikoro.roll(command, "LittleWorld", rands=[(f, 6) for f in faces[:used]])
    assert result is not None and result.value == outcome.damage
    assert result.success == (outcome.damage > 0)
    assert (result.critical, result.fumble) == (attack.critical, attack.fumble)


@pytest.mark.rule("LW-CHECK-01", "LW-CHECK-03", "LW-CHECK-05")
@settings(max_examples=300, deadline=None)
@given(a=abilities, b=abilities, faces=st.lists(d6, min_size=4, max_size=4))
def test_opposed_invariants(a: int, b: int, faces: list[int]) -> None:
    na = R.dice_count(a)
    active = R.judge_check(a, faces[:na])
    passive = R.judge_check(b, faces[na : na + R.dice_count(b)])
    outcome = R.resolve_opposed(active, passive)
    if active.fumble:
        assert not outcome.active_wins
    elif passive.fumble:
        assert outcome.active_wins
    elif active.critical != passive.critical:
        assert outcome.active_wins == active.critical
    elif not active.critical:
        assert outcome.active_wins == (active.total > passive.total)
    else:
        assert not outcome.active_wins
    if not (active.critical or active.fumble):
        assert R.check_against(active, active.total).success
        assert not R.check_against(active, active.total + 1).success
