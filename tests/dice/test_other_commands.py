"""Focused tests of BCDice's other common commands: Choice, D66, Barabara, Tally, Reroll, Upper.

Every case uses scripted dice; the expected texts follow BCDice's behaviour (its
source and test data). The full BCDice test data runs in ``test_conformance.py``.
"""

from __future__ import annotations

import time

import pytest

from saikoro.dice.randomizer import Randomizer, ScriptedSource, SeededSource, TooManyRandsError
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.systems.dicebot import DiceBot

SYSTEM = DiceBot()


def run(module_name: str, text: str, rands: list[tuple[int, int]]) -> RollResult | None:
    """Evaluate ``text`` with one command module and check every scripted die was used."""
    import importlib

    module = importlib.import_module(f"saikoro.dice.commands.{module_name}")
    source = ScriptedSource(rands)
    result = module.evaluate(text, SYSTEM, Randomizer(source))
    source.assert_exhausted()
    return result


def text_of(module_name: str, text: str, rands: list[tuple[int, int]]) -> str | None:
    result = run(module_name, text, rands)
    return None if result is None else result.text


def d(sides: int, *values: int) -> list[tuple[int, int]]:
    return [(v, sides) for v in values]


# -- Choice -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "rands", "expected"),
    [
        ("choice[abc,def]", d(2, 2), "(choice[abc,def]) ＞ def"),
        ("choice(a, b ,  c) comment", d(3, 3), "(choice(a,b,c)) ＞ c"),
        ("choice a  b\tc", d(3, 2), "(choice a b c) ＞ b"),
        ("choice[A,,C]", d(2, 1), "(choice[A,C]) ＞ A"),
        ("choice2[x,y,z]", d(3, 3) + d(2, 1), "(choice2[x,y,z]) ＞ z, x"),
        ("choice2 x y z", d(3, 1) + d(2, 2), "(choice2 x y z) ＞ x z"),
        ("choice[b-e]", d(4, 4), "(choice[b,c,d,e]) ＞ e"),
        ("choice(07-09)", d(3, 1), "(choice(7,8,9)) ＞ 7"),
        ("choice X-Z", d(3, 2), "(choice X Y Z) ＞ Y"),
        ("choice[A-C, Z]", d(2, 1), "(choice[A-C,Z]) ＞ A-C"),
        # BCDice scans to the first ']' even past a comment's comma
        ("choice[A] x, y]", d(2, 1), "(choice[A] x,y]) ＞ A] x"),
        ("choice[1,2]", d(2, 1), "(choice[1,2]) ＞ 1"),
        ("choice1[p,q]", d(2, 2), "(choice[p,q]) ＞ q"),
    ],
)
def test_choice_picks(command: str, rands: list[tuple[int, int]], expected: str) -> None:
    assert text_of("choice", command, rands) == expected


def test_choice_secret_flag() -> None:
    result = run("choice", "Schoice[a,b]", d(2, 1))
    assert result is not None and result.secret and result.text == "(choice[a,b]) ＞ a"


@pytest.mark.parametrize(
    "command",
    [
        "choice[a,b",  # no terminator
        "choice(a,b]",
        "choice{a,b}",
        "choice[]",
        "choice[ , ,]",
        "choice0[a,b]",
        "choice3[a,b]",
        "choice[abc]",  # a single item that is not a range
        "choice[z-a]",
        "choice[9-1]",
        "choice[a-Z]",
        "choice",
        "choicex[a,b]",
        "xchoice[a,b]",
        "SSchoice[a,b]",
    ],
)
def test_choice_rejects(command: str) -> None:
    assert run("choice", command, []) is None


def test_choice_more_than_100_items_gives_bcdice_message_without_dice() -> None:
    items = ",".join(f"i{n}" for n in range(101))
    assert text_of("choice", f"choice[{items}]", []) == "項目数は100以下としてください"
    assert text_of("choice", "choice[1-101]", []) == "項目数は100以下としてください"
    # exactly 100 is allowed
    assert text_of("choice", "choice[1-100]", d(100, 100)).endswith(" ＞ 100")


def test_choice_huge_number_range_is_fast() -> None:
    started = time.perf_counter()
    assert text_of("choice", "choice[1-" + "9" * 900 + "]", []) == "項目数は100以下としてください"
    assert run("choice", "choice" + "9" * 30 + "[1-" + "9" * 25 + "]", []) is None
    assert time.perf_counter() - started < 0.1


# -- D66 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "rands", "expected"),
    [
        ("D66", d(6, 5, 2), "(D66) ＞ 52"),  # the generic system does not sort
        ("d66a", d(6, 5, 2), "(D66A) ＞ 25"),
        ("D66S", d(6, 5, 2), "(D66S) ＞ 25"),
        ("D66D", d(6, 2, 5), "(D66D) ＞ 52"),
        ("D66N", d(6, 6, 1), "(D66N) ＞ 61"),
        ("D66 comment D66A", d(6, 6, 1), "(D66) ＞ 61"),
    ],
)
def test_d66(command: str, rands: list[tuple[int, int]], expected: str) -> None:
    assert text_of("d66_dice", command, rands) == expected


def test_d66_secret_and_value() -> None:
    result = run("d66_dice", "sD66A", d(6, 4, 3))
    assert result is not None and result.secret and result.value == 34


@pytest.mark.parametrize("command", ["D66X", "D666", "2D66", "D6", "D66AA", "SSD66"])
def test_d66_rejects(command: str) -> None:
    assert run("d66_dice", command, []) is None


def test_d66_uses_the_systems_sort_type() -> None:
    class Sorted(DiceBot):
        d66_sort_type = "asc"

    from saikoro.dice.commands import d66_dice

    result = d66_dice.evaluate("D66", Sorted(), Randomizer(ScriptedSource(d(6, 6, 1))))
    assert result is not None and result.text == "(D66) ＞ 16"
