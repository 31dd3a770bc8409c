"""A whole 帽子世界TRPG fight through ``saikoro play`` with scripted dice, checked by hand."""

from __future__ import annotations

import pytest

from .helpers import SHEETS, by_name, errors, final_state, play, play_process

# アリス (PC) 体力3 技巧4 理知2 HP12 · ボブ (PC) 体力4 技巧2 理知1 HP10
# ゴブリン (NPC) 体力3 技巧4 理知1 HP8. Order by 技巧, PC first on ties: アリス, ゴブリン, ボブ.
PART1 = [
    f"/char add {SHEETS}/alice.json",
    f"/char add {SHEETS}/bob.json",
    f"/char add {SHEETS}/goblin.json",
    "/combat start",  # R1: アリス (own turn 1)
    "/cond add ゴブリン 毒 2",
    # 攻撃値 4+[3,4]=11, 防御値 4+[2,2]=8 → 3 damage: ゴブリン 8→5; next: ゴブリン, poison 2 → 3
    "@アリス /attack ゴブリン 技巧",
    "/cond add ボブ 麻痺",  # since ボブ's own turn 0: recovers after 2 own turns
    # 3+[5,5]=13 vs アリス 3+[2,3]=8 → 5: アリス 12→7; ボブ's turn 1: paralysed, passes → round 2
    "@ゴブリン /attack アリス 体力",
    # R2 アリス: 3+[6,6]=15 critical, ゴブリン's 体力 counts 0: [3,4]=7 → 8: ゴブリン 3→-5 …
    "@アリス /attack ゴブリン 体力",
]
RANDS1 = ["3/6", "4/6", "2/6", "2/6", "5/6", "5/6", "2/6", "3/6", "6/6", "6/6", "3/6", "4/6"]
PART2 = [
    "/undo",  # … taken back: ゴブリン HP 3 again, still アリス's turn in round 2
    "@ボブ /attack ゴブリン 体力",  # refused: it is アリス's turn (changes nothing)
    # [1,1] fumble → no defence roll, 0 damage; next ゴブリン (own 2): poison → 3→1
    "@アリス /attack ゴブリン 体力",
    "@ゴブリン /pass",  # acts last; ボブ (own 2): paralysis ends but that turn is spent
    # ゴブリン again (no second poison tick): 3+[4,4]=11 vs ボブ 4+[1,1] fumble → 防御値 0 → 11
    # ボブ 10→-1 (行動不能). Round 3: アリス.
    "@ゴブリン /attack ボブ 体力",
    # 理知: 2+[6,5]=13 vs ゴブリン 理知1 → 1D6: 1+[2]=3 → 10: ゴブリン 1→-9. Round 4: アリス.
    "@アリス /attack ゴブリン 理知",
    "/state",
    "/combat end",
    "@アリス :HP+2",  # 7→9
    "@アリス :HP+9",  # healing stops at max HP 12
    "/state",
]
RANDS2 = ["1/6", "1/6", "4/6", "4/6", "1/6", "1/6", "6/6", "5/6", "2/6"]


def check_final(outputs: list[dict], final: dict) -> None:
    chars = by_name(final)
    assert final["room"] and final["system"] == "LittleWorld"
    assert final["combat"] is None
    assert chars["アリス"]["hp"] == 12 and chars["アリス"]["conditions"] == []
    assert chars["ボブ"]["hp"] == -1 and chars["ボブ"]["down"] and chars["ボブ"]["conditions"] == []
    assert chars["ゴブリン"]["hp"] == -9 and chars["ゴブリン"]["conditions"] == ["毒:2"]


@pytest.mark.rule(
    "LW-COMBAT-01",
    "LW-COMBAT-02",
    "LW-COMBAT-03",
    "LW-COMBAT-05",
    "LW-COMBAT-06",
    "LW-COMBAT-07",
    "LW-COMBAT-09",
    "LW-COMBAT-10",
    "LW-COMBAT-11",
    "LW-COMBAT-12",
    "LW-COMBAT-15",
    "LW-COND-02",
    "LW-COND-03",
    "LW-HP-02",
    "LW-CHECK-02",
    via="table",
)
def test_littleworld_fight(tmp_path):
    db = str(tmp_path / "lw.db")
    out = play(db, "lw", PART1 + PART2, RANDS1 + RANDS2, system="LittleWorld")
    assert [e["line"] for e in errors(out)] == ["@ボブ /attack ゴブリン 体力"]
    mid = by_name(next(o["state"] for o in out if "state" in o))
    assert next(o for o in out if "state" in o)["state"]["combat"] == {
        "round": 4,
        "order": ["アリス", "ゴブリン", "ボブ"],
        "current": "アリス",
    }
    assert mid["アリス"]["hp"] == 7
    check_final(out, final_state(out))
    # the whole log replays to the state the store's snapshots give
    from saikoro.store import open_store

    store = open_store(db)
    room = store.get_room("lw")
    assert store.replay_all(room) == store.load_state(room)


def test_littleworld_fight_in_two_processes(tmp_path):
    db = str(tmp_path / "lw2.db")
    first = play_process(db, "lw", PART1, RANDS1, system="LittleWorld")
    first.communicate("\n".join(PART1) + "\n", timeout=60)
    assert first.returncode == 0
    second = play_process(db, "lw", PART2, RANDS2)
    stdout, _stderr = second.communicate("\n".join(PART2) + "\n", timeout=60)
    import json

    out = [json.loads(x) for x in stdout.splitlines()]
    check_final(out, final_state(out))
    whole = play(
        str(tmp_path / "one.db"), "lw", PART1 + PART2, RANDS1 + RANDS2, system="LittleWorld"
    )
    assert final_state(out) == final_state(whole)


@pytest.mark.postgres
def test_littleworld_fight_postgres_equals_sqlite(tmp_path, postgres_url):
    import uuid

    room = "lw-" + uuid.uuid4().hex[:8]
    pg = play(postgres_url, room, PART1 + PART2, RANDS1 + RANDS2, system="LittleWorld")
    lite = play(str(tmp_path / "x.db"), room, PART1 + PART2, RANDS1 + RANDS2, system="LittleWorld")
    assert final_state(pg) == final_state(lite)
    check_final(pg, final_state(pg))
