"""A 帽子世界TRPG character's consumables at the table (LW-TABLE-08), as pure functions.

The sheet's ``items`` (name, quantity) are what a character starts with; the table keeps
the counts as they change (``inventory``: name → count, written on the first change) and
the herbs gathered this scenario (``herbs``, lost at its end, LW-SPECIAL-08). An item is
used up by use (one per use), and given, bought or found by the GM's lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Holding", "held", "holding", "take_one"]


@dataclass(frozen=True)
class Holding:
    """What a character holds: counts kept at the table and the herbs gathered."""

    counts: Mapping[str, int]
    herbs: tuple[str, ...]

    def count(self, item: str) -> int:
        return int(self.counts.get(item, 0)) + self.herbs.count(item)


def holding(fields: Mapping[str, Any], sheet_items: Iterable[Any]) -> Holding:
    """The character's holding: the table's ``inventory`` once written, else the sheet's
    items (less those lost at a scenario's end, ``items_lost``)."""
    stored = fields.get("inventory")
    if stored is None:
        lost = set(fields.get("items_lost") or ())
        counts: dict[str, int] = {}
        for item in sheet_items:
            if item.name not in lost:
                counts[item.name] = counts.get(item.name, 0) + int(item.quantity)
    else:
        counts = {str(k): int(v) for k, v in stored.items()}
    return Holding(counts, tuple(fields.get("herbs") or ()))


def held(fields: Mapping[str, Any], sheet_items: Iterable[Any], item: str) -> int:
    return holding(fields, sheet_items).count(item)


def take_one(have: Holding, item: str) -> Holding:
    """One ``item`` used up: a gathered herb first (it is lost at the scenario's end anyway),
    else one of the counted ones. The caller checks that one is held."""
    if item in have.herbs:
        herbs = list(have.herbs)
        herbs.remove(item)
        return Holding(have.counts, tuple(herbs))
    counts = dict(have.counts)
    counts[item] = counts.get(item, 0) - 1
    if counts[item] <= 0:
        del counts[item]
    return Holding(counts, have.herbs)
