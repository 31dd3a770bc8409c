"""Import of characters written by Udonarium and CCFOLIA: the expected sheets, notes and report."""

from __future__ import annotations

import json

import pytest

from saikoro.sheets import SheetError
from saikoro.systems.littleworld.sheet import LittleWorldSheet
from saikoro.systems.unmeid100.sheet import UnmeiSheet
from saikoro.transfer import AmbiguousImport, import_bytes
from saikoro.transfer.labels import TransferError

from .conftest import UDONARIUM_LW_XML, zip_bytes

IMAGE_ID = "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b"


@pytest.mark.rule("LW-ABIL-01")
def test_udonarium_zip_to_littleworld(udonarium_lw_zip: bytes) -> None:
    sheet, report = import_bytes(udonarium_lw_zip, "udonarium", "LittleWorld")
    assert sheet == LittleWorldSheet(
        name="ミナ・クロックワーク",
        hp=11,
        max_hp=14,
        abilities={"体力": 3, "技巧": 5, "理知": 2},
        player="さとう",
        notes={
            "ヒーローポイント": "1/3",
            "職業": "時計職人",
            "説明": "街の時計塔に住む。\n歯車の音で眠る。",
            "チャットパレット": "2D6+{体力} 体力判定\n2D6+{技巧} 技巧判定\n//体力=3",
            "udonarium.imageIdentifier": IMAGE_ID,
        },
    )
    table = {line.source: (line.target, line.status) for line in report.lines}
    assert table["resource HP"] == ("hp / max_hp", "mapped")
    assert table["param 能力値/【技巧】"] == ("abilities.技巧", "mapped")
    assert table["param 情報/PL"] == ("player", "mapped")
    assert table["resource ヒーローポイント"] == ("notes.ヒーローポイント", "note")
    assert table["param 情報/職業"] == ("notes.職業", "note")
    rendered = report.render()
    assert "【技巧】 → abilities.技巧 [反映]" in rendered
    assert "ヒーローポイント → notes.ヒーローポイント [メモに保存]" in rendered
    assert "[kept in notes]" in report.render("en")


def test_bare_udonarium_xml_same_as_zip(udonarium_lw_zip: bytes) -> None:
    from_zip, _ = import_bytes(udonarium_lw_zip, "udonarium", "LittleWorld")
    from_xml, _ = import_bytes(UDONARIUM_LW_XML.encode(), "udonarium", "LittleWorld")
    assert from_xml == from_zip


def test_ccfolia_json_to_unmeid100(ccfolia_unmei_json: bytes) -> None:
    sheet, report = import_bytes(ccfolia_unmei_json, "ccfolia", "UnmeiD100")
    assert sheet == UnmeiSheet(
        name="ガルド",
        level=2,
        abilities={
            "体格": {"value": 15},
            "敏捷度": {"value": 12},
            "魅力": {"value": 9},
            "運命": {"value": 10},
        },
        skills={"combat": 65, "thief": 30, "magic": 5},
        hp=20,
        max_hp=24,
        ac=35,
        rc=20,
        action_points=2,
        notes={
            "MP": "3/5",
            "出身": "北の山岳",
            "メモ": "元傭兵の戦士。\n左目に傷。",
            "チャットパレット": "1D100<={戦闘スキル} 戦闘\n2D6 ロングソード",
            # CCFOLIA's own fields saikoro has no place for (see test_trust.py)
            "ccfolia.externalUrl": "https://example.org/sheet/garudo",
            "ccfolia.iconUrl": "https://example.org/icon.png",
            "ccfolia.x": "0",
            "ccfolia.y": "0",
            "ccfolia.angle": "0",
            "ccfolia.width": "4",
            "ccfolia.height": "4",
            "ccfolia.active": "true",
            "ccfolia.color": "#e0e0e0",
        },
    )
    mapped = {line.source: line.target for line in report.lines if line.status == "mapped"}
    assert mapped["param 戦闘スキル"] == "skills.combat"
    assert mapped["param アーマークラス"] == "ac"
    assert mapped["param Lv"] == "level"
    notes = {line.source for line in report.lines if line.status == "note"}
    assert {"resource MP", "param 出身", "memo", "chat palette"} <= notes
    assert report.to_json()["format"] == "ccfolia"


def test_ccfolia_to_littleworld_with_status_abilities() -> None:
    """Abilities put in CCFOLIA's status bars (a common habit) still map by label."""
    piece = {
        "kind": "character",
        "data": {
            "name": "ボブ",
            "status": [
                {"label": "HP", "value": 8, "max": 10},
                {"label": "体力", "value": 4, "max": 4},
            ],
            "params": [{"label": "技巧", "value": "2"}, {"label": "理知", "value": "1"}],
        },
    }
    sheet, report = import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    assert sheet.abilities.体力 == 4 and sheet.abilities.技巧 == 2 and sheet.abilities.理知 == 1
    assert (sheet.hp, sheet.max_hp) == (8, 10)
    assert any("max ignored" in line.target for line in report.lines)


def test_extra_unmei_ability_by_growth_rate_label(ccfolia_unmei: dict) -> None:
    piece = ccfolia_unmei
    piece["data"]["params"] += [
        {"label": "知力", "value": "13"},
        {"label": "知力成長率", "value": "25"},
        {"label": "体格成長率", "value": "20"},
    ]
    sheet, _ = import_bytes(json.dumps(piece).encode(), "ccfolia", "UnmeiD100")
    assert sheet.abilities["知力"].value == 13 and sheet.abilities["知力"].growth_rate == 25
    assert sheet.abilities["体格"].growth_rate == 20


