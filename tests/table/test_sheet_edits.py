"""Quick NPCs' names, page edits of a sheet, and the own palette lines kept in exports
(issue 24, points 4 and 6)."""

from __future__ import annotations

import json

import pytest

from saikoro.errors import SaikoroError
from saikoro.sheets import sheet_from_data
from saikoro.table.sheet_edits import MAX_COUNT, quick_names
from saikoro.transfer import export_ccfolia, export_udonarium_xml, import_bytes


def test_quick_names_letter_on_and_never_take_a_name_at_the_table() -> None:
    assert quick_names("ゴブリン", 1, []) == ["ゴブリン"]
    assert quick_names("ゴブリン", 3, []) == ["ゴブリンA", "ゴブリンB", "ゴブリンC"]
    assert quick_names("ゴブリン", 2, ["ゴブリンA", "ゴブリンＣ"]) == ["ゴブリンB", "ゴブリンD"]
    assert quick_names("ゴブリン", 1, ["ゴブリン"]) == ["ゴブリンA"]
    assert quick_names("ゴブリンA", 1, ["ゴブリンA"]) == ["ゴブリンB"]  # a copy letters on
    assert quick_names("NPC", 1, ["NPC"]) == ["NPCA"]  # capitals before: not a letter suffix
    with pytest.raises(SaikoroError) as refused:
        quick_names("ゴブリン", MAX_COUNT + 1, [])
    assert refused.value.message.ja and refused.value.message.en
    with pytest.raises(SaikoroError) as full:
        quick_names("ゴブリン", 2, [f"ゴブリン{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXY"])
    assert full.value.reason == "duplicate"


ALICE = {
    "system": "LittleWorld",
    "name": "アリス",
    "max_hp": 12,
    "abilities": {"体力": 3, "技巧": 4, "理知": 2},
    "notes": {"チャットパレット": "2D6+1 様子見\n1D6 逃走"},
}


def test_own_palette_lines_are_in_the_ccfolia_and_udonarium_exports() -> None:
    sheet = sheet_from_data(ALICE)
    commands = json.loads(export_ccfolia(sheet))["data"]["commands"].splitlines()
    assert commands[:2] == ["2D6+1 様子見", "1D6 逃走"]  # the player's own first
    assert any(line.startswith("LW{体力}") for line in commands)  # then the system's
    xml = export_udonarium_xml(sheet).decode("utf-8")
    assert "2D6+1 様子見" in xml and "1D6 逃走" in xml
    # and they come back as they were (the exact round trip of the exports)
    for raw, fmt in (
        (export_ccfolia(sheet).encode(), "ccfolia"),
        (export_udonarium_xml(sheet), "udonarium"),
    ):
        again, _report = import_bytes(raw, fmt, "LittleWorld")
        assert again == sheet
