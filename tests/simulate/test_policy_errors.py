"""A user's policy (``--policy module:function``) that raises, or returns what is not a line
to type, stops the run with a clear message naming it and the fight — in one process or in
the workers — rather than a traceback or silently wrong figures."""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.dice.normalize import InputTooLongError
from saikoro.simulate import Plan, SimulationError, Situation, register_policy, simulate
from saikoro.simulate.setup import error

from .helpers import encounter, lw_sheet, write

LATE_ROUND = 3


def _late_bug(situation: Situation) -> str | None:
    """Plays like ``best`` until round ``LATE_ROUND``, then raises (a module function: the
    worker processes can be sent it)."""
    combat = situation.state.combat
    if combat is not None and combat.round >= LATE_ROUND:
        raise RuntimeError("late bug")
    return situation.options[0].line if situation.options else None


def _fight(tmp_path: Path) -> Any:
    return encounter(
        tmp_path,
        [lw_sheet("アリス", 12, 3, 4, 2), lw_sheet("ボブ", 10, 2, 3, 3)],
        [lw_sheet("ゴブリン", 9, 3, 4, 1, kind="NPC")],
    )


@pytest.mark.rule("LW-COMBAT-01")
def test_a_policy_that_raises_is_named_with_its_fight(tmp_path) -> None:
    register_policy("test-late-bug", _late_bug)
    plan = Plan(fights=40, seed=5, party_policy="test-late-bug")
    with pytest.raises(SimulationError) as alone:
        simulate(_fight(tmp_path), plan)
    message = alone.value.message
    assert alone.value.reason == "policy failed"
    assert "test-late-bug" in message.ja and "RuntimeError: late bug" in message.ja
    assert message.en.startswith("fight ") and "failed on" in message.en
    number = int(message.en.split()[1].rstrip(":"))
    assert number > 1  # a later fight: played by a worker below
    with pytest.raises(SimulationError) as in_workers:
        simulate(_fight(tmp_path), plan, jobs=2)
    assert in_workers.value.message == message  # sent back from the worker as it was raised


@pytest.mark.rule("LW-COMBAT-01")
def test_a_policy_must_choose_a_table_command(tmp_path) -> None:
    fight = _fight(tmp_path)
    register_policy("test-chat", lambda situation: "攻撃する")
    with pytest.raises(SimulationError) as refused:
        simulate(fight, Plan(fights=3, party_policy="test-chat"))
    assert "'攻撃する'" in refused.value.message.ja and "卓のコマンドではありません" in (
        refused.value.message.ja
    )
    assert "not a table command" in refused.value.message.en
    register_policy("test-number", lambda situation: 3)
    with pytest.raises(SimulationError, match="not a table command"):
        simulate(fight, Plan(fights=3, party_policy="test-number"))


@pytest.mark.rule("LW-COMBAT-01")
def test_an_option_chosen_is_its_line(tmp_path) -> None:
    fight = _fight(tmp_path)
    register_policy("test-option", lambda s: s.options[0] if s.options else None)
    register_policy("test-line", lambda s: s.options[0].line if s.options else None)
    by_option = simulate(fight, Plan(fights=20, party_policy="test-option")).to_json()
    by_line = simulate(fight, Plan(fights=20, party_policy="test-line")).to_json()
    for body in (by_option, by_line):
        body.pop("seconds")
        body.pop("policies")
    assert by_option == by_line


def test_the_cli_names_a_failing_policy_without_a_traceback(tmp_path, monkeypatch) -> None:
    (tmp_path / "my_policies.py").write_text(
        "def boom(situation):\n    raise ValueError('oops')\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    alice = write(tmp_path, lw_sheet("アリス", 12, 3, 4, 2))
    goblin = write(tmp_path, lw_sheet("ゴブリン", 8, 3, 4, 1, kind="NPC"))
    args = ["simulate", "-p", alice, "-e", goblin, "-n", "5", "--policy", "my_policies:boom"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "戦闘 1: ポリシー 'my_policies:boom'" in result.stderr
    assert "ValueError: oops" in result.stderr
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["reason"] == "policy failed"
    sys.modules.pop("my_policies", None)


def test_errors_cross_processes_as_raised() -> None:
    for raised in (error("あ", "a"), InputTooLongError(99_999)):
        sent = pickle.loads(pickle.dumps(raised))
        assert type(sent) is type(raised)
        assert sent.message == raised.message and sent.reason == raised.reason
        assert str(sent) == str(raised)


def test_a_policy_module_in_the_current_folder_is_found(tmp_path, monkeypatch) -> None:
    """As docs/simulate.md writes it: ``my_policies.py`` next to the sheets, no PYTHONPATH;
    the worker processes find it too."""
    (tmp_path / "folder_policies.py").write_text(
        "def first(situation):\n    return situation.options[0] if situation.options else None\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    alice = write(tmp_path, lw_sheet("アリス", 12, 3, 4, 2))
    goblin = write(tmp_path, lw_sheet("ゴブリン", 8, 3, 4, 1, kind="NPC"))
    bodies = []
    for jobs in ("1", "2"):
        args = ["simulate", "-p", alice, "-e", goblin, "-n", "12", "-j", jobs, "--json"]
        result = CliRunner().invoke(app, [*args, "--policy", "folder_policies:first"])
        assert result.exit_code == 0, result.stderr
        body = json.loads(result.stdout)
        body.pop("seconds")
        bodies.append(body)
    assert bodies[0] == bodies[1] and bodies[0]["policies"]["pc"] == "folder_policies:first"
    sys.modules.pop("folder_policies", None)
