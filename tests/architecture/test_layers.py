"""The layering of saikoro's packages, checked over the source (``ast``; nothing is imported).

``dice`` → ``systems`` (+ ``sheets``) → ``table``, ``odds``, ``rules_coverage``, ``api`` →
``store``, ``transfer`` → ``cli``, ``server``: a module imports only from its own component or
a lower layer, so there is no import cycle between packages. A game system's folder holds two
plug-in modules that belong to the layer they plug into: ``systems/<id>/tracker.py`` (table),
``systems/<id>/transfer.py`` (transfer) and ``systems/<id>/simulate.py`` (simulate), and their helpers ``tracker_<part>.py`` /
``transfer_<part>.py`` (a tracker's verbs kept apart); the registry reaches them by their manifest's
location strings, never by an import. Imports under ``if TYPE_CHECKING:`` are type-only and
not counted. Lazy imports inside functions are counted (they are still dependencies).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "saikoro"

#: component → layer (a module may import its own component or any lower layer).
LAYERS: dict[str, int] = {
    "base": 0,  # saikoro, saikoro.errors, saikoro.i18n
    "dice": 1,
    "systems": 2,  # saikoro.systems (but the plug-ins below), saikoro.sheets
    "table": 3,
    "odds": 3,
    "rules_coverage": 3,
    "api": 3,
    "store": 4,
    "transfer": 4,
    "simulate": 4,  # the encounter simulator: plays the table core with the odds' help
    "server": 5,
    "discord": 6,  # the Discord front end, on the server's table service
    "cli": 7,  # saikoro serve starts the server
}

#: Plug-in modules of a system folder → the component they belong to.
PLUGINS = {"tracker": "table", "transfer": "transfer", "simulate": "simulate"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def component(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("errors", "i18n", "__main__"):
        return "base" if parts[-1] != "__main__" else "cli"
    top = parts[1]
    if top == "sheets":
        return "systems"
    if top == "systems" and len(parts) >= 4 and parts[3].split("_")[0] in PLUGINS:
        return PLUGINS[parts[3].split("_")[0]]
    return top


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def imports_of(module: str, path: Path, known: set[str]) -> Iterator[str]:
    """The saikoro modules ``module`` imports at run time (at module level or in functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_blocks(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [n if n in known else base for n in names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "saikoro":
                while name not in known and "." in name:
                    name = name.rpartition(".")[0]
                yield name


def violations(found: dict[str, Path]) -> list[str]:
    known = set(found) | set(modules())
    bad = []
    for module, path in sorted(found.items()):
        own = component(module)
        for target in imports_of(module, path, known):
            other = component(target)
            if other == own:
                continue
            if LAYERS[other] >= LAYERS[own]:
                bad.append(f"{module} ({own}) imports {target} ({other})")
    return bad


def test_every_module_is_in_a_known_component() -> None:
    unknown = {component(m) for m in modules()} - set(LAYERS)
    assert not unknown, f"give these packages a layer in LAYERS: {sorted(unknown)}"


def test_no_module_imports_a_higher_or_sibling_layer() -> None:
    assert violations(modules()) == []


def test_no_import_cycle_between_packages() -> None:
    """Components form a DAG (a consequence of the layers; checked on its own all the same)."""
    found = modules()
    graph: dict[str, set[str]] = {}
    for module, path in found.items():
        own = component(module)
        for target in imports_of(module, path, set(found)):
            if component(target) != own:
                graph.setdefault(own, set()).add(component(target))
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                pytest.fail("import cycle: " + " → ".join([*trail, node, nxt]))
            if nxt not in state:
                visit(nxt, [*trail, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def test_the_check_sees_a_violation(tmp_path: Path) -> None:
    """The checker itself: a dice module importing the table, even lazily, is reported; a
    type-only import is not."""
    fake = tmp_path / "fake.py"
    fake.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from saikoro.table.state import RoomState\n"
        "def f():\n    from ..table import dispatch\n",
        encoding="utf-8",
    )
    assert violations({"saikoro.dice.fake": fake}) == [
        "saikoro.dice.fake (dice) imports saikoro.table.dispatch (table)"
    ]
    assert component("saikoro.systems.some_game.tracker") == "table"
    assert component("saikoro.systems.some_game.rules") == "systems"
