"""Export then import gives the same sheet, for both systems and both formats; the exports'
shapes are what the tools read."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saikoro.sheets import load_sheet
from saikoro.systems.littleworld.sheet import LittleWorldSheet
from saikoro.transfer import export_ccfolia, export_udonarium, export_udonarium_xml, import_bytes

REPO = Path(__file__).resolve().parents[2]


def _is_sheet(path: Path) -> bool:
    """A character sheet file (examples/ also holds scripts and other files)."""
    import yaml

    from saikoro.sheets import sheet_systems

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))  # YAML reads JSON too
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("system") in sheet_systems()


EXAMPLES = sorted(
    p
    for p in (REPO / "examples").glob("*/*")
    if p.suffix in (".json", ".yaml", ".yml") and _is_sheet(p)
)


def roundtrip(sheet, fmt: str):  # type: ignore[no-untyped-def]
    data = export_ccfolia(sheet).encode() if fmt == "ccfolia" else export_udonarium(sheet)
    back, _report = import_bytes(data, fmt, sheet.system)
    return back


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
def test_littleworld_roundtrip(lw_sheet, fmt: str) -> None:
    assert roundtrip(lw_sheet, fmt) == lw_sheet


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
def test_unmeid100_roundtrip(unmei_sheet, fmt: str) -> None:
    assert roundtrip(unmei_sheet, fmt) == unmei_sheet


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_shipped_examples_roundtrip(path: Path, fmt: str) -> None:
    sheet = load_sheet(path)
    assert roundtrip(sheet, fmt) == sheet


def test_examples_found() -> None:
    assert {p.parent.name for p in EXAMPLES} >= {"littleworld", "unmeid100"}


def test_import_of_saikoro_export_needs_no_system(unmei_sheet) -> None:
    back, _ = import_bytes(export_ccfolia(unmei_sheet).encode(), "ccfolia", None)
    assert back == unmei_sheet


def test_edits_made_in_the_tool_win(lw_sheet) -> None:
    """A value changed in CCFOLIA (HP after a fight) comes back; the rest is unchanged."""
    piece = json.loads(export_ccfolia(lw_sheet))
    piece["data"]["status"][0]["value"] = 5
    for param in piece["data"]["params"]:
        if param["label"] == "技巧":
            param["value"] = "2"
    piece["data"]["params"].append({"label": "あだ名", "value": "アリ"})
    back, _ = import_bytes(json.dumps(piece).encode(), "ccfolia", "LittleWorld")
    assert back.hp == 5 and back.abilities.技巧 == 2
    assert back.notes["あだ名"] == "アリ"
    assert back.model_dump(exclude={"hp", "abilities", "notes"}) == lw_sheet.model_dump(
        exclude={"hp", "abilities", "notes"}
    )


def test_ccfolia_export_shape(lw_sheet) -> None:
    piece = json.loads(export_ccfolia(lw_sheet))
    assert piece["kind"] == "character"
    data = piece["data"]
    assert data["name"] == "アリス"
    assert data["initiative"] == 1  # 技巧 (LW-COMBAT-01 order)
    assert data["status"][0] == {"label": "HP", "value": 12, "max": 15}
    params = {p["label"]: p["value"] for p in data["params"]}
    assert params["体力"] == "3" and params["技巧"] == "1" and params["理知"] == "4"
    assert all(isinstance(p["value"], str) for p in data["params"])
    assert params["出身"] == "霧の街"
    commands = data["commands"].splitlines()
    assert "2D6+{体力} 【体力】判定" in commands
    assert "1D6+{技巧} 【技巧】判定" in commands  # 技巧 1: weak action rolls 1D6 (LW-CHECK-02)
    assert "LW{理知}>=10 【理知】判定 目標値10" in commands


def test_udonarium_export_shape(unmei_sheet) -> None:
    from defusedxml.ElementTree import fromstring

    archive = zipfile.ZipFile(io.BytesIO(export_udonarium(unmei_sheet)))
    assert archive.namelist() == ["data.xml"]
    xml = archive.read("data.xml")
    assert xml == export_udonarium_xml(unmei_sheet)
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    root = fromstring(xml)
    assert root.tag == "character"
    top = root.find("data[@name='character']")
    assert top.find("data[@name='common']/data[@name='name']").text == "リナ"
    hp = top.find("data[@name='detail']//data[@name='HP']")
    assert hp.get("type") == "numberResource"
    assert (hp.get("currentValue"), hp.text) == ("9", "18")
    values = {d.get("name"): d.text for d in top.iter("data") if d.get("name")}
    assert values["戦闘"] == "35" and values["AC"] == "25" and values["知力成長率"] == "25"
    palette = root.find("chat-palette")
    assert palette.get("dicebot") == "UnmeiD100"
    assert "1D100<={戦闘} 戦闘スキル判定" in palette.text.splitlines()
    assert "FATE{運命} 運命判定" in palette.text.splitlines()


@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100"])
def test_palette_commands_run(system: str, lw_sheet, unmei_sheet) -> None:
    """Every palette line, with its {references} filled from the sheet, is a command."""
    import re

    import saikoro
    from saikoro.dice.randomizer import SeededSource
    from saikoro.transfer.palette import build_palette

    sheet = lw_sheet if system == "LittleWorld" else unmei_sheet
    refs = {k: str(v) for k, v in sheet.references().items()}
    if system == "UnmeiD100":
        refs.update({f"{n}成長率": str(a.growth_rate) for n, a in sheet.abilities.items()})
    lines = [line for line in build_palette(sheet).splitlines() if not line.startswith("//")]
    assert len(lines) >= 8
    for line in lines:
        command = re.sub(r"\{([^}]+)\}", lambda m: refs[m[1]], line.split(" ")[0])
        assert saikoro.roll(command, system, source=SeededSource(7)) is not None, line


names = st.text(
    alphabet=st.characters(whitelist_categories=("L", "N"), max_codepoint=0x9FFF),
    min_size=1,
    max_size=8,
)
any_name = st.text(min_size=1, max_size=8).filter(str.strip)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.one_of(names, any_name),
    abilities=st.tuples(*[st.integers(1, 30)] * 3),
    max_hp=st.integers(1, 99),
    notes=st.dictionaries(
        st.one_of(names, st.text(min_size=1, max_size=6)), st.text(max_size=20), max_size=4
    ),
    cards=st.lists(names, max_size=3),
    player=st.text(max_size=8),
    life_path=st.text(max_size=8),
    fmt=st.sampled_from(["ccfolia", "udonarium"]),
)
def test_roundtrip_property(name, abilities, max_hp, notes, cards, player, life_path, fmt) -> None:
    sheet = LittleWorldSheet(
        name=name,
        max_hp=max_hp,
        hp=max_hp // 2,
        abilities=dict(zip(("体力", "技巧", "理知"), abilities, strict=True)),
        skill_cards=cards,
        notes=notes,
        player=player,
        life_path=life_path,
    )
    assert roundtrip(sheet, fmt) == sheet


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
@pytest.mark.parametrize("text", ["\x1f\x85", "a\u2028b", "tab\there", " spaced ", "", "a\r\nb"])
def test_odd_note_texts_roundtrip(lw_sheet, fmt: str, text: str) -> None:
    sheet = lw_sheet.model_copy(update={"notes": {"メモ欄": text, "x": "y"}})
    assert roundtrip(sheet, fmt) == sheet


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
def test_unwritable_characters_stay_exact(lw_sheet, fmt: str) -> None:
    """A lone surrogate or U+FFFE (from a hand-edited JSON sheet) neither breaks nor is lost."""
    sheet = lw_sheet.model_copy(update={"notes": {"壊れた": "a\ud800b\ufffe"}})
    assert roundtrip(sheet, fmt) == sheet


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    extra=st.dictionaries(
        st.one_of(
            names,
            st.sampled_from(
                ["AC", "戦闘", "HP", "知力成長率", "【筋力】", "体格 ", "ｈｐ", "行動力"]
            ),
            st.text(min_size=1, max_size=5),
        ),
        st.tuples(st.integers(0, 999), st.integers(0, 100)),
        max_size=4,
    ),
    fmt=st.sampled_from(["ccfolia", "udonarium"]),
)
def test_unmei_extra_abilities_roundtrip_property(extra, fmt) -> None:
    """Extra abilities with any name — even one that reads as another label — come back."""
    from .conftest import sample_unmei

    base = sample_unmei()
    abilities = {k: v.model_dump() for k, v in base.abilities.items()}
    for name, (value, rate) in extra.items():
        abilities.setdefault(name, {"value": value, "growth_rate": rate})
    sheet = base.model_validate({**base.model_dump(), "abilities": abilities})
    assert roundtrip(sheet, fmt) == sheet


@pytest.mark.parametrize("fmt", ["ccfolia", "udonarium"])
def test_odd_weapon_and_spell_names_roundtrip(unmei_sheet, fmt: str) -> None:
    sheet = type(unmei_sheet).model_validate(
        {
            **unmei_sheet.model_dump(),
            "weapons": [{"name": "二行\r\n目の剣\x1f", "damage": "2D6"}],
            "spells": [{"name": "炎\u2028の矢", "hostile": True}],
        }
    )
    assert roundtrip(sheet, fmt) == sheet
