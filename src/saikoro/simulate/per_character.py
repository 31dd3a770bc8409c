"""A value worked out from one character, kept while the fight's room holds that object.

A simulated fight's table never changes a character in place: a line copies the
characters it changes and leaves the others as they were, the same objects
(:class:`saikoro.table.emit.Emit`, :class:`saikoro.simulate.table.MemoryTable`). So what is
worked out from a character (is it out of the fight, its AC, its attacks) holds as long as
the room holds the same object, and needs working out again only for the characters the
last line changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from saikoro.table.kept import MOST
from saikoro.table.state import Character

T = TypeVar("T")


class PerCharacter(Generic[T]):
    def __init__(self, work_out: Callable[..., T]) -> None:
        self._work_out = work_out
        self._kept: dict[str, tuple[Character, tuple[object, ...], T]] = {}

    def __call__(self, character: Character, *context: object) -> T:
        """``work_out(character, *context)``, kept while it is asked of the same character
        object and equal ``context`` (such as the room's house rules)."""
        kept = self._kept.get(character.name)
        # a tuple compares its items by identity first: the same objects cost no __eq__
        if kept is not None and kept[0] is character and kept[1] == context:
            return kept[2]
        value = self._work_out(character, *context)
        if len(self._kept) >= MOST:
            self._kept.clear()
        self._kept[character.name] = (character, context, value)
        return value
