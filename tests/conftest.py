"""Shared test fixtures.

Rule tests name their RULES.md IDs with ``@pytest.mark.rule("LW-COMBAT-05")`` (or in the
docstring); ``saikoro rules coverage`` lists them.
"""

from __future__ import annotations

import glob
import os
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


#: A copy of shared/'s test data kept in the repository, for a clone without shared/ beside it.
SHARED_COPY = REPO / "tests" / "data" / "shared"


def real_shared_dir() -> Path | None:
    """The read-only ``shared/`` folder beside the checkout (or ``$SAIKORO_SHARED_DIR``)."""
    env = os.environ.get("SAIKORO_SHARED_DIR")
    candidates = [Path(env)] if env else []
    candidates += [REPO.parent / "shared", REPO / "shared"]
    for candidate in candidates:
        if (candidate / "conformance" / "bcdice").is_dir():
            return candidate
    return None


def shared_dir() -> Path:
    """``shared/`` beside the checkout when present (CI), else the repository's copy of it."""
    return real_shared_dir() or SHARED_COPY


@pytest.fixture(scope="session")
def real_shared() -> Path | None:
    return real_shared_dir()


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


@pytest.fixture(autouse=True)
def _default_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts in the default language (ja), and a test that changes
    ``SAIKORO_LANG`` (``saikoro --lang en …`` sets it for the sub-commands) does not
    leak it into the tests after it: monkeypatch restores the variable afterwards."""
    monkeypatch.delenv("SAIKORO_LANG", raising=False)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of a real PostgreSQL server.

    ``SAIKORO_TEST_POSTGRES_URL`` when set; otherwise a throwaway server is started with
    ``scripts/test-postgres.sh`` when Debian's postgresql package is installed (and stopped
    afterwards). Without PostgreSQL the test is skipped on a developer's machine and fails in CI.
    """
    url = os.environ.get("SAIKORO_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    script = REPO / "scripts" / "test-postgres.sh"
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        if os.environ.get("CI"):
            pytest.fail("CI needs PostgreSQL: apt-get install postgresql (see .ci/run)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    # One server per checkout: test runs of two checkouts on one machine (worktrees) must
    # not share a cluster that the first run to finish stops under the other.
    checkout = zlib.crc32(str(REPO).encode())
    env = {
        **os.environ,
        "SAIKORO_TEST_PG_PORT": str(54330 + checkout % 1000),
        "SAIKORO_TEST_PG_DIR": f"/tmp/saikoro-pytest-pg-{checkout:08x}",
    }
    started = subprocess.run(
        ["bash", str(script), "start"], capture_output=True, text=True, env=env, timeout=120
    )
    if started.returncode != 0:
        pytest.fail(f"could not start PostgreSQL: {started.stderr}")
    yield started.stdout.strip().rpartition("=")[2]
    subprocess.run(["bash", str(script), "stop"], env=env, timeout=60, check=False)
