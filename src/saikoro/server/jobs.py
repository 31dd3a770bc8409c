"""One unit of dice work a request asks for: a roll or an original table (picklable)."""

from __future__ import annotations

from typing import NamedTuple


class RollJob(NamedTuple):
    kind: str  # "roll" or "table"
    system_id: str  # "" for a table
    text: str | None  # the command, or the table text
    extras: bool = False  # saikoro's extras asked for (?saikoro=1)
