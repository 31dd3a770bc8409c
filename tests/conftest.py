"""Shared test fixtures.

Rule tests name their RULES.md IDs with ``@pytest.mark.rule("LW-COMBAT-05")`` (or in the
docstring); ``saikoro rules coverage`` lists them. ``via="table"`` / ``via="cli"`` on the marker
says the test proves the rule through typed table lines / a CLI command; the hook below fails a
``via`` test that never reaches them (docs/architecture.md, "rules coverage").
"""

from __future__ import annotations

import glob
import os
import subprocess
import zlib
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_data import real_shared_dir, shared_dir

REPO = Path(__file__).resolve().parents[1]


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


# -- via="table" / via="cli": the test must really drive the table or the CLI -------------


def _vias(item: pytest.Item) -> set[str]:
    return {str(m.kwargs["via"]) for m in item.iter_markers("rule") if "via" in m.kwargs}


def _recording(monkeypatch: pytest.MonkeyPatch, reached: set[str]) -> None:
    """Wrap the table's and the CLI's entry points so that using them is recorded."""
    from typer.testing import CliRunner

    from saikoro.cli import roll as roll_cli
    from saikoro.table.session import TableSession

    def wrap(owner: Any, name: str, level: str) -> None:
        original = getattr(owner, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            reached.add(level)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, recorded)

    wrap(TableSession, "run", "table")
    wrap(CliRunner, "invoke", "cli")
    wrap(roll_cli, "run", "cli")
    popen_init = subprocess.Popen.__init__

    def popen(self: Any, args: Any, *rest: Any, **kwargs: Any) -> None:
        if "saikoro" in " ".join(map(str, args if isinstance(args, list) else [args])):
            reached.add("cli")
        popen_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", popen)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    vias = _vias(item)
    if not vias:
        return (yield)
    unknown = vias - {"table", "cli"}
    if unknown:
        pytest.fail(f"@pytest.mark.rule(via=...) must be 'table' or 'cli', not {unknown}")
    reached: set[str] = set()
    with pytest.MonkeyPatch.context() as monkeypatch:
        _recording(monkeypatch, reached)
        result = yield  # a failing test raises here
    if not vias & reached:
        # a play run is a CLI run too: via="table" needs TableSession.run, via="cli" the CLI
        pytest.fail(
            f"marked via={'/'.join(sorted(vias))} but never ran "
            + ("a table line (TableSession.run)" if "table" in vias else "the CLI"),
            pytrace=False,
        )
    return result
