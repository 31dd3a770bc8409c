"""The 運命判定d100 tracker keeps a character's base references while its sheet, HP and
statuses are the same; a room that changes them in place (a session folds its events into
its own room) is read again."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.sheets import load_sheet
from saikoro.systems.unmeid100.tracker import UnmeiTracker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "unmeid100"


@pytest.mark.rule("UM-LEVEL-03")
def test_references_follow_values_changed_in_place() -> None:
    tracker = UnmeiTracker()
    priest = tracker.new_character(load_sheet(EXAMPLES / "named_dark_priest.yaml"), "npc", None)
    first = tracker.base_references(priest)
    assert first["魔術"] == 15 * 4 + 6 * 2 + 3
    first["魔術"] = 0  # the caller's copy
    assert tracker.base_references(priest)["魔術"] == 15 * 4 + 6 * 2 + 3
    priest.statuses["信仰"] = 16  # as the fold's status_set does, in place
    assert tracker.base_references(priest)["魔術"] == 16 * 4 + 6 * 2 + 3
    priest.hp -= 5
    assert tracker.base_references(priest)["HP"] == priest.hp
