"""Cthulhu7th's ``CC`` against the real BCDice (3.16.1, npm ``bcdice``), die for die.

``data/cthulhu7th_cc.jsonl`` was made by ``make_cthulhu7th_corpus.py`` (beside this file)
from the cases of ``cthulhu7th_cases.py`` (every bonus/penalty form, target and
difficulty, secret, lower case, comments, near misses; three seeds each): saikoro replays
BCDice's dice and must give the same text, five flags and detailed dice (``tens_d10``)
in every case. No Node needed; with Node, fresh seeds are compared too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cthulhu7th_cases import cases
from oracle_compare import oracle_unavailable_reason, run_oracle

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError

CORPUS = Path(__file__).resolve().parent / "data" / "cthulhu7th_cc.jsonl"
FLAGS = ("secret", "success", "failure", "critical", "fumble")


def load() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def disagreement(command: str, expected: dict) -> str | None:
    """How saikoro differs from BCDice's ``expected`` answer for ``command`` (None: it agrees)."""
    if not expected["ok"] and expected["reason"].startswith("error:"):
        try:  # BCDice raised: saikoro refuses with its own error (BCDice-API: 500 ok false)
            result = saikoro.roll(command, "Cthulhu7th", source=SeededSource(0))
        except SaikoroError:
            return None
        return f"BCDice raised / saikoro: {result.text if result else None!r}"
    if not expected["ok"]:
        result = saikoro.roll(command, "Cthulhu7th", source=SeededSource(0))
        return None if result is None else f"BCDice: not a command / saikoro: {result.text!r}"
    rands = [(value, sides) for value, sides in expected["rands"]]
    result = saikoro.roll(command, "Cthulhu7th", rands=rands)
    if result is None:
        return "BCDice gave a result, saikoro: not a command"
    got = {"text": result.text, **{f: getattr(result, f) for f in FLAGS}}
    want = {"text": expected["text"], **{f: expected[f] for f in FLAGS}}
    if got != want:
        return f"{want} / saikoro {got}"
    detailed = [d.to_json() for d in result.rands]
    if detailed != expected["detailed_rands"]:
        return f"dice {expected['detailed_rands']} / saikoro {detailed}"
    return None


def test_the_corpus_is_the_cases_of_the_generator() -> None:
    corpus = load()
    assert [(c["command"], c["system"]) for c in corpus] == [
        (c["command"], c["system"]) for c in cases()
    ], "stale: rerun tests/oracle/make_cthulhu7th_corpus.py"
    assert {c["bcdice"] for c in corpus} == {"3.16.1"}
    texts = " ".join(c["expected"].get("text", "") for c in corpus)
    for level in (
        "クリティカル",
        "ファンブル",
        "イクストリーム成功",
        "ハード成功",
        "レギュラー成功",
    ):
        assert level in texts


def test_saikoro_agrees_with_bcdice_on_every_case() -> None:
    wrong = [
        f"{c['command']}: {why}"
        for c in load()
        if (why := disagreement(c["command"], c["expected"])) is not None
    ]
    assert wrong == []


def test_fresh_seeds_against_the_live_oracle() -> None:
    reason = oracle_unavailable_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the live BCDice oracle: {reason}")
        pytest.skip(f"live BCDice oracle: {reason}")
    todo = cases()[::5]
    answers = run_oracle(
        [
            {"system": "Cthulhu7th", "command": c["command"], "seed": 90_000 + i}
            for i, c in enumerate(todo)
        ]
    )
    wrong = [
        f"{c['command']}: {why}"
        for c, answer in zip(todo, answers, strict=True)
        if (why := disagreement(c["command"], answer)) is not None
    ]
    assert wrong == []
