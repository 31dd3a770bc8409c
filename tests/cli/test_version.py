"""`saikoro --version` names the release in pyproject.toml, and CHANGELOG.md describes it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from typer.testing import CliRunner

import saikoro
from saikoro.cli.main import app

ROOT = Path(__file__).resolve().parents[2]


def project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def test_version_option_prints_the_project_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"saikoro {project_version()}"
    assert saikoro.__version__ == project_version()


def test_the_changelog_describes_the_release() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert f"\n## {project_version()} — " in changelog
