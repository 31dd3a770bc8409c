"""Property: game-system commands with any numbers, and sheet files of any shape, give a
result or a bilingual SaikoroError (a SheetError for sheets) — never another exception, and
fast."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from work import count_calls

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.sheets import SheetError, sheet_from_data

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHEETS = {
    "LittleWorld": ["littleworld/pc_gin_fighter.yaml", "littleworld/enemy_shadow_wolf.json"],
    "UnmeiD100": ["unmeid100/pc_lina.yaml", "unmeid100/named_dark_priest.yaml"],
}

#: numbers as typed: huge, negative, zero, full-width, other digits, empty
number = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.integers(10**12, 10**60).map(str),
    st.sampled_from(["", "0", "-0", "00", "１２", "²", "٣", "-", "X", "99", "100", "101"]),
)


@st.composite
def system_commands(draw) -> tuple[str, str]:
    n = draw(st.lists(number, min_size=1, max_size=6))
    system, shape = draw(
        st.sampled_from(
            [
                ("LittleWorld", "LW{0}"),
                ("LittleWorld", "LW{0}>={1}"),
                ("LittleWorld", "LWO{0}-{1}"),
                ("LittleWorld", "LWA{0}"),
                ("LittleWorld", "LWA{0}-{1}"),
                ("LittleWorld", "LWA{0}-X"),
                ("LittleWorld", "LWT{0}"),
                ("UnmeiD100", "FATE{0}"),
                ("UnmeiD100", "MA{0},{1},{2}"),
                ("UnmeiD100", "RA{0},{1},{2},{3}"),
                ("UnmeiD100", "RA{0},{1},{2}"),
                ("UnmeiD100", "MG{0}{flags}"),
                ("UnmeiD100", "GROW{many}"),
            ]
        )
    )
    flags = "".join(
        draw(st.lists(st.sampled_from([",O", ",H", ",X", ",1", ",-5", ","]), max_size=40))
    )
    many = ",".join(draw(st.lists(number, min_size=1, max_size=300)))
    command = shape.format(*(n * 4), flags=flags, many=many)
    prefix = draw(st.sampled_from(["", "S", "s", "ｓ"]))
    return system, prefix + command + draw(st.sampled_from(["", " コメント", "\t#"]))


#: Function calls one fuzzed command may make (counted, not timed: tests/work.py).
FUZZ_CALLS = 1_000_000


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(system_commands(), st.integers(0, 2**16))
def test_system_commands_with_any_numbers(case: tuple[str, str], seed: int) -> None:
    system, command = case
    work = count_calls(lambda: saikoro.roll(command, system, source=SeededSource(seed)))
    if work.error is not None:
        assert isinstance(work.error, SaikoroError), command
        assert work.error.message.ja and work.error.message.en, command
    assert work.calls < FUZZ_CALLS, (command, work.calls)


def junk(depth: int = 0) -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**40), 10**40),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=20),
        st.sampled_from(["１２", "²", "-0", "体力", "2D6", "1D6+{体力}", "x" * 5000]),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    )


def _paths(data: Any, at: tuple = ()) -> list[tuple]:
    found = [at]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _paths(value, (*at, i))
    return found


def _load(path: str) -> Any:
    return yaml.safe_load((EXAMPLES / path).read_text(encoding="utf-8"))


BASES = {system: [_load(p) for p in paths] for system, paths in SHEETS.items()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(sorted(SHEETS)))
def test_sheets_of_any_shape_give_a_sheet_or_a_sheet_error(data, system: str) -> None:
    sheet = copy.deepcopy(data.draw(st.sampled_from(BASES[system]), label="base"))
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        where = data.draw(st.sampled_from(_paths(sheet)), label="where")
        value = data.draw(junk(), label="value")
        if not where:
            sheet = value
            continue
        parent = sheet
        for step in where[:-1]:
            parent = parent[step]
        if isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
            del parent[where[-1]]
        else:
            parent[where[-1]] = value
    try:
        sheet_from_data(sheet, system)
    except SheetError as error:
        assert error.message.ja and error.message.en
        assert all(p.ja and p.en for p in error.problems)


def test_a_sheet_nested_very_deep_is_a_sheet_error() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    for system, bases in BASES.items():
        sheet = copy.deepcopy(bases[0])
        sheet["name"] = deep
        with pytest.raises(SheetError):
            sheet_from_data(sheet, system)
