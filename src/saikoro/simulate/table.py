"""A real table in memory: lines go through :func:`saikoro.table.dispatch.dispatch`, the
same core every front end uses, and their events are folded into the room's state.

Nothing is stored; the events of a fight are kept only when asked (``keep``), for
``saikoro simulate --log``. The dice come from the fight's own seeded source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from saikoro.dice.randomizer import DiceSource
from saikoro.sheets import SheetBase
from saikoro.table.actors import Actor
from saikoro.table.dispatch import Context, Outcome, dispatch, dispatch_sheet
from saikoro.table.events import Event
from saikoro.table.state import RoomState, apply_in_place

#: Called with each event and the state just before it is folded in.
Watcher = Callable[[Event, RoomState], None]

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
    _actors: dict[str, Actor] = field(default_factory=dict)

    def actor(self, name: str | None) -> Actor:
        """The GM (None), else the player of the character ``name``."""
        if name is None:
            return GM
        found = self._actors.get(name)
        if found is None:
            found = self._actors[name] = Actor.player(name)
        return found

    def run(self, line: str, speaker: str | None = None) -> Outcome:
        """Carry out ``line`` typed by ``speaker``'s player (None: the GM); raises the
        table's SaikoroError when the line is refused (then nothing changed)."""
        ctx = Context(
            actor=self.actor(speaker), source=self.source, base_dir=_HERE, allow_files=False
        )
        return self._fold(dispatch(self.state, line, ctx))

    def add(self, sheet: SheetBase, side: str) -> Outcome:
        """The GM brings in the character of ``sheet`` on ``side``."""
        ctx = Context(actor=GM, source=self.source, base_dir=_HERE, allow_files=False)
        return self._fold(dispatch_sheet(self.state, sheet, ctx, side))

    def _fold(self, outcome: Outcome) -> Outcome:
        for event in outcome.events:
            if self.watcher is not None:
                self.watcher(event, self.state)
            apply_in_place(self.state, event)
        if self.keep:
            self.events.extend(outcome.events)
        return outcome
