"""Rules coverage: which RULES.md rule IDs are proven by which tests.

Three inputs, all read statically (no test is run):

- the rules spec (``RULES.md``): every ``- **XX-AREA-NN …**`` bullet is a rule; its system is
  the one named in the enclosing ``## System …`` heading (``ID `<SystemID>```); a registered
  system that RULES.md lacks brings its own spec and reference (its manifest's
  ``rules_spec`` / ``rules_reference``);
- the shipped rules references ``docs/rules/<SystemID>.md``: a rule whose line there says
  "GM decides" (or 「GMが判断」) and not "implemented" is not implementable — the GM rules on
  it — and needs no test; every other rule does;
- the tests: each ``test_*`` function (or method of a ``Test*`` class) names the rules it
  proves with ``@pytest.mark.rule("UM-MAGIC-02", …)`` (also on its class, in a module-level
  ``pytestmark``, or in ``pytest.param(..., marks=…)``) or in its docstring.

Rules RULES.md lacks are defined in the references too: a bullet like RULES.md's
(``- **LW-TABLE-01** …``) in ``docs/rules/<SystemID>.md`` is a rule of that system.

Each test proves its rules at a *level*: ``@pytest.mark.rule("ID", via="table")`` types table
lines into a front end (``saikoro play``, the server's table API), ``via="cli"`` runs a CLI
command (``saikoro roll``); without ``via`` (or named only in a docstring) the test calls
Python functions (``TableSession.run`` included). A rule is *reached* when a table or CLI test
names it; ``--strict`` wants every implementable rule reached. ``tests/conftest.py`` checks at
run time that a ``via`` test really went through a front end.

Parsing the tests uses :mod:`ast`; nothing is imported or executed.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

RULE_ID = re.compile(r"\b([A-Z]{2,4}-[A-Z]+-\d{1,3})\b")
_SPEC_RULE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]{2,4}-[A-Z]+-\d{1,3})\b\s*(.*)$")
_SYSTEM_HEADING = re.compile(r"^##\s+System\b.*?ID\s+`([A-Za-z0-9_]+)`")
_GM_DECIDES = re.compile(r"GM\s*decides|GMが判断|GM判断|GMの判断|GM\s*ruling", re.IGNORECASE)
_IMPLEMENTED = re.compile(r"\bimplemented\b|実装", re.IGNORECASE)
_NOT_IMPLEMENTED = re.compile(r"\bnot\s+implemented\b|未実装", re.IGNORECASE)

REPO_ROOT = Path(__file__).resolve().parents[2]

STATUS_IMPLEMENTABLE = "implementable"
STATUS_GM = "gm-decides"

LEVEL_TABLE = "table"
LEVEL_CLI = "cli"
LEVEL_FUNCTION = "function"
#: The ``via=`` values a rule marker may carry; a rule is reached through the table or the CLI.
VIA_LEVELS = (LEVEL_TABLE, LEVEL_CLI)


class CoverageError(SaikoroError):
    reason = "coverage input missing"


@dataclass(frozen=True)
class SpecRule:
    id: str
    system: str
    title: str


@dataclass(frozen=True)
class TestRef:
    """A test that names rule IDs: ``path::[Class::]name``, the IDs, and for each ID the
    level it proves it at (``table``/``cli``; absent: ``function``)."""

    nodeid: str
    ids: frozenset[str]
    via: tuple[tuple[str, str], ...] = ()

    def level(self, rule_id: str) -> str:
        return dict(self.via).get(rule_id, LEVEL_FUNCTION)


@dataclass
class RuleCoverage:
    rule: SpecRule
    status: str
    tests: list[str] = field(default_factory=list)
    reference_line: str | None = None
    #: nodeid → level (``table``, ``cli`` or ``function``) of each test in ``tests``.
    levels: dict[str, str] = field(default_factory=dict)

    @property
    def covered(self) -> bool:
        """Some test names the rule (at any level)."""
        return bool(self.tests)

    @property
    def reached(self) -> bool:
        """A table or CLI test names the rule."""
        return self.level in VIA_LEVELS

    @property
    def level(self) -> str | None:
        """The best level a test proves the rule at: table, cli, function, or None."""
        found = set(self.levels.values())
        return next((lv for lv in (*VIA_LEVELS, LEVEL_FUNCTION) if lv in found), None)

    @property
    def needs_test(self) -> bool:
        return self.status == STATUS_IMPLEMENTABLE

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.rule.id,
            "system": self.rule.system,
            "title": self.rule.title,
            "status": self.status,
            "covered": self.covered,
            "level": self.level,
            "tests": self.tests,
            "levels": self.levels,
        }


@dataclass
class CoverageReport:
    spec_path: str
    rules: list[RuleCoverage]
    unknown_ids: dict[str, list[str]]  # IDs named by tests but absent from the spec
    references: list[str]

    def systems(self) -> list[str]:
        return sorted({r.rule.system for r in self.rules})

    def uncovered(self) -> list[RuleCoverage]:
        """Implementable rules no table or CLI test reaches (``--strict`` fails on these)."""
        return [r for r in self.rules if r.needs_test and not r.reached]

    def untested(self) -> list[RuleCoverage]:
        """Implementable rules no test names at all."""
        return [r for r in self.rules if r.needs_test and not r.covered]

    def summary(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for system in self.systems():
            rows = [r for r in self.rules if r.rule.system == system]
            needed = [r for r in rows if r.needs_test]
            out[system] = {
                "rules": len(rows),
                "implementable": len(needed),
                "covered": sum(1 for r in needed if r.covered),
                "reached": sum(1 for r in needed if r.reached),
                "gm_decides": [r.rule.id for r in rows if r.status == STATUS_GM],
                "uncovered": [r.rule.id for r in needed if not r.reached],
                "function_only": [r.rule.id for r in needed if r.covered and not r.reached],
            }
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec_path,
            "references": self.references,
            "summary": self.summary(),
            "rules": [r.to_json() for r in self.rules],
            "unknown_ids": self.unknown_ids,
            "complete": not self.uncovered(),
        }


# ---------------------------------------------------------------- the spec


def parse_spec(text: str, system: str = "") -> list[SpecRule]:
    """Every rule bullet of RULES.md, with the system of its ``## System`` section (or
    ``system`` outside one: a rules reference's own system)."""
    rules: list[SpecRule] = []
    default = system
    seen: set[str] = set()
    for line in text.splitlines():
        heading = _SYSTEM_HEADING.match(line)
        if heading:
            system = heading.group(1)
            continue
        if line.startswith("## ") and not default:
            system = ""
        m = _SPEC_RULE.match(line)
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            title = re.sub(r"\*\*", "", m.group(2)).strip()
            rules.append(SpecRule(m.group(1), system or m.group(1).split("-")[0], title[:160]))
    return rules