def test_value_that_does_not_fit_is_kept_as_note_with_warning(ccfolia_unmei: dict) -> None:
    piece = ccfolia_unmei
    piece["data"]["params"][0] = {"label": "体格", "value": "とても強い"}
    piece["data"]["params"].append({"label": "体格", "value": "15"})
    sheet, report = import_bytes(json.dumps(piece).encode(), "ccfolia", "UnmeiD100")
    assert sheet.abilities["体格"].value == 15
    assert sheet.notes["体格"] == "とても強い"
    assert any("体格" in w.ja for w in report.warnings)


def test_duplicate_label_second_one_is_a_note(ccfolia_unmei: dict) -> None:
    """Two values for one field: ambiguous, so confirmed; the first wins, the second is a note."""
    piece = ccfolia_unmei
    piece["data"]["params"].append({"label": "戦闘", "value": "99"})
    with pytest.raises(AmbiguousImport) as caught:
        import_bytes(json.dumps(piece).encode(), "ccfolia", "UnmeiD100")
    assert "戦闘スキル 65" in caught.value.message.ja and "戦闘 99" in caught.value.message.ja
    assert "--accept-ambiguous" in caught.value.message.en
    sheet, report = import_bytes(
        json.dumps(piece).encode(), "ccfolia", "UnmeiD100", accept_ambiguous=True
    )
    assert sheet.skills.combat == 65
    assert sheet.notes["戦闘"] == "99"
    assert ("param 戦闘", "notes.戦闘", "ambiguous") in {
        (line.source, line.target, line.status) for line in report.lines
    }


def test_same_value_twice_is_not_ambiguous(ccfolia_unmei: dict) -> None:
    piece = ccfolia_unmei
    piece["data"]["params"].append({"label": "戦闘", "value": "65"})
    sheet, report = import_bytes(json.dumps(piece).encode(), "ccfolia", "UnmeiD100")
    assert sheet.skills.combat == 65 and not report.ambiguous


def test_missing_required_values_give_field_level_errors() -> None:
    piece = {
        "kind": "character",
        "data": {"name": "名無し", "params": [{"label": "体力", "value": "3"}]},
    }
    with pytest.raises(TransferError) as caught:
        import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    text = caught.value.message.both()
    assert "技巧" in text and "理知" in text and "体力" not in text


@pytest.mark.rule("LW-ABIL-06")
def test_impossible_value_names_field_and_rule() -> None:
    piece = {
        "kind": "character",
        "data": {
            "name": "ゼロ",
            "status": [{"label": "HP", "value": 5, "max": 5}],
            "params": [
                {"label": "体力", "value": "0"},
                {"label": "技巧", "value": "2"},
                {"label": "理知", "value": "2"},
            ],
        },
    }
    with pytest.raises(SheetError) as caught:
        import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    assert "abilities.体力" in caught.value.message.ja and "LW-ABIL-06" in caught.value.message.ja


def test_unknown_system_and_missing_system(ccfolia_unmei_json: bytes) -> None:
    data = ccfolia_unmei_json
    with pytest.raises(SheetError):
        import_bytes(data, "ccfolia", "Cthulhu7th")
    with pytest.raises(TransferError) as caught:
        import_bytes(data, "ccfolia", None)
    assert "--system" in caught.value.message.ja


def test_other_systems_saikoro_block_is_kept_in_notes(unmei_sheet) -> None:
    from saikoro.transfer import export_ccfolia

    exported = json.loads(export_ccfolia(unmei_sheet))
    exported["data"]["params"] += [
        {"label": "体力", "value": "2"},
        {"label": "技巧", "value": "2"},
        {"label": "理知", "value": "2"},
    ]
    raw = json.dumps(exported).encode()
    with pytest.raises(AmbiguousImport):  # another game's HP: confirmed first
        import_bytes(raw, "ccfolia", "LittleWorld")
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld", accept_ambiguous=True)
    assert json.loads(sheet.notes["saikoro"])["spells"][0]["name"] == "ファイアボルト"
    assert report.warnings


def test_udonarium_zip_without_data_xml_is_a_clear_error() -> None:
    with pytest.raises(TransferError) as caught:
        import_bytes(
            zip_bytes({"image.png": b"x", "a.xml": b"<a/>", "b.xml": b"<b/>"}),
            "udonarium",
            "LittleWorld",
        )
    assert "data.xml" in caught.value.message.ja


@pytest.mark.parametrize(
    "xml",
    [
        b"<room><game-table/></room>",
        b'<character><data name="x"/></character>',
        b"not xml at all",
        b"",
    ],
)
def test_not_a_udonarium_character(xml: bytes) -> None:
    with pytest.raises(TransferError):
        import_bytes(xml, "udonarium", "LittleWorld")


@pytest.mark.parametrize(
    "text",
    [
        b'{"kind": "item", "data": {}}',
        b'{"kind": "character", "data": []}',
        b'{"kind": "character", "data": {"name": "a", "status": 3}}',
        b'{"kind": "character", "data": {"name": "a", "params": [{"label": {"x": 1}}]}}',
        b"[1, 2",
        b"\xff\xfe",
        b"[" * 100_000,
    ],
)
def test_not_a_ccfolia_character(text: bytes) -> None:
    with pytest.raises(TransferError):
        import_bytes(text, "ccfolia", "LittleWorld")


def test_udonarium_palette_dicebot_chooses_the_system() -> None:
    xml = UDONARIUM_LW_XML.replace('dicebot="DiceBot"', 'dicebot="LittleWorld"').encode()
    sheet, report = import_bytes(xml, "udonarium", None)
    assert sheet.system == "LittleWorld" and report.system == "LittleWorld"
    with pytest.raises(TransferError):
        import_bytes(UDONARIUM_LW_XML.encode(), "udonarium", None)  # DiceBot: no sheet
