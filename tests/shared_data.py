"""Where the tests read shared/'s data (BCDice conformance cases, RULES.md): ``shared/``
beside the checkout when present (CI), else the repository's checked copy. A module of its
own so that test files can import it by a name no other folder's conftest has."""

from __future__ import annotations

import os
from pathlib import Path

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
