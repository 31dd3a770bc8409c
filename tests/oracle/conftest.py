"""The BCDice oracle tools live in ``tools/oracle`` (not a package): make them importable."""

from __future__ import annotations

import sys
from pathlib import Path

ORACLE_TOOLS = Path(__file__).resolve().parents[2] / "tools" / "oracle"
if str(ORACLE_TOOLS) not in sys.path:
    sys.path.insert(0, str(ORACLE_TOOLS))
