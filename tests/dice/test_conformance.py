"""BCDice's own test data for the generic system, run straight from ``shared/conformance/bcdice``.

Every ``game_system = "DiceBot"`` case of every ``*.toml`` file goes through
``saikoro.roll(input, "DiceBot", rands)`` with its fixed dice; the text and the
five flags must equal BCDice's (absent flags mean false, ``output = ""`` means
"not a command", i.e. None).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_dir  # shared/ beside the checkout, or its copy

import saikoro

FLAGS = ("secret", "success", "failure", "critical", "fumble")
EXPECTED_CASES = 326


def _load(path: Path) -> list[dict[str, Any]]:
    with path.open("rb") as handle:
        return [t for t in tomllib.load(handle).get("test", []) if t["game_system"] == "DiceBot"]


def _case_ids() -> list[tuple[str, int]]:
    folder = shared_dir() / "conformance" / "bcdice"
    return [
        (path.name, index)
        for path in sorted(folder.glob("*.toml"))
        for index in range(len(_load(path)))
    ]


CASES = _case_ids()


def test_every_dicebot_case_is_collected(shared: Path) -> None:
    folder = shared / "conformance" / "bcdice"
    total = sum(len(_load(path)) for path in folder.glob("*.toml"))
    assert total == EXPECTED_CASES
    assert len(CASES) == total


@pytest.mark.parametrize(("file_name", "index"), CASES, ids=[f"{f}#{i}" for f, i in CASES])
def test_bcdice_case(shared: Path, file_name: str, index: int) -> None:
    case = _load(shared / "conformance" / "bcdice" / file_name)[index]
    rands = [(r["value"], r["sides"]) for r in case.get("rands", [])]
    result = saikoro.roll(case["input"], "DiceBot", rands)
    if case["output"] == "":
        assert result is None, f"{case['input']!r} should not be a command, got {result.text!r}"
        return
    assert result is not None, f"{case['input']!r} is a command in BCDice"
    assert result.text == case["output"]
    for flag in FLAGS:
        assert getattr(result, flag) == case.get(flag, False), flag


_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")


@pytest.mark.parametrize(("file_name", "index"), CASES, ids=[f"{f}#{i}" for f, i in CASES])
def test_bcdice_case_in_english(shared: Path, file_name: str, index: int) -> None:
    """Every command makes its own English (``text_en``): no Japanese left in it but what the
    player typed (choice items), and the same numbers as the Japanese text."""
    case = _load(shared / "conformance" / "bcdice" / file_name)[index]
    if case["output"] == "":
        return
    rands = [(r["value"], r["sides"]) for r in case.get("rands", [])]
    result = saikoro.roll(case["input"], "DiceBot", rands)
    assert result is not None and result.text_en is not None, case["input"]
    typed = set(_JAPANESE.findall(unicodedata.normalize("NFKC", case["input"])))
    assert set(_JAPANESE.findall(result.text_en.replace("＞", ""))) <= typed, result.text_en
    assert re.findall(r"\d+", result.text_en) == re.findall(r"\d+", result.text) or (
        "1 to" in result.text_en  # the limit sentences say "from 1 to 100" in another order
    )
