"""Invariants of the UnmeiD100 commands over all inputs (hypothesis; dice scripted)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError

rolls = st.integers(1, 100)
values = st.integers(0, 120)


@pytest.mark.rule("UM-MELEE-01")
@settings(max_examples=300, deadline=None)
@given(roll=rolls, skill=values, ac=st.integers(-30, 120), agi=values)
def test_melee_outcome_matches_the_rule(roll: int, skill: int, ac: int, agi: int) -> None:
    result = saikoro.roll(f"MA{skill},{ac},{agi}", "UnmeiD100", rands=[(roll, 100)])
    assert result is not None
    expected = (
        "critical"
        if roll <= agi
        else "hit"
        if roll <= skill and roll > ac
        else "armour"
        if roll <= skill
        else "miss"
    )
    assert result.detail["outcome"] == expected
    assert result.success == (expected in ("critical", "hit")) != result.failure
    assert result.critical == (expected == "critical")


@pytest.mark.rule("UM-MAGIC-02", "UM-MAGIC-03")
@settings(max_examples=300, deadline=None)
@given(
    roll=rolls,
    magic=values,
    rc=st.none() | st.integers(-30, 120),
    cha=values,
    off=st.booleans(),
    half=st.booleans(),
)
def test_spell_outcome_matches_the_rule(
    roll: int, magic: int, rc: int | None, cha: int, off: bool, half: bool
) -> None:
    command = f"MG{magic}" + (f",{rc},{cha}" if rc is not None else "")
    command += ",O" * off + ",H" * half
    result = saikoro.roll(command, "UnmeiD100", rands=[(roll, 100)])
    assert result is not None
    target = max(0, (magic - 10 * off) // (2 if half else 1))
    assert result.detail["target"] == target
    if roll > target:
        assert result.detail["outcome"] == "not_activated" and result.failure
    elif rc is None:
        assert result.detail["outcome"] == "activated" and result.success
    elif roll <= cha:
        assert result.detail["outcome"] == "charm_override" and result.success
    elif roll <= rc:
        assert result.detail["outcome"] == "resisted" and result.failure
    else:
        assert result.detail["outcome"] == "took_effect" and result.success


@settings(max_examples=300, deadline=None)
@given(
    head=st.sampled_from(["MA", "RA", "MG", "FATE", "GROW", "SMA", "ma"]),
    tail=st.text(alphabet="0123456789,-OH+* ", max_size=30),
)
def test_any_input_is_a_result_none_or_a_saikoro_error(head: str, tail: str) -> None:
    with contextlib.suppress(SaikoroError):
        saikoro.roll(head + tail, "UnmeiD100", source=SeededSource(7))
