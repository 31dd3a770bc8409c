"""Calc ``C(…)`` nested as deep as the 10240-character input allows answers as BCDice 3.16.1
does (checked with the npm oracle, tools/oracle): ``c((((1)))) ＞ 1`` for 3000 levels — not
an HTTP 500 from ``saikoro serve`` nor a refusal from ``saikoro roll``. The arithmetic is
read and evaluated without recursion."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from work import count_calls

import saikoro
from saikoro.cli.main import app
from saikoro.dice.arith import eval_arith
from saikoro.server import create_app


def nested(depth: int, inner: str = "1", opening: str = "(") -> str:
    return opening * depth + inner + ")" * depth


@pytest.mark.parametrize("depth", [100, 101, 3000, 5000])
def test_deep_calc_answers_as_bcdice(depth: int) -> None:
    command = f"C({nested(depth)})"
    work = count_calls(lambda: saikoro.roll(command, "DiceBot", []))
    assert work.calls < 40 * depth + 10_000, work.calls  # linear in the depth
    result = work.value
    assert result is not None and result.value == 1
    assert result.text == f"c({nested(depth)}) ＞ 1"  # BCDice's text, byte for byte


def test_deep_calc_keeps_bcdices_arithmetic() -> None:
    """Unary minus before each level, division with rounding, a sum nested in a sum, and
    division by zero deep inside: BCDice's answers (npm oracle, bcdice 3.16.1)."""
    text = saikoro.roll(f"C({nested(2000, '7/2R', '-(')})", "DiceBot", []).text
    assert text == f"c({nested(2000, '7/2R', '-(')}) ＞ 4"
    text = saikoro.roll(f"C({nested(1501, '7/2U', '-(')})", "DiceBot", []).text
    assert text.endswith(" ＞ -4")
    text = saikoro.roll(f"C({nested(2000, '1', '(1+')})", "DiceBot", []).text
    assert text == f"c({nested(2000, '1', '(1+')}) ＞ 2001"
    text = saikoro.roll(f"C({nested(3000, '1/0')})", "DiceBot", []).text
    assert text == f"c({nested(3000, '1/0')}) ＞ ゼロ除算が発生したため計算できませんでした"
    assert eval_arith(nested(5000, "2*3-1")) == 5
    assert saikoro.roll(f"C({nested(3000)}", "DiceBot", []) is None  # unbalanced: no command
    assert saikoro.roll(f"C({nested(3000)}))", "DiceBot", []) is None


def test_deep_calc_through_the_bcdice_api_route() -> None:
    command = f"C({nested(3000)})"
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        for response in (
            client.get("/v2/game_system/DiceBot/roll", params={"command": command}),
            client.post("/v2/game_system/DiceBot/roll", data={"command": command}),
            client.get("/v2/game_system/DiceBot/roll", params={"command": command, "saikoro": 1}),
        ):
            assert response.status_code == 200, response.text[:200]
            body = response.json()
            assert body["ok"] is True and body["text"] == f"c({nested(3000)}) ＞ 1"
            assert body["rands"] == []


def test_deep_calc_through_saikoro_roll() -> None:
    command = f"C({nested(3000)})"
    result = CliRunner().invoke(app, ["roll", command])
    assert result.exit_code == 0, result.output[:300]
    assert result.stdout.strip() == f"c({nested(3000)}) ＞ 1"
    assert "Traceback" not in result.output
    as_json = CliRunner().invoke(app, ["roll", "--json", command])
    assert as_json.exit_code == 0 and f'"text": "c({nested(3000)}) ＞ 1"' in as_json.stdout


def test_dice_expression_past_its_bound_is_a_clear_400_not_a_500() -> None:
    """AddDice's own parser keeps saikoro's bound of 100 levels: a refusal saying so (400
    with a reason), never BCDice-API's 500 for a failure of BCDice (BCDice answers it)."""
    command = f"1D6+{nested(150)}"
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        response = client.get("/v2/game_system/DiceBot/roll", params={"command": command})
        assert response.status_code == 400
        assert response.json() == {"ok": False, "reason": "expression too deeply nested"}
        response = client.get(
            "/v2/game_system/DiceBot/roll", params={"command": command, "saikoro": 1}
        )
        assert response.status_code == 400
        message = response.json()["message"]
        assert "100 段まで" in message and "at most 100 levels" in message
    result = CliRunner().invoke(app, ["roll", command])
    assert result.exit_code != 0 and "at most 100 levels" in result.stderr
    assert "Traceback" not in result.output
