"""Imports users can trust (issue 14, item 6), with files as the tools and generators write
them: HP without a maximum, unknown fields kept, ambiguous matches confirmed, room files
with several pieces, refusals that name what is missing, ``none_icon``, empty statuses."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.sheets import load_sheet
from saikoro.transfer import (
    AmbiguousImport,
    export_ccfolia,
    export_udonarium_xml,
    import_all,
    import_bytes,
)
from saikoro.transfer.labels import TransferError

from .conftest import zip_bytes

LW_PARAMS = [
    {"label": "体力", "value": "3"},
    {"label": "技巧", "value": "2"},
    {"label": "理知", "value": "4"},
]
UM_PARAMS = [
    {"label": "体格", "value": "12"},
    {"label": "敏捷度", "value": "11"},
    {"label": "魅力", "value": "10"},
    {"label": "運命", "value": "9"},
]


#: Every character needs HP (a file without it is refused): the helpers add one unless given.
HP_STATUS = {"label": "HP", "value": 10, "max": 10}
HP_RESOURCE_XML = (
    '<data name="リソース"><data type="numberResource" currentValue="10" name="HP">10</data></data>'
)


def ccfolia(**data: object) -> bytes:
    labels = {str(p.get("label")) for p in data.get("params", [])}  # type: ignore[attr-defined]
    if not labels & {"HP", "生命力", "耐久力"}:
        data.setdefault("status", [HP_STATUS])
    return json.dumps({"kind": "character", "data": {"name": "テスト", **data}}).encode()


def udonarium(detail: str, name: str = "テスト", dicebot: str = "") -> str:
    if 'name="HP"' not in detail:
        detail = HP_RESOURCE_XML + detail
    return (
        f'<character><data name="character"><data name="common"><data name="name">{name}'
        f'</data></data><data name="detail">{detail}</data></data>'
        f'<chat-palette dicebot="{dicebot}"></chat-palette></character>'
    )


LW_ABILITIES_XML = (
    '<data name="能力値"><data name="体力">3</data><data name="技巧">2</data>'
    '<data name="理知">4</data></data>'
)
UM_ABILITIES_XML = (
    '<data name="能力値"><data name="体格">12</data><data name="敏捷度">11</data>'
    '<data name="魅力">10</data><data name="運命">9</data></data>'
)


# -- HP without a maximum ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system", "abilities"), [("LittleWorld", LW_ABILITIES_XML), ("UnmeiD100", UM_ABILITIES_XML)]
)
def test_udonarium_hp_without_maximum_is_its_own_maximum(system: str, abilities: str) -> None:
    """``<data name="HP">10</data>`` (ytsheet2 output): not refused as "HP (10) > max HP (1)"."""
    xml = udonarium(f'<data name="リソース"><data name="HP">10</data></data>{abilities}')
    sheet, report = import_bytes(xml.encode(), "udonarium", system)
    assert (sheet.hp, sheet.max_hp) == (10, 10)
    assert any("no maximum" in line.target for line in report.lines)


@pytest.mark.parametrize(
    ("system", "params"), [("LittleWorld", LW_PARAMS), ("UnmeiD100", UM_PARAMS)]
)
def test_ccfolia_status_without_max_is_its_own_maximum(system: str, params: list) -> None:
    sheet, _ = import_bytes(
        ccfolia(status=[{"label": "HP", "value": 10}], params=params), "ccfolia", system
    )
    assert (sheet.hp, sheet.max_hp) == (10, 10)


def test_ccfolia_status_with_only_a_maximum_is_full() -> None:
    sheet, _ = import_bytes(
        ccfolia(status=[{"label": "HP", "max": 14}], params=LW_PARAMS), "ccfolia", "LittleWorld"
    )
    assert (sheet.hp, sheet.max_hp) == (14, 14)


@pytest.mark.parametrize(
    ("system", "params"), [("LittleWorld", LW_PARAMS), ("UnmeiD100", UM_PARAMS)]
)
@pytest.mark.parametrize(("text", "hp", "max_hp"), [("10", 10, 10), ("7/12", 7, 12)])
def test_ccfolia_hp_in_params(system: str, params: list, text: str, hp: int, max_hp: int) -> None:
    sheet, _ = import_bytes(
        ccfolia(params=[*params, {"label": "HP", "value": text}]), "ccfolia", system
    )
    assert (sheet.hp, sheet.max_hp) == (hp, max_hp)


# -- unknown fields ------------------------------------------------------------------------


def test_ccfolia_unknown_fields_survive_in_notes_and_round_trip() -> None:
    raw = ccfolia(
        params=LW_PARAMS,
        externalUrl="https://charasheet.vampire-blood.net/123",
        playerName="さとう",
        faces=[{"iconUrl": "https://example.org/a.png", "label": "笑顔"}],
        speaking=True,
    )
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert sheet.notes["ccfolia.externalUrl"] == "https://charasheet.vampire-blood.net/123"
    assert sheet.notes["ccfolia.playerName"] == "さとう"
    assert json.loads(sheet.notes["ccfolia.faces"])[0]["label"] == "笑顔"
    assert ("field ccfolia.playerName", "notes.ccfolia.playerName", "note") in {
        (line.source, line.target, line.status) for line in report.lines
    }
    data = json.loads(export_ccfolia(sheet))["data"]
    assert data["externalUrl"] == "https://charasheet.vampire-blood.net/123"
    assert data["playerName"] == "さとう"
    assert data["faces"] == [{"iconUrl": "https://example.org/a.png", "label": "笑顔"}]
    assert data["speaking"] is True
    assert not any(p["label"].startswith("ccfolia.") for p in data["params"])
    again, _ = import_bytes(export_ccfolia(sheet).encode(), "ccfolia", "LittleWorld")
    assert again == sheet


def test_ccfolia_fields_survive_a_trip_through_udonarium() -> None:
    sheet, _ = import_bytes(
        ccfolia(params=LW_PARAMS, externalUrl="https://example.org/s", playerName="P"),
        "ccfolia",
        "LittleWorld",
    )
    via_udonarium, _ = import_bytes(export_udonarium_xml(sheet), "udonarium", "LittleWorld")
    assert via_udonarium.notes["ccfolia.externalUrl"] == "https://example.org/s"
    data = json.loads(export_ccfolia(via_udonarium))["data"]
    assert data["externalUrl"] == "https://example.org/s" and data["playerName"] == "P"


def test_udonarium_image_identifier_round_trips() -> None:
    xml = udonarium(LW_ABILITIES_XML).replace(
        '<data name="common">',
        '<data name="image"><data type="image" name="imageIdentifier">abc123</data></data>'
        '<data name="common">',
    )
    sheet, _ = import_bytes(xml.encode(), "udonarium", "LittleWorld")
    assert sheet.notes["udonarium.imageIdentifier"] == "abc123"
    root = ElementTree.fromstring(export_udonarium_xml(sheet))
    assert root.find(".//data[@name='imageIdentifier']").text == "abc123"


# -- ambiguous matches ---------------------------------------------------------------------


def test_loose_label_is_ambiguous_and_needs_confirmation() -> None:
    """生命力 is an ability in other games: matched to HP only when confirmed."""
    raw = ccfolia(params=[*LW_PARAMS, {"label": "生命力", "value": "12"}])
    with pytest.raises(AmbiguousImport) as caught:
        import_bytes(raw, "ccfolia", "LittleWorld")
    assert "生命力" in caught.value.message.ja and "--accept-ambiguous" in caught.value.message.en
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld", accept_ambiguous=True)
    assert sheet.max_hp == 12
    assert ("param 生命力", "ambiguous") in {(line.source, line.status) for line in report.lines}
    assert "要確認" in report.render() and "ambiguous" in report.render("en")


def test_exact_label_beats_a_loose_one_without_doubt() -> None:
    """A SW2.5 piece with HP and 生命力: HP is the HP; 生命力 is only a note."""
    raw = ccfolia(
        status=[{"label": "HP", "value": 20, "max": 24}],
        params=[{"label": "生命力", "value": "15"}, *LW_PARAMS],
    )
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert (sheet.hp, sheet.max_hp) == (20, 24) and sheet.notes["生命力"] == "15"
    assert not report.ambiguous


def test_exact_label_wins_over_a_loose_status_given_first() -> None:
    raw = ccfolia(
        status=[{"label": "生命力", "value": 15, "max": 15}],
        params=[{"label": "HP", "value": "20/24"}, *LW_PARAMS],
    )
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert (sheet.hp, sheet.max_hp) == (20, 24) and sheet.notes["生命力"] == "15/15"
    assert not report.ambiguous


def test_a_file_for_another_game_is_ambiguous() -> None:
    xml = udonarium(
        f'<data name="リソース"><data type="numberResource" currentValue="20" name="HP">24</data>'
        f"</data>{LW_ABILITIES_XML}",
        dicebot="SwordWorld2.5",
    )
    with pytest.raises(AmbiguousImport) as caught:
        import_bytes(xml.encode(), "udonarium", "LittleWorld")
    assert "SwordWorld2.5" in caught.value.message.en
    sheet, report = import_bytes(xml.encode(), "udonarium", "LittleWorld", accept_ambiguous=True)
    assert sheet.max_hp == 24
    assert {line.status for line in report.lines if line.source.startswith("param")} == {
        "ambiguous"
    }


def test_cli_refuses_ambiguous_import_until_confirmed(tmp_path: Path) -> None:
    source = tmp_path / "piece.json"
    source.write_bytes(ccfolia(params=[*LW_PARAMS, {"label": "耐久力", "value": "9"}]))
    out = tmp_path / "sheet.json"
    args = ["import", "ccfolia", str(source), "--system", "LittleWorld", "-o", str(out)]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 1 and not out.exists()
    assert "--accept-ambiguous" in refused.stderr and "[反映・要確認]" in refused.stderr
    accepted = CliRunner().invoke(app, [*args, "--accept-ambiguous"])
    assert accepted.exit_code == 0, accepted.output
    assert load_sheet(out).max_hp == 9


# -- several characters --------------------------------------------------------------------


def room_file() -> bytes:
    pieces = "".join(
        udonarium(LW_ABILITIES_XML, name=name) for name in ("アリス", "ボブ", "キャロル")
    )
    return zip_bytes({"data.xml": f"<room><game-table/>{pieces}</room>".encode()})


def test_room_file_imports_every_character() -> None:
    results = import_all(room_file(), "udonarium", "LittleWorld")
    assert [sheet.name for sheet, _ in results] == ["アリス", "ボブ", "キャロル"]


def test_room_file_one_character_by_name_or_a_clear_refusal() -> None:
    sheet, _ = import_bytes(room_file(), "udonarium", "LittleWorld", name="ボブ")
    assert sheet.name == "ボブ"
    with pytest.raises(TransferError) as caught:
        import_bytes(room_file(), "udonarium", "LittleWorld")
    assert "3" in caught.value.message.en and "キャロル" in caught.value.message.ja
    with pytest.raises(TransferError) as caught:
        import_bytes(room_file(), "udonarium", "LittleWorld", name="デイブ")
    assert "アリス" in caught.value.message.ja


def test_cli_room_file_writes_each_character_and_says_so(tmp_path: Path) -> None:
    source = tmp_path / "room.zip"
    source.write_bytes(room_file())
    out = tmp_path / "party"
    result = CliRunner().invoke(
        app, ["import", "udonarium", str(source), "--system", "LittleWorld", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["アリス.json", "キャロル.json", "ボブ.json"]
    assert "3 人のキャラクターを取り込みました" in result.stderr
    one = CliRunner().invoke(
        app, ["import", "udonarium", str(source), "--system", "LittleWorld", "--name", "ボブ"]
    )
    assert one.exit_code == 0 and json.loads(one.stdout)["name"] == "ボブ"
    every = CliRunner().invoke(app, ["import", "udonarium", str(source), "-s", "LittleWorld"])
    assert [s["name"] for s in json.loads(every.stdout)] == ["アリス", "ボブ", "キャロル"]


# -- refusals name the missing fields ------------------------------------------------------


def test_littleworld_refusal_names_the_missing_abilities() -> None:
    with pytest.raises(TransferError) as caught:
        import_bytes(
            ccfolia(status=[{"label": "HP", "value": 10, "max": 10}]), "ccfolia", "LittleWorld"
        )
    for name in ("体力", "技巧", "理知"):
        assert name in caught.value.message.ja and name in caught.value.message.en


def test_unmeid100_refusal_names_the_missing_abilities_not_the_level_up_rule() -> None:
    with pytest.raises(TransferError) as caught:
        import_bytes(ccfolia(params=UM_PARAMS[:2]), "ccfolia", "UnmeiD100")
    text = caught.value.message.both()
    assert "魅力" in text and "運命" in text and "体格" not in text
    assert "UM-LEVEL-02" not in text


# -- what is written -----------------------------------------------------------------------


def test_exported_udonarium_piece_has_none_icon(lw_sheet) -> None:
    root = ElementTree.fromstring(export_udonarium_xml(lw_sheet))
    assert root.find(".//data[@name='imageIdentifier']").text == "none_icon"


def test_empty_ccfolia_status_is_dropped_not_a_note() -> None:
    raw = ccfolia(
        status=[
            {"label": "MP"},
            {"label": "SAN", "value": "", "max": None},
            {"label": "", "value": None},
            HP_STATUS,
        ],
        params=LW_PARAMS,
    )
    sheet, report = import_bytes(raw, "ccfolia", "LittleWorld")
    assert "/" not in sheet.notes.values() and "MP" not in sheet.notes and "SAN" not in sheet.notes
    assert ("resource MP", "ignored") in {(line.source, line.status) for line in report.lines}


def test_char_add_explains_room_files_and_ambiguous_files(tmp_path: Path) -> None:
    """``/char add`` has no flags: it says which ``saikoro import`` command to run first."""
    from saikoro.transfer import load_character_file

    room = tmp_path / "room.zip"
    room.write_bytes(room_file())
    with pytest.raises(TransferError) as caught:
        load_character_file(room, "LittleWorld")
    assert "3 characters" in caught.value.message.en and "-o DIR" in caught.value.message.en
    loose = tmp_path / "piece.json"
    loose.write_bytes(ccfolia(params=[*LW_PARAMS, {"label": "生命力", "value": "12"}]))
    with pytest.raises(TransferError) as caught:
        load_character_file(loose, "LittleWorld")
    assert "--accept-ambiguous" in caught.value.message.en
