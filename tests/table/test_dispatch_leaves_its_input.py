"""A line works on its own copy of the room: ``dispatch`` never changes the state it is given.

The working copy shares the characters a line does not change (``Emit`` copies one just
before the first event that changes it, as ``changed_characters`` lists), so a fold handler
or a tracker that changed a character the list does not name would change the caller's room
— a refused line would leave half its work behind. These run whole fights of both systems
(the example scripts: attacks, criticals, fumbles, conditions, undo, refusals; and seeded
simulator fights: fate checks, downs, many rounds) and compare the given state before and
after every line; and the room a line answers with (``Outcome.state``, which the simulator
takes as its room) is exactly its events folded into the room it was given.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import saikoro.simulate.table
import saikoro.table.session
from saikoro.simulate import Plan, from_files, simulate
from saikoro.table.dispatch import Context, Outcome, dispatch
from saikoro.table.state import RoomState, replay

from .helpers import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Checked:
    """``dispatch`` that notes each line that changed the state it was given, and each
    whose answered room is not its events' fold (noted, not raised: the CLI would report
    an exception as the line's error and go on)."""

    def __init__(self) -> None:
        self.lines = 0
        self.changed: list[str] = []
        self.not_the_fold: list[str] = []

    def __call__(self, state: RoomState, line: str, ctx: Context) -> Outcome:
        before = state.model_dump(mode="json")
        objects = dict(state.characters)
        try:
            outcome = dispatch(state, line, ctx)
        finally:
            self.lines += 1
            same = all(state.characters.get(n) is c for n, c in objects.items())
            if not same or state.model_dump(mode="json") != before:
                self.changed.append(line)
        if outcome.state is not None:
            folded = replay(outcome.events, state).model_dump(mode="json")
            if outcome.state.model_dump(mode="json") != folded:
                self.not_the_fold.append(line)
        return outcome


@pytest.mark.parametrize("name", ["littleworld_fight.txt", "unmeid100_fight.txt"])
def test_no_line_of_an_example_fight_changes_the_room_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    scripts = EXAMPLES / "scripts"
    text = (scripts / name).read_text(encoding="utf-8")
    system = re.search(r"--system (\S+)", text).group(1)  # type: ignore[union-attr]
    rands = re.search(r"--rands (\S+)", text).group(1).split(",")  # type: ignore[union-attr]
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("#")]
    checked = Checked()
    monkeypatch.setattr(saikoro.table.session, "dispatch", checked)
    monkeypatch.chdir(scripts)
    play(str(tmp_path / "ex.db"), "demo", lines, rands, system=system)
    assert checked.lines >= len(lines) and checked.changed == []
    assert checked.not_the_fold == []


@pytest.mark.parametrize("system", ["littleworld", "unmeid100"])
def test_no_line_of_a_simulated_fight_changes_the_room_it_was_given(
    monkeypatch: pytest.MonkeyPatch, system: str
) -> None:
    folder = EXAMPLES / "simulate" / system
    enemy = {"littleworld": "goblin.json", "unmeid100": "orc.json"}[system]
    party = [str(p) for p in sorted(folder.glob("*.json")) if p.name != enemy]
    checked = Checked()
    monkeypatch.setattr(saikoro.simulate.table, "dispatch", checked)
    summary: Any = simulate(from_files(party, [f"{folder / enemy}:4"]), Plan(fights=12, seed=7))
    assert summary.fights == 12 and checked.lines > 100 and checked.changed == []
    assert checked.not_the_fold == []


def test_no_room_line_changes_the_room_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The combat, the undo stack and the room's fields are shared with the caller until a
    line's first event that changes them (house rules, tabs, turns, undo)."""
    lines = [
        "/char add sheets/ken.json",
        "/char add sheets/orc.json",
        "/gm setting aim_ends_on_other_action false",
        "/gm tab add 作戦",
        "/combat start",
        "/next",
        "/gm setting aim_ends_on_other_action default",
        "/undo",
        "/next",
        "/gm tab remove 作戦",
        "/combat end",
        "/undo",
    ]
    checked = Checked()
    monkeypatch.setattr(saikoro.table.session, "dispatch", checked)
    monkeypatch.chdir(EXAMPLES / "scripts")
    out = play(str(tmp_path / "room.db"), "room", lines, ["5/100"] * 20, system="UnmeiD100")
    assert [o.get("ok", True) for o in out].count(False) == 0, out
    assert checked.lines >= len(lines) and checked.changed == []
    assert checked.not_the_fold == []
