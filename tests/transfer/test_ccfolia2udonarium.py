"""saikoro's CCFOLIA export survives CCFOLIA → Udonarium (Shunshun94's Ccfolia2Udonarium)
→ saikoro: every field of every example sheet comes back, the system is detected from
saikoro's block (now in the Udonarium note 情報/説明), and the memo a player reads is text
with saikoro's data in a marked block at its end (issue 23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saikoro.sheets import load_sheet
from saikoro.transfer import export_ccfolia, import_bytes

from .ccfolia2udonarium import convert
from .conftest import sample_littleworld, sample_unmei
from .test_roundtrip import EXAMPLES

SHEETS = [*EXAMPLES, "sample_littleworld", "sample_unmei"]


def sheet_of(source: Path | str):  # type: ignore[no-untyped-def]
    if source == "sample_littleworld":
        return sample_littleworld()
    if source == "sample_unmei":
        return sample_unmei()
    return load_sheet(source)


@pytest.mark.parametrize("source", SHEETS, ids=lambda p: getattr(p, "name", p))
def test_every_field_survives_the_converter(source: Path | str) -> None:
    sheet = sheet_of(source)
    xml = convert(export_ccfolia(sheet))
    back, report = import_bytes(xml.encode("utf-8"), "udonarium")  # no --system: detected
    assert report.system == sheet.system
    assert back.model_dump(mode="json") == sheet.model_dump(mode="json")
    assert back == sheet


def test_the_memo_a_player_reads_is_text_with_the_data_block_at_its_end() -> None:
    sheet = sample_littleworld()
    sheet.notes["メモ"] = "霧の街から来た。\n猫が苦手。"
    memo = json.loads(export_ccfolia(sheet))["data"]["memo"]
    assert memo.startswith("霧の街から来た。\n猫が苦手。\n")
    head, _, block = memo.partition("\n\n")
    assert "{" not in head
    assert block.splitlines()[0].startswith("――")  # the marker a player sees
    assert "saikoro" in block.splitlines()[0]
    assert block.splitlines()[-1].startswith("[saikoro:LittleWorld] {")
    back, _ = import_bytes(export_ccfolia(sheet).encode(), "ccfolia")
    assert back == sheet


def test_the_block_is_read_from_any_udonarium_note() -> None:
    sheet = sample_unmei()
    xml = convert(export_ccfolia(sheet)).replace('name="説明"', 'name="キャラクター詳細"')
    back, report = import_bytes(xml.encode(), "udonarium")
    assert report.system == "UnmeiD100" and back.weapons == sheet.weapons


def test_a_status_with_a_value_and_no_maximum_is_kept_as_the_value() -> None:
    """CCFOLIA ``{"label": "MP", "value": 3}`` is the note "3", and exports as "3" (not "3/")."""
    piece = {
        "kind": "character",
        "data": {
            "name": "ミナ",
            "status": [{"label": "HP", "value": 9, "max": 9}, {"label": "MP", "value": 3}],
            "params": [{"label": n, "value": "2"} for n in ("体力", "技巧", "理知")],
        },
    }
    sheet, _ = import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    assert sheet.notes["MP"] == "3"
    params = json.loads(export_ccfolia(sheet))["data"]["params"]
    assert {"label": "MP", "value": "3"} in params


SECTIONED = (
    '<character><data name="character"><data name="common"><data name="name">ミナ</data>'
    '</data><data name="detail"><data name="リソース">'
    '<data type="numberResource" currentValue="9" name="HP">9</data></data>'
    '<data name="能力値"><data name="体力">3</data><data name="技巧">2</data>'
    '<data name="理知">4</data></data>'
    '<data name="情報"><data name="職業">時計職人</data></data>'
    '<data name="装備"><data name="備考">錆びた鍵</data>'
    '<data name="鞄"><data name="備考">地図の切れ端</data></data></data>'
    '<data name="経歴"><data name="備考">霧の街の出</data></data>'
    "</data></data></character>"
)


def test_section_paths_are_kept_in_notes_and_go_back_into_their_sections() -> None:
    """Values of a section of their own keep its path (Udonarium's own sections say nothing)."""
    from xml.etree import ElementTree

    from saikoro.transfer import export_udonarium_xml

    sheet, report = import_bytes(SECTIONED.encode(), "udonarium", "LittleWorld")
    assert sheet.notes == {
        "職業": "時計職人",
        "装備/備考": "錆びた鍵",
        "装備/鞄/備考": "地図の切れ端",
        "経歴/備考": "霧の街の出",
    }
    assert ("param 装備/鞄/備考", "notes.装備/鞄/備考") in {
        (line.source, line.target) for line in report.lines
    }
    root = ElementTree.fromstring(export_udonarium_xml(sheet))
    bag = root.find(".//data[@name='装備']/data[@name='鞄']/data[@name='備考']")
    assert bag is not None and bag.text == "地図の切れ端"
    for exported in (export_udonarium_xml(sheet), export_ccfolia(sheet).encode()):
        fmt = "ccfolia" if exported.startswith(b"{") else "udonarium"
        back, _ = import_bytes(exported, fmt, "LittleWorld")
        assert back == sheet
