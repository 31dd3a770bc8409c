"""Properties: exact odds = a complete enumeration done here, independently, with
``saikoro.roll(..., rands=...)``; Monte Carlo estimates fall within their intervals."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.api import roll
from saikoro.errors import ScriptedDiceError


@dataclass(frozen=True)
class Case:
    command: str
    system: str
    sides: tuple[int, ...]  # the dice of the longest run, in order
    lengths: tuple[int, ...]  # how many of them a run may use, shortest first


def brute_force(case: Case) -> dict[str, Fraction]:
    """Every combination of faces of the longest run; a run uses the first dice it needs."""
    total = 1
    for sides in case.sides:
        total *= sides
    counts = {"success": 0, "failure": 0, "critical": 0, "fumble": 0}
    value_counts: dict[int, int] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in case.sides)):
        result = None
        for length in case.lengths:
            rands = list(zip(faces[:length], case.sides[:length], strict=True))
            try:
                result = roll(case.command, case.system, rands=rands)
                break
            except ScriptedDiceError:
                continue
        assert result is not None, (case, faces)
        for flag in counts:
            counts[flag] += bool(getattr(result, flag))
        if result.value is not None:
            value_counts[result.value] = value_counts.get(result.value, 0) + 1
    found = {flag: Fraction(n, total) for flag, n in counts.items()}
    found.update({f"value={v}": Fraction(n, total) for v, n in value_counts.items()})
    return found


def check_against_brute_force(case: Case) -> None:
    result = saikoro.odds(case.command, case.system)
    assert result.exact, case
    expected = brute_force(case)
    for flag in ("success", "failure", "critical", "fumble"):
        assert result.probability(flag) == expected[flag], (case, flag)
    assert {f"value={v}": p for v, p in result.distribution.items()} == {
        k: p for k, p in expected.items() if k.startswith("value=")
    }


# ---------------------------------------------------------------- strategies

_SIDES = st.sampled_from([2, 3, 4, 6])
_OPS = st.sampled_from([">=", "<=", ">", "<", "=", "<>"])


@st.composite
def sums(draw: st.DrawFn, system: str) -> Case:
    n = draw(st.integers(1, 3))
    s = draw(_SIDES)
    text, sides = f"{n}D{s}", [s] * n
    extra = draw(st.sampled_from(["", "const", "dice", "keep"]))
    if extra == "const":
        text += f"{draw(st.sampled_from(['+', '-']))}{draw(st.integers(0, 5))}"
    elif extra == "dice":
        m, t = draw(st.integers(1, 2)), draw(_SIDES)
        text += f"{draw(st.sampled_from(['+', '-']))}{m}D{t}"
        sides += [t] * m
    elif extra == "keep":
        text += f"{draw(st.sampled_from(['KH', 'KL']))}{draw(st.integers(1, n))}"
    if draw(st.booleans()):
        text += f"{draw(_OPS)}{draw(st.integers(0, 14))}"
    return Case(text, system, tuple(sides), (len(sides),))


def _lw_dice(ability: int) -> int:
    return 1 if ability == 1 else 2


@st.composite
def littleworld(draw: st.DrawFn) -> Case:
    a, b = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    kind = draw(st.sampled_from(["LW", "LWO", "LWA", "LWAX"]))
    if kind == "LW":
        target = draw(st.integers(2, 16))
        n = _lw_dice(a)
        return Case(f"LW{a}>={target}", "LittleWorld", (6,) * n, (n,))
    if kind == "LWO":
        n = _lw_dice(a) + _lw_dice(b)
        return Case(f"LWO{a}-{b}", "LittleWorld", (6,) * n, (n,))
    if kind == "LWAX":
        n = _lw_dice(a)
        return Case(f"LWA{a}-X", "LittleWorld", (6,) * n, (n,))
    first, both = _lw_dice(a), _lw_dice(a) + _lw_dice(b)
    return Case(f"LWA{a}-{b}", "LittleWorld", (6,) * both, (first, both))


@st.composite
def unmei(draw: st.DrawFn) -> Case:
    kind = draw(st.sampled_from(["MA", "RA", "MG", "FATE", "CHECK"]))
    x, y, z = (draw(st.integers(0, 100)) for _ in range(3))
    if kind == "MA":
        command = f"MA{x},{y},{z}"
    elif kind == "RA":
        command = f"RA{x},{y},{z},{draw(st.integers(0, 2))}"
    elif kind == "MG":
        flags = draw(st.sampled_from(["", ",O", ",H", ",O,H"]))
        command = f"MG{x},{y},{z}{flags}" if draw(st.booleans()) else f"MG{x}{flags}"
    elif kind == "FATE":
        command = f"FATE{draw(st.integers(0, 20))}"
    else:
        command = f"1D100<={x}"
    return Case(command, "UnmeiD100", (100,), (1,))


CASES = st.one_of(sums("DiceBot"), sums("LittleWorld"), sums("UnmeiD100"), littleworld(), unmei())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CASES)
def test_exact_odds_equal_brute_force(case: Case) -> None:
    check_against_brute_force(case)


@pytest.mark.rule("LW-COMBAT-07")
def test_attack_with_fumbles_against_brute_force() -> None:
    """The dependent-dice case always runs: the attacker's fumble skips the defence dice."""
    check_against_brute_force(Case("LWA5-3", "LittleWorld", (6,) * 4, (2, 4)))
    check_against_brute_force(Case("LWA1-1", "LittleWorld", (6,) * 2, (1, 2)))


# ---------------------------------------------------------------- Monte Carlo

MC_CASES = [
    ("2D6>=7", "DiceBot"),
    ("3D6+1D4>=13", "DiceBot"),
    ("LWA5-3", "LittleWorld"),
    ("LW2>=9", "LittleWorld"),
    ("MA60,30,12", "UnmeiD100"),
]


@pytest.mark.parametrize(("command", "system"), MC_CASES)
def test_monte_carlo_within_its_intervals(command: str, system: str) -> None:
    exact = saikoro.odds(command, system)
    estimate = saikoro.odds(command, system, method="monte-carlo", samples=3000, seed=0)
    assert not estimate.exact and estimate.method == "monte-carlo" and estimate.outcomes == 3000
    for flag in ("success", "failure", "critical", "fumble"):
        interval = estimate.intervals[flag]
        assert interval.low <= estimate.probability(flag) <= interval.high
        assert interval.contains(float(exact.probability(flag))), (flag, interval)
    assert estimate.mean_interval is not None
    assert estimate.mean_interval.contains(float(exact.mean))


def test_monte_carlo_intervals_cover_about_95_percent() -> None:
    """Over 30 seeds × 5 commands × success, the 95 % intervals hold the truth ≳ 88 % of the time."""
    hits = trials = 0
    for command, system in MC_CASES:
        truth = float(saikoro.odds(command, system).success)
        for seed in range(30):
            estimate = saikoro.odds(command, system, method="monte-carlo", samples=300, seed=seed)
            hits += estimate.intervals["success"].contains(truth)
            trials += 1
    assert hits / trials >= 0.88, hits / trials


def test_monte_carlo_is_reproducible() -> None:
    a = saikoro.odds("LWA5-3", "LittleWorld", method="monte-carlo", samples=500, seed=3)
    b = saikoro.odds("LWA5-3", "LittleWorld", method="monte-carlo", samples=500, seed=3)
    assert a == b
