"""LW-ABIL-02/03: task → ability lookup, also as the LWT command."""

from __future__ import annotations

import pytest

from saikoro.systems.littleworld.tasks import TASKS, ability_for_task, all_tasks, find_task

from .helpers import lw


@pytest.mark.rule("LW-ABIL-02")
@pytest.mark.parametrize(
    ("task", "ability"),
    [
        ("水泳", "体力"),
        ("タックル", "体力"),
        ("目星", "技巧"),
        ("調査", "技巧"),
        ("発見", "技巧"),
        ("車やバイクの運転", "技巧"),
        ("運転", "技巧"),
        ("図書館", "理知"),
        ("資料探し", "理知"),
        ("運が左右する行為", "理知"),
        ("肺活量", "体力"),
        ("交渉", "理知"),
        ("\u3000水泳 ", "体力"),
    ],
)
def test_task_lookup(task: str, ability: str) -> None:
    assert ability_for_task(task) == ability


@pytest.mark.rule("LW-ABIL-02")
def test_every_task_of_the_table_finds_its_own_ability() -> None:
    assert len(all_tasks()) == sum(len(v) for v in TASKS.values()) == 34
    for task, ability in all_tasks():
        found = find_task(task)
        assert found is not None and found.abilities == (ability,), task


@pytest.mark.rule("LW-ABIL-02")
def test_unknown_or_ambiguous_tasks_give_none() -> None:
    assert find_task("宇宙遊泳の歌") is None
    assert find_task("") is None
    assert find_task("走") is None  # 長距離走 and 短距離走


@pytest.mark.rule("LW-ABIL-03")
def test_fall_uses_the_higher_of_body_and_skill() -> None:
    found = find_task("高所からの落下")
    assert found is not None and found.abilities == ("体力", "技巧")
    from saikoro.systems.littleworld import rules as R

    assert R.fall_ability(2, 4)[:2] == ("技巧", 4)
    assert R.fall_ability(4, 4)[:2] == ("体力", 4)


@pytest.mark.rule("LW-ABIL-02")
def test_lwt_command() -> None:
    result = lw("LWT水泳")
    assert result.text == "(LWT水泳) ＞ 水泳(体力)"  # one kind of parentheses
    assert result.detail["abilities"] == ["体力"]
    assert lw("LWT存在しない行動").failure
