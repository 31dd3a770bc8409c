"""The UnmeiD100 character sheet: examples load, field-level bilingual errors, references."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.sheets import (
    SheetError,
    dump_sheet_text,
    load_sheet,
    parse_sheet_text,
    sheet_from_data,
)
from saikoro.systems.unmeid100.sheet import UnmeiSheet

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "unmeid100"


def minimal(**kw) -> dict:
    data = {
        "system": "UnmeiD100",
        "name": "テスト",
        "hp": 10,
        "max_hp": 10,
        "abilities": {
            k: {"value": 10, "growth_rate": 30} for k in ("体格", "敏捷度", "魅力", "運命")
        },
    }
    data.update(kw)
    return data


def problems(data: dict) -> list[str]:
    with pytest.raises(SheetError) as info:
        sheet_from_data(data)
    return [p.ja + " | " + p.en for p in info.value.problems]


@pytest.mark.rule("UM-FATE-01", "UM-FATE-03")
@pytest.mark.parametrize(
    ("file", "kind", "fate_uses"),
    [
        ("pc_lina.yaml", "PC", 3),
        ("mob_goblin.json", "mob", 1),
        ("named_dark_priest.yaml", "named", 5),
    ],
)
def test_examples_load_and_round_trip(file: str, kind: str, fate_uses: int) -> None:
    sheet = load_sheet(EXAMPLES / file)
    assert isinstance(sheet, UnmeiSheet) and sheet.kind == kind
    assert sheet.fate_uses == fate_uses
    for suffix in (".json", ".yaml"):
        again = parse_sheet_text(dump_sheet_text(sheet, suffix), suffix)
        assert again == sheet


@pytest.mark.rule("UM-LEVEL-03")
def test_formula_table_derives_values_when_enabled() -> None:
    priest = load_sheet(EXAMPLES / "named_dark_priest.yaml")
    assert isinstance(priest, UnmeiSheet)
    refs = priest.references()
    assert refs["魔術"] == 15 * 4 + 6 * 2 + 3 and refs["RC"] == 15 * 3 + 12 // 2
    assert refs["戦闘"] == 40  # not in the table: as entered
    off = UnmeiSheet.model_validate(minimal(formula_table={"formulas": {"戦闘": "体格*5"}}))
    assert off.references()["戦闘"] == 0 and off.derived() == {}


def test_references_for_substitution() -> None:
    sheet = UnmeiSheet.model_validate(
        minimal(
            skills={"combat": 60, "thief": 55, "magic": 70}, ac=25, rc=40, action_points=2, level=4
        )
    )
    refs = sheet.references()
    for label, value in {
        "体格": 10,
        "敏捷度": 10,
        "魅力": 10,
        "運命": 10,
        "戦闘": 60,
        "戦闘スキル": 60,
        "盗賊": 55,
        "魔術": 70,
        "HP": 10,
        "MHP": 10,
        "AC": 25,
        "RC": 40,
        "行動力": 2,
        "レベル": 4,
        "運命判定": 50,
        "運命判定回数": 4,
    }.items():
        assert refs[label] == value, label


@pytest.mark.rule("UM-LEVEL-01", "UM-LEVEL-02")
def test_invalid_sheet_names_each_field_in_both_languages() -> None:
    data = minimal(level=11, hp=12)
    data["abilities"]["体格"] = {"value": -1, "growth_rate": 120}
    data["weapons"] = [{"name": " "}]
    found = problems(data)
    assert any(p.startswith("level: レベルは 1〜10") and "level must be" in p for p in found)
    assert any(p.startswith("abilities.体格.value: ") and "an ability must be" in p for p in found)
    assert any(
        p.startswith("abilities.体格.growth_rate: 成長率") and "[UM-LEVEL-02]" in p for p in found
    )
    assert any(p.startswith("weapons.0.name: 武器名が空です") for p in found)
    assert any(p.startswith("max_hp: HP (12) が最大HP (10) を超えています") for p in found)


@pytest.mark.rule("UM-FATE-03")
def test_fate_uses_left_bounded_by_kind_and_level() -> None:
    assert any(
        "fate_uses_left: 運命判定の残り回数は 0〜1" in p
        for p in problems(minimal(kind="mob", level=5, fate_uses_left=2))
    )
    assert (
        UnmeiSheet.model_validate(minimal(kind="named", level=5, fate_uses_left=5)).fate_uses == 5
    )


def test_missing_core_abilities_and_bad_formula() -> None:
    found = problems(minimal(abilities={"体格": {"value": 3}}))
    assert any(p.startswith("abilities: 敏捷度・魅力・運命 がありません") for p in found)
    found = problems(minimal(formula_table={"enabled": True, "formulas": {"戦闘": "体格+X"}}))
    assert any(p.startswith("formula_table: ") and "unknown value X" in p for p in found)
    found = problems(minimal(formula_table={"enabled": True, "formulas": {"攻撃力": "1"}}))
    assert any("cannot derive 攻撃力" in p for p in found)
    found = problems(minimal(kind="boss"))
    assert any(p.startswith("kind: ") for p in found)


def test_extra_abilities_and_spells_weapons() -> None:
    data = minimal(
        spells=[{"name": "火球", "school": "炎", "half_rate": True, "hostile": True}],
        weapons=[{"name": "斧", "damage": "2D6", "two_handed": True, "abilities": ["必殺"]}],
        mounted=True,
        school="炎",
    )
    data["abilities"]["信仰"] = {"value": 5, "growth_rate": 10}
    sheet = UnmeiSheet.model_validate(data)
    assert sheet.references()["信仰"] == 5
    assert sheet.spells[0].half_rate and sheet.weapons[0].abilities == ["必殺"]


@pytest.mark.rule("UM-CHECK-01", "UM-LEVEL-02")
@pytest.mark.parametrize("skill", ["combat", "thief", "magic"])
def test_skills_are_success_rates_0_to_100(skill: str) -> None:
    found = problems(minimal(skills={skill: 300}))
    assert found == [
        f"skills.{skill}: スキルは 0〜100 の整数です (300) [UM-CHECK-01]"
        f" | skills.{skill}: a skill must be an integer from 0 to 100 (got 300) [UM-CHECK-01]"
    ]
    assert any(
        p.startswith(f"skills.{skill}: スキルは 0〜100")
        for p in problems(minimal(skills={skill: -1}))
    )
    for ok in (0, 100):
        assert getattr(UnmeiSheet.model_validate(minimal(skills={skill: ok})).skills, skill) == ok


@pytest.mark.rule("UM-MELEE-01", "UM-MAGIC-03", "UM-MOVE-01")
def test_armour_and_resist_class_are_not_negative_on_the_sheet() -> None:
    found = problems(minimal(ac=-5, rc=-1))
    assert any(
        p.startswith("ac: アーマークラスは 0〜999 の整数です (-5) [UM-MELEE-01]") for p in found
    )
    assert any(p.startswith("rc: レジストクラスは 0〜999") and "resist class" in p for p in found)
    sheet = UnmeiSheet.model_validate(minimal(ac=0, rc=120))
    assert (sheet.ac, sheet.rc) == (0, 120)


@pytest.mark.rule("UM-DMG-01")
@pytest.mark.parametrize("damage", ["2X6", "2D6>=7", "3", "choice[a,b]", "x3 1D6", "1D0", "300D6"])
def test_weapon_damage_must_be_dice_the_engine_rolls(damage: str) -> None:
    (found,) = problems(minimal(weapons=[{"name": "斧", "damage": damage}]))
    ja, en = found.split(" | ")
    assert ja.startswith(f"weapons.0.damage: ダメージダイス {damage!r} は振れません")
    assert en.startswith(f"weapons.0.damage: damage dice {damage!r} cannot be rolled")
    assert ja.endswith("[UM-DMG-01]") and en.endswith("[UM-DMG-01]")


@pytest.mark.rule("UM-DMG-01")
@pytest.mark.parametrize("damage", ["2D6", "1d8+1", "1D6+1D4", "(1D6)*2", "２Ｄ６"])
def test_weapon_damage_dice_accepted(damage: str) -> None:
    sheet = UnmeiSheet.model_validate(minimal(weapons=[{"name": "斧", "damage": damage}]))
    assert sheet.weapons[0].damage == damage
