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
        [
            f"/char add {SHEETS / 'alice.json'}",
            "@アリス 2D6>=7 跳び越える",
            "@アリス 2D6",
            "@アリス ２Ｄ６＞＝７　ＯＫ！",
        ],
        ["3/6", "4/6", "1/6", "1/6", "6/6", "1/6"],
        system="LittleWorld",
    )
    assert out[1]["text"] == "アリス: 跳び越える (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
    assert out[2]["text"] == "アリス: (2D6) ＞ 2[1,1] ＞ 2"
    assert out[3]["text"] == "アリス: ＯＫ！ (2D6>=7) ＞ 7[6,1] ＞ 7 ＞ 成功"


def test_comments_are_what_follows_the_command() -> None:
    assert roll_comment("1D100<=65 目星") == "目星"
    assert roll_comment("x3 2D6 連撃 3回") == "連撃 3回"
    assert roll_comment("2D6>=7") == ""
    assert roll_comment("choice A B C") == ""  # a choice's words are its items
    assert roll_comment("Schoice[a,b] こっそり") == "こっそり"
    assert roll_comment("choice[A(), B(), C()] 武器") == "武器"  # BCDice's own example
    assert roll_comment("choice2(a, b, c) 二つ") == "二つ"
    assert roll_comment("choice2 a b c") == ""
    assert roll_comment("Sx2 1D6 こっそり二回") == "こっそり二回"
    assert roll_comment("rep2 1D6") == ""


def test_a_comment_keeps_what_the_player_typed() -> None:
    """Full-width words stay full-width; the command before them may be typed full-width."""
    assert roll_comment("１Ｄ１００＜＝６５　目星ＡＢＣ") == "目星ＡＢＣ"
    assert roll_comment("ｘ２　２Ｄ６　連撃　２回") == "連撃　２回"
    assert roll_comment("1D100≦65 聞き耳") == "聞き耳"
