"""Shared helpers of the 帽子世界TRPG tests: scripted d6 rolls through the public API."""

from __future__ import annotations

import saikoro
from saikoro.dice.result import RollResult


def lw(command: str, *dice: int) -> RollResult:
    """Roll ``command`` in LittleWorld with the given d6 faces (all must be used)."""
    result = saikoro.roll(command, "LittleWorld", rands=[(d, 6) for d in dice])
    assert result is not None, command
    return result
