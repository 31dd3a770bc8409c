"""`saikoro roll --system LittleWorld --rands … --json` for the issue's edge cases."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app

runner = CliRunner()


def roll_json(command: str, rands: str) -> tuple[int, dict]:
    args = ["roll", "--system", "LittleWorld", "--json"]
    if rands:
        args += ["--rands", rands]
    result = runner.invoke(app, [*args, command])
    return result.exit_code, json.loads(result.stdout)


def d6(*faces: int) -> str:
    return ",".join(f"{f}/6" for f in faces)


def flags(body: dict) -> tuple[bool, bool, bool, bool]:
    return (body["success"], body["failure"], body["critical"], body["fumble"])


@pytest.mark.rule("LW-CHECK-02", "LW-CHECK-03", via="cli")
def test_weak_check_cannot_be_critical_and_a_single_1_fumbles() -> None:
    code, body = roll_json("LW1>=7", d6(6))
    assert code == 0 and body["ok"]
    assert flags(body) == (True, False, False, False)
    assert body["text"] == "(LW1>=7) ＞ 1D6(苦手行動) ＞ 6[6]+1 ＞ 7 ＞ 成功(難易度:普通)"
    assert body["rands"] == [{"kind": "normal", "sides": 6, "value": 6}]
    code, body = roll_json("LW1>=2", d6(1))
    assert code == 0
    assert flags(body) == (False, True, False, True)
    assert body["text"].endswith("＞ ファンブル")  # no difficulty band on a fumble (BCDice)


@pytest.mark.rule("LW-CHECK-02", via="cli")
def test_weak_check_consumes_exactly_one_die() -> None:
    code, body = roll_json("LW1>=5", d6(3, 3))
    assert code == 1 and body["ok"] is False  # the second die is left over


@pytest.mark.rule("LW-CHECK-05", via="cli")
def test_opposed_tie() -> None:
    code, body = roll_json("LWO4-2", d6(2, 3, 4, 3))
    assert code == 0
    assert flags(body) == (False, True, False, False)
    assert (
        body["text"] == "(LWO4-2) ＞ 能動側 5[2,3]+4=9 ＞ 受動側 7[4,3]+2=9 ＞ 受動側の勝ち(同値)"
    )


@pytest.mark.rule("LW-COMBAT-06", "LW-COMBAT-08", via="cli")
def test_attacker_critical_against_defender_critical() -> None:
    code, body = roll_json("LWA3-2", d6(6, 6, 6, 6))
    assert code == 0
    assert flags(body) == (False, True, True, False)
    assert body["text"].endswith("＞ ダメージ0")
    assert "完全回避" in body["text"]
    assert len(body["rands"]) == 4


@pytest.mark.rule("LW-COMBAT-06", via="cli")
def test_attacker_critical_against_ordinary_defence() -> None:
    code, body = roll_json("LWA3-4", d6(6, 6, 2, 3))
    assert code == 0
    assert flags(body) == (True, False, True, False)
    assert body["text"] == (
        "(LWA3-4) ＞ 攻撃値 12[6,6]+3=15 クリティカル ＞ 防御値 5[2,3]+0=5(能力値0) ＞ ダメージ10"
    )


@pytest.mark.rule("LW-COMBAT-07", via="cli")
def test_attacker_fumble_consumes_no_defence_dice() -> None:
    code, body = roll_json("LWA3-2", d6(1, 1))
    assert code == 0
    assert flags(body) == (False, True, False, True)
    assert [r["value"] for r in body["rands"]] == [1, 1]
    assert body["text"] == "(LWA3-2) ＞ 攻撃値 2[1,1]+3=5 ファンブル ＞ 攻撃失敗 ＞ ダメージ0"
    code, body = roll_json("LWA3-2", d6(1, 1, 4, 4))
    assert code == 1 and body["ok"] is False  # defence dice would be left over


@pytest.mark.rule("LW-COMBAT-09", via="cli")
def test_defender_fumble() -> None:
    code, body = roll_json("LWA2-5", d6(3, 4, 1, 1))
    assert code == 0
    assert flags(body) == (True, False, False, False)
    assert body["text"].endswith("ファンブル(防御値0) ＞ ダメージ9")


@pytest.mark.rule("LW-COMBAT-11", via="cli")
@pytest.mark.parametrize("command", ["LWA3", "LWA3-X", "lwa3-x"])
def test_defender_unable_to_defend(command: str) -> None:
    code, body = roll_json(command, d6(5, 2))
    assert code == 0
    assert flags(body) == (True, False, False, False)
    assert body["text"].endswith("防御不能 ＞ ダメージ10")
    assert len(body["rands"]) == 2


@pytest.mark.rule("LW-COMBAT-10", via="cli")
def test_damage_never_negative() -> None:
    code, body = roll_json("LWA1-6", d6(2, 5, 6))
    assert code == 0
    assert flags(body) == (False, True, False, False)
    assert (
        body["text"] == "(LWA1-6) ＞ 攻撃値 2[2]+1=3(苦手行動) ＞ 防御値 11[5,6]+6=17 ＞ ダメージ0"
    )


@pytest.mark.rule("LW-CHECK-03", via="cli")
def test_generic_sum_critical_through_the_cli() -> None:
    code, body = roll_json("2D6+3>=10", d6(6, 6))
    assert code == 0
    assert body["text"] == "(2D6+3>=10) ＞ 12[6,6]+3 ＞ 15 ＞ クリティカル"
    assert flags(body) == (True, False, True, False)


def test_english_human_output() -> None:
    result = runner.invoke(
        app, ["roll", "--system", "LittleWorld", "--lang", "en", "--rands", d6(1, 1), "LWA3-2"]
    )
    assert result.exit_code == 0
    assert (
        result.stdout.strip() == "(LWA3-2) ＞ attack 2[1,1]+3=5 Fumble ＞ attack fails ＞ damage 0"
    )


def test_real_command_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "saikoro", "roll", "-s", "LittleWorld", "--json",
         "--rands", d6(4, 5, 3, 5), "LWA3-2"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert body["text"] == "(LWA3-2) ＞ 攻撃値 9[4,5]+3=12 ＞ 防御値 8[3,5]+2=10 ＞ ダメージ2"


def doc_examples() -> list[tuple[list[str], str]]:
    """``$ saikoro …`` lines of docs/rules/LittleWorld.md with the line printed after each."""
    import shlex
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "rules" / "LittleWorld.md"
    lines = doc.read_text(encoding="utf-8").splitlines()
    return [
        (shlex.split(line[2:])[1:], lines[i + 1])
        for i, line in enumerate(lines)
        if line.startswith("$ saikoro ")
    ]


@pytest.mark.parametrize(("args", "expected"), doc_examples())
def test_documented_examples_print_what_the_doc_says(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == expected


def test_doc_has_examples() -> None:
    assert len(doc_examples()) >= 10
