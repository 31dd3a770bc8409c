"""A game system's ID appears in the code only inside its own folder ``systems/<id>/``.

Docs, examples, benchmarks (they time given systems), RULES.md (the spec, packaged as ``saikoro/data/RULES.md``) and tests about a
system may name it; the engine, table, transfer, odds, store, server and CLI reach every
system through the registry (``saikoro.systems``).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from saikoro.systems import manifests

ROOT = Path(__file__).resolve().parents[2]
#: Files outside any system folder that may name systems: the packaged copy of the spec.
ALLOWED = {"src/saikoro/data/RULES.md"}


def tracked(*where: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "--", *where], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def system_folder(package: str) -> str:
    return "src/" + package.replace(".", "/") + "/"


@pytest.mark.parametrize(
    "manifest",
    [m for m in manifests() if m.id != "DiceBot" and m.package.startswith("saikoro.")],
    ids=lambda m: m.id,
)
def test_the_system_id_is_only_in_its_folder(manifest) -> None:
    word = re.compile(rf"\b{re.escape(manifest.id)}\b")
    folder = system_folder(manifest.package)
    outside = [
        path
        for path in tracked("src", "scripts", "tools", ".ci")
        if not path.startswith(folder)
        and path not in ALLOWED
        and (ROOT / path).is_file()
        and word.search((ROOT / path).read_text(encoding="utf-8", errors="replace"))
    ]
    assert outside == [], f"{manifest.id} named outside {folder}: {outside}"


def test_every_built_in_system_is_a_folder_with_a_manifest() -> None:
    built_in = [m for m in manifests() if m.package.startswith("saikoro.systems.")]
    assert {m.id for m in built_in} >= {"DiceBot"}
    for manifest in built_in:
        if manifest.id == "DiceBot":
            continue  # the generic system: BCDice's command language only
        assert (ROOT / system_folder(manifest.package) / "__init__.py").is_file()
        if manifest.sheet is None:  # dice only (BCDice's commands of a system): no table parts
            assert manifest.tracker is None and manifest.transfer_profile is None
            continue
        assert manifest.sheet and manifest.tracker and manifest.transfer_profile
