"""The rules coverage report (`saikoro rules coverage`) and the gate: every implementable rule
of both systems is named by at least one test.

The gate test is marked ``rules_gate`` so that it can be deselected while a system is being
built (``-m "not rules_gate"``) and run on its own at the end (``-m rules_gate``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.rules_coverage import (
    STATUS_GM,
    STATUS_IMPLEMENTABLE,
    build_report,
    coverage,
    parse_reference,
    parse_spec,
    read_spec,
    scan_test_source,
    systems_with_rules,
)

pytest_plugins = ["pytester"]

runner = CliRunner(env={"COLUMNS": "200"})

SPEC = """# Rules
intro mentions **XX-NOPE-01** only in prose
## System A — thing (BCDice-style ID `Alpha`, NAME `a`)
- **AA-ONE-01** (seed 1) First rule.
- **AA-ONE-02 名前** (seed 2) Second, says AA-ONE-01.
### Sub
- **AA-TWO-01** GM's call.
## System B — other (ID `Beta`)
- **BB-X-01** Beta rule.
## Both systems
- nothing here
"""

TESTS = '''
"""Module docstring naming AA-ONE-02 does not count."""
import pytest

pytestmark = [pytest.mark.rule("BB-X-01")]


@pytest.mark.rule("AA-ONE-01", "ZZ-TYPO-09")
def test_marked():
    pass


def test_docstring():
    """Proves AA-ONE-02."""


def helper_not_a_test():
    """AA-TWO-01"""


@pytest.mark.rule("AA-TWO-01")
class TestGroup:
    def test_method(self):
        pass

    @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("AA-ONE-02"))])
    def test_param(self, x):
        pass
'''


def test_parse_spec_assigns_systems_and_skips_prose() -> None:
    rules = parse_spec(SPEC)
    assert [(r.id, r.system) for r in rules] == [
        ("AA-ONE-01", "Alpha"),
        ("AA-ONE-02", "Alpha"),
        ("AA-TWO-01", "Alpha"),
        ("BB-X-01", "Beta"),
    ]
    assert rules[1].title.startswith("名前")


def test_scan_tests_statically() -> None:
    refs = {r.nodeid: set(r.ids) for r in scan_test_source(TESTS, "tests/test_x.py")}
    assert refs == {
        "tests/test_x.py::test_marked": {"AA-ONE-01", "ZZ-TYPO-09", "BB-X-01"},
        "tests/test_x.py::test_docstring": {"AA-ONE-02", "BB-X-01"},
        "tests/test_x.py::TestGroup::test_method": {"AA-TWO-01", "BB-X-01"},
        "tests/test_x.py::TestGroup::test_param": {"AA-TWO-01", "AA-ONE-02", "BB-X-01"},
    }
    assert scan_test_source("def test_(:\n", "bad.py") == []


def test_reference_statuses() -> None:
    ref = parse_reference(
        "| AA-ONE-01 | implemented: rules.py | \n"
        "| AA-TWO-01 | GM decides (a note) |\n"
        "- AA-ONE-02 — implemented (tracking); the effect: GM decides\n"
        "- BB-X-01: GMが判断します\n"
        "- AA-ONE-01 again: GM decides\n"
    )
    assert ref["AA-ONE-01"][0] == STATUS_IMPLEMENTABLE  # the first line decides
    assert ref["AA-TWO-01"][0] == STATUS_GM
    assert ref["AA-ONE-02"][0] == STATUS_IMPLEMENTABLE
    assert ref["BB-X-01"][0] == STATUS_GM


def test_report_lists_uncovered_and_unknown() -> None:
    tests = scan_test_source(TESTS.replace('@pytest.mark.rule("AA-TWO-01")\n', ""), "t.py")
    assert len(tests) == 4
    report = build_report(SPEC, tests, parse_reference("AA-TWO-01: GM decides"), system="Alpha")
    assert [r.rule.id for r in report.rules] == ["AA-ONE-01", "AA-ONE-02", "AA-TWO-01"]
    # function-level tests only: covered, but not through the table or the CLI
    assert report.untested() == []  # AA-TWO-01 has no test but the GM decides
    assert [r.rule.id for r in report.uncovered()] == ["AA-ONE-01", "AA-ONE-02"]
    body = report.to_json()
    assert body["summary"]["Alpha"] == {
        "rules": 3,
        "implementable": 2,
        "covered": 2,
        "reached": 0,
        "gm_decides": ["AA-TWO-01"],
        "uncovered": ["AA-ONE-01", "AA-ONE-02"],
        "function_only": ["AA-ONE-01", "AA-ONE-02"],
    }
    assert body["unknown_ids"] == {}  # ZZ-* belongs to no selected system
    everything = build_report(SPEC, tests, {})
    assert [r.rule.id for r in everything.untested()] == ["AA-TWO-01"]
    assert everything.unknown_ids == {"ZZ-TYPO-09": ["t.py::test_marked"]}


VIA_TESTS = '''
import pytest

pytestmark = pytest.mark.rule("BB-X-01", via="cli")


@pytest.mark.rule("AA-ONE-01", via="table")
@pytest.mark.rule("AA-ONE-02")
def test_table():
    """Also AA-TWO-01 (docstring: function level)."""


@pytest.mark.rule("AA-ONE-01")
def test_function():
    pass


class TestCli:
    @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("AA-ONE-02", via="cli"))])
    def test_param(self, x):
        pass

    @pytest.mark.rule("AA-TWO-01", via="tabel")
    def test_typo(self):
        pass
'''


def test_levels_table_cli_function() -> None:
    """``via="table"``/``"cli"`` on a rule marker says the test drives typed table lines or a
    CLI command; ``--strict`` wants one of those for every implementable rule."""
    tests = scan_test_source(VIA_TESTS, "t.py")
    levels = {t.nodeid.rsplit("::", 1)[-1]: {i: t.level(i) for i in t.ids} for t in tests}
    assert levels["test_table"] == {
        "AA-ONE-01": "table",
        "AA-ONE-02": "function",
        "AA-TWO-01": "function",
        "BB-X-01": "cli",
    }
    assert levels["test_param"]["AA-ONE-02"] == "cli"
    assert levels["test_typo"]["AA-TWO-01"] == "function"  # an unknown via proves nothing
    report = build_report(SPEC, tests, {})
    rows = {r.rule.id: r for r in report.rules}
    assert rows["AA-ONE-01"].level == "table" and rows["AA-ONE-01"].reached
    assert rows["AA-ONE-02"].level == "cli"
    assert rows["AA-TWO-01"].level == "function" and not rows["AA-TWO-01"].reached
    assert [r.rule.id for r in report.uncovered()] == ["AA-TWO-01"]
    assert rows["AA-ONE-01"].levels == {
        "t.py::test_function": "function",
        "t.py::test_table": "table",
    }
    assert rows["AA-ONE-01"].to_json()["level"] == "table"


HONESTY_TESTS = """
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.dice.randomizer import ScriptedSource
from saikoro.server.app import create_app
from saikoro.store import open_store
from saikoro.table.session import TableSession
from tests.table.helpers import play