def default_spec_path() -> Path | None:
    """``$SAIKORO_SHARED_DIR/spec/RULES.md``, ``../shared/spec/RULES.md`` beside the
    checkout, else None (the copy shipped in the package is used)."""
    candidates = []
    env = os.environ.get("SAIKORO_SHARED_DIR")
    if env:
        candidates.append(Path(env) / "spec" / "RULES.md")
    candidates += [
        REPO_ROOT.parent / "shared" / "spec" / "RULES.md",
        REPO_ROOT / "shared" / "spec" / "RULES.md",
    ]
    return next((c for c in candidates if c.is_file()), None)


def read_spec(path: str | Path | None = None) -> tuple[str, str]:
    """(text, where) of the rules spec; ``path`` None → the default, then the packaged copy."""
    if path is None:
        path = default_spec_path()
    if path is None:
        text = resources.files("saikoro").joinpath("data/RULES.md").read_text(encoding="utf-8")
        return text, "saikoro/data/RULES.md (packaged)"
    try:
        return Path(path).read_text(encoding="utf-8"), str(path)
    except (OSError, UnicodeDecodeError) as error:
        raise CoverageError(
            Message(
                f"ルール仕様 {path} を読めません: {error}",
                f"cannot read the rules spec {path}: {error}",
            )
        ) from None


# ---------------------------------------------------------------- the references


def parse_reference(text: str) -> dict[str, tuple[str, str]]:
    """Rule ID → (status, line) from a rules reference; the first line naming an ID decides."""
    found: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        ids = RULE_ID.findall(line)
        if not ids:
            continue
        gm = bool(_GM_DECIDES.search(line)) and (
            not _IMPLEMENTED.search(line) or bool(_NOT_IMPLEMENTED.search(line))
        )
        status = STATUS_GM if gm else STATUS_IMPLEMENTABLE
        # Only the ID the line is about (the first one) takes its status.
        found.setdefault(ids[0], (status, line.strip()))
    return found


