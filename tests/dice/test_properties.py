"""Property tests: the parser and evaluator only ever answer, return None or raise SaikoroError.

Dice come from a seeded source (deterministic); each property runs a bounded number
of examples so the suite stays fast.
"""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, assume, given, settings

import saikoro
from saikoro.dice.arith import eval_arith
from saikoro.dice.randomizer import SeededSource
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COMMAND_CHARS = "0123456789DdSsKkHhLlMmAaXxIiNnUuRrFfCcBbTtYyZz+-*/()[]<>=!?@,. #"


def outcome(command: str, seed: int = 1) -> tuple[str, ...] | None:
    """What a command gives: its text and flags, None, or the error's reason."""
    try:
        result = saikoro.roll(command, "DiceBot", source=SeededSource(seed))
    except SaikoroError as error:
        return ("error", type(error).__name__, error.reason)
    if result is None:
        return None
    assert isinstance(result, RollResult)
    flags = (result.secret, result.success, result.failure, result.critical, result.fumble)
    return (result.text, *map(str, flags))


# -- grammar-shaped commands ------------------------------------------------------------------
numbers = st.integers(min_value=0, max_value=30).map(str)


def _wrap(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        children.map(lambda e: f"({e})"),
        st.tuples(
            children, st.sampled_from(["+", "-", "*", "/", "/U", "/R", "/F", "/C"]), children
        ).map(lambda t: f"{t[0]}{t[1][0]}{t[2]}{t[1][1:]}"),
        st.tuples(st.sampled_from(["-", "+", "--"]), children).map("".join),
    )


arith = st.recursive(numbers, _wrap, max_leaves=8)
sides = st.one_of(numbers, st.sampled_from(["6", "10", "100", "66", "20", "(2+4)", ""]))
filters = st.sampled_from(["", "", "KH", "KL2", "DH1", "DL", "MAX", "MIN", "KH(1+1)"])
dice = st.one_of(
    st.tuples(numbers, sides, filters).map(lambda t: f"{t[0]}D{t[1]}{t[2]}"),
    st.tuples(sides.filter(bool), filters).map(lambda t: f"D{t[0]}{t[1]}"),
    st.tuples(numbers, st.sampled_from(["B", "R", "U", "TY", "TZ"]), sides.filter(bool)).map(
        "".join
    ),
)
expression = st.recursive(st.one_of(dice, numbers), _wrap, max_leaves=6)
comparisons = st.sampled_from(["", "", ">=", "<=", ">", "<", "=", "<>", "=>", "!=", "==", "><"])
targets = st.one_of(arith, st.just("?"))
prefixes = st.sampled_from(["", "", "S", "s", "x2 ", "rep3 ", "C", "choice"])
suffixes = st.sampled_from(["", "", " comment", "[4]", "@5", " 攻撃！", "#"])

commands = st.builds(
    lambda p, e, c, t, s: f"{p}{e}{c}{t if c else ''}{s}",
    prefixes,
    expression,
    comparisons,
    targets,
    suffixes,
)


@SETTINGS
@given(st.text(max_size=80))
def test_any_text_only_answers_or_raises_saikoro_errors(text: str) -> None:
    outcome(text)


@SETTINGS
@given(st.text(alphabet=COMMAND_CHARS, max_size=40))
def test_command_alphabet_soup(text: str) -> None:
    outcome(text)


@SETTINGS
@given(commands)
def test_grammar_shaped_commands(command: str) -> None:
    outcome(command)


def to_full_width(text: str, mask: list[bool]) -> str:
    out = []
    for i, char in enumerate(text):
        wide = mask[i % len(mask)] if mask else True
        if wide and "!" <= char <= "~":
            out.append(chr(ord(char) + 0xFEE0))
        elif wide and char == " ":
            out.append("\u3000")
        else:
            out.append(char)
    return "".join(out)


@SETTINGS
@given(commands, st.lists(st.booleans(), min_size=1, max_size=8), st.integers(0, 2**16))
def test_full_and_mixed_width_equal_half_width(command: str, mask: list[bool], seed: int) -> None:
    assert outcome(to_full_width(command, mask), seed) == outcome(command, seed)


# -- arithmetic against an independent reference ------------------------------------------------
def _arith_case(children: st.SearchStrategy[tuple[str, int]]) -> st.SearchStrategy[tuple[str, int]]:
    def combine(t: tuple[tuple[str, int], str, tuple[str, int]]) -> tuple[str, int]:
        (lt, lv), op, (rt, rv) = t
        if op == "+":
            return f"({lt}+{rt})", lv + rv
        if op == "-":
            return f"({lt}-{rt})", lv - rv
        if op == "*":
            return f"({lt}*{rt})", lv * rv
        assume(rv != 0)
        return f"({lt}/{rt})", lv // rv  # floor division, as Ruby's Integer#/

    return st.one_of(
        st.tuples(children, st.sampled_from("+-*/"), children).map(combine),
        children.map(lambda c: (f"-({c[0]})", -c[1])),
    )


arith_cases = st.recursive(
    st.integers(0, 1000).map(lambda n: (str(n), n)), _arith_case, max_leaves=12
)


@SETTINGS
@given(arith_cases)
def test_arithmetic_matches_a_reference(case: tuple[str, int]) -> None:
    text, value = case
    assert eval_arith(text) == value
    result = saikoro.roll(f"C{text}", "DiceBot", [])
    assert result is not None and result.value == value
    assert result.text.endswith(f" ＞ {value}")