@pytest.mark.rule("AA-ONE-01", via="table")
def test_session_only(tmp_path):
    store = open_store(str(tmp_path / "t.db"))
    try:
        table = TableSession.open(store, "r", "LittleWorld", gm=True, source=ScriptedSource([]))
        assert table.run("/help").lines
        assert CliRunner().invoke(app, ["roll", "2D6", "--rands", "1/6,2/6"]).exit_code == 0
    finally:
        store.close()


@pytest.mark.rule("AA-ONE-01", via="table")
def test_played(tmp_path):
    assert play(str(tmp_path / "t.db"), "r", ["/help"], system="LittleWorld")[0]["ok"]


@pytest.mark.rule("AA-ONE-01", via="table")
def test_server_socket(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/rooms.db")) as client:
        room = client.post("/api/rooms", json={"name": "r", "system": "LittleWorld"}).json()
        with client.websocket_connect(f"/api/rooms/r/ws?token={room['gm_token']}") as ws:
            assert ws.receive_json()["type"] == "ready"
            ws.send_json({"type": "line", "line": "/help", "id": 1})
            while (answer := ws.receive_json())["type"] != "outcome":
                pass
            assert answer["ok"]


@pytest.mark.rule("AA-ONE-01", via="cli")
def test_cli(tmp_path):
    assert CliRunner().invoke(app, ["roll", "2D6", "--rands", "1/6,2/6"]).exit_code == 0
"""


def test_via_tests_must_run_a_front_end(pytester: pytest.Pytester) -> None:
    """The run-time check (tests/conftest.py): ``via="table"`` needs a table line typed into a
    front end (``saikoro play``, the server's table API); the core's ``TableSession.run``
    called by the test itself, even beside a CLI command, proves nothing at that level."""
    pytester.makeconftest((Path(__file__).parent / "conftest.py").read_text("utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    rule: rule IDs\n")
    pytester.makepyfile(test_levels=HONESTY_TESTS)
    result = pytester.runpytest_inprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        ["*test_session_only*", "*never ran a table line through a front end*"]
    )
    assert "test_played" not in "".join(line for line in result.stdout.lines if "FAILED" in line)


def test_rules_defined_in_the_references(tmp_path: Path) -> None:
    """A bullet like RULES.md's in ``docs/rules/<SystemID>.md`` defines a rule RULES.md lacks."""
    refs = tmp_path / "refs"
    refs.mkdir()
    (refs / "Alpha.md").write_text(
        "# Alpha\n## Commands\n- **AA-NEW-01** (issue 13) a new rule.\n"
        "- **AA-NEW-02** the GM decides this one.\n"
        "- **AA-ONE-01** RULES.md's own stays its own.\n",
        encoding="utf-8",
    )
    spec = tmp_path / "RULES.md"
    spec.write_text(SPEC, encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(
        'import pytest\n@pytest.mark.rule("AA-NEW-01", via="table")\ndef test_x():\n    pass\n',
        encoding="utf-8",
    )
    report = coverage(system="Alpha", spec=spec, tests=tests, references=refs)
    rows = {r.rule.id: r for r in report.rules}
    assert rows["AA-NEW-01"].rule.system == "Alpha" and rows["AA-NEW-01"].reached
    assert rows["AA-NEW-02"].status == STATUS_GM
    assert rows["AA-ONE-01"].rule.title.startswith("(seed 1)")
    assert report.unknown_ids == {}


def test_cli_json_strict_and_errors(tmp_path: Path) -> None:
    spec = tmp_path / "RULES.md"
    spec.write_text(SPEC, encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(TESTS, encoding="utf-8")
    refs = tmp_path / "refs"
    refs.mkdir()
    base = ["rules", "coverage", "--spec", str(spec), "--tests", str(tests), "--refs", str(refs)]
    result = runner.invoke(app, [*base, "--json", "--system", "Beta", "--strict"])
    assert result.exit_code == 1, result.output  # BB-X-01's test is function level only
    (tests / "test_b.py").write_text(
        'import pytest\n@pytest.mark.rule("BB-X-01", via="cli")\ndef test_b():\n    pass\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, [*base, "--json", "--system", "Beta", "--strict"])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, [*base, "--all"])
    assert "test_param" in listed.stdout and "unknown rule ID ZZ-TYPO-09" in listed.stdout
    body = json.loads(result.stdout)
    assert body["complete"] is True and body["rules"][0]["id"] == "BB-X-01"
    assert body["rules"][0]["level"] == "cli"
    (tests / "test_a.py").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    (tests / "test_b.py").unlink()
    result = runner.invoke(app, [*base, "--strict"])
    assert result.exit_code == 1
    assert "UNCOVERED" in result.stdout and "0/4 implementable rules covered" not in result.stdout
    assert "Alpha: 0/3" in result.stdout and "Beta: 0/1" in result.stdout
    assert "through the table or CLI" in result.stdout
    result = runner.invoke(app, [*base, "--json", "--system", "Gamma"])
    assert result.exit_code == 2 and json.loads(result.stdout)["ok"] is False
    result = runner.invoke(app, ["rules", "coverage", "--spec", str(tmp_path / "missing.md")])
    assert result.exit_code == 2


def test_packaged_spec_matches_the_shared_spec(shared: Path) -> None:
    packaged = (Path(__file__).resolve().parents[1] / "src/saikoro/data/RULES.md").read_text(
        "utf-8"
    )
    assert packaged == (shared / "spec" / "RULES.md").read_text("utf-8")
    text, _ = read_spec(None)
    ids = {r.id for r in parse_spec(text)}
    assert {"LW-COMBAT-16", "LW-SPECIAL-08", "UM-CHECK-01", "UM-LEVEL-04"} <= ids
    assert len([i for i in ids if i.startswith("UM-")]) == 21


@pytest.mark.rules_gate
@pytest.mark.parametrize("system", systems_with_rules())
def test_every_implementable_rule_is_covered(system: str) -> None:
    report = coverage(system=system)
    uncovered = [r.rule.id for r in report.uncovered()]
    assert not uncovered, f"{system}: rules no table/CLI test reaches: {', '.join(uncovered)}"
    assert not report.unknown_ids, f"tests name unknown rule IDs: {report.unknown_ids}"
