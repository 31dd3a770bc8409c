"""One game system's manifest: everything saikoro knows about it, reached from one object.

A system's folder ``systems/<id>/`` defines ``MANIFEST = SystemManifest(...)`` in its
``__init__.py``. The manifest names the system's parts by *location* inside its own package
(``".tracker:MyTracker"``), and loads each part on first use, so that a dice roll
does not import the table, the transfer code or pydantic:

- ``game`` — the :class:`~saikoro.systems.base.GameSystem` (commands, help, glossary);
- ``sheet`` — the character sheet model (a :class:`saikoro.sheets.SheetBase` subclass);
- ``settings`` — the GM's house rules (a frozen pydantic model; every field has a default);
- ``tracker`` — the table's combat tracker (a :class:`saikoro.table.tracker.Tracker`);
- ``transfer_profile`` — the labels of Udonarium / CCFOLIA pieces
  (a :class:`saikoro.transfer.profiles.Profile`);
- ``palette`` — the chat palette builder (``sheet -> list[str]``);
- ``palette_en`` — the English of the builder's labels (``label -> str``), for the English
  web page (the lines themselves stay what the tools take);
- ``simulation`` — the encounter simulator's playbook (what a fighter of this system may
  type on its turn, who is out of the fight: :class:`saikoro.simulate.model.Playbook`);
- ``rules_spec`` / ``rules_reference`` — for a system that is not in RULES.md, files in its
  folder with its rule bullets (RULES.md's format) and its rules reference (``docs/rules``'s).

Every part but ``game`` is optional: a system without a tracker gets the generic one, without
a transfer profile cannot be exported, without a palette exports an empty palette.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

    from saikoro.sheets import SheetBase
    from saikoro.systems.base import GameSystem
    from saikoro.table.tracker import Tracker
    from saikoro.transfer.profiles import Profile

PaletteBuilder = Callable[["SheetBase"], list[str]]
PaletteEnglish = Callable[[str], str]


class SystemManifest:
    """Where each part of one game system lives: ``".module:attribute"`` inside ``package``
    (``":attribute"`` for the package itself). A plain class, not a dataclass: it is built
    on every roll's start-up, and generating a dataclass's methods costs milliseconds."""

    __slots__ = (
        "_loaded",
        "game",
        "id",
        "package",
        "palette",
        "palette_en",
        "rules_reference",
        "rules_spec",
        "settings",
        "sheet",
        "simulation",
        "tracker",
        "transfer_profile",
    )

    def __init__(
        self,
        *,
        id: str,
        package: str,
        game: str,
        sheet: str | None = None,
        settings: str | None = None,
        tracker: str | None = None,
        transfer_profile: str | None = None,
        palette: str | None = None,
        palette_en: str | None = None,
        simulation: str | None = None,
        rules_spec: str | None = None,
        rules_reference: str | None = None,
    ) -> None:
        self.id = id
        self.package = package
        self.game = game
        self.sheet = sheet
        self.settings = settings
        self.tracker = tracker
        self.transfer_profile = transfer_profile
        self.palette = palette
        self.palette_en = palette_en
        self.simulation = simulation
        self.rules_spec = rules_spec
        self.rules_reference = rules_reference
        self._loaded: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<SystemManifest {self.id} ({self.package})>"

    def _load(self, location: str | None) -> Any:
        if location is None:
            return None
        if location not in self._loaded:
            module_name, _, attribute = location.partition(":")
            module = importlib.import_module(module_name or self.package, self.package)
            self._loaded[location] = getattr(module, attribute)
        return self._loaded[location]

    def game_class(self) -> type[GameSystem]:
        game: type[GameSystem] = self._load(self.game)
        return game

    def sheet_class(self) -> type[SheetBase] | None:
        sheet: type[SheetBase] | None = self._load(self.sheet)
        return sheet

    def settings_class(self) -> type[BaseModel] | None:
        settings: type[BaseModel] | None = self._load(self.settings)
        return settings

    def tracker_object(self) -> Tracker | None:
        """The system's tracker (one instance per process: trackers are stateless)."""
        if self.tracker is None:
            return None
        key = "tracker instance"
        if key not in self._loaded:
            self._loaded[key] = self._load(self.tracker)()
        tracker: Tracker = self._loaded[key]
        return tracker

    def profile(self) -> Profile | None:
        profile: Profile | None = self._load(self.transfer_profile)
        return profile

    def palette_builder(self) -> PaletteBuilder | None:
        builder: PaletteBuilder | None = self._load(self.palette)
        return builder

    def palette_english(self) -> PaletteEnglish | None:
        english: PaletteEnglish | None = self._load(self.palette_en)
        return english

    def playbook(self) -> Any:
        """The system's playbook for ``saikoro simulate`` (one instance per process), or
        None when the system cannot be simulated."""
        if self.simulation is None:
            return None
        key = "playbook instance"
        if key not in self._loaded:
            self._loaded[key] = self._load(self.simulation)()
        return self._loaded[key]

    def read_text(self, relative: str | None) -> str | None:
        """A file shipped in the system's folder (its rules spec or reference), or None."""
        if relative is None:
            return None
        from importlib import resources

        return resources.files(self.package).joinpath(relative).read_text(encoding="utf-8")


__all__ = ["PaletteBuilder", "PaletteEnglish", "SystemManifest"]
