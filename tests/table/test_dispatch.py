"""Chat lines: substitution, status edits, secret "
"rolls, GM rulings, refusals that change nothing."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from saikoro.dice.randomizer import ScriptedSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.table.events import Event
from saikoro.table.session import TableSession

from .helpers import SHEETS


@pytest.fixture
def lw(tmp_path):
    store = open_store(str(tmp_path / "d.db"))

    def open_as(speaker=None, gm=False, rands=()):
        return TableSession.open(
            store, "room", "LittleWorld", speaker=speaker, gm=gm, source=ScriptedSource(rands)
        )

    gm = open_as(gm=True)
    for name in ("alice", "bob", "goblin"):
        gm.run(f"/char add {SHEETS / name}.json")
    yield open_as
    store.close()


def test_substitution_from_the_speakers_sheet(lw):
    out = lw(speaker="アリス", rands=[(3, 6), (4, 6)]).run("2D6+{技巧}>=10")
    assert out.text("ja") == "アリス: (2D6+4>=10) ＞ 7[3,4]+4 ＞ 11 ＞ 成功"
    assert [(d.value, d.sides) for d in out.events[0].dice] == [(3, 6), (4, 6)]


def test_at_name_speaks_for_one_line(lw):
    # the GM speaks as any character; a player only as their own (tests/table/test_roles.py)
    out = lw(speaker="アリス", gm=True, rands=[(1, 6), (2, 6)]).run("@ボブ 2D6+{体力}")
    assert "ボブ: (2D6+4)" in out.text("ja")


@pytest.mark.parametrize(
    "line",
    [
        "2D6+{魅力}",
        "/attack ゴブリン 体力",
        ":HP-x",
        ":魔力-1",
        "/char add nowhere.json",
        "/gm set アリス hp 3",
        "/undo",
        "/combat end",
        "/next",
        "/log 0",
        "/bogus",
    ],
)
def test_bad_lines_change_nothing_and_say_why_in_both_languages(lw, line):
    session = lw(speaker="アリス")
    before = session.state.model_copy(deep=True)
    with pytest.raises(SaikoroError) as caught:
        session.run(line)
    message = caught.value.message
    assert message.ja and message.en and message.ja != message.en
    session.refresh()
    assert session.state == before


def test_status_edits(lw):
    session = lw(speaker="アリス")
    session.run(":HP-5")
    session.run(":HP+2")
    assert session.state.characters["アリス"].hp == 9
    session.run(":HP+10")  # never above max HP
    assert session.state.characters["アリス"].hp == 12
    session.run(":HP=-1")
    session.run(":cr+30")
    alice = session.state.characters["アリス"]
    assert (alice.hp, alice.statuses["cr"]) == (-1, 30)


def test_secret_roll_is_stored_but_shown_only_to_the_gm(lw):
    player = lw(speaker="アリス", rands=[(6, 6), (6, 6)])
    out = player.run("S2D6")
    assert out.text("ja", gm=False) == "アリス: シークレットダイス"
    assert "12[6,6]" in out.text("ja", gm=True)
    stored = player.store.recent_events(player.room, 1)[0][1]
    assert stored.secret and "12[6,6]" in stored.text.ja
    player_log = lw(speaker="ボブ").run("/log 1").text("ja")
    assert "12" not in player_log and "シークレットダイス" in player_log
    gm_log = lw(gm=True).run("/log 1").text("ja")
    assert "12[6,6]" in gm_log


def test_gm_rulings_are_logged_as_such(lw):
    with pytest.raises(SaikoroError):
        lw(speaker="アリス").run("/gm set アリス 体力 5")
    gm = lw(gm=True)
    out = gm.run("/gm set アリス 体力 5")
    assert all(e.gm for e in out.events)
    assert gm.state.characters["アリス"].statuses["体力"] == 5
    assert "GM裁定" in gm.run("/log 1").text("ja")
    assert (
        lw(speaker="アリス", rands=[(1, 6), (1, 6)])
        .run("2D6+{体力}")
        .text("ja")
        .startswith("アリス: (2D6+5)")
    )


def test_undo_is_repeatable_and_takes_back_whole_lines(lw):
    gm = lw(gm=True)
    start = gm.state.characters["アリス"].hp
    gm.run("@アリス :HP-1")
    gm.run("@アリス :HP-2")
    gm.run("/undo")
    assert gm.state.characters["アリス"].hp == start - 1
    gm.run("/undo")
    assert gm.state.characters["アリス"].hp == start
    gm.run("/undo")  # the three /char add lines go next
    assert "ゴブリン" not in gm.state.characters
    log = gm.run("/log 6").text("ja")
    assert "[取消] GM: アリス HP 11 → 9" in log and "[取消] ゴブリン が参加" in log


def test_failed_write_leaves_the_room_at_its_last_committed_event(lw):
    session = lw(gm=True)
    version = session.store.version(session.room)
    bad = [Event("chat", {"text": "ok"}), Event("chat", {"text": object()})]  # 2nd cannot be stored
    with pytest.raises(TypeError):
        session.store.append(session.room, version, bad)
    assert session.store.version(session.room) == version
    assert len(list(session.store.iter_events(session.room))) == version


def test_killed_writer_leaves_a_consistent_room(tmp_path):
    db = str(tmp_path / "kill.db")
    store = open_store(db)
    TableSession.open(store, "k", "LittleWorld")
    script = tmp_path / "lines.txt"
    script.write_text("".join(f"line {i}\n" for i in range(20000)))
    with open(script) as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "saikoro", "play", "--db", db, "--room", "k", "--json"],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        record = store.get_room("k")
        deadline = time.monotonic() + 60
        while store.version(record) < 50 and time.monotonic() < deadline:  # it is writing
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    room = store.get_room("k")
    events = list(store.iter_events(room))
    assert 2 <= len(events) == store.version(room) < 20001
    assert [e.data["text"] for e in events[1:]] == [f"line {i}" for i in range(len(events) - 1)]
    assert store.load_state(room) == store.replay_all(room)
    store.close()
