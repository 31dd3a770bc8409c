"""The repository's copy of shared/'s test data (tests/data/shared) is the same as shared/."""

from __future__ import annotations

from pathlib import Path

import pytest

COPY = Path(__file__).resolve().parent / "data" / "shared"


def test_copy_matches_shared_beside_the_checkout(real_shared: Path | None) -> None:
    if real_shared is None:
        pytest.skip("no shared/ beside the checkout: the tests use the repository's copy")
    copied = [p.relative_to(COPY) for p in COPY.rglob("*") if p.is_file() and p.name != "README.md"]
    assert copied, "tests/data/shared is empty"
    for relative in copied:
        assert (COPY / relative).read_bytes() == (real_shared / relative).read_bytes(), relative
    conformance = "conformance/bcdice"
    assert sorted(p.name for p in (real_shared / conformance).iterdir()) == sorted(
        p.name for p in (COPY / conformance).iterdir()
    )
