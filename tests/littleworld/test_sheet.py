"""The 帽子世界TRPG sheet: fields, derived values, references, validation, examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.sheets import (
    SheetError,
    dump_sheet_text,
    load_sheet,
    parse_sheet_text,
    save_sheet,
    sheet_from_data,
)
from saikoro.systems.littleworld.sheet import LittleWorldSheet

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "littleworld"
DATA = Path(__file__).parent / "data"


def base(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "system": "LittleWorld",
        "name": "テスト",
        "max_hp": 12,
        "abilities": {"体力": 3, "技巧": 4, "理知": 2},
    }
    data.update(changes)
    return data


def problems(data: dict[str, object]) -> list[tuple[str, str]]:
    with pytest.raises(SheetError) as info:
        sheet_from_data(data)
    return [(p.ja, p.en) for p in info.value.problems]


@pytest.mark.rule("LW-ABIL-01", "LW-ABIL-06")
def test_minimal_sheet_defaults() -> None:
    sheet = sheet_from_data(base())
    assert isinstance(sheet, LittleWorldSheet)
    assert sheet.hp == sheet.max_hp == 12  # starts at full HP
    assert sheet.kind == "PC" and sheet.is_pc and sheet.row == "前衛"
    assert sheet.taboo == 0 and sheet.keeper is None and sheet.cr == 0
    assert sheet.can_act
    assert not sheet.updated(hp=0).can_act


@pytest.mark.rule("LW-ABIL-04")
def test_named_temporary_modifiers_apply_and_can_be_removed() -> None:
    sheet = sheet_from_data(base()).with_modifier("剣を失った", "体力", -2)
    assert sheet.effective("体力") == 1
    assert sheet.references()["体力"] == 1 and sheet.references()["基本体力"] == 3
    assert [m.reason for m in sheet.modifiers] == ["剣を失った"]
    restored = sheet.without_modifier("剣を失った")
    assert restored.effective("体力") == 3 and restored.modifiers == []
    assert sheet.with_modifier("呪い", "体力", -9).effective("体力") == 0  # never below 0


@pytest.mark.rule("LW-COND-04", "LW-CHECK-06")
def test_sleep_halves_effective_abilities_rounded_down() -> None:
    sheet = sheet_from_data(base(conditions={"sleep": True}))
    assert sheet.effective_abilities() == {"体力": 1, "技巧": 2, "理知": 1}
    assert sheet.abilities.体力 == 3  # the sheet's own value is unchanged


@pytest.mark.rule("LW-SPECIAL-04", "LW-SPECIAL-06")
def test_derived_kanazuchi_and_machine_onchi() -> None:
    weak = sheet_from_data(base(abilities={"体力": 1, "技巧": 2, "理知": 1}))
    assert weak.kanazuchi and weak.machine_onchi
    strong = sheet_from_data(base())
    assert not strong.kanazuchi and not strong.machine_onchi
    assert sheet_from_data(base(kanazuchi_opt_in=True)).kanazuchi


@pytest.mark.rule("LW-ABIL-05", "LW-KEEPER-01")
def test_keeper_fields_and_references() -> None:
    sheet = sheet_from_data(base(keeper={"values_percent": 70}, taboo=40))
    assert sheet.is_keeper and sheet.keeper is not None
    assert sheet.keeper.hat_worn and not sheet.keeper.hat_released
    refs = sheet.references()
    assert refs["価値観"] == 70 and refs["禁忌値"] == 40
    assert sheet_from_data(base(keeper={})).keeper.values_percent == 99  # type: ignore[union-attr]
    assert sheet_from_data(base(taboo=130)).taboo == 130  # 100+ allowed (event, not error)


@pytest.mark.rule("LW-ABIL-05")
@pytest.mark.parametrize("value", [0, 100, -1])
def test_values_percent_out_of_range(value: int) -> None:
    (line,) = problems(base(keeper={"values_percent": value}))
    assert "価値観" in line[0] and "LW-ABIL-05" in line[0] and "LW-ABIL-05" in line[1]
    assert line[0].startswith("keeper.values_percent")


@pytest.mark.rule("LW-KEEPER-01")
def test_hat_release_needs_the_hat() -> None:
    (line,) = problems(base(keeper={"hat_worn": False, "hat_released": True}))
    assert line[0].startswith("keeper.hat_released") and "LW-KEEPER-01" in line[0]


@pytest.mark.rule("LW-ABIL-06")
@pytest.mark.parametrize(
    ("abilities", "field"),
    [
        ({"体力": 0, "技巧": 1, "理知": 1}, "abilities.体力"),
        ({"体力": 1, "技巧": -2, "理知": 1}, "abilities.技巧"),
        ({"体力": 1, "技巧": 1, "理知": 2.5}, "abilities.理知"),
        ({"体力": "3", "技巧": 1, "理知": 1}, "abilities.体力"),
        ({"体力": True, "技巧": 1, "理知": 1}, "abilities.体力"),
        ({"体力": 1, "技巧": 1}, "abilities.理知"),
    ],
)
def test_impossible_abilities_are_rejected_per_field(abilities: dict, field: str) -> None:
    (line,) = problems(base(abilities=abilities))
    ja, en = line
    assert ja.startswith(field + ":") and en.startswith(field + ":")
    assert "[LW-ABIL-0" in ja and "[LW-ABIL-0" in en
    assert ja != en


@pytest.mark.rule("LW-HP-01", "LW-ABIL-06", "LW-ABIL-07")
def test_hp_money_and_items_validation() -> None:
    assert problems(base(hp=13))[0][0].startswith("hp:")
    assert "LW-HP-01" in problems(base(hp=13))[0][1]
    assert problems(base(max_hp=0))[0][0].startswith("max_hp:")
    assert problems(base(cr=-1))[0][0].startswith("cr:")
    assert problems(base(items=[{"name": "薬草", "quantity": -1}]))[0][0].startswith(
        "items.0.quantity:"
    )
    assert sheet_from_data(base(hp=-4)).hp == -4  # HP ≤ 0 is a state, not an error


@pytest.mark.rule("LW-ABIL-06")
def test_every_problem_is_listed_bilingually() -> None:
    lines = problems(
        base(name="", kind="X", row="中衛", oops=1, abilities={"体力": 1}, skill_cards="剣")
    )
    fields = [ja.split(":")[0] for ja, _ in lines]
    assert set(fields) == {
        "name", "kind", "row", "oops", "abilities.技巧", "abilities.理知", "skill_cards"
    }  # fmt: skip
    for ja, en in lines:
        assert "[LW-" in ja and "[LW-" in en
        assert ja != en


@pytest.mark.rule("LW-ABIL-06", "LW-ABIL-05")
def test_invalid_sample_file_gives_field_level_messages() -> None:
    with pytest.raises(SheetError) as info:
        load_sheet(DATA / "invalid_sheet.yaml")
    text = info.value.message.ja
    for field in ("abilities.体力", "abilities.技巧", "keeper.values_percent", "taboo", "row"):
        assert field in text
    assert "能力値は1以上です" in text


@pytest.mark.rule("LW-ABIL-01", "LW-ABIL-06")
@pytest.mark.parametrize("path", sorted(EXAMPLES.iterdir()), ids=lambda p: p.name)
def test_examples_load(path: Path) -> None:
    sheet = load_sheet(path)
    assert isinstance(sheet, LittleWorldSheet)
    assert sheet.hp <= sheet.max_hp


def test_examples_have_a_party_with_a_keeper_and_enemies() -> None:
    sheets = [load_sheet(p) for p in EXAMPLES.iterdir()]
    pcs = [s for s in sheets if isinstance(s, LittleWorldSheet) and s.is_pc]
    npcs = [s for s in sheets if isinstance(s, LittleWorldSheet) and not s.is_pc]
    assert len(pcs) >= 3 and len(npcs) >= 2
    assert any(s.is_keeper for s in pcs)


@pytest.mark.rule("LW-ABIL-07")
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_round_trip_json_and_yaml(tmp_path: Path, suffix: str) -> None:
    sheet = load_sheet(EXAMPLES / "pc_lily_keeper.yaml")
    target = tmp_path / f"lily{suffix}"
    save_sheet(sheet, target)
    again = load_sheet(target)
    assert again == sheet
    assert parse_sheet_text(dump_sheet_text(sheet, suffix), suffix) == sheet
