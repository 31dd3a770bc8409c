"""Hostile chat lines: whatever a user types, the table answers with a result or a bilingual
SaikoroError that changes nothing — never another exception, never a hang."""

from __future__ import annotations

import contextlib
import os
import threading

import pytest

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.table.session import TableSession

from .helpers import SHEETS

SETUP = {
    "LittleWorld": ["alice.json", "bob.json", "goblin.json"],
    "UnmeiD100": ["ken.json", "mia.json", "orc.json"],
    "DiceBot": [],
}


@pytest.fixture
def room(tmp_path):
    store = open_store(str(tmp_path / "h.db"))
    rooms = iter(range(10**6))

    def make(system, *, combat=False, gm=True, speaker=None):
        name = f"h{next(rooms)}"
        setup = TableSession.open(store, name, system, gm=True, source=SeededSource(1))
        for sheet in SETUP[system]:
            setup.run(f"/char add {SHEETS / sheet}")
        if combat:
            setup.run("/combat start")
        return TableSession.open(
            store, name, system, gm=gm, speaker=speaker, source=SeededSource(2)
        )

    yield make
    store.close()


def refused_cleanly(session, line):
    """The line is refused with a bilingual SaikoroError and the room is unchanged."""
    before = session.state.model_copy(deep=True)
    with pytest.raises(SaikoroError) as caught:
        session.run(line)
    assert caught.value.message.ja and caught.value.message.en
    session.refresh()
    assert session.state == before


@pytest.mark.parametrize(
    ("system", "line"),
    [
        # str.isdigit() accepts '²' (and other digits int() cannot read)
        ("LittleWorld", "/log ²"),
        ("LittleWorld", "/cond add アリス 毒 ²"),
        ("UnmeiD100", "/cond add ケン 毒 ²"),
        ("LittleWorld", "/gm rest ²"),
        ("LittleWorld", "/gm time ²"),
        ("LittleWorld", "/gm set アリス 体力 ²"),
    ],
)
def test_digits_int_cannot_read_are_refused(room, system, line):
    refused_cleanly(room(system), line)


def test_full_width_digits_still_count(room):
    session = room("LittleWorld")
    session.run("/cond add アリス 毒 ２")
    assert session.state.characters["アリス"].condition("毒").level == 2


@pytest.mark.parametrize("name", ["fifo.json", "fifo.zip", "fifo.yaml"])
def test_char_add_of_a_pipe_is_refused_without_waiting(room, tmp_path, name):
    """Reading a FIFO blocks until someone writes to it: the table must not wait forever."""
    fifo = tmp_path / name
    os.mkfifo(fifo)
    session = room("LittleWorld")
    caught: list[BaseException] = []

    def attempt() -> None:
        try:
            refused_cleanly(session, f"/char add {fifo}")
        except BaseException as error:
            caught.append(error)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(5)
    hung = worker.is_alive()
    if hung:  # let the blocked reader go: open the write end and close it (EOF)
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
    assert not hung, f"/char add {name} waited on the pipe"
    if caught:
        raise caught[0]


@pytest.mark.parametrize(
    "arg", ["dir.json", "dir.zip", "a\x00b.json", "a\x00b.zip", "~nobody_such_user/x.json"]
)
def test_char_add_of_odd_paths_is_refused(room, tmp_path, arg):
    (tmp_path / "dir.json").mkdir()
    (tmp_path / "dir.zip").mkdir()
    session = room("UnmeiD100")
    refused_cleanly(session, f"/char add {arg if arg.startswith('~') else tmp_path / arg}")


@pytest.mark.parametrize(
    ("system", "line", "after"),
    [
        ("UnmeiD100", "/gm set ケン aim ²", "/combat start"),
        ("UnmeiD100", "/gm set ケン aim x", "/combat start"),
        ("UnmeiD100", "/gm set ケン fate_left x", "@ケン 1D100<={運命判定回数}"),
        ("UnmeiD100", "/gm set ケン chant 99", "/combat start"),
        ("UnmeiD100", "/gm set ケン chant x", "/combat start"),
        ("UnmeiD100", "/gm set ケン _incoming 9", "@ケン /fate half"),
    ],
)
def test_gm_set_keeps_a_tracker_fields_type(room, system, line, after):
    """A field the tracker keeps (an integer, a chant, a pending rescue) takes only a value of
    its kind: a string in ``aim`` broke every later line of the room."""
    session = room(system)
    refused_cleanly(session, line)
    with contextlib.suppress(SaikoroError):  # refused or done, but not crashed
        session.run(after)


def test_gm_set_of_an_integer_field_still_works(room):
    session = room("UnmeiD100")
    session.run("/gm set ケン fate_left 5")
    session.run("/gm set ケン aim -1")
    assert session.state.characters["ケン"].fields["fate_left"] == 5


@pytest.mark.parametrize(
    ("line", "ja", "en"),
    [
        ("/gm setting poison_interval_minutes 0", "1 以上", "at least 1"),
        ("/gm setting poison_interval_minutes NaN", "", ""),
        ("/gm setting poison_interval_minutes [[[]]]", "", ""),
        ("/gm setting critical_sixes x", "整数", "whole number"),
    ],
)
def test_gm_setting_refusals_say_what_is_wrong_in_both_languages(room, line, ja, en):
    session = room("LittleWorld")
    with pytest.raises(SaikoroError) as caught:
        session.run(line)
    message = caught.value.message
    assert "pydantic" not in message.ja + message.en  # not pydantic's link to its docs
    assert ja in message.ja and en in message.en


@pytest.mark.parametrize(
    ("room_name", "speaker"),
    [
        ("r" * 201, None),  # the rooms table keeps 200 characters (PostgreSQL refused it)
        ("é\udcff", None),  # a non-UTF-8 command-line argument (surrogate escape)
        ("a\x00b", None),  # PostgreSQL text cannot hold NUL
        ("ok", "é\udcff"),  # --as with a non-UTF-8 name: every line failed to be stored
        ("a/../b", None),  # a served room's URL would climb to another room
        ("a\tb", None),  # as the server refuses it
    ],
)
def test_room_and_speaker_names_the_store_cannot_keep_are_refused(tmp_path, room_name, speaker):
    store = open_store(str(tmp_path / "names.db"))
    with pytest.raises(SaikoroError) as caught:
        TableSession.open(store, room_name, "LittleWorld", speaker=speaker)
    assert caught.value.message.ja and caught.value.message.en
    assert store.get_room("ok") is None
    store.close()


def test_a_long_room_name_within_the_limit_still_works(tmp_path):
    store = open_store(str(tmp_path / "names.db"))
    TableSession.open(store, "部" * 200, "LittleWorld").run("2D6")
    store.close()
