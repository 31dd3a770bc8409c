"""The README's commands run as written (issue 19: the Japanese quick start once had
``saikoro roll 2D6>=7`` unquoted, which the shell reads as ``saikoro roll 2D6 > =7``).

Convention: a fenced block whose info string ends in `` test`` (```` ```console test ````,
```` ```sh test ````) is safe to run — no install, no server, nothing outside a scratch
directory. In a ``console`` block each ``$ `` line is a command, the ``> `` lines after it are
its standard input and the other lines its output; in an ``sh`` block each line is a command
(a ``#`` comment after it is ignored). Every command must succeed, create no file it does
not name (a stray ``=7``), and print what the README shows when its dice are scripted
(``--rands``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = [ROOT / "README.md"]
FENCE = re.compile(r"^```(\w+) test\n(.*?)^```", re.M | re.S)


@dataclass
class Command:
    line: str
    stdin: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)


def commands(text: str) -> list[Command]:
    found: list[Command] = []
    for language, body in FENCE.findall(text):
        for raw in body.splitlines():
            if language == "console":
                if raw.startswith("$ "):
                    found.append(Command(raw[2:]))
                elif raw.startswith("> ") and found:
                    found[-1].stdin.append(raw[2:])
                elif found:
                    found[-1].output.append(raw)
            elif raw.strip() and not raw.lstrip().startswith("#"):
                found.append(Command(raw.split("  #")[0].strip()))
    return found


SAFE = [(path.name, c) for path in READMES for c in commands(path.read_text("utf-8"))]


def test_the_readme_marks_its_quick_start_commands() -> None:
    lines = [c.line for _, c in SAFE]
    assert "saikoro roll '2D6>=7'" in lines
    assert any(line.startswith("saikoro play") for line in lines)


@pytest.mark.parametrize("command", [c for _, c in SAFE], ids=[c.line for _, c in SAFE])
def test_a_readme_command_runs_as_written(tmp_path: Path, command: Command) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    before = set(os.listdir(tmp_path))
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "SAIKORO_LANG": "ja",
        "MPLBACKEND": "Agg",
    }
    done = subprocess.run(
        ["bash", "-c", command.line],
        cwd=tmp_path,
        input="".join(f"{line}\n" for line in command.stdin),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    named = set(shlex.split(command.line))
    stray = set(os.listdir(tmp_path)) - before - named
    assert not stray, f"{command.line!r} wrote {sorted(stray)}"
    if "--rands" in command.line and command.output and not command.stdin:
        assert done.stdout.splitlines() == command.output
