"""Keeper matters at the table: 禁忌値 reaching 100 raises a clear event (LW-ABIL-05)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import play

KEEPER = Path(__file__).resolve().parents[2] / "examples" / "littleworld" / "pc_lily_keeper.yaml"


@pytest.mark.rule("LW-ABIL-05", via="table")
def test_taboo_reaching_100_raises_the_event_once_per_crossing(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    out = play(
        db,
        "keeper",
        [
            f"/char add {KEEPER}",
            "@リリィ :禁忌値+50",  # 12 → 62
            "@リリィ :禁忌値+40",  # 62 → 100 (stops at 100): crosses 100
            "@リリィ :禁忌値+1",  # already at 100: no second event
            "@リリィ :禁忌値-10",  # 100 → 90
            "@リリィ :禁忌値+10",  # 90 → 100: crosses again
        ],
        system="LittleWorld",
    )
    texts = [o.get("text", "") for o in out]
    events = ["禁忌値が" in t and "達した" in t for t in texts]
    assert events == [False, False, True, False, False, True]
    assert "GM: リリィ 禁忌値 62 → 100 (上限 100)" in texts[2]
