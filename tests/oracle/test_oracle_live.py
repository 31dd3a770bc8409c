"""saikoro against the live BCDice oracle (npm ``bcdice`` run by Node).

Runs when ``node`` and ``tools/oracle/node_modules`` exist (CI: ``npm ci --prefix
tools/oracle``); otherwise skips, saying so — except in CI (``CI`` set), where a missing
oracle fails, as a missing PostgreSQL does. Checks the harness on BCDice alone
(scripted dice fed and checked, record/replay consistent, BCDice's own conformance
data passes), then fresh random commands: BCDice records the dice, saikoro replays
them and must agree in at least 99 % of cases.

The random commands come from ``SAIKORO_ORACLE_SEED`` (default 7; any integer gives
new commands, reproducibly) and number ``SAIKORO_ORACLE_COUNT`` (default 1000).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from oracle_compare import compare_cases, oracle_unavailable_reason, record, run_oracle
from oracle_gen import generate

_REASON = oracle_unavailable_reason()


@pytest.fixture(autouse=True)
def _live_oracle() -> None:
    if _REASON is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the live BCDice oracle: {_REASON}")
        pytest.skip(f"live BCDice oracle: {_REASON}")


SEED = int(os.environ.get("SAIKORO_ORACLE_SEED", "7"))
COUNT = int(os.environ.get("SAIKORO_ORACLE_COUNT", "1000"))


def test_oracle_feeds_and_checks_scripted_dice() -> None:
    good, short, extra, sides, bad = run_oracle(
        [
            {"command": "2D6>=7", "rands": [[3, 6], [4, 6]]},
            {"command": "2D6>=7", "rands": [[3, 6]]},
            {"command": "2D6>=7", "rands": [[3, 6], [4, 6], [5, 6]]},
            {"command": "2D6>=7", "rands": [[3, 6], [4, 10]]},
            {"command": "1D6", "rands": [[7, 6]]},
        ]
    )
    assert good["ok"] and good["text"] == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
    assert good["success"] and not good["failure"] and good["rands"] == [[3, 6], [4, 6]]
    for answer in (short, extra, sides, bad):
        assert not answer["ok"] and answer["reason"].startswith("rands:"), answer


def test_oracle_record_and_replay_agree() -> None:
    cases = [c.to_json() for c in generate(SEED + 1, 200)]
    recorded = record(cases, seed_base=1000)
    replayed = run_oracle(
        [
            {"command": c["oracle_command"], "rands": r["rands"]}
            for c, r in zip(cases, recorded, strict=True)
            if r["ok"]
        ]
    )
    for r in replayed:
        r.pop("detailed_rands")
    assert replayed == [r for r in recorded if r["ok"]]


def test_oracle_passes_bcdice_conformance_data(shared: Path) -> None:
    tests = []
    for path in sorted((shared / "conformance" / "bcdice").glob("*.toml")):
        for test in tomllib.loads(path.read_text(encoding="utf-8")).get("test", []):
            if test["game_system"] == "DiceBot":
                tests.append(test)
    assert len(tests) == 326
    answers = run_oracle(
        [
            {"command": t["input"], "rands": [[r["value"], r["sides"]] for r in t.get("rands", [])]}
            for t in tests
        ]
    )
    wrong = []
    for test, answer in zip(tests, answers, strict=True):
        if not test["output"]:
            if answer.get("ok"):
                wrong.append((test["input"], answer))
            continue
        expected = {
            "text": test["output"],
            **{
                f: test.get(f, False)
                for f in ("secret", "success", "failure", "critical", "fumble")
            },
        }
        got = {k: answer.get(k) for k in expected}
        if got != expected:
            wrong.append((test["input"], answer))
    assert not wrong, wrong[:10]


def test_saikoro_agrees_with_live_bcdice() -> None:
    cases = [c.to_json() for c in generate(SEED, COUNT)]
    expected = record(cases, seed_base=SEED * 2654435761 % 2**31)  # far-apart dice seeds
    report = compare_cases(
        {**case, "expected": answer} for case, answer in zip(cases, expected, strict=True)
    )
    print(f"seed {SEED}: " + report.summary(limit=200))
    assert report.total == COUNT
    assert report.agreement >= 0.99, f"seed {SEED}: " + report.summary(limit=60)
