"""The registry of game systems, keyed by BCDice-style ID.

Each game system is one folder ``saikoro/systems/<id>/`` whose ``__init__.py`` defines
``MANIFEST`` (:class:`~saikoro.systems.manifest.SystemManifest`); the generic ``DiceBot``
is the module ``dicebot.py``. The registry finds them by listing this package (nothing
names them here), and loads a system on first use so that the CLI starts fast: looking up
an ID first tries the folder named like the ID in lower case. Systems from elsewhere
register with :func:`register_package` (or :func:`register_manifest`), or are named in the
environment variable ``SAIKORO_SYSTEMS`` (comma-separated package names) so that every
front end of a process picks them up.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Iterator, Mapping
from typing import Any

from saikoro.errors import SaikoroError, UnsupportedSystemError
from saikoro.i18n import Message
from saikoro.systems.base import GameSystem
from saikoro.systems.manifest import SystemManifest


class SettingsError(SaikoroError):
    """House-rule settings that the system's settings model refuses."""

    reason = "invalid setting"

    @classmethod
    def from_validation(cls, system_id: str, error: ValueError) -> SettingsError:
        from pydantic import ValidationError

        from saikoro.sheets import describe_validation_error

        problems = describe_validation_error(error) if isinstance(error, ValidationError) else []
        return cls(
            Message(
                f"{system_id} の設定が正しくありません: " + "; ".join(p.ja for p in problems),
                f"invalid {system_id} settings: " + "; ".join(p.en for p in problems),
            )
        )


#: Modules of this package that are not game systems.
_NOT_SYSTEMS = frozenset({"base", "manifest", "hints"})
#: How many distinct house-rule sets are kept built (per kind) before the cache starts over.
_CACHED_SETTINGS = 256
#: Extra system packages to register in every process (comma-separated).
ENV_VAR = "SAIKORO_SYSTEMS"


