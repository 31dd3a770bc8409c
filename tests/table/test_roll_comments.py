"""A word after a dice command (``1D100<=65 目星``) is the player's comment: BCDice reads only
the command; the table shows the comment with the result, as CCFOLIA does, and keeps it secret
with a secret roll."""

from __future__ import annotations

from pathlib import Path

from saikoro.table.dispatch import roll_comment

from .helpers import SHEETS, play


def test_the_comment_is_shown_with_the_result(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    out = play(
        db,
        "r",
        [f"/char add {SHEETS / 'alice.json'}", "@アリス 2D6>=7 跳び越える", "@アリス 2D6"],
        ["3/6", "4/6", "1/6", "1/6"],
        system="LittleWorld",
    )
    assert out[1]["text"] == "アリス: 跳び越える (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
    assert out[2]["text"] == "アリス: (2D6) ＞ 2[1,1] ＞ 2"


def test_comments_are_what_follows_the_command() -> None:
    assert roll_comment("1D100<=65 目星") == "目星"
    assert roll_comment("x3 2D6 連撃 3回") == "連撃 3回"
    assert roll_comment("2D6>=7") == ""
    assert roll_comment("choice A B C") == ""  # a choice's words are its items
    assert roll_comment("Schoice[a,b] こっそり") == ""
