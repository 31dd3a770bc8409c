"""A real table in memory: lines go through :func:`saikoro.table.dispatch.dispatch`, the
same core every front end uses, and the room becomes the state each line leaves.

Nothing is stored; the events of a fight are kept only when asked (``keep``), for
``saikoro simulate --log``. The dice come from the fight's own seeded source.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from saikoro.dice.randomizer import DiceSource
from saikoro.sheets import SheetBase
from saikoro.table.actors import Actor
from saikoro.table.dispatch import Context, Outcome, dispatch, dispatch_sheet
from saikoro.table.events import Event, now_iso
from saikoro.table.state import RoomState

#: Called with each event of a line carried out, in order.
Watcher = Callable[[Event], None]

GM = Actor.gm()
#: Lines never name files here (``allow_files=False``): any folder will do, and asking the
#: working directory for each line's context costs a system call.
_HERE = Path(".")


@dataclass
class MemoryTable:
    state: RoomState
    source: DiceSource
    keep: bool = False
    events: list[Event] = field(default_factory=list)
    watcher: Watcher | None = None
    #: When this table's lines are stamped as typed: the moment it was set up (its lines
    #: are played at once; a random id and a clock reading per line cost ≈ 7 % of a fight).
    at: str = field(default_factory=now_iso)
    #: This table's lines' command ids are ``{ids}-{number}``.
    ids: str = field(default_factory=lambda: uuid.uuid4().hex[:16])
    _lines: int = 0
    _actors: dict[str, Actor] = field(default_factory=dict)

    def actor(self, name: str | None) -> Actor:
        """The GM (None), else the player of the character ``name``."""
        if name is None:
            return GM
        found = self._actors.get(name)
        if found is None:
            found = self._actors[name] = Actor.player(name)
        return found

    def _context(self, actor: Actor) -> Context:
        self._lines += 1
        return Context(
            actor=actor,
            source=self.source,
            base_dir=_HERE,
            allow_files=False,
            command_id=f"{self.ids}-{self._lines}",
            at=self.at,
        )

    def run(self, line: str, speaker: str | None = None) -> Outcome:
        """Carry out ``line`` typed by ``speaker``'s player (None: the GM); raises the
        table's SaikoroError when the line is refused (then nothing changed)."""
        return self._take(dispatch(self.state, line, self._context(self.actor(speaker))))

    def add(self, sheet: SheetBase, side: str) -> Outcome:
        """The GM brings in the character of ``sheet`` on ``side``."""
        return self._take(dispatch_sheet(self.state, sheet, self._context(GM), side))

    def _take(self, outcome: Outcome) -> Outcome:
        if outcome.state is not None:  # the line's own working copy: nothing else holds it
            self.state = outcome.state
        if self.watcher is not None:
            for event in outcome.events:
                self.watcher(event)
        if self.keep:
            self.events.extend(outcome.events)
        return outcome
