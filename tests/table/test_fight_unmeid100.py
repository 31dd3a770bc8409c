"""A whole 運命判定d100 fight through ``saikoro play`` with scripted dice, checked by hand."""

from __future__ import annotations

import json
import uuid

import pytest

from .helpers import SHEETS, by_name, errors, final_state, play, play_process

# ケン (PC lv2): 敏捷度12 運命10 戦闘60 盗賊40 AC20 行動力1, 剣 2D6, 弓 1D6 — fate ×2 (target 50)
# ミア (PC lv1): 敏捷度8 魅力15 運命12 魔術70 AC10 RC30, 火球 (炎, hostile) — fate ×1
# オーク (mob): 敏捷度10 運命4 戦闘50 AC15 RC5 行動力2, 斧 1D10 — fate ×1 (target 20)
# Offered order by 敏捷度: ケン, オーク, ミア; turns per round: 1, 2, 1.
PART1 = [
    f"/char add {SHEETS}/ken.json",
    f"/char add {SHEETS}/mia.json",
    f"/char add {SHEETS}/orc.json",
    "/combat start",  # R1: ケン
    "@ケン /move 3",  # 3 m, then a melee attack is still allowed this turn
    "@ケン /melee オーク",  # 30 ≤ 60 and > AC15: hit; 2D6 [3,4] = 7 → オーク 15→8
    "@ケン /aim",  # refused: the turn's action is used
    "/next ミア",  # the GM picks ミア
    "@ミア /chant 火球",
    "/next",  # only オーク has turns left
    "@オーク /melee ミア",  # 40 ≤ 50, > AC10: hit; 1D10 [6] → ミア 14→8, the chant breaks
    "/next",  # オーク's second turn
    "@オーク /move 5",  # AC/RC −20 until オーク's next own turn
    "/next",  # R2: ケン
    # 45 ≤ 60 > AC −5: hit; 2D6 [5,6] = 11 → オーク 8→−3 → fate check 80 > 20: 死亡 …
    "@ケン /melee オーク",
]
RANDS1 = ["30/100", "3/6", "4/6", "40/100", "6/10", "45/100", "5/6", "6/6", "80/100"]
PART2 = [
    "/undo",  # … taken back: オーク 8 HP, alive; still ケン's turn
    "@ケン /melee オーク",  # 95 > 60: miss
    "@ケン /fate success",  # 30 ≤ 50: the miss becomes a hit (fate 2→1); 2D6 [2,2] → オーク 8→4
    "/next",  # オーク (own turn 3): the 5 m penalty ends
    "@オーク /defend",  # AC/RC +20 until its next own turn
    "/next ミア",
    "@ミア /cast オーク",  # refused: ミア's chant was broken by the damage
    "@ミア /chant 火球",
    "/next",  # オーク (own turn 4): full defence ends
    "@オーク /melee ケン",  # 10 ≤ 敏捷度10: critical (whatever the AC); 1D10 [10] → ケン 20→10
    "/next",  # R3: ケン
    "@ケン /shoot オーク",  # refused: ケン holds his sword, not the bow (UM-EQUIP-01)
    "/gm hold ケン 弓",  # the GM rules the bow was ready in hand (no turn used)
    # bow: target 40/2 = 20; 16 ≤ 20 and > AC15: hit; 1D6 [5] → オーク 4→−1; fate 90 > 20: 死亡
    "@ケン /shoot オーク",
    "/next",  # オーク is dead: skipped → ミア (chanting since her previous turn)
    "@ミア /cast オーク",  # 50 ≤ 70 activated; > 魅力15, > RC5: takes effect; the chant ends
    "/state",
    "/combat end",
    "/state",
]
RANDS2 = ["95/100", "30/100", "2/6", "2/6", "10/100", "10/10", "16/100", "5/6", "90/100", "50/100"]


def check_final(final: dict) -> None:
    chars = by_name(final)
    assert final["system"] == "UnmeiD100" and final["combat"] is None
    assert (chars["ケン"]["hp"], chars["ケン"]["fate_left"], chars["ケン"]["conditions"]) == (
        10,
        1,
        [],
    )
    assert (chars["ミア"]["hp"], chars["ミア"]["chant"], chars["ミア"]["fate_left"]) == (8, None, 1)
    assert (chars["オーク"]["hp"], chars["オーク"]["conditions"]) == (-1, ["死亡"])


@pytest.mark.rule(
    "UM-TURN-01",
    "UM-MOVE-01",
    "UM-MELEE-01",
    "UM-DMG-01",
    "UM-MAGIC-01",
    "UM-MAGIC-02",
    "UM-MAGIC-03",
    "UM-FATE-01",
    "UM-FATE-02",
    "UM-FATE-04",
    "UM-DEFEND-01",
    "UM-RANGED-01",
    via="table",
)
def test_unmeid100_fight(tmp_path):
    db = str(tmp_path / "um.db")
    out = play(db, "um", PART1 + PART2, RANDS1 + RANDS2, system="UnmeiD100")
    assert [e["line"] for e in errors(out)] == [
        "@ケン /aim",
        "@ミア /cast オーク",
        "@ケン /shoot オーク",
    ]
    in_combat = next(o["state"] for o in out if "state" in o)
    assert in_combat["combat"] == {
        "round": 3,
        "order": ["ケン", "オーク", "ミア"],
        "current": "ミア",
    }
    check_final(final_state(out))


def test_unmeid100_fight_in_two_processes(tmp_path):
    db = str(tmp_path / "um2.db")
    first = play_process(db, "um", PART1, RANDS1, system="UnmeiD100")
    first.communicate("\n".join(PART1) + "\n", timeout=60)
    second = play_process(db, "um", PART2, RANDS2)
    stdout, _ = second.communicate("\n".join(PART2) + "\n", timeout=60)
    split = final_state([json.loads(x) for x in stdout.splitlines()])
    check_final(split)
    whole = play(str(tmp_path / "one.db"), "um", PART1 + PART2, RANDS1 + RANDS2, system="UnmeiD100")
    assert split == final_state(whole)


@pytest.mark.postgres
def test_unmeid100_fight_postgres_equals_sqlite(tmp_path, postgres_url):
    room = "um-" + uuid.uuid4().hex[:8]
    pg = play(postgres_url, room, PART1 + PART2, RANDS1 + RANDS2, system="UnmeiD100")
    lite = play(str(tmp_path / "x.db"), room, PART1 + PART2, RANDS1 + RANDS2, system="UnmeiD100")
    assert final_state(pg) == final_state(lite)
    check_final(final_state(pg))
