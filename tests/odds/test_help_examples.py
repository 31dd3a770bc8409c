"""Every help example of both game systems has odds, through ``saikoro odds --json``."""

from __future__ import annotations

import importlib
import json
import math

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.systems import systems

#: Every registered system with commands of its own (a new system is covered too).
SYSTEMS = tuple(s.id for s in systems.values() if s.prefixes)
JSON_KEYS = {
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
}


def help_examples(system_id: str) -> list[str]:
    """The commands the system's help module lists as its examples."""
    system = systems.get_system(system_id)
    home = importlib.import_module(type(system).__module__)
    package = home.__name__ if hasattr(home, "__path__") else home.__name__.rsplit(".", 1)[0]
    module = importlib.import_module(f"{package}.help")
    pairs = getattr(module, "EXAMPLES", None) or getattr(module, "HELP_EXAMPLES", ())
    commands = [command for command, _ in pairs]
    for command in commands:
        assert command.split()[0] in system.help_message, command
    return commands


CASES = [(s, c) for s in SYSTEMS for c in help_examples(s)]


def test_both_systems_have_examples():
    for system_id in SYSTEMS:
        assert len(help_examples(system_id)) >= 5, system_id


@pytest.mark.parametrize(("system_id", "command"), CASES)
def test_odds_json_of_help_example(system_id, command):
    outcome = CliRunner().invoke(app, ["odds", "--system", system_id, "--json", command])
    assert outcome.exit_code == 0, outcome.output
    body = json.loads(outcome.stdout)
    assert JSON_KEYS <= set(body) <= JSON_KEYS | {"repeat", "time_limited"}
    assert body["command"] == command and body["outcomes"] >= 1
    # Exact unless the command has more than 10⁶ dice sequences (GROW with 4 rates: 100⁴).
    assert body["exact"] is True or command.count(",") >= 3, command
    for flag in ("success", "failure", "critical", "fumble"):
        assert 0.0 <= body[flag] <= 1.0
    assert body["success"] + body["failure"] <= 1.0 + 1e-12
    assert body["critical"] <= body["success"] + 1e-12 or system_id == "LittleWorld"
    if body["distribution"]:
        assert math.isclose(sum(body["distribution"].values()), 1.0, rel_tol=1e-9)
        assert body["mean"] is not None


#: Systems whose odds name the band or rate of a check: (command, the word shown).
CONTEXT = {"LittleWorld": ("LW3>=10", "難しい"), "UnmeiD100": ("1D100<=65", "65")}


@pytest.mark.parametrize("system_id", [s for s in SYSTEMS if s in CONTEXT])
def test_human_output_of_help_examples_shows_context(system_id):
    """The chance is shown next to the band (LittleWorld) or the rate (UnmeiD100)."""
    command, word = CONTEXT[system_id]
    outcome = CliRunner().invoke(app, ["odds", "--system", system_id, command])
    assert outcome.exit_code == 0, outcome.output
    success_line = next(line for line in outcome.stdout.splitlines() if "成功" in line)
    assert word in success_line and "%" in success_line
