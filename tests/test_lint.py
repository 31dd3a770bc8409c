"""The code base stays ruff-clean (lint rules and formatting from pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PATHS = ["src", "tests", "benchmarks", "tools"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *PATHS],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_ruff_lint_is_clean() -> None:
    done = ruff("check", "--output-format", "concise")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = ruff("format", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
