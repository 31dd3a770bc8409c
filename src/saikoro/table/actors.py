"""Who is at the table: the GM, a player of some characters, or a spectator.

Every front end (``saikoro play``, the HTTP/WebSocket API, the page) turns its caller
into an :class:`Actor` — from a capability link's token (:mod:`saikoro.store.links`) or,
in ``saikoro play`` on a room without links, from ``--gm`` / ``--as`` — and the table
core decides what that actor may do and see (:mod:`saikoro.table.roles`,
:mod:`saikoro.table.view`). Names are compared after the dice's normalisation, so a
full-width ``＠ＧＭ`` is ``@GM``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from saikoro.dice.normalize import to_half_width

Role = Literal["gm", "player", "spectator"]

#: The speaker name reserved for the game master (compared after :func:`name_key`).
GM_SPEAKER = "GM"


def name_key(name: str) -> str:
    """A name as compared at the table: half-width (as the dice read it), case-folded."""
    return to_half_width(name).strip().casefold()


def is_gm_name(name: str) -> bool:
    """``GM``, ``gm``, ``ＧＭ``, ``ｇｍ``: the name only the GM may speak as."""
    return name_key(name) == GM_SPEAKER.casefold()


def find_name(name: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` that ``name`` means: itself, else the same after :func:`name_key`."""
    candidates = list(names)
    if name in candidates:
        return name
    key = name_key(name)
    for candidate in candidates:
        if name_key(candidate) == key:
            return candidate
    return None


@dataclass(frozen=True)
class Actor:
    """The caller of a line or a reader of the log, as the table core sees them."""

    role: Role
    #: The player's own characters (empty for the GM — who owns every character — and
    #: for spectators).
    characters: frozenset[str] = frozenset()
    #: How the actor is shown (the character's name, "GM", …); never a token.
    label: str = ""

    @classmethod
    def gm(cls, label: str = GM_SPEAKER) -> Actor:
        return cls("gm", frozenset(), label)

    @classmethod
    def player(cls, *names: str, label: str = "") -> Actor:
        return cls("player", frozenset(names), label or (names[0] if names else ""))

    @classmethod
    def spectator(cls, label: str = "") -> Actor:
        return cls("spectator", frozenset(), label)

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def is_spectator(self) -> bool:
        return self.role == "spectator"

    def owns(self, name: str) -> bool:
        """May this actor speak as and edit the character ``name`` (as the room names it:
        resolve what was typed with :func:`find_name` first)? The GM: any.

        Exact, not after :func:`name_key`: ``ALICE`` is not Alice's, even when a link of
        Alice's outlives her and someone joins as ``ALICE``."""
        if self.is_gm:
            return True
        if self.is_spectator or not name:
            return False
        return name in self.characters

    @property
    def own_character(self) -> str | None:
        """The player's character when there is exactly one (the default speaker)."""
        if self.role == "player" and len(self.characters) == 1:
            return next(iter(self.characters))
        return None

    def to_json(self) -> dict[str, object]:
        return {"role": self.role, "characters": sorted(self.characters), "label": self.label}


__all__ = ["GM_SPEAKER", "Actor", "Role", "find_name", "is_gm_name", "name_key"]
