"""Odds of repeat commands (per roll), commands without a value, the Monte Carlo time
budget, and the language of ``saikoro odds``."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner
from work import WorkClock, count_calls

import saikoro
from saikoro.cli import odds as odds_cli
from saikoro.cli.main import app
from saikoro.errors import SaikoroError
from saikoro.odds import clock, montecarlo

runner = CliRunner()


def invoke(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, ["odds", *args], env=env)


def test_a_repeat_has_the_odds_of_one_roll_of_its_command() -> None:
    work = count_calls(lambda: saikoro.odds("x100 1D6"))
    assert work.calls < 100_000, work.calls  # ≈36 000: one roll's odds, not 100 rolls'
    result = work.value
    assert (
        result is not None
        and result.exact
        and result.repeat == 100
        and result.command == "x100 1D6"
    )
    assert result.distribution == {v: Fraction(1, 6) for v in range(1, 7)}
    check = saikoro.odds("rep3 2D6>=7")
    assert check.repeat == 3 and check.success == Fraction(7, 12)
    assert saikoro.odds("2D6>=7").repeat is None


@pytest.mark.parametrize("command", ["x0 1D6", "x101 1D6", "x3 x3 1D6", "x3 nothing"])
def test_a_repeat_that_rolls_nothing_is_an_error(command: str) -> None:
    with pytest.raises(SaikoroError) as info:
        saikoro.odds(command)
    assert "繰り返せません" in info.value.message.ja
    assert "cannot be repeated" in info.value.message.en


def test_repeat_in_json_and_text() -> None:
    body = json.loads(invoke("--json", "x100 1D6").stdout)
    assert body["repeat"] == 100 and body["exact"] is True and body["outcomes"] == 6
    assert body["distribution"]["3"] == pytest.approx(1 / 6)
    assert "repeat" not in json.loads(invoke("--json", "1D6").stdout)
    text = invoke("--lang", "en", "x100 1D6").stdout
    assert "repeated 100 times" in text and "one roll" in text


def test_a_command_without_a_value_says_so() -> None:
    outcome = invoke("--lang", "en", "choice[a,b]")
    assert outcome.exit_code == 0
    assert "choice[a,b]" in outcome.stdout  # the title is not read as Rich markup
    assert "has no numeric value" in outcome.stdout
    assert (
        "値がない" in invoke("choice[a,b]").stdout or "値) がない" in invoke("choice[a,b]").stdout
    )


def test_monte_carlo_stops_at_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its clock read once a run, a tick of 1 ms each: the 0.3 s budget is 300 runs."""
    monkeypatch.setattr(clock, "now", WorkClock(0.001))
    result = saikoro.odds("2D6", method="monte-carlo", samples=10**8, seconds=0.3)
    assert result.time_limited and not result.exact
    assert 250 <= result.outcomes <= 300
    assert sum(result.distribution.values()) == pytest.approx(1.0)
    assert result.intervals["success"] is not None
    full = saikoro.odds("2D6", method="monte-carlo", samples=500)  # no budget: every sample
    assert full.outcomes == 500 and not full.time_limited


def test_time_budget_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", WorkClock(0.001))  # as above: 0.3 s is ≈300 runs
    assert odds_cli.DEFAULT_SECONDS == montecarlo.DEFAULT_SECONDS
    body = json.loads(
        invoke("--json", "--method", "monte-carlo", "--samples", "100000000", "--seconds",
               "0.3", "2D6").stdout
    )  # fmt: skip
    assert body["time_limited"] is True and 0 < body["outcomes"] < 10**8
    text = invoke("--lang", "en", "--method", "monte-carlo", "--samples", "100000000",
                  "--seconds", "0.3", "2D6").stdout  # fmt: skip
    assert "when time ran out" in " ".join(text.split())  # the note may wrap
    assert "time_limited" not in json.loads(invoke("--json", "--samples", "300", "3U6[5]").stdout)
    bad = invoke("--json", "--seconds", "0", "2D6")
    assert bad.exit_code == 1 and json.loads(bad.stdout)["reason"] == "odds method unavailable"


def test_language_comes_from_saikoro_lang_unless_given() -> None:
    english = invoke("2D6>=7", env={"SAIKORO_LANG": "en"}).stdout
    assert "success" in english and "成功" not in english
    assert "成功" in invoke("2D6>=7", env={"SAIKORO_LANG": "ja"}).stdout
    assert "成功" in invoke("--lang", "ja", "2D6>=7", env={"SAIKORO_LANG": "en"}).stdout


@pytest.mark.parametrize(
    "command",
    [
        "30D6KH10",  # 324 632 multisets, each run three times: 15 s before
        "(1D100)*(1D100)*(1D100)",  # 10⁶ sequences or 171 700 multisets: 5 s before
    ],
)
def test_exact_methods_keep_to_the_time_budget(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clock of 1 ms a read (every 64 multisets or 256 sequences): these need thousands
    of reads, past the 0.4 s budget, and end as an estimate that keeps to the rest of it."""
    ticks = WorkClock(0.001)
    monkeypatch.setattr(clock, "now", ticks)
    result = saikoro.odds(command, seconds=0.4)
    assert ticks.reads < 1000, ticks.reads  # given up at the budget, not walked to the end
    assert not result.exact and result.method == "monte-carlo"  # an estimate, said to be one
    assert sum(result.distribution.values()) == pytest.approx(1.0)


def test_exact_odds_within_the_budget_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "now", WorkClock(0.001))  # far within 2 s on any machine
    assert saikoro.odds("10D6KH3", seconds=2.0).method == "multiset"
    assert saikoro.odds("(1D6)*(1D6)*(1D6)", seconds=2.0).exact
