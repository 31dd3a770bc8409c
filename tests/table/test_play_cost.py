"""``saikoro play`` and the dice cost model: a line asking for a million dice writes nothing.

Regression test of the audit: ``x100 10000U0[2]`` wrote ≈6 MB into the room.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .helpers import play


def test_play_refuses_the_line_and_writes_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "room.sqlite")
    out = play(db, "r1", ["x100 10000U0[2]", "2D6"], rands=["3/6", "4/6"], system="DiceBot")
    assert out[0]["ok"] is False and out[0]["reason"] == "too many dice"
    assert out[1]["ok"] is True
    with sqlite3.connect(db) as connection:
        (size,) = connection.execute(
            "SELECT coalesce(sum(length(body)), 0) FROM saikoro_events"
        ).fetchone()
    assert size < 10_000  # was ≈6 MB
