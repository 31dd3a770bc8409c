"""saikoro.sheets, shared by every system: pydantic's own errors in Japanese and English,
a sheet of another game system refused with one message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from saikoro.sheets import PYDANTIC_MESSAGES, SheetError, load_sheet, sheet_from_data

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: pydantic's English, which must not show in the Japanese half of a message.
PYDANTIC_ENGLISH = re.compile(r"Input should|Field required|String should|Extra inputs|valid")


def example(path: str) -> dict:
    return yaml.safe_load((EXAMPLES / path).read_text(encoding="utf-8"))


def problems(data: dict, system: str | None = None) -> list[tuple[str, str]]:
    with pytest.raises(SheetError) as info:
        sheet_from_data(data, system)
    return [(p.ja, p.en) for p in info.value.problems]


def unmei_broken() -> dict:
    data = example("unmeid100/pc_lina.yaml")
    data.update(kind="boss", name="", oops=1)
    data["skills"] = {"thief": "x"}
    data["spells"] = [{"name": "火球", "hostile": "maybe"}]
    del data["abilities"]["運命"]["value"]
    return data


def littleworld_broken() -> dict:
    data = example("littleworld/pc_gin_fighter.yaml")
    data.update(kind="boss", name="", oops=1, row="中衛", kanazuchi_opt_in="maybe")
    data["items"] = [{"quantity": 1}]
    return data


@pytest.mark.rule("LW-ABIL-06", "UM-LEVEL-01")
@pytest.mark.parametrize("broken", [unmei_broken, littleworld_broken], ids=["Unmei", "LW"])
def test_pydantic_errors_are_japanese_in_both_systems(broken) -> None:
    lines = problems(broken())
    assert len(lines) >= 5
    for ja, en in lines:
        assert not PYDANTIC_ENGLISH.search(ja), ja
        assert ja != en
        assert ja.split(":")[0] == en.split(":")[0]  # both name the field
    text = "\n".join(ja for ja, _ in lines)
    assert "name: 空にはできません" in text
    assert "oops: この項目はシートにありません" in text
    assert "のどれかを書いてください" in text  # kind, with the allowed values
    assert "true か false で書いてください" in text or "必須の項目がありません" in text


@pytest.mark.rule("UM-FATE-03", "UM-CHECK-01", "UM-MAGIC-02")
def test_unmei_sheet_errors_name_the_allowed_values_and_rules() -> None:
    by_field = {ja.split(":")[0]: (ja, en) for ja, en in problems(unmei_broken())}
    ja, en = by_field["kind"]
    assert "'PC'、'mob'、'named'" in ja and "must be one of 'PC', 'mob' or 'named'" in en
    assert by_field["skills.thief"][0].startswith("skills.thief: 整数で書いてください")
    assert by_field["spells.0.hostile"][0].startswith("spells.0.hostile: true か false")
    assert by_field["abilities.運命.value"][0].endswith("必須の項目がありません [UM-LEVEL-02]")


def test_every_pydantic_message_has_both_languages_with_the_same_values() -> None:
    for kind, (ja, en) in PYDANTIC_MESSAGES.items():
        assert ja and en and ja != en, kind
        assert re.findall(r"\{(\w+)\}", ja) == re.findall(r"\{(\w+)\}", en), kind


def test_littleworld_keeps_no_copy_of_the_translation() -> None:
    import saikoro.systems.littleworld.sheet as lw

    assert not hasattr(lw, "bilingual_errors") and not hasattr(lw, "_translate")


@pytest.mark.parametrize(
    ("path", "own", "asked"),
    [
        ("unmeid100/pc_lina.yaml", "UnmeiD100", "LittleWorld"),
        ("littleworld/pc_gin_fighter.yaml", "LittleWorld", "UnmeiD100"),
    ],
)
def test_a_sheet_of_another_system_gives_one_clear_error(path: str, own: str, asked: str) -> None:
    for load in (
        lambda: sheet_from_data(example(path), system=asked),
        lambda: load_sheet(EXAMPLES / path, system=asked),
    ):
        with pytest.raises(SheetError) as info:
            load()
        assert info.value.problems == []
        message = info.value.message
        assert message.en == f"this sheet is for {own}, the room plays {asked}"
        assert own in message.ja and asked in message.ja and "\n" not in message.ja
    assert sheet_from_data(example(path), system=own).system == own
    unnamed = {k: v for k, v in example(path).items() if k != "system"}
    assert sheet_from_data(unnamed, system=own).system == own  # no system: the room's


def test_a_sheet_file_over_the_size_limit_is_refused_before_parsing(tmp_path) -> None:
    """A 5 MB YAML took 4 s to parse (a 100 MB one, minutes): /char add must answer fast."""
    from work import count_calls

    from saikoro.sheets import MAX_SHEET_BYTES

    big = tmp_path / "big.yaml"
    body = "system: LittleWorld\nname: big\nmax_hp: 10\nabilities: {体力: 3, 技巧: 3, 理知: 3}\n"
    big.write_text(body + "notes:\n" + "  k: x\n" * (MAX_SHEET_BYTES // 7 + 1), encoding="utf-8")
    work = count_calls(lambda: load_sheet(big))  # counted, not timed (tests/work.py)
    assert isinstance(work.error, SheetError)
    assert work.calls < 1000, work.calls  # parsing it makes millions
    message = work.error.message
    assert "大きすぎ" in message.ja and "too large" in message.en
    big.write_text(body, encoding="utf-8")
    assert load_sheet(big).name == "big"


def test_text_that_is_not_unicode_is_named_in_both_languages() -> None:
    """A JSON sheet may escape a lone surrogate ("\\ud800"): pydantic's string_unicode."""
    data = {"system": "LittleWorld", "name": "a\ud800", "max_hp": 5}
    data["abilities"] = {"体力": 1, "技巧": 1, "理知": 1}
    with pytest.raises(SheetError) as caught:
        sheet_from_data(data)
    (problem,) = caught.value.problems
    assert "Unicode" in problem.ja and "値が正しくありません" not in problem.ja
    assert "Unicode" in problem.en


@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100"])
def test_every_setting_says_what_it_means_in_both_languages(system: str) -> None:
    """``/gm setting`` and the web page read each setting's meaning from its model."""
    from saikoro.systems import manifest
    from saikoro.systems.setting_docs import setting_meaning

    cls = manifest(system).settings_class()
    for key in cls.model_fields:
        meaning = setting_meaning(cls, key)
        assert meaning.en and meaning.ja != meaning.en, key
