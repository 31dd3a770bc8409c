"""Shared test fixtures.

Rule tests name their RULES.md IDs with ``@pytest.mark.rule("LW-COMBAT-05")`` (or in the
docstring); ``saikoro rules coverage`` lists them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """The read-only ``shared/`` folder beside the checkout (spec, seeds, BCDice test data)."""
    env = os.environ.get("SAIKORO_SHARED_DIR")
    candidates = [Path(env)] if env else []
    candidates += [REPO.parent / "shared", REPO / "shared"]
    for candidate in candidates:
        if (candidate / "conformance" / "bcdice").is_dir():
            return candidate
    raise RuntimeError("shared/ not found beside the checkout; set SAIKORO_SHARED_DIR")


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of a real PostgreSQL server (``scripts/test-postgres.sh start`` sets it).

    Without one, the test is skipped on a developer's machine and fails in CI.
    """
    url = os.environ.get("SAIKORO_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("CI needs SAIKORO_TEST_POSTGRES_URL (see .ci/run)")
        pytest.skip("no PostgreSQL: run `eval \"$(bash scripts/test-postgres.sh start)\"`")
    return url
