"""``saikoro simulate`` as a user types it: output, bad input, the replayed fight's room."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.simulate import POLICIES, Option, Plan, Situation, replay, simulate
from saikoro.simulate.policies import get_policy
from saikoro.store import open_store
from saikoro.table.state import Character, RoomState
from tests.table.helpers import SHEETS, by_name, final_state, play

from .helpers import LW, encounter, lw_sheet, um_sheet, write


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args], env={"SAIKORO_LANG": "ja"})
    return result.exit_code, result.stdout, result.stderr


def sheets(tmp_path: Path) -> tuple[str, str]:
    return (
        write(tmp_path, lw_sheet("アリス", 12, 3, 4, 2)),
        write(tmp_path, lw_sheet("ゴブリン", 8, 3, 4, 1, kind="NPC")),
    )


def test_json_output_has_every_figure(tmp_path) -> None:
    alice, goblin = sheets(tmp_path)
    code, out, _ = invoke("--party", alice, "--enemy", f"{goblin}:2", "-n", "50", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["fights"] == 50 and body["system"] == LW
    assert sum(body["win"][side]["count"] for side in ("pc", "npc", "draw")) == 50
    low, high = body["win"]["pc"]["ci95"]
    assert low <= body["win"]["pc"]["rate"] <= high
    names = [c["name"] for c in body["characters"]]
    assert names == ["アリス", "ゴブリン1", "ゴブリン2"]
    assert {"down", "dead", "damage_dealt", "damage_taken"} <= set(body["characters"][0])
    assert sum(body["rounds"]["distribution"].values()) == 50
    # damage dealt by one side is damage taken by the other (poison aside: none here)
    dealt = sum(c["damage_dealt"] for c in body["characters"] if c["side"] == "pc")
    taken = sum(c["damage_taken"] for c in body["characters"] if c["side"] == "npc")
    assert dealt == pytest.approx(taken)


def test_text_output_in_both_languages(tmp_path) -> None:
    alice, goblin = sheets(tmp_path)
    code, out, _ = invoke("-p", alice, "-e", goblin, "-n", "20", "--seed", "1")
    assert code == 0 and "味方 の勝ち" in out and "ラウンド数" in out
    result = CliRunner().invoke(
        app, ["simulate", "-p", alice, "-e", goblin, "-n", "20", "--lang", "en"]
    )
    assert result.exit_code == 0 and "party win" in result.stdout


@pytest.mark.parametrize(
    ("args", "ja", "en"),
    [
        (["-p", "{alice}"], "--enemy", "--enemy"),
        (["-p", "{alice}", "-e", "{tmp}/none.json"], "ファイルがありません", "no such file"),
        (["-p", "{alice}", "-e", "{goblin}", "-n", "0"], "戦闘の回数", "number of fights"),
        (["-p", "{alice}", "-e", "{goblin}", "--rounds", "0"], "ラウンドの上限", "round cap"),
        (["-p", "{alice}", "-e", "{goblin}", "--policy", "x"], "ポリシー", "no policy"),
        (["-p", "{alice}", "-e", "{alice}"], "重複", "appears twice"),
        (["-p", "{alice}", "-e", "{goblin}:0"], "数は", "the count"),
        (["--db", "{tmp}/x.db"], "--room", "--room"),
        (["--db", "{tmp}/x.db", "--room", "none"], "データベース", "no database"),
        (["--db", "{tmp}/made.db", "--room", "none"], "部屋", "no room"),
        (["-p", "{alice}", "-e", "{goblin}", "--log", "1"], "--log-db", "--log-db"),
        (
            ["-p", "{alice}", "-e", "{goblin}", "-n", "5", "--log", "9", "--log-db", "{tmp}/l.db"],
            "戦闘番号",
            "fight number",
        ),
        (["-p", "{alice}", "-e", "{um}"], "UnmeiD100", "UnmeiD100"),
    ],
)
def test_bad_input_is_refused_in_both_languages(tmp_path, args, ja, en) -> None:
    alice, goblin = sheets(tmp_path)
    um = write(tmp_path, um_sheet("ケン", 10, 50, 10, 10))
    open_store(str(tmp_path / "made.db")).close()  # a database without that room
    filled = [a.format(alice=alice, goblin=goblin, tmp=tmp_path, um=um) for a in args]
    code, out, err = invoke(*filled)
    assert code == 1, (out, err)
    assert not (tmp_path / "x.db").exists()  # reading a room made no database
    assert "Traceback" not in err
    assert ja in err and en in err
    code, out, _ = invoke(*filled, "--json")
    assert code == 1 and json.loads(out)["ok"] is False


def test_a_replayed_fight_is_a_room_saikoro_play_reads(tmp_path) -> None:
    """``--log N --log-db DB``: fight N again, its whole event log stored as a room."""
    alice, goblin = sheets(tmp_path)
    db = str(tmp_path / "fights.sqlite")
    code, out, err = invoke(
        "-p",
        alice,
        "-e",
        f"{goblin}:2",
        "-n",
        "10",
        "--seed",
        "4",
        "--log",
        "3",
        "--log-db",
        db,
        "--json",
    )
    assert code == 0, err
    body = json.loads(out)
    assert body["room"] == "simulation-4-3"
    store = open_store(db)
    room = store.get_room("simulation-4-3")
    assert room is not None and room.system == LW
    state = store.load_state(room)
    assert store.replay_all(room) == state
    assert set(state.characters) == {"アリス", "ゴブリン1", "ゴブリン2"}
    winner = body["winner"]
    downs = {n for n, c in state.characters.items() if c.hp <= 0}
    if winner == "pc":
        assert {"ゴブリン1", "ゴブリン2"} <= downs and "アリス" not in downs
    elif winner == "npc":
        assert "アリス" in downs
    # saikoro play opens it and shows the same room
    out = play(db, "simulation-4-3", ["/state", "/log 5"], system=None)
    chars = by_name(final_state(out))
    assert {n: c["hp"] for n, c in chars.items()} == {n: c.hp for n, c in state.characters.items()}
    assert all(o["ok"] for o in out)
    # the server's log.html renders every event of it
    from saikoro.server.log_html import render_log_html

    numbered = list(enumerate(store.iter_events(room, after=0), start=1))
    page = render_log_html(room.name, room.system, numbered)
    assert "アリス の攻撃" in page
    # a second --log into the same room name is refused, nothing changed
    code, _, err = invoke(
        "-p", alice, "-e", f"{goblin}:2", "-n", "10", "--seed", "4", "--log", "3", "--log-db", db
    )
    assert code == 1 and "exists already" in err
    assert store.load_state(room) == state


def test_the_log_replays_fight_n_of_the_run(tmp_path) -> None:
    """The same fight twice (the dice of fight N are fight N's own)."""
    fight = encounter(
        tmp_path, [um_sheet("ケン", 14, 60, 12, 15)], [um_sheet("オーク", 14, 55, 10, 15)]
    )
    plan = Plan(fights=8, seed=9)
    first = replay(fight, plan, 5)
    again = replay(fight, plan, 5)
    texts = [[e.text.ja for e in events if e.text] for _, events in (first, again)]
    assert texts[0] == texts[1]
    assert first[0].winner == again[0].winner
    other = replay(fight, plan, 6)
    assert [e.text.ja for e in other[1] if e.text] != texts[0]


def room_lines(hp: int) -> list[str]:
    """A 帽子世界TRPG room: アリス (hurt to ``hp``) and a ゴブリン, with one house rule."""
    return [
        f"/char add {SHEETS}/alice.json",
        f"/char add {SHEETS}/goblin.json",
        f"@アリス :HP={hp}",
        "/gm setting damage_floor_zero false",
    ]


def test_a_room_is_simulated_as_it_is(tmp_path) -> None:
    """``--db --room``: the room's characters with their HP now (アリス hurt), its house rules,
    plus enemies from files."""
    db = str(tmp_path / "room.db")
    out = play(db, "卓", room_lines(hp=2), system=LW)
    assert all(o["ok"] for o in out), out
    orc = write(tmp_path, lw_sheet("オーガ", 20, 5, 5, 5, kind="NPC"))
    code, text, err = invoke("--db", db, "--room", "卓", "-e", orc, "-n", "30", "--json")
    assert code == 0, err
    body = json.loads(text)
    assert [c["name"] for c in body["characters"]] == ["アリス", "ゴブリン", "オーガ"]
    from saikoro.simulate import from_state, set_up

    store = open_store(db)
    encounter_ = from_state(store.load_state(store.get_room("卓")))
    base, _ = set_up(encounter_)
    assert base.characters["アリス"].hp == 2
    assert base.fields["settings"] == {"damage_floor_zero": False}


def test_the_plot_is_a_png(tmp_path) -> None:
    alice, goblin = sheets(tmp_path)
    target = tmp_path / "fights.png"
    code, _, err = invoke("-p", alice, "-e", goblin, "-n", "30", "--plot", str(target))
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- policies ---------------------------------------------------------------------------


def situation(hps: dict[str, int], options: list[Option]) -> Situation:
    state = RoomState(
        system=LW,
        characters={
            n: Character(name=n, side="npc" if n != "me" else "pc", hp=hp, max_hp=20)
            for n, hp in hps.items()
        },
    )
    return Situation(state, "me", tuple(options), random.Random(1))


def test_the_built_in_policies() -> None:
    options = [
        Option("strong", "/attack strong 体力", 0.9, 5.0),
        Option("weak", "/attack weak 技巧", 0.4, 2.0),
        Option("never", "/attack never 理知", 0.0, 0.0),
    ]
    seen = situation({"me": 10, "strong": 12, "weak": 1, "never": 0}, options)
    assert POLICIES["best"].choose(seen) == "/attack strong 体力"
    assert POLICIES["focus-weakest"].choose(seen) == "/attack weak 技巧"  # never: no chance
    picks = {POLICIES["random"].choose(seen) for _ in range(40)}
    assert picks == {o.line for o in options}
    assert POLICIES["best"].choose(situation({"me": 1}, [])) is None


def passive(situation: Situation) -> str | None:
    """A user's policy (``--policy tests.simulate.test_cli:passive``): never attacks."""
    return None


def test_a_policy_from_python(tmp_path) -> None:
    assert get_policy("tests.simulate.test_cli:passive").choose.__doc__ == passive.__doc__
    fight = encounter(
        tmp_path, [lw_sheet("A", 10, 3, 3, 3)], [lw_sheet("B", 10, 3, 2, 2, kind="NPC")]
    )
    summary = simulate(
        fight, Plan(fights=5, round_cap=3, party_policy="tests.simulate.test_cli:passive")
    )
    assert summary.wins["pc"].count == 0
    assert next(c for c in summary.characters if c.name == "A").dealt == 0
    code, out, _ = invoke(
        "-p",
        write(tmp_path, lw_sheet("C", 10, 3, 3, 3)),
        "-e",
        write(tmp_path, lw_sheet("D", 10, 3, 2, 2, kind="NPC")),
        "-n",
        "4",
        "--rounds",
        "2",
        "--policy",
        "tests.simulate.test_cli:passive",
        "--enemy-policy",
        "tests.simulate.test_cli:passive",
        "--json",
    )
    body = json.loads(out)
    assert code == 0 and body["win"]["draw"]["count"] == 4 and body["capped_draws"] == 4


def test_a_room_stored_in_postgresql_is_simulated(postgres_url, tmp_path) -> None:
    """``--db postgresql://… --room``: the room's characters as PostgreSQL keeps them (one
    hurt, one with the GM's house rule) fight; the same seed gives the same result."""
    import uuid

    room = f"sim-pg-{uuid.uuid4().hex[:8]}"
    out = play(postgres_url, room, room_lines(hp=3), system=LW)
    assert all(o["ok"] for o in out), out
    args = ("--db", postgres_url, "--room", room, "-n", "40", "--seed", "5", "--json")
    code, text, err = invoke(*args)
    assert code == 0, err
    body = json.loads(text)
    assert body["fights"] == 40
    assert [c["name"] for c in body["characters"]] == ["アリス", "ゴブリン"]
    assert sum(body["win"][side]["count"] for side in ("pc", "npc", "draw")) == 40
    assert body["rounds"]["mean"] >= 1
    assert body["characters"][0]["damage_taken"] + body["characters"][1]["damage_taken"] > 0
    again = json.loads(invoke(*args)[1])
    body.pop("seconds"), again.pop("seconds")
    assert again == body
    from saikoro.simulate import from_state, set_up

    store = open_store(postgres_url)
    try:
        base, _ = set_up(from_state(store.load_state(store.get_room(room))))
    finally:
        store.close()
    assert base.characters["アリス"].hp == 3
    assert base.fields["settings"] == {"damage_floor_zero": False}
