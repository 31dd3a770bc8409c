"""A third system's sheet gets the web table's NPC form and counters with no code of its own
(issue 24, point 4: the fields come from the sheet model)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from saikoro import systems as registry
from saikoro.dice.randomizer import ScriptedSource
from saikoro.server.sheet_form import form_fields
from saikoro.sheets import sheet_class
from saikoro.store import open_store
from saikoro.table.actors import Actor
from saikoro.table.session import TableSession
from saikoro.table.sheet_edits import named_copies, quick_names
from saikoro.table.view import view_state


@pytest.fixture
def onedie() -> Iterator[str]:
    registry.register_package("thirdsystem.onedie")
    yield "OneDie"
    registry.unregister("OneDie")


def test_a_third_systems_sheet_has_its_form_and_counters(onedie: str, tmp_path) -> None:
    fields = {f["path"]: f for f in form_fields(sheet_class(onedie))}
    assert list(fields) == ["name", "hp", "max_hp"]
    assert fields["name"]["required"] and fields["max_hp"]["kind"] == "int"
    session = TableSession.open(open_store(str(tmp_path / "r.db")), "r", system=onedie, gm=True)
    session.source = ScriptedSource([])
    names = quick_names("スライム", 2, session.state.characters)
    sheets = named_copies({"name": "スライム", "max_hp": 4}, names, onedie)
    session.add_sheets(sheets, actor=Actor.gm(), side="npc")
    rows = view_state(session.state, Actor.gm())["characters"]
    assert [r["name"] for r in rows] == ["スライムA", "スライムB"]
    hp = rows[0]["counters"][0]
    assert (hp["label"], hp["value"], hp["max"]) == ("HP", 4, 4)
    assert hp["down"] == "@スライムA :HP-1" and hp["up"] == "@スライムA :HP+1"
