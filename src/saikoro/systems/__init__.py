"""The registry of game systems, keyed by BCDice-style ID.

Systems are imported on first use so that the CLI starts fast. A new system adds
one line to ``_BUILTIN`` (or calls :meth:`SystemRegistry.register`); the engine
is never touched.
"""

from __future__ import annotations

import importlib
import sys
import types
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
            from saikoro.systems.hints import resolve_system_id, suggest_system_id

            known = ", ".join(self._locations)
            meant = resolve_system_id(system_id)
            meant = meant if meant != system_id else suggest_system_id(system_id)
            ja = f" もしかして {meant}?" if meant else ""
            en = f" Did you mean {meant}?" if meant else ""
            raise UnsupportedSystemError(
                Message(
                    f"ゲームシステム {system_id!r} はありません (使えるもの: {known}){ja}",
                    f"unknown game system {system_id!r} (known: {known}){en}",
                )
            ) from None

    def sorted_by_sort_key(self) -> list[GameSystem]:
        return sorted((self[i] for i in self), key=lambda s: s.sort_key)


systems = SystemRegistry(_BUILTIN)

# Importing this package sets the attribute ``saikoro.systems`` to the *module*, which
# shadows the registry that ``saikoro/__init__.py`` re-exports under the same name. So
# the module itself acts as the registry: ``saikoro.systems["LittleWorld"]`` works either way.
get_system = systems.get_system
register = systems.register
sorted_by_sort_key = systems.sorted_by_sort_key
keys, values, items, get = systems.keys, systems.values, systems.items, systems.get


class _RegistryModule(types.ModuleType):
    def __getitem__(self, system_id: str) -> GameSystem:
        return systems[system_id]

    def __iter__(self) -> Iterator[str]:
        return iter(systems)

    def __len__(self) -> int:
        return len(systems)

    def __contains__(self, system_id: object) -> bool:
        return system_id in systems


sys.modules[__name__].__class__ = _RegistryModule

__all__ = ["GameSystem", "SystemRegistry", "systems"]
