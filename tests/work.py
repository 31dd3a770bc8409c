"""Counting work instead of timing it.

A test that wants to show "this input is refused before doing its work" or "this stays
cheap" must not ask the clock: on a loaded machine (CI, a laptop compiling something) any
wall-time bound fails good code, and on a fast one it lets slow code pass. It counts
function calls instead — Python and C (``sys.setprofile`` sees both) — which is the same on
every run of the same code and grows with the work done: a loop over a million dice makes
at least a million calls however fast the machine is.

The bounds are set an order of magnitude above what the code makes today (the test's
comment gives the figure measured) and an order below what the bug it guards against made.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass
class Work(Generic[T]):
    """What :func:`count_calls` saw: the value returned (or the exception raised) and the
    number of function calls made meanwhile."""

    calls: int
    value: T | None = None
    error: BaseException | None = None


def count_calls(work: Callable[[], T]) -> Work[T]:
    """Run ``work`` in this thread, counting every function call it makes."""
    count = 0

    def profile(_frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal count
        if event == "call" or event == "c_call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        value = work()
    except BaseException as error:
        sys.setprofile(previous)
        return Work(count, error=error)
    sys.setprofile(previous)
    return Work(count, value=value)


class WorkClock:
    """A clock that moves ``tick`` seconds each time it is read: put in place of a time
    budget's clock (``saikoro.odds.clock.now``), the budget becomes a budget of work — the
    code reads its clock every so many steps — the same on every machine."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * self.tick


def cpu_seconds(work: Callable[[], object]) -> tuple[float, object]:
    """The CPU time this process spent on ``work`` (``time.process_time``), and its outcome
    (the value, or the exception it raised).

    For work that runs inside C (a regular expression backtracking, a JSON or XML parser),
    where :func:`count_calls` sees one call however long it runs. CPU time is not wall
    time: other processes loading the machine do not add to it (a process waiting for the
    CPU is not charged), so the bounds of the tests using it hold on a busy machine.
    """
    started = time.process_time()
    try:
        outcome: object = work()
    except Exception as error:
        outcome = error
    return time.process_time() - started, outcome
