"""The `saikoro roll` contract (issue 2): single commands, --json, --batch, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from saikoro.cli.main import app

runner = CliRunner()


def roll(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["roll", *args], input=stdin)


def test_human_output_is_bcdice_text() -> None:
    result = roll("--rands", "3/6,4/6", "2D6>=7")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


def test_json_output_is_bcdice_api_roll_shape() -> None:
    result = roll("--json", "--rands", "3/6,4/6", "2D6>=7")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "ok": True,
        "text": "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
        "secret": False,
        "success": True,
        "failure": False,
        "critical": False,
        "fumble": False,
        "rands": [
            {"kind": "normal", "sides": 6, "value": 3},
            {"kind": "normal", "sides": 6, "value": 4},
        ],
    }


def test_secret_roll_flag_and_marker() -> None:
    body = json.loads(roll("--json", "--rands", "2/6,2/6", "S2D6").stdout)
    assert body["secret"] is True
    assert roll("--rands", "2/6,2/6", "S2D6").stdout.startswith("[シークレット] ")


def test_non_command_unknown_system_and_bad_dice() -> None:
    result = roll("--json", "こんにちは")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {"ok": False, "reason": "unsupported command"}
    result = roll("--json", "--system", "NoSuchSystem", "2D6")
    assert json.loads(result.stdout)["reason"] == "unsupported game system"
    result = roll("--json", "--rands", "3/6", "2D6")
    body = json.loads(result.stdout)
    assert body["ok"] is False and "not enough scripted dice" in body["reason"]
    result = roll("--json", "--rands", "3/6,4/6,5/6", "2D6")
    assert "left over" in json.loads(result.stdout)["reason"]
    result = roll("--rands", "3/10,4/6", "2D6")
    assert result.exit_code == 1
    assert "d6" in result.stderr


def test_batch_answers_each_line_in_order_and_exits_zero() -> None:
    lines = [
        json.dumps({"system": "DiceBot", "command": "2D6>=7", "rands": [[3, 6], [4, 6]]}),
        json.dumps({"command": "chat text"}),
        "not json",
        json.dumps({"command": "1D100<=65", "rands": [[65, 100]]}),
        json.dumps({"command": "2D6", "system": "Nope"}),
        json.dumps({"command": "2D6", "rands": [[1, 6]]}),
    ]
    result = roll("--batch", "-", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["text"] == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
    assert answers[1] == {"ok": False, "reason": "unsupported command"}
    assert answers[2]["ok"] is False and "JSON" in answers[2]["reason"]
    assert answers[3]["success"] is True
    assert answers[4]["reason"] == "unsupported game system"
    assert answers[5]["ok"] is False


def test_batch_line_nested_too_deep_is_one_refused_line() -> None:
    """json.loads raises RecursionError (not ValueError) for deep nesting: a traceback."""
    result = roll("--batch", "-", stdin="[" * 100_000 + "\n" + '{"command": "1D6"}\n')
    assert result.exit_code == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[0]["ok"] is False and "JSON" in answers[0]["message"]
    assert answers[1]["ok"] is True


def test_over_limit_keeps_bcdice_text_and_warns_in_both_languages() -> None:
    result = roll("500D6")
    assert result.exit_code == 0
    assert result.stdout.strip() == "(500D6) ＞ 0"
    assert "200" in result.stderr and "at most 200 dice" in result.stderr


def test_python_dash_m_is_the_same_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro", "roll", "--json", "--rands", "6/6", "1D6"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["text"] == "(1D6) ＞ 6"


def test_interactive_prompt_reads_lines_from_a_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro"],
        input="/systems\n/system Nope\n/system\nC(1+2)\n/quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "DiceBot" in done.stdout
    assert "c(1+2) ＞ 3".lower() in done.stdout.lower()
    assert "Nope" in done.stderr
    assert "→ DiceBot" in done.stdout and "'/system'" not in done.stderr  # no ID: the current


def test_batch_lines_in_another_encoding_or_with_a_bom(tmp_path) -> None:
    """A Shift_JIS line is refused on its own; a UTF-8 BOM and CRLF are accepted (Windows files)."""
    path = tmp_path / "batch.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"command": "1D6", "rands": [[2, 6]]}\r\n'
        + '{"command": "こんにちは"}\n'.encode("shift_jis")
        + b'{"command": "C(1+1)"}\n'
    )
    result = roll("--batch", str(path))
    assert result.exit_code == 0
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True]
    assert answers[0]["text"] == "(1D6) ＞ 2"
    assert answers[1]["reason"] == "this line is not UTF-8 text"


def test_repeat_limits_keep_bcdice_text_and_warn() -> None:
    result = roll("x101 1D6")
    assert result.stdout.strip() == "繰り返し回数は1以上、100以下としてください"
    assert "1 to 100 times" in result.stderr
    assert "another repeat" in roll("x2 x2 1D6").stderr


def test_language_option_and_environment() -> None:
    assert runner.invoke(app, ["--lang", "en", "roll", "--rands", "3/6,4/6", "2D6>=7"]).stdout == (
        "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ Success\n"
    )
    result = runner.invoke(app, ["roll", "--rands", "3/6", "1D6>=3"], env={"SAIKORO_LANG": "en"})
    assert result.stdout.strip().endswith("Success")


def test_prompt_refuses_a_line_in_another_encoding_and_goes_on() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "saikoro"],
        input=b"C(1)\n" + "あ\n".encode("shift_jis") + b"C(2)\n",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    out = done.stdout.decode()
    assert "c(1) ＞ 1" in out and "c(2) ＞ 2" in out
    assert "not UTF-8" in done.stderr.decode()


def test_the_top_level_system_option_reaches_roll() -> None:
    """`saikoro -s LittleWorld roll …` rolls in LittleWorld (issue 23); roll's own -s wins."""
    result = runner.invoke(app, ["-s", "LittleWorld", "roll", "--rands", "3/6,4/6", "LW3>=10"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "(LW3>=10) ＞ 7[3,4]+3 ＞ 10 ＞ 成功(難易度:難しい)"
    result = runner.invoke(
        app, ["--system", "LittleWorld", "roll", "-s", "DiceBot", "--rands", "3/6,4/6", "2D6"]
    )
    assert result.stdout.strip() == "(2D6) ＞ 7[3,4] ＞ 7"


def test_the_top_level_system_option_reaches_odds() -> None:
    result = runner.invoke(app, ["-s", "LittleWorld", "odds", "LW3>=10"])
    assert result.exit_code == 0, result.output
    assert "LittleWorld" in result.stdout
