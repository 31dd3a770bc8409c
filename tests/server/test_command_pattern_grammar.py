"""``command_pattern`` matches every form of the systems' own commands the server rolls.

A property test over each system's command grammar (issue 23): numbers may be written
as bracketed arithmetic (``LW(1+2)>=10``, ``MA(50+10),30,12``), which the server reads
as BCDice does, so the pattern clients filter chat lines with must match them as typed
(BCDice's convention: the commands' names as prefixes). Also the ASCII forms of the
commands whose usual form has Japanese after the name (``LWTSWIM``, ``GROW20,40``),
and that the help says so.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.systems import systems
from saikoro.systems.littleworld.tasks import ASCII_NAMES, all_tasks


def pattern(system_id: str) -> re.Pattern[str]:
    """As /v2/game_system/{id} gives it; clients match it case-insensitively."""
    return re.compile(systems[system_id].command_pattern.pattern, re.IGNORECASE)


def rolls(command: str, system_id: str) -> bool:
    return saikoro.roll(command, system_id, source=SeededSource(7)) is not None


def number(low: int, high: int) -> st.SearchStrategy[str]:
    """A number as typed: ``7``, or bracketed arithmetic whose value is in range."""
    plain = st.integers(low, high).map(str)
    summed = st.tuples(st.integers(low, high), st.integers(0, 5)).map(
        lambda t: f"({t[0] - t[1]}+{t[1]})" if t[0] - t[1] >= 0 else str(t[0])
    )
    diffed = st.tuples(st.integers(low, high), st.integers(0, 5)).map(
        lambda t: f"({t[0] + t[1]}-{t[1]})"
    )
    return st.one_of(plain, summed, diffed)


def styled(command: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Secret (``S``) or not, any letter case, an optional comment."""
    return st.tuples(
        st.booleans(), st.booleans(), command, st.sampled_from(["", " 判定", " test"])
    ).map(lambda t: ("S" if t[0] else "") + (t[2].lower() if t[1] else t[2]) + t[3])


LW_TASKS = [task for task, _ in all_tasks()] + list(ASCII_NAMES) + ["落下", "FALL"]
ABILITY = number(1, 6)
LW_COMMANDS = styled(
    st.one_of(
        st.builds(lambda a: f"LW{a}", ABILITY),
        st.builds(lambda a, t: f"LW{a}>={t}", ABILITY, number(2, 18)),
        st.builds(lambda a, b: f"LWO{a}-{b}", ABILITY, ABILITY),
        st.builds(lambda a, b: f"LWA{a}-{b}", ABILITY, ABILITY),
        st.builds(lambda a: f"LWA{a}", ABILITY),
        st.builds(lambda a: f"LWA{a}-X", ABILITY),
        st.builds(lambda t: f"LWT{t}", st.sampled_from(LW_TASKS)),
    )
)
SKILL = number(0, 100)
SMALL = number(0, 30)
GROW_ITEM = st.tuples(st.sampled_from(["", "体格", "敏捷度", "魅力", "運命"]), SKILL).map("".join)
UM_COMMANDS = styled(
    st.one_of(
        st.builds(lambda f: f"FATE{f}", number(1, 20)),
        st.builds(lambda s, ac, ag: f"MA{s},{ac},{ag}", SKILL, SKILL, SMALL),
        st.builds(
            lambda s, ac, ag, aim: f"RA{s},{ac},{ag}{aim}",
            SKILL,
            SKILL,
            SMALL,
            st.sampled_from(["", ",0", ",1", ",2"]),
        ),
        st.builds(
            lambda s, rc, flags: f"MG{s}{rc}{flags}",
            SKILL,
            st.one_of(st.just(""), st.builds(lambda r, c: f",{r},{c}", SKILL, SMALL)),
            st.sampled_from(["", ",O", ",H", ",O,H"]),
        ),
        st.builds(
            lambda items: "GROW" + ",".join(items), st.lists(GROW_ITEM, min_size=1, max_size=5)
        ),
    )
)


@settings(max_examples=300, deadline=None)
@given(LW_COMMANDS)
def test_every_littleworld_command_the_server_rolls_matches(command: str) -> None:
    assert rolls(command, "LittleWorld"), command
    assert pattern("LittleWorld").search(command), command


@settings(max_examples=300, deadline=None)
@given(UM_COMMANDS)
def test_every_unmeid100_command_the_server_rolls_matches(command: str) -> None:
    assert rolls(command, "UnmeiD100"), command
    assert pattern("UnmeiD100").search(command), command


@pytest.mark.parametrize(
    ("system_id", "command"),
    [
        ("LittleWorld", "LW(1+2)>=10"),
        ("LittleWorld", "LWA(2+1)-2"),
        ("UnmeiD100", "FATE(10+2)"),
        ("UnmeiD100", "MA(50+10),30,12"),
    ],
)
def test_the_issues_examples_match(system_id: str, command: str) -> None:
    assert rolls(command, system_id) and pattern(system_id).search(command)


@pytest.mark.parametrize(("ascii_name", "task"), sorted(ASCII_NAMES.items()))
def test_each_task_has_an_ascii_form(ascii_name: str, task: str) -> None:
    ascii_form = saikoro.roll(f"LWT{ascii_name}", "LittleWorld", source=SeededSource(1))
    japanese = saikoro.roll(f"LWT{task}", "LittleWorld", source=SeededSource(1))
    assert ascii_form is not None and japanese is not None
    assert ascii_form.text.split(" ＞ ", 1)[1] == japanese.text.split(" ＞ ", 1)[1]
    assert f"LWT{ascii_name}".isascii()


def test_the_ascii_forms_are_in_the_help() -> None:
    assert "LWTSWIM" in systems["LittleWorld"].help_message
    assert "ASCII" in systems["LittleWorld"].help_message
    um = systems["UnmeiD100"].help_message
    assert "ASCII" in um and "GROW20,40" in um
    assert rolls("GROW20,40", "UnmeiD100")