def _beside_checkout(*parts: str) -> Path:
    """``parts`` under the checkout (editable install), else under the working directory."""
    path = REPO_ROOT.joinpath(*parts)
    return path if path.exists() else Path.cwd().joinpath(*parts)


def default_references_dir() -> Path:
    return _beside_checkout("docs", "rules")


@dataclass
class References:
    """What the rules references say: each rule's status, the rules they define, the files."""

    statuses: dict[str, tuple[str, str]] = field(default_factory=dict)
    rules: list[SpecRule] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def read_references(directory: str | Path | None = None) -> References:
    """``docs/rules/<SystemID>.md``: statuses of rules, and rules RULES.md lacks (bullets)."""
    directory = Path(directory) if directory is not None else default_references_dir()
    found = References()
    if directory.is_dir():
        for path in sorted(directory.glob("*.md")):
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            found.files.append(str(path))
            for rule_id, value in parse_reference(text).items():
                found.statuses.setdefault(rule_id, value)
            found.rules.extend(parse_spec(text, system=path.stem))
    return found


# ---------------------------------------------------------------- the tests


def _mark_rule_ids(node: ast.AST) -> dict[str, str]:
    """ID → level of every ``….mark.rule("A", "B", via="table")`` call inside ``node``."""
    ids: dict[str, str] = {}
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and sub.func.attr == "rule"
            and isinstance(sub.func.value, ast.Attribute)
            and sub.func.value.attr == "mark"
        ):
            level = LEVEL_FUNCTION
            for keyword in sub.keywords:
                value = keyword.value
                if keyword.arg == "via" and isinstance(value, ast.Constant):
                    level = str(value.value) if value.value in VIA_LEVELS else level
            for arg in sub.args:
                for const in ast.walk(arg):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        for rule_id in RULE_ID.findall(const.value):
                            ids[rule_id] = _better(ids.get(rule_id), level)
    return ids


def _better(old: str | None, new: str) -> str:
    """The higher of two levels (table > cli > function)."""
    order = (*VIA_LEVELS, LEVEL_FUNCTION)
    return new if old is None or order.index(new) < order.index(old) else old


