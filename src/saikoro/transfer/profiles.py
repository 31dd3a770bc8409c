"""Which label means which sheet field, per game system.

A :class:`Slot` ties a label (体力, HP, 戦闘 …) to a path in the sheet's JSON form.
A :class:`Profile` lists a system's slots (some depend on the sheet, such as
運命判定d100's extra abilities) and the initiative a piece shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from saikoro.i18n import Message
from saikoro.transfer.labels import norm_label, parse_bool, parse_int

Path = tuple[str, ...]


@dataclass(frozen=True)
class Slot:
    label: str  # the label written on export
    path: Path  # where the value lives in the sheet's JSON form
    kind: str = "int"  # "int", "str", "bool"
    aliases: tuple[str, ...] = ()  # more labels accepted on import
    #: Labels accepted on import that other games use for other values (生命力 is an
    #: ability in some games): a match through them is reported as ambiguous.
    loose: tuple[str, ...] = ()
    max_path: Path | None = None  # a resource: where its maximum lives
    optional: bool = False  # not exported while the value is None
    choices: dict[str, str] = field(default_factory=dict)  # normalized text → stored value

    def labels(self) -> tuple[str, ...]:
        return (self.label, *self.aliases, *self.loose)

    def convert(self, text: str) -> Any:
        """The stored value for a tool's text; ValueError when it does not fit."""
        if self.kind == "int":
            return parse_int(text)
        if self.kind == "bool":
            return parse_bool(text)
        if self.choices:
            key = norm_label(text)
            if key not in self.choices:
                raise ValueError(text)
            return self.choices[key]
        return str(text)

    @property
    def target(self) -> str:
        where = ".".join(self.path)
        return f"{where} / {'.'.join(self.max_path)}" if self.max_path else where


@dataclass(frozen=True)
class Profile:
    system: str
    title: str
    slots: tuple[Slot, ...]
    #: Slots that exist because of this sheet's data (e.g. extra abilities).
    sheet_slots: Callable[[dict[str, Any]], list[Slot]] = lambda dump: []
    #: A slot for a label no fixed slot knows, given every label of the piece (normalized).
    claim: Callable[[str, set[str]], Slot | None] = lambda label, labels: None
    initiative: Callable[[dict[str, Any]], int] = lambda dump: 0
    #: Mappings whose key order matters (it shapes the chat palette): kept through a round-trip.
    ordered: tuple[Path, ...] = ()
    #: (label, path) of what a file must give: an import without them names them.
    required: tuple[tuple[str, Path], ...] = ()

    def export_slots(self, dump: dict[str, Any]) -> list[Slot]:
        return [*self.slots, *self.sheet_slots(dump)]

    @cached_property
    def by_label(self) -> dict[str, Slot]:
        """Normalized label → fixed slot (the first slot naming it)."""
        table: dict[str, Slot] = {}
        for slot in self.slots:
            for name in slot.labels():
                table.setdefault(norm_label(name), slot)
        return table

    @cached_property
    def loose_labels(self) -> frozenset[str]:
        strict = {norm_label(n) for slot in self.slots for n in (slot.label, *slot.aliases)}
        return frozenset(
            norm_label(n) for slot in self.slots for n in slot.loose if norm_label(n) not in strict
        )

    def is_loose(self, label: str) -> bool:
        """Whether ``label`` names its field only loosely (see :attr:`Slot.loose`)."""
        return norm_label(label) in self.loose_labels

    def find(self, label: str, labels: set[str]) -> Slot | None:
        return self.by_label.get(norm_label(label)) or self.claim(label, labels)

    def is_known(self, label: str) -> bool:
        return norm_label(label) in self.by_label or (
            self.claim(label, {norm_label(label)}) is not None
        )


def hp_slot() -> Slot:
    return Slot(
        "HP",
        ("hp",),
        max_path=("max_hp",),
        aliases=("ＨＰ", "ヒットポイント"),
        loose=("耐久力", "生命力"),
    )


def profile_for(system: str) -> Profile:
    """The system's labels (its manifest's ``transfer_profile``); a clear error otherwise."""
    from saikoro.sheets import sheet_class
    from saikoro.systems import manifest
    from saikoro.transfer.labels import TransferError

    sheet_class(system)  # a clear SheetError for an unknown system
    profile = manifest(system).profile()
    if profile is None:
        raise TransferError(
            Message(
                f"{system} のキャラクターは Udonarium / CCFOLIA に変換できません",
                f"{system} characters cannot be converted to or from Udonarium / CCFOLIA",
            )
        )
    return profile
