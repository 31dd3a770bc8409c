"""運命判定d100 (``UnmeiD100``): the game system (commands in ``commands.py``)."""

from __future__ import annotations

from saikoro.systems.unmeid100.commands import UnmeiD100

__all__ = ["UnmeiD100"]