def _merge(*maps: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for mapping in maps:
        for rule_id, level in mapping.items():
            out[rule_id] = _better(out.get(rule_id), level)
    return out


def _doc_ids(node: ast.AST) -> dict[str, str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        doc = ast.get_docstring(node)
        if doc:
            return dict.fromkeys(RULE_ID.findall(doc), LEVEL_FUNCTION)
    return {}


def _own_ids(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> dict[str, str]:
    return _merge(_doc_ids(node), *(_mark_rule_ids(d) for d in node.decorator_list))


def _module_marks(tree: ast.Module) -> dict[str, str]:
    ids: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            ids = _merge(ids, _mark_rule_ids(stmt.value))
    return ids


def scan_test_source(source: str, relpath: str) -> list[TestRef]:
    """Tests in one file with the rule IDs each names (static; syntax errors → none)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    module_ids = _module_marks(tree)
    refs: list[TestRef] = []

    def visit(body: Iterable[ast.stmt], prefix: str, inherited: dict[str, str]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith(
                "test"
            ):
                ids = _merge(inherited, _own_ids(stmt))
                if ids:
                    via = tuple(sorted((k, v) for k, v in ids.items() if v != LEVEL_FUNCTION))
                    refs.append(TestRef(f"{relpath}::{prefix}{stmt.name}", frozenset(ids), via))
            elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
                visit(stmt.body, f"{prefix}{stmt.name}::", _merge(inherited, _own_ids(stmt)))

    visit(tree.body, "", module_ids)
    return refs


def _test_files(directory: Path) -> Iterator[Path]:
    for path in sorted(directory.rglob("*.py")):
        is_test = path.name.startswith("test") or path.name.endswith("_test.py")
        hidden = any(part.startswith(".") or part == "__pycache__" for part in path.parts)
        if is_test and not hidden:
            yield path


def scan_tests(directory: str | Path | None = None) -> list[TestRef]:
    directory = Path(directory) if directory is not None else _beside_checkout("tests")
    if not directory.is_dir():
        raise CoverageError(
            Message(
                f"テストのディレクトリ {directory} がありません", f"no tests directory {directory}"
            )
        )
    base = directory.parent
    refs: list[TestRef] = []
    for path in _test_files(directory):
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        refs.extend(scan_test_source(source, path.relative_to(base).as_posix()))
    return refs


# ---------------------------------------------------------------- registered systems


def registered_rules(in_spec: set[str]) -> tuple[str, dict[str, tuple[str, str]]]:
    """The rules of registered systems that RULES.md does not have: each manifest's own
    ``rules_spec`` (RULES.md's format) and ``rules_reference`` (docs/rules's format)."""
    from saikoro.systems import manifests

    spec = ""
    statuses: dict[str, tuple[str, str]] = {}
    for manifest in manifests():
        if manifest.id in in_spec:
            continue
        spec += "\n" + (manifest.read_text(manifest.rules_spec) or "")
        for rule_id, value in parse_reference(
            manifest.read_text(manifest.rules_reference) or ""
        ).items():
            statuses.setdefault(rule_id, value)
    return spec, statuses


def systems_with_rules() -> list[str]:
    """Registered systems that have rules: in RULES.md, or in their own ``rules_spec``."""
    from saikoro.systems import manifests

    spec_text, _ = read_spec(None)
    in_spec = {r.system for r in parse_spec(spec_text)}
    return [m.id for m in manifests() if m.id in in_spec or m.rules_spec is not None]


# ---------------------------------------------------------------- the report


def build_report(
    spec_text: str,
    tests: list[TestRef],
    references: dict[str, tuple[str, str]],
    *,
    spec_path: str = "RULES.md",
    reference_files: list[str] | None = None,
    system: str | None = None,
    extra_rules: list[SpecRule] | None = None,
) -> CoverageReport:
    """``extra_rules``: rules the references define (RULES.md's own win on a clash)."""
    spec = parse_spec(spec_text)
    known = {r.id for r in spec}
    for rule in extra_rules or ():
        if rule.id not in known:
            spec.append(rule)
            known.add(rule.id)
    by_id: dict[str, dict[str, str]] = {}
    unknown: dict[str, list[str]] = {}
    for test in tests:
        for rule_id in sorted(test.ids):
            if rule_id in known:
                by_id.setdefault(rule_id, {})[test.nodeid] = test.level(rule_id)
            else:
                unknown.setdefault(rule_id, []).append(test.nodeid)
    rows = []
    for rule in spec:
        if system is not None and rule.system != system:
            continue
        status, line = references.get(rule.id, (STATUS_IMPLEMENTABLE, None))
        levels = dict(sorted(by_id.get(rule.id, {}).items()))
        rows.append(RuleCoverage(rule, status, list(levels), line, levels))
    prefixes = {r.rule.id.split("-")[0] for r in rows}
    unknown = {k: v for k, v in unknown.items() if system is None or k.split("-")[0] in prefixes}
    return CoverageReport(spec_path, rows, unknown, reference_files or [])


def coverage(
    *,
    system: str | None = None,
    spec: str | Path | None = None,
    tests: str | Path | None = None,
    references: str | Path | None = None,
) -> CoverageReport:
    """The report for ``system`` (all when None) from the default or given locations."""
    spec_text, spec_where = read_spec(spec)
    own_spec, own_references = registered_rules({r.system for r in parse_spec(spec_text)})
    spec_text += own_spec
    refs = read_references(references)
    for rule_id, value in own_references.items():
        refs.statuses.setdefault(rule_id, value)
    known_systems = {r.system for r in (*parse_spec(spec_text), *refs.rules)}
    if system is not None and system not in known_systems:
        known = ", ".join(sorted(known_systems))
        raise CoverageError(
            Message(
                f"仕様にゲームシステム {system!r} のルールがありません ({known})",
                f"the spec has no rules of {system!r} ({known})",
            ),
            reason="unknown system",
        )
    return build_report(
        spec_text,
        scan_tests(tests),
        refs.statuses,
        spec_path=spec_where,
        reference_files=refs.files,
        system=system,
        extra_rules=refs.rules,
    )
