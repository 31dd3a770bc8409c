"""Every LW-* rule of RULES.md is in the shipped reference and proven by a test."""

from __future__ import annotations

from pathlib import Path

from saikoro.rules_coverage import coverage, parse_reference

REPO = Path(__file__).resolve().parents[2]


def test_every_littleworld_rule_is_covered(shared: Path) -> None:
    report = coverage(
        system="LittleWorld",
        spec=shared / "spec" / "RULES.md",
        tests=REPO / "tests",
        references=REPO / "docs" / "rules",
    )
    summary = report.summary()["LittleWorld"]
    assert summary["rules"] == 48 + 10  # RULES.md, and LW-TABLE-01..10 of docs/rules
    assert summary["uncovered"] == []  # every rule through the table or the CLI
    assert report.unknown_ids == {}  # no test names an LW ID that RULES.md lacks


def test_reference_lists_every_rule_with_its_status(shared: Path) -> None:
    spec_ids = {
        line.split("**")[1].split()[0]
        for line in (shared / "spec" / "RULES.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("- **LW-")
    }
    doc = (REPO / "docs" / "rules" / "LittleWorld.md").read_text(encoding="utf-8")
    statuses = parse_reference(doc)
    assert spec_ids <= set(statuses)
    table = {
        line.split("|")[1].strip()
        for line in doc.splitlines()
        if line.startswith("| LW-") and "implemented" in line
    }
    assert table == spec_ids


def test_reference_documents_every_setting() -> None:
    from saikoro.systems.littleworld.settings import LittleWorldSettings

    doc = (REPO / "docs" / "rules" / "LittleWorld.md").read_text(encoding="utf-8")
    missing = [name for name in LittleWorldSettings.model_fields if f"| `{name}` |" not in doc]
    assert missing == []
