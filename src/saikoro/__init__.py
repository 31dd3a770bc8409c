"""saikoro — a BCDice-compatible dice engine and rules engine for 帽子世界TRPG and 運命判定d100."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"
__all__ = ["RollResult", "SaikoroError", "__version__", "odds", "roll", "systems"]

if TYPE_CHECKING:
    from saikoro.api import roll
    from saikoro.dice.result import RollResult
    from saikoro.errors import SaikoroError
    from saikoro.odds import odds
    from saikoro.systems import systems

_LAZY = {
    "roll": ("saikoro.api", "roll"),
    "systems": ("saikoro.systems", "systems"),
    "odds": ("saikoro.odds", "odds"),
    "RollResult": ("saikoro.dice.result", "RollResult"),
    "SaikoroError": ("saikoro.errors", "SaikoroError"),
}


def __getattr__(name: str) -> Any:
    """Import the public API lazily, so ``import saikoro`` stays cheap for the CLI."""
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value  # later look-ups skip this function
        return value
    raise AttributeError(f"module 'saikoro' has no attribute {name!r}")
