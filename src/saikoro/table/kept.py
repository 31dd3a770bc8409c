"""The last value worked out for each name, given again while what it came from is the same.

A tracker or the simulator reads the same character several times a line and again on the
next lines; what it works out from a few of the character's values (its references, its
attacks) is kept under the character's name with those values, and worked out again only
when they differ. One keeper serves every room (the names may be anyone's), so it holds at
most ``most`` names and starts afresh when full.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")

#: The most names a keeper holds.
MOST = 512


class KeptByName(Generic[T]):
    def __init__(self, most: int = MOST) -> None:
        self._most = most
        self._kept: dict[str, tuple[object, T]] = {}

    def get(self, name: str, source: object) -> T | None:
        """The value kept for ``name`` if it was worked out from a ``source`` equal to this
        one (a tuple compares its items by identity first: the same objects cost nothing);
        else None. ``source`` must not hold values its owner changes in place (copy them)."""
        kept = self._kept.get(name)
        if kept is not None and kept[0] == source:
            return kept[1]
        return None

    def put(self, name: str, source: object, value: T) -> T:
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[name] = (source, value)
        return value
