"""One unit of dice work a request asks for: a roll or an original table (picklable)."""

from __future__ import annotations

import re
from typing import NamedTuple

#: A command this long, or an original table this long, is expected to be expensive.
LONG_COMMAND = 100
LONG_TABLE = 4000
#: Repetitions × the largest number of a command above which it is expected to be
#: expensive (``x100 100B66``: 10000; ``1D100``: 100; ``x10 2D6``: 60).
SIZE_BOUND = 1000

_REPEAT = re.compile(r"\s*S?(?:repeat|rep|x)(\d+)\s", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")


class RollJob(NamedTuple):
    kind: str  # "roll", "table" or "simulate" (an encounter, JSON: server/simulate_route.py)
    system_id: str  # "" for a table
    text: str | None  # the command, or the table text
    extras: bool = False  # saikoro's extras asked for (?saikoro=1)


def looks_expensive(job: RollJob) -> bool:
    """Whether ``job`` is expected to take long before it ran (the roll pool's first guess).

    Cheap to compute and deliberately rough: a job guessed expensive runs on the workers
    every client shares instead of the ones kept for cheap work, which only matters
    while the server is busy.
    """
    text = job.text or ""
    if job.kind == "simulate":
        return True  # hundreds of fights: always the shared (nice'd) workers
    if job.kind == "table":
        return len(text) > LONG_TABLE
    if len(text) > LONG_COMMAND:
        return True
    repeat = _REPEAT.match(text)
    times = int(repeat[1]) if repeat else 1
    numbers = _NUMBER.findall(text)  # a long number is big: no need to convert it
    largest = max((int(n) if len(n) <= 6 else 10**6 for n in numbers), default=1)
    return times * largest > SIZE_BOUND
