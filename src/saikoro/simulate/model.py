"""The values the encounter simulator passes around (no behaviour beyond small helpers).

A fight is played by typing lines into the real table core (:mod:`saikoro.simulate.table`);
what a fighter may type on its turn comes from the system's *playbook*
(``systems/<id>/simulate.py``, named by its manifest), which one *policy* chooses from.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from saikoro.table.state import Character, RoomState

#: The two sides of a fight: the party (``pc``) and its enemies (``npc``).
SIDES = ("pc", "npc")


@dataclass(frozen=True)
class Option:
    """One line a fighter could type now: an attack on ``target`` (``line`` without the
    ``@NAME``), its chance of doing any damage and its expected damage (from the system's
    odds)."""

    target: str
    line: str
    hurt: float
    damage: float


@dataclass(frozen=True)
class Situation:
    """What a policy sees when ``actor``'s turn comes: the room, the attacks it may make
    (``options``, best odds first) and the fight's own random source (for ``random``)."""

    state: RoomState
    actor: str
    options: tuple[Option, ...]
    rng: random.Random

    def character(self, name: str) -> Character:
        return self.state.characters[name]


#: A policy: the situation → the line to type (one of ``options``' lines, or any table
#: command: a line starting with ``/``; an :class:`Option` is taken as its line), or None to
#: end the turn without acting.
Choose = Callable[[Situation], "str | Option | None"]


@dataclass(frozen=True)
class Policy:
    """A named policy: how a side picks its line each turn, and whether its characters spend
    a fate check when it would keep them standing (systems that have fate checks)."""

    name: str
    choose: Choose
    rescue: bool = True


class Playbook(Protocol):
    """A game system's part of the simulator (``systems/<id>/simulate.py``): which lines a
    fighter may type, and who is out of the fight. It calls the system's tracker and odds;
    it never decides an outcome itself (the table core does)."""

    def options(self, state: RoomState, actor: str) -> list[Option]:
        """The attacks ``actor`` may make now, on opponents still in the fight."""
        ...

    def end_turn(self, state: RoomState, actor: str) -> str | None:
        """The line that ends ``actor``'s turn after acting (``/next``), or None when an
        action ends the turn by itself."""
        ...

    def idle(self, state: RoomState, actor: str) -> str:
        """The line ``actor`` types when it does nothing this turn."""
        ...

    def out(self, character: Character) -> bool:
        """Is the character out of the fight (down, unconscious, dead)?"""
        ...

    def dead(self, character: Character) -> bool:
        """Is the character dead (a system without death: never)?"""
        ...

    def rescue(self, state: RoomState, name: str) -> str | None:
        """The line that would save ``name`` from what just downed it (a fate check), or
        None."""
        ...


@dataclass
class CharacterTally:
    """One character over one fight."""

    side: str
    down: bool = False
    dead: bool = False
    dealt: int = 0
    taken: int = 0


@dataclass
class FightResult:
    """One fight: who won (``pc``, ``npc`` or ``draw``), after how many rounds, and each
    character's tally. ``capped``: stopped by the round cap (a draw)."""

    winner: str
    rounds: int
    characters: dict[str, CharacterTally] = field(default_factory=dict)
    capped: bool = False
    lines: int = 0
