"""``saikoro odds``: JSON contract, human output, PNG plot, errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["odds", *args])


def test_json_contract():
    outcome = invoke("--json", "2D6>=7")
    assert outcome.exit_code == 0
    body = json.loads(outcome.stdout)
    assert list(body) == [
        "command",
        "exact",
        "outcomes",
        "success",
        "failure",
        "critical",
        "fumble",
        "mean",
        "stdev",
        "distribution",
    ]
    assert body["exact"] is True and body["outcomes"] == 36
    assert body["success"] == pytest.approx(7 / 12)
    assert body["distribution"]["7"] == pytest.approx(6 / 36)
    assert list(body["distribution"]) == [str(v) for v in range(2, 13)]


def test_monte_carlo_is_marked_as_estimate():
    outcome = invoke("--json", "--samples", "500", "3U6[5]")
    body = json.loads(outcome.stdout)
    assert outcome.exit_code == 0 and body["exact"] is False and body["outcomes"] == 500
    human = invoke("--samples", "500", "--lang", "en", "3U6[5]")
    assert "estimate" in human.stdout and "95 %" in human.stdout


@pytest.mark.rule("LW-COMBAT-10")
def test_human_output_has_table_and_bars():
    outcome = invoke("--system", "LittleWorld", "LWA5-3")
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    assert "成功" in text and "ファンブル" in text and "1,261" in text
    assert "█" in text and "95/144" in text


def test_english_human_output():
    outcome = invoke("--lang", "en", "--system", "UnmeiD100", "MA60,30,12")
    assert "success" in outcome.stdout and "42.00 %" in outcome.stdout
    assert "hit" in outcome.stdout.lower() and "命中" not in outcome.stdout  # words translated


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["not-a-command"], "unsupported command"),
        (["--system", "Nope", "2D6"], "unsupported game system"),
        (["--method", "magic", "2D6"], "odds method unavailable"),
        (["--method", "convolution", "4D6KH3"], "odds method unavailable"),
        (["--samples", "0", "2D6"], "odds method unavailable"),
    ],
)
def test_bad_input_is_a_bilingual_error(args, reason):
    outcome = invoke("--json", *args)
    assert outcome.exit_code == 1
    body = json.loads(outcome.stdout)
    assert body["ok"] is False and body["reason"] == reason and " / " in body["message"]
    human = invoke(*args)
    assert human.exit_code == 1 and "エラー / error" in human.stderr
    assert "Traceback" not in human.output


def test_no_command():
    outcome = invoke()
    assert outcome.exit_code == 1 and "give a command" in outcome.stderr


def test_plot_writes_png(tmp_path):
    target = tmp_path / "odds.png"
    outcome = invoke("--system", "LittleWorld", "--plot", str(target), "LWA5-3")
    assert outcome.exit_code == 0, outcome.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_to_unwritable_place_is_an_error(tmp_path):
    outcome = invoke("--plot", str(tmp_path / "missing" / "x.png"), "2D6")
    assert outcome.exit_code == 1 and "error" in outcome.stderr
