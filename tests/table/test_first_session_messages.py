"""The table's messages of a first session (issue 19), in both languages."""

from __future__ import annotations

from pathlib import Path

from saikoro.systems.hints import not_a_command
from saikoro.systems.unmeid100.transfer import SKILL_LABELS, palette
from saikoro.table.roles import gm_only

from .helpers import SHEETS, play


def test_a_gm_edit_says_it_was_the_gm_and_where_a_capped_edit_stopped(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    lines = [f"/char add {SHEETS / 'goblin.json'}", "@ゴブリン :HP-5", "@ゴブリン :HP+99"]
    ja = play(db, "r", lines, system="LittleWorld")
    assert [o["text"] for o in ja[1:]] == [
        "GM: ゴブリン HP 8 → 3",
        "GM: ゴブリン HP 3 → 8 (最大 8)",
    ]
    en = play(db, "r", ["@ゴブリン :HP-1", "@ゴブリン :HP+5"], lang="en")
    assert [o["text"] for o in en] == ["GM: ゴブリン HP 8 → 7", "GM: ゴブリン HP 7 → 8 (max 8)"]
    # a player's edit of their own character stays theirs
    out = play(db, "r", ["@ゴブリン :HP-1"], gm=False, speaker="ゴブリン")
    assert out[0]["ok"] is False or out[0]["text"].startswith("ゴブリン: ")


def test_a_refused_gm_line_names_the_front_ends_way() -> None:
    assert gm_only(True) == ("/gm は GM だけが使えます (--gm)", "/gm is for the GM only (--gm)")
    ja, en = gm_only(False)
    assert "--gm" not in ja and "--gm" not in en and "GM のリンク" in ja


def test_a_revealed_secret_names_no_internal_number(tmp_path: Path) -> None:
    out = play(str(tmp_path / "t.db"), "r", ["S2D6", "/reveal"], ["3/6", "4/6"], system="DiceBot")
    assert out[1]["text"] == "シークレットダイス公開: GM: (2D6) ＞ 7[3,4] ＞ 7"


def test_a_reference_without_a_character_is_not_called_unclosed() -> None:
    message = not_a_command("1D6+{体力}", "DiceBot")
    assert "閉じていません" not in message.ja and "{体力} はキャラクターの値です" in message.ja
    assert "is a character's value" in message.en
    assert "閉じていません" in not_a_command("1D6+{体力", "DiceBot").ja


def test_prose_is_no_character_and_says_what_to_paste() -> None:
    import pytest

    from saikoro.errors import SaikoroError
    from saikoro.table.rooms import read_character

    with pytest.raises(SaikoroError) as refused:
        read_character("こんにちは。ミナです。", "LittleWorld")
    assert "辞書" not in str(refused.value) and "キャラクターとして読めませんでした" in str(
        refused.value
    )


def test_the_unmeid100_palette_has_a_plain_check_for_every_skill() -> None:
    import json

    from saikoro.sheets import sheet_from_data

    sheet = sheet_from_data(json.loads((SHEETS / "ken.json").read_text("utf-8")), "UnmeiD100")
    lines = palette(sheet)
    own = lines[lines.index(next(x for x in lines if "saikoro" in x)) :]
    for label in SKILL_LABELS:
        assert f"1D100<={{{label}}} {label}スキル判定" in own


def test_a_player_speaking_as_gm_is_told_no_command_line_flag(tmp_path: Path) -> None:
    """A web player's `@GM …` was answered with `(--gm)`, a flag of the command line."""
    out = play(str(tmp_path / "t.db"), "r", ["@GM 2D6"], gm=False, system="DiceBot")
    assert out[0]["ok"] is False
    assert out[0]["ja"].startswith("GM として話せるのは GM だけです") and "--gm" not in out[0]["ja"]
    assert out[0]["en"].startswith("only the GM speaks as GM") and "--gm" not in out[0]["en"]
