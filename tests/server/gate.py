"""A dice source that holds a job in its worker until the test lets it go.

The pool's tests used to make a job "run long" by giving it work that takes some
milliseconds and a budget or timeout of fewer: on a loaded machine the margins vanished
and the verdict depended on who won the race. A :class:`GateSource` instead stops its job
at a die with the gated number of sides until a file exists (the test creates it), so a
job is running for exactly as long as the test says. It is pickled to the worker process
(the pool's ``source_factory``), which imports this module by name.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


class GateSource:
    """Dice that all show 1; a die with ``gated_sides`` sides waits for ``release`` to exist."""

    yields_faces = True

    def __init__(self, release: Path, gated_sides: int = 7, started: Path | None = None) -> None:
        self.release = str(release)
        self.gated_sides = gated_sides
        self.started = str(started) if started is not None else None

    def roll(self, sides: int) -> int:
        if sides == self.gated_sides:
            if self.started is not None:  # tell the test the job is held
                with open(self.started, "a") as started:
                    started.write(f"{os.getpid()}\n")
            while not os.path.exists(self.release):  # wait on the condition, not a time
                time.sleep(0.001)
        return 1
