"""The core install (no extras) runs dice, systems, the table and odds; the server, PostgreSQL
and plots, whose libraries are extras, say which extra to install instead of crashing.

Each case runs saikoro in a fresh interpreter where the extras' libraries cannot be imported
(as after ``pip install saikoro`` without ``[server]``, ``[postgres]``, ``[plot]``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXTRAS = ("fastapi", "starlette", "uvicorn", "multipart", "websockets", "psycopg", "matplotlib")

BLOCKER = f"""
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {EXTRAS!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
from saikoro.cli import run_cli
sys.argv = ["saikoro", *sys.argv[1:]]
run_cli()
"""


def core(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_roll_play_and_odds_need_no_extra(tmp_path: Path) -> None:
    rolled = core("roll", "-s", "LittleWorld", "--rands", "6/6,6/6", "LW3>=4")
    assert rolled.returncode == 0 and "クリティカル" in rolled.stdout, rolled.stderr
    played = core(
        "play", "--db", str(tmp_path / "t.db"), "--room", "r", "--system", "DiceBot", stdin="2D6\n"
    )
    assert played.returncode == 0, played.stderr
    odds = core("odds", "2D6>=7")
    assert odds.returncode == 0 and "58.3" in odds.stdout, odds.stderr


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("serve", "--port", "0"), "server"),
        (("play", "--db", "postgresql://nobody@127.0.0.1:1/none", "--room", "r"), "postgres"),
        (("odds", "2D6", "--plot", "PLOT"), "plot"),
    ],
)
def test_a_feature_of_an_extra_names_the_extra(args: tuple[str, ...], extra: str, tmp_path) -> None:
    args = tuple(str(tmp_path / "p.png") if a == "PLOT" else a for a in args)
    out = core(*args, stdin="2D6\n")
    said = out.stdout + out.stderr
    assert out.returncode != 0
    assert f"pip install 'saikoro[{extra}]'" in said, said
    assert "Traceback" not in said