class SystemRegistry(Mapping[str, GameSystem]):
    """Maps a system ID to its (lazily loaded, stateless) :class:`GameSystem`; the
    :class:`SystemManifest` of each is :meth:`manifest`."""

    def __init__(self, package: str) -> None:
        self._package = package
        self._manifests: dict[str, SystemManifest] = {}
        self._games: dict[str, GameSystem] = {}
        self._discovered = False
        self._settings: dict[tuple[str, str], Any] = {}
        self._configured: dict[tuple[str, str], GameSystem] = {}

    # -- registration ----------------------------------------------------------------
    def register_manifest(self, manifest: SystemManifest) -> None:
        self.unregister(manifest.id)
        self._manifests[manifest.id] = manifest

    def register_package(self, package: str) -> SystemManifest:
        """Register the system whose package (``package.MANIFEST``) is named."""
        manifest = getattr(importlib.import_module(package), "MANIFEST", None)
        if not isinstance(manifest, SystemManifest):
            raise TypeError(f"{package} defines no MANIFEST (a SystemManifest)")
        self.register_manifest(manifest)
        return manifest

    def unregister(self, system_id: str) -> None:
        self._manifests.pop(system_id, None)
        self._games.pop(system_id, None)
        for cache in (self._settings, self._configured):
            for key in [k for k in cache if k[0] == system_id]:
                del cache[key]

    def _try_module(self, name: str) -> None:
        try:
            module = importlib.import_module(f"{self._package}.{name}")
        except ModuleNotFoundError:
            return
        manifest = getattr(module, "MANIFEST", None)
        if isinstance(manifest, SystemManifest):
            self._manifests.setdefault(manifest.id, manifest)

    def _discover(self) -> None:
        if self._discovered:
            return
        self._discovered = True
        import pkgutil

        package = sys.modules[self._package]
        names = sorted(m.name for m in pkgutil.iter_modules(package.__path__))
        for name in sorted(names, key=lambda n: n != "dicebot"):  # the generic system first
            if name not in _NOT_SYSTEMS:
                self._try_module(name)
        for extra in filter(None, os.environ.get(ENV_VAR, "").split(",")):
            try:
                self.register_package(extra.strip())
            except (ImportError, TypeError) as error:
                raise SaikoroError(
                    Message(
                        f"{ENV_VAR} のゲームシステム {extra.strip()!r} を読めません: {error}",
                        f"cannot load the game system {extra.strip()!r} of {ENV_VAR}: {error}",
                    )
                ) from None

    # -- look-up ---------------------------------------------------------------------
    def manifest(self, system_id: str) -> SystemManifest:
        """The system's manifest; KeyError when there is no such system."""
        if system_id not in self._manifests and not self._discovered:
            if system_id.isidentifier() and system_id.lower() not in _NOT_SYSTEMS:
                self._try_module(system_id.lower())
            if system_id not in self._manifests:
                self._discover()
        return self._manifests[system_id]

    def manifests(self) -> list[SystemManifest]:
        self._discover()
        return list(self._manifests.values())

    def __getitem__(self, system_id: str) -> GameSystem:
        game = self._games.get(system_id)
        if game is None:
            game = self._games[system_id] = self.manifest(system_id).game_class()()
        return game

    def __contains__(self, system_id: object) -> bool:
        if not isinstance(system_id, str):
            return False
        try:
            self.manifest(system_id)
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        self._discover()
        return iter(list(self._manifests))

    def __len__(self) -> int:
        self._discover()
        return len(self._manifests)

    def get_system(self, system_id: str) -> GameSystem:
        """The system, or :class:`UnsupportedSystemError` with a bilingual message."""
        try:
            return self[system_id]
        except KeyError:
            from saikoro.systems.hints import resolve_system_id, suggest_system_id

            known = ", ".join(self)
            same = resolve_system_id(system_id)
            meant = same if same != system_id else suggest_system_id(system_id)
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

    # -- house rules -------------------------------------------------------------------
    def settings(self, system_id: str, overrides: Mapping[str, Any] | None = None) -> Any:
        """The system's house rules: its settings' defaults with ``overrides`` (the room's
        ``/gm setting`` changes, or ``saikoro roll --setting``); None for a system without
        settings. Raises pydantic's ValidationError for a bad override."""
        import json

        shown = (
            json.dumps(dict(overrides), sort_keys=True, ensure_ascii=False) if overrides else "{}"
        )  # most rooms keep the defaults: no JSON to write on the tracker's every look
        key = (system_id, shown)
        if key not in self._settings:
            if len(self._settings) >= _CACHED_SETTINGS:
                self._settings.clear()  # rooms' house rules: a few; a flood must not grow it
            cls = self.manifest(system_id).settings_class()
            self._settings[key] = cls.model_validate(json.loads(key[1])) if cls else None
        return self._settings[key]

    def configured(self, system_id: str, overrides: Mapping[str, Any] | None = None) -> GameSystem:
        """The system playing by house rules: typed commands and the tracker alike.

        Unknown systems raise UnsupportedSystemError, bad overrides a bilingual
        :class:`SettingsError` (``saikoro roll --setting``)."""
        game = self.get_system(system_id)
        if not overrides:
            return game
        try:
            settings = self.settings(system_id, overrides)
        except ValueError as error:  # pydantic's ValidationError
            raise SettingsError.from_validation(system_id, error) from None
        if settings is None:
            raise SettingsError(
                Message(
                    f"{system_id} には設定 (ハウスルール) がありません",
                    f"{system_id} has no settings (house rules)",
                )
            )
        import json

        key = (system_id, json.dumps(dict(overrides), sort_keys=True, ensure_ascii=False))
        if key not in self._configured:
            if len(self._configured) >= _CACHED_SETTINGS:
                self._configured.clear()
            self._configured[key] = self.manifest(system_id).game_class()(settings)
        return self._configured[key]

    def with_part(self, part: str) -> list[str]:
        """IDs of the systems whose manifest has ``part`` (``"sheet"``, ``"tracker"``, …)."""
        return [m.id for m in self.manifests() if getattr(m, part) is not None]


systems = SystemRegistry(__name__)

# Importing this package sets the attribute ``saikoro.systems`` to the *module*, which
# shadows the registry that ``saikoro/__init__.py`` re-exports under the same name. So
# the module itself acts as the registry: ``saikoro.systems[system_id]`` works either way.
get_system = systems.get_system
configured = systems.configured
settings = systems.settings
manifest = systems.manifest
manifests = systems.manifests
register_manifest = systems.register_manifest
register_package = systems.register_package
unregister = systems.unregister
with_part = systems.with_part
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

__all__ = ["GameSystem", "SettingsError", "SystemManifest", "SystemRegistry", "systems"]
