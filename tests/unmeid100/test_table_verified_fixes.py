"""UnmeiD100 defects verifiers found through ``saikoro play --rands …`` (issue 13, round 2):
mounting at the table, conditions the system has no rule for, the move-spent hint, /help
and ``--lang en`` leftovers. Each through ``saikoro play`` with scripted dice.

Sheets (tests/table/sheets): ケン (PC lv2, 敏捷度12, AC20, 剣 2D6), オーク (mob, 行動力2,
敏捷度10, AC15, 斧 1D10), 騎士 (named lv4, mounted).
"""

from __future__ import annotations

import re

import pytest

from tests.unmeid100.table_helpers import chars, refused, run, text

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
NAMES = ("ケン", "オーク", "騎士", "剣", "斧")


def english_leftovers(line: str) -> list[str]:
    """Japanese in an English line, names of characters and weapons aside."""
    for name in NAMES:
        line = line.replace(name, "")
    return JAPANESE.findall(line)


# -- item 8: mounting at the table ----------------------------------------------------------


@pytest.mark.rule("UM-MOVE-01", "UM-RANGE-01", via="table")
def test_a_character_mounts_and_dismounts_at_the_table(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm place ケン 0",
            "@ケン /move 3 to 6",  # refused: on foot a 3 m move goes 3 m
            "@ケン /mount",
            "@ケン /mount",  # refused: already mounted
            "@ケン /move 3 to 6",  # mounted: 6 m
            "@ケン /dismount",
            "@ケン /move 3 to 12",  # refused again
            "/gm set ケン mounted on",  # the GM's ruling
            "@ケン /move 3 to 12",
            "/gm set ケン mounted maybe",  # refused: on or off
        ],
        sheets=("ken",),
    )
    assert refused(out) == [
        "@ケン /move 3 to 6",
        "@ケン /mount",
        "@ケン /move 3 to 12",
        "/gm set ケン mounted maybe",
    ]
    assert "騎乗 (移動距離×2)" in out[2]["text"]
    moved = [o for o in out if o["ok"] and o["line"].startswith("@ケン /move")]
    assert ["6m 移動" in moved[0]["text"], "位置 6m → 12m" in moved[1]["text"]] == [True, True]
    assert "on/off" in text(out, "/gm set ケン mounted maybe")["ja"]
    assert chars(out)["ケン"]["pos"] == 12


@pytest.mark.rule("UM-MOVE-01", via="table")
def test_a_mounted_sheet_starts_mounted_and_may_dismount(tmp_path):
    out = run(
        tmp_path,
        ["/gm place 騎士 0", "@騎士 /dismount", "@騎士 /move 3 to 3"],
        sheets=("knight",),
    )
    assert refused(out) == []
    assert "3m 移動" in out[2]["text"]


# -- item 9: conditions the system has no rule for ------------------------------------------


@pytest.mark.rule("UM-TABLE-05", "UM-DEFEND-01", "UM-FATE-04", via="table")
def test_a_condition_the_system_has_no_rule_for_is_refused(tmp_path):
    out = run(
        tmp_path,
        [
            "/combat start",  # ケン first
            "/cond add ケン 毒 2",  # refused: UnmeiD100 has no poison
            "/cond add ケン 防御専念",  # AC/RC +20 until ケン's next own turn
            "/cond add オーク 気絶",  # no turns
            "/gm cond オーク 魅了",  # a spell's condition, its effect is the GM's
            "/cond add オーク 魅了",  # refused: no rule for it (the GM's /gm cond is the way)
            "/next",  # オーク is unconscious: round 2, ケン again (his full defence ends)
        ],
        sheets=("ken", "orc"),
    )
    assert refused(out) == ["/cond add ケン 毒 2", "/cond add オーク 魅了"]
    why = text(out, "/cond add ケン 毒 2")
    assert why["reason"] == "unknown condition"
    assert "気絶、死亡、防御専念、5m移動" in why["ja"] and "/gm cond" in why["ja"]
    assert "unconscious" in why["en"]
    assert "ケン: 防御専念 を受けた" in text(out, "/cond add ケン 防御専念")["text"]
    turn = text(out, "/next")["text"]
    assert "ラウンド2" in turn and "ケン: 防御専念 が解けた" in turn
    assert "オーク の手番" not in turn
    c = chars(out)
    assert c["ケン"]["conditions"] == []
    assert c["オーク"]["conditions"] == ["気絶", "魅了"]


# -- item 10: the move is spent ------------------------------------------------------------


@pytest.mark.rule("UM-RANGE-01", "UM-MOVE-01", via="table")
def test_after_a_move_the_out_of_reach_hint_says_the_move_is_spent(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm place ケン 0",
            "/gm place オーク 10",
            "/combat start",  # ケン first
            "@ケン /melee オーク",  # refused: move first
            "@ケン /move 3 オーク",  # 0 → 3: 7 m away
            "@ケン /melee オーク ",  # refused: the move is spent
        ],
        sheets=("ken", "orc"),
    )
    first, second = (o for o in out if not o["ok"])
    assert "まず移動: /move 3 オーク" in first["ja"]
    assert "move first" in first["en"]
    assert "この手番の移動はもう使いました" in second["ja"] and "move first" not in second["en"]
    assert "this turn's move is spent" in second["en"]


# -- item 12: English at the source -----------------------------------------------------------


@pytest.mark.rule("UM-TURN-01", "UM-DEFEND-01", "UM-FATE-04", "UM-TABLE-02", via="table")
def test_unmeid100_table_lines_in_english(tmp_path):
    out = run(
        tmp_path,
        [
            "/combat start",
            "@ケン /defend",
            "/next",  # オーク
            "@オーク :HP=0",  # the dying check: 20 ≤ 運命4×5 → unconscious
            "/next",  # round 2: ケン's own turn starts, his full defence ends
            "/char list",
            "/cond add ケン 防御専念",
            "/cond remove ケン 防御専念",
            "FATE",
        ],
        ["20/100"],
        sheets=("ken", "orc"),
        lang="en",
    )
    assert refused(out) == ["FATE"]
    start = text(out, "/combat start")["text"]
    assert "turns = action points" in start
    shown = [o["text"] for o in out if o["ok"] and o["line"] != "/state"]
    for line in shown:
        assert not english_leftovers(line), line
    assert "full defence (AC+20 RC+20 until next turn)" in text(out, "@ケン /defend")["text"]
    assert any("ケン: full defence ended" in line for line in shown)
    assert "unconscious" in text(out, "/char list")["text"]
    assert text(out, "/cond add ケン 防御専念")["text"] == "ケン: now full defence"
    assert text(out, "/cond remove ケン 防御専念")["text"] == "ケン: full defence ended"
    assert "FATE<fate>" in text(out, "FATE")["en"]
