"""The English labels of the generated chat palettes (issue 19: the English web page shows no
Japanese system words): every label the palette builder writes for the example sheets has an
English text with no Japanese left but the sheet's own names (a spell, a weapon, an
ability the sheet adds), and the lines themselves stay what the tools take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from saikoro.sheets import load_sheet
from saikoro.systems import manifest
from saikoro.transfer.palette import SAIKORO_HEADER, build_palette, palette_label_en

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff]")
SHEETS = sorted(
    p for p in EXAMPLES.glob("*/*") if p.suffix in (".json", ".yaml") and p.parent.name != "scripts"
)


def sheet_names(path: Path) -> set[str]:
    """What the sheet itself names: its spells and weapons, an ability of its own (信仰: not
    one the rules give), shown as the sheet writes them."""
    from saikoro.systems.unmeid100.transfer import UM_CORE

    dump = load_sheet(path).model_dump(mode="json")
    own = {name for name in dump.get("abilities") or {} if name not in UM_CORE}
    if dump["system"] != "UnmeiD100":
        own = set()
    return own | {item["name"] for key in ("spells", "weapons") for item in dump.get(key) or []}


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.name)
def test_every_generated_label_has_its_english(path: Path) -> None:
    sheet = load_sheet(path)
    assert manifest(sheet.system).palette_english() is not None, sheet.system
    lines = build_palette(sheet).splitlines()
    ours = lines[lines.index(SAIKORO_HEADER) + 1 :]
    names = sheet_names(path)
    for line in ours:
        _, _, label = line.partition(" ")
        english = palette_label_en(sheet.system, label)
        rest = english
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, "")
        assert not CJK.search(rest), (line, english)


def test_a_label_no_rule_knows_stays_as_it_is() -> None:
    assert palette_label_en("LittleWorld", "ジャンプ") == "ジャンプ"
    assert palette_label_en("UnmeiD100", "ファイアボルト") == "ファイアボルト"
    assert palette_label_en("Cthulhu7th", "目星") == "目星"  # no generated palette


def test_the_english_of_each_kind_of_line() -> None:
    lw = {
        "【体力】判定": "Body check",
        "【技巧】判定 目標値10": "Skill check, target 10",
        "【理知】で攻撃 (X を相手の理知に。X のままなら防御不能)": (
            "Attack with Intellect (X: the opponent's Intellect; left as X, no defence)"
        ),
        "【体力】で対抗判定 (3 を相手の値に)": "Opposed Body check (3: the opponent's value)",
    }
    um = {
        "盗賊スキル判定": "Thief skill check",
        "運命判定": "Fate check",
        "白兵攻撃 (0 を相手の AC に)": "Melee attack (0: the opponent's AC)",
        "射撃攻撃 狙い1手番": "Ranged attack, aimed 1 turn",
        "射撃攻撃 狙い2手番": "Ranged attack, aimed 2 turns",
        "ファイアボルト (0 を相手の RC に)": "ファイアボルト (0: the opponent's RC)",
        "魔法発動": "Cast a spell",
        "成長判定 (体格/敏捷度/魅力/運命)": "Growth check (Build/Agility/Charm/Fate)",
    }
    for system, labels in (("LittleWorld", lw), ("UnmeiD100", um)):
        for label, english in labels.items():
            assert palette_label_en(system, label) == english
