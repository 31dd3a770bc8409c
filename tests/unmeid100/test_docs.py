"""The shipped rules reference docs/rules/UnmeiD100.md: every UM rule listed, examples true."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.rules_coverage import STATUS_GM, parse_reference, parse_spec, read_spec

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "UnmeiD100.md"
runner = CliRunner()


def examples() -> list[tuple[list[str], str]]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    pairs = []
    for i, line in enumerate(lines):
        if line.startswith("$ saikoro "):
            pairs.append((shlex.split(line[len("$ saikoro ") :]), lines[i + 1]))
    return pairs


def test_every_um_rule_has_a_status_in_the_reference() -> None:
    text, _ = read_spec(None)
    ids = [r.id for r in parse_spec(text) if r.id.startswith("UM-")]
    # … and the rules this reference defines itself (issue 13: IDs RULES.md lacks)
    ids += re.findall(r"^- \*\*(UM-[A-Z]+-\d+)\*\*", DOC.read_text("utf-8"), re.MULTILINE)
    statuses = parse_reference(DOC.read_text(encoding="utf-8"))
    rows = {
        m.group(1)
        for m in re.finditer(r"^\| (UM-[A-Z]+-\d+) \|", DOC.read_text("utf-8"), re.MULTILINE)
    }
    assert set(ids) == rows
    assert all(statuses[i][0] != STATUS_GM for i in ids)  # nothing is left wholly to the GM


@pytest.mark.rule("UM-CHECK-01", "UM-MELEE-01", "UM-MAGIC-03", "UM-LEVEL-02", via="cli")
@pytest.mark.parametrize(("args", "expected"), examples())
def test_documented_examples_are_true(args: list[str], expected: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == expected
