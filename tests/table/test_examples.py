"""The sample scripts in examples/scripts run as their headers say and end as the tests expect."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import test_fight_littleworld, test_fight_unmeid100
from .helpers import final_state, play

SCRIPTS = Path(__file__).resolve().parents[2] / "examples" / "scripts"


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("littleworld_fight.txt", test_fight_littleworld.check_final),
        ("unmeid100_fight.txt", test_fight_unmeid100.check_final),
    ],
)
def test_example_script(tmp_path, monkeypatch, name, check):
    text = (SCRIPTS / name).read_text(encoding="utf-8")
    system = re.search(r"--system (\S+)", text).group(1)
    rands = re.search(r"--rands (\S+)", text).group(1).split(",")
    monkeypatch.chdir(SCRIPTS)
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("#")]
    out = play(str(tmp_path / "ex.db"), "demo", lines, rands, system=system)
    final = final_state(out)
    if system == "LittleWorld":
        check(out, final)
    else:
        check(final)
