"""saikoro against the real BCDice on a committed corpus of random generic commands.

``data/bcdice_oracle.jsonl`` was made by ``tools/oracle/make_corpus.sh``: random
``DiceBot`` commands (``tools/oracle/oracle_gen.py``) rolled by BCDice (npm ``bcdice``)
with recorded dice; here saikoro replays the same dice and must give the same text and
five flags in at least 99 % of cases (issue 2). No Node needed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from oracle_compare import Report, compare_cases
from oracle_gen import Generator, generate

DATA = Path(__file__).resolve().parent / "data"
CORPUS = DATA / "bcdice_oracle.jsonl"
META = DATA / "bcdice_oracle.meta.json"
REQUIRED_AGREEMENT = 0.99


@pytest.fixture(scope="module")
def meta() -> dict:
    return json.loads(META.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_corpus_is_what_the_generator_made(corpus: list[dict], meta: dict) -> None:
    assert len(corpus) == meta["count"] >= 3000
    assert [case["id"] for case in corpus] == list(range(meta["count"]))
    regenerated = generate(meta["seed"], meta["count"])
    assert [(c["command"], c["oracle_command"]) for c in corpus] == [
        (c.command, c.oracle_command) for c in regenerated
    ], "the corpus is stale: rerun tools/oracle/make_corpus.sh"
    outcomes = Counter(
        "result" if c["expected"]["ok"] else c["expected"]["reason"].split(":")[0] for c in corpus
    )
    assert outcomes["result"] == meta["outcomes"]["result"]


def test_corpus_covers_every_command_kind(corpus: list[dict]) -> None:
    kinds = Counter(case["kind"] for case in corpus)
    for kind, _ in Generator.KINDS:
        assert kinds[kind] >= 20, kind
    assert sum(n for k, n in kinds.items() if k.endswith("+fullwidth")) >= 200
    assert sum(1 for c in corpus if c["command"].upper().startswith("S")) >= 100
    assert sum(1 for c in corpus if not c["expected"]["ok"]) >= 50  # BCDice says "not a command"


@pytest.fixture(scope="module")
def report(corpus: list[dict]) -> Report:
    return compare_cases(corpus)


def test_saikoro_never_crashes_on_the_corpus(report: Report) -> None:
    crashes = [d for d in report.disagreements if any("crash:" in x for x in d.diffs)]
    assert not crashes, "\n".join(str(d) for d in crashes[:40])


def test_saikoro_agrees_with_bcdice(corpus: list[dict], report: Report) -> None:
    by_kind = Counter(corpus[d.index]["kind"] for d in report.disagreements)
    print(report.summary(limit=200))
    print("disagreements by kind:", dict(by_kind))
    assert report.total == len(corpus)
    assert report.agreement >= REQUIRED_AGREEMENT, (
        report.summary(limit=60) + f"\nby kind: {dict(by_kind)}"
    )
