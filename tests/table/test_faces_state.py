"""A face in the room's state (issue 24, point 3): kept by every copy of the state, by the
fold through /undo, and shown in each character's row as the address of its image."""

from __future__ import annotations

from saikoro.table import events as ev
from saikoro.table.events import Event
from saikoro.table.state import Character, Condition, RoomState, apply
from saikoro.table.view import character_rows

DIGEST = "ab" * 32


def test_a_copy_of_the_state_keeps_every_field_of_a_character() -> None:
    """clone() copies field by field: a field it forgets (the face, once) is lost on the
    next line. Every field of Character is set here to a value other than its default."""
    character = Character(
        name="ミナ",
        side="npc",
        sheet={"name": "ミナ"},
        hp=3,
        max_hp=9,
        statuses={"mp": 2},
        conditions=[Condition(label="毒", level=1)],
        fields={"row": "後衛"},
        own_turns=2,
        icon=DIGEST,
    )
    defaults = Character(name="x").model_dump()
    dumped = character.model_dump()
    assert all(dumped[key] != defaults[key] for key in dumped), "set every field above"
    state = RoomState(room="卓", system="LittleWorld", characters={"ミナ": character})
    assert state.clone().characters["ミナ"].model_dump() == dumped


def test_icon_set_gives_and_takes_the_face_and_the_row_names_its_address() -> None:
    from pathlib import Path

    from saikoro.sheets import load_sheet
    from saikoro.table.dispatch import tracker_for

    sheets = Path(__file__).resolve().parents[2] / "examples" / "scripts" / "sheets"
    mina = tracker_for("LittleWorld").new_character(load_sheet(sheets / "alice.json"), None, None)
    mina.name = "ミナ"
    state = RoomState(room="12/1 卓", system="LittleWorld", characters={"ミナ": mina})
    given = apply(state, Event(ev.ICON_SET, {"name": "ミナ", "icon": DIGEST, "type": "image/png"}))
    rows, _values = character_rows(given, ["ミナ"])
    assert rows["ミナ"]["icon"] == (
        f"/api/rooms/12%2F1%20%E5%8D%93/characters/%E3%83%9F%E3%83%8A/icon?v={DIGEST}"
    )
    taken = apply(given, Event(ev.ICON_SET, {"name": "ミナ", "icon": None}))
    assert character_rows(taken, ["ミナ"])[0]["ミナ"]["icon"] is None


def test_undo_keeps_the_faces_as_they_are() -> None:
    before = RoomState(
        room="卓", system="LittleWorld", characters={"ミナ": Character(name="ミナ", hp=5)}
    )
    hurt = apply(before, Event(ev.STATUS_SET, {"name": "ミナ", "key": "hp", "value": 2}))
    faced = apply(hurt, Event(ev.ICON_SET, {"name": "ミナ", "icon": DIGEST}))
    undone = apply(faced, Event(ev.UNDONE, {"command_id": "x", "restore": before.to_json()}))
    assert undone.characters["ミナ"].hp == 5 and undone.characters["ミナ"].icon == DIGEST
