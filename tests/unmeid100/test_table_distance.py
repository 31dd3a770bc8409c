"""Issue 13: positions on a track (UM-RANGE-01) through ``saikoro play`` with scripted dice.

Sheets (tests/table/sheets): リン (PC lv3: 片手剣 1D8 + 盾 in hand, 弓 1D6, 大槍 2D6 両手;
戦闘60 盗賊50 敏捷度10 運命10 → fate 50), ケン (PC lv2: 剣 2D6 in hand, 弓 1D6), ミア (PC lv1,
no weapon: chants 火球), オーク (mob: 斧 1D10, AC15), 騎士 (named lv4, mounted), セージ (the
formula table on: 戦闘 = 体格×3+敏捷度, AC = 敏捷度×2, 最大HP = 体格×2).
"""

from __future__ import annotations

import pytest

from tests.unmeid100.table_helpers import chars, refused, run, text


@pytest.mark.rule("UM-RANGE-01", "UM-MOVE-01", "UM-MELEE-01", via="table")
def test_melee_needs_the_target_within_1_m_after_a_3_m_move(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm place ケン 0",
            "/gm place オーク 4",
            "/combat start",  # ケン (敏捷度12) first
            "@ケン /melee オーク",  # refused: 4 m away
            "@ケン /move 3 オーク",  # 0 → 3: 1 m from オーク
            "@ケン /melee オーク",  # 30 hits: 2D6 [3,4] → オーク 15 → 8
            "/next",  # オーク
            "@オーク /move 5 away ケン",  # 4 → 9; AC/RC −20 until its next own turn
            "/next",  # オーク's second turn (a new own turn: the −20 ends)
            "@オーク /move 1 ケン",  # 9 → 8: 5 m from ケン
            "@オーク /melee ケン",  # refused: 5 m
            "/next",  # round 2: ケン
            "@ケン /move 3 オーク",  # 3 → 6: 2 m
            "@ケン /melee オーク",  # refused: 2 m
            "/gm setting melee_reach_m 2",  # the GM's ruling: this spear reaches 2 m
            "@ケン /melee オーク",  # 99: a miss, but allowed
        ],
        ["30/100", "3/6", "4/6", "99/100"],
        sheets=("ken", "orc"),
    )
    assert refused(out) == [
        "@ケン /melee オーク",
        "@オーク /melee ケン",
        "@ケン /melee オーク",
    ]
    assert "4 m" in text(out, "@ケン /melee オーク")["en"]
    assert "位置 0m → 3m (オークまで 1m)" in text(out, "@ケン /move 3 オーク")["text"]
    run5 = text(out, "@オーク /move 5 away ケン")["text"]
    assert "5m 移動" in run5 and "AC-20 RC-20" in run5 and "位置 4m → 9m" in run5
    c = chars(out)
    assert (c["ケン"]["pos"], c["オーク"]["pos"], c["オーク"]["hp"]) == (6, 8, 8)


@pytest.mark.rule("UM-RANGE-01", "UM-RANGED-01", via="table")
def test_the_bow_reaches_50_m(tmp_path):
    out = run(
        tmp_path,
        [
            "@リン /switch 弓",  # out of combat: no turn to spend
            "/gm place リン 0",
            "/gm place オーク 51",
            "@リン /shoot オーク",  # refused before any die: 51 m
            "/gm place オーク 50",
            "@リン /shoot オーク",  # 20 ≤ 25 > AC15: hit; 1D6 [4] → オーク 15 → 11
            "/gm place オーク 80",
            "/gm setting bow_range_m 100",  # the GM's ruling: a longbow
            "@リン /shoot オーク",  # allowed: 99 misses
        ],
        ["20/100", "4/6", "99/100"],
        sheets=("rin", "orc"),
    )
    assert refused(out) == ["@リン /shoot オーク"]
    assert "弓の有効射程 50 m の外" in text(out, "@リン /shoot オーク")["ja"]
    assert chars(out)["オーク"]["hp"] == 11


@pytest.mark.rule("UM-RANGE-01", "UM-MOVE-01", via="table")
def test_mounted_moves_are_doubled_and_moves_are_bounded(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm place 騎士 0",
            "/gm place オーク 10",
            "/gm place ケン 0",
            "@騎士 /move 3 オーク",  # mounted: 6 m → 6 (4 m from オーク)
            "@騎士 /melee オーク",  # refused: 4 m
            "@騎士 /move 5 to 16",  # mounted 10 m: 6 → 16
            "@ケン /move 5 to 16",  # refused: 16 m is more than 5 m
            "@ケン /move 1 to -1",
            "@ケン /move 3 騎士",  # toward: never past the other (3 m: -1 → 2)
            "@ケン /move 3 ケン",  # refused: not toward oneself
            "@ミア /move 3 オーク",  # refused: ミア has no position
            "@ミア /move 3",  # a move without a target needs no position
        ],
        sheets=("knight", "ken", "mia", "orc"),
    )
    assert refused(out) == [
        "@騎士 /melee オーク",
        "@ケン /move 5 to 16",
        "@ケン /move 3 ケン",
        "@ミア /move 3 オーク",
    ]
    assert "6m 移動" in text(out, "@騎士 /move 3 オーク")["text"]
    c = chars(out)
    assert (c["騎士"]["pos"], c["ケン"]["pos"], c["ミア"]["pos"]) == (16, 2, None)


@pytest.mark.rule("UM-RANGE-01", via="table")
def test_the_gm_can_switch_the_distance_checks_off(tmp_path):
    out = run(
        tmp_path,
        [
            "/gm place ケン 0",
            "/gm place オーク 30",
            "/gm setting distance_checks false",
            "@ケン /melee オーク",  # allowed: 99 misses
            "/gm place オーク none",
            "/gm setting distance_checks default",
            "@ケン /melee オーク",  # オーク unplaced: never checked (99 misses)
            "/gm place オーク far",  # refused
        ],
        ["99/100", "99/100"],
        sheets=("ken", "orc"),
    )
    assert refused(out) == ["/gm place オーク far"]
    assert chars(out)["オーク"]["pos"] is None
