"""The registry of game systems, keyed by BCDice-style ID.

Systems are imported on first use so that the CLI starts fast. A new system adds
one line to ``_BUILTIN`` (or calls :meth:`SystemRegistry.register`); the engine
is never touched.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from saikoro.errors import UnsupportedSystemError
from saikoro.i18n import Message
from saikoro.systems.base import GameSystem

_BUILTIN: dict[str, str] = {
    "DiceBot": "saikoro.systems.dicebot:DiceBot",
    "LittleWorld": "saikoro.systems.littleworld:LittleWorld",
    "UnmeiD100": "saikoro.systems.unmeid100:UnmeiD100",
}


class SystemRegistry(Mapping[str, GameSystem]):
    """Maps a system ID to its (lazily loaded, stateless) :class:`GameSystem`."""

    def __init__(self, locations: dict[str, str]) -> None:
        self._locations = dict(locations)
        self._loaded: dict[str, GameSystem] = {}

    def register(self, system: GameSystem) -> None:
        self._loaded[system.id] = system
        self._locations.setdefault(system.id, "")

    def __getitem__(self, system_id: str) -> GameSystem:
        if system_id not in self._loaded:
            location = self._locations.get(system_id)
            if not location:
                raise KeyError(system_id)
            module_name, _, class_name = location.partition(":")
            self._loaded[system_id] = getattr(importlib.import_module(module_name), class_name)()
        return self._loaded[system_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._locations)

    def __len__(self) -> int:
        return len(self._locations)

    def get_system(self, system_id: str) -> GameSystem:
        """The system, or :class:`UnsupportedSystemError` with a bilingual message."""
        try:
            return self[system_id]
        except KeyError:
            known = ", ".join(self._locations)
            raise UnsupportedSystemError(
                Message(
                    f"ゲームシステム {system_id!r} はありません (使えるもの: {known})",
                    f"unknown game system {system_id!r} (known: {known})",
                )
            ) from None

    def sorted_by_sort_key(self) -> list[GameSystem]:
        return sorted((self[i] for i in self), key=lambda s: s.sort_key)


systems = SystemRegistry(_BUILTIN)

__all__ = ["GameSystem", "SystemRegistry", "systems"]
