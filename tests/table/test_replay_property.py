"""Property: whatever lines are played (good or bad), replaying every event gives the state
the session holds, the snapshots give the same, and ``apply`` never changes its input."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store, sql
from saikoro.table.session import TableSession
from saikoro.table.state import RoomState, apply, replay

from .helpers import SHEETS

LW_LINES = [
    "/combat start",
    "/next",
    "/combat end",
    "/undo",
    "/undo",
    "@アリス /attack ゴブリン 体力",
    "@ゴブリン /attack アリス 技巧",
    "@ボブ /attack ゴブリン 理知",
    "@ゴブリン /pass",
    "@アリス /pass",
    "/cond add ボブ 麻痺",
    "/cond add ゴブリン 毒 2",
    "/cond add アリス 睡眠",
    "/cond remove アリス 睡眠",
    "@アリス :HP-3",
    "@ボブ :HP+2",
    "@ゴブリン :HP=1",
    "@アリス 2D6+{技巧}>=8",
    "S2D6",
    "hello",
    "/gm set ボブ hp 0",
    "/gm lock",
    "/gm row ボブ 後衛",
    "/state",
    "/nonsense",
    ":HP-x",
]
UM_LINES = [
    "/combat start",
    "/next",
    "/next ミア",
    "/combat end",
    "/undo",
    "@ケン /melee オーク",
    "@ケン /shoot オーク",
    "@ケン /aim",
    "@ケン /move 3",
    "@ケン /move 5",
    "@ミア /chant 火球",
    "@ミア /cast オーク",
    "@オーク /melee ミア",
    "@オーク /defend",
    "@ケン /fate success",
    "@ミア /fate half",
    "@オーク :HP-5",
    "1D100<=50",
    "/gm dying オーク none",
]
SETUP = {
    "LittleWorld": ["alice.json", "bob.json", "goblin.json"],
    "UnmeiD100": ["ken.json", "mia.json", "orc.json"],
}
_rooms = itertools.count()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    system=st.sampled_from(["LittleWorld", "UnmeiD100"]),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=8, max_size=40),
    seed=st.integers(0, 2**32),
)
def test_replay_equals_session_state_and_snapshots(
    tmp_path_factory, monkeypatch, system, picks, seed
):
    monkeypatch.setattr(sql, "SNAPSHOT_EVERY", 5)
    db = str(tmp_path_factory.getbasetemp() / "prop.db")
    store = open_store(db)
    session = TableSession.open(
        store, f"p{next(_rooms)}", system, gm=True, source=SeededSource(seed)
    )
    for name in SETUP[system]:
        session.run(f"/char add {SHEETS / name}")
    vocabulary = LW_LINES if system == "LittleWorld" else UM_LINES
    for pick in picks:
        before = session.state.version
        try:
            session.run(vocabulary[pick % len(vocabulary)])
        except SaikoroError:
            assert session.state.version == before  # a refused line changes nothing
    events = list(store.iter_events(session.room))
    full = replay(events)
    assert full == session.state
    assert store.load_state(session.room) == full  # from the latest snapshot + the tail
    # apply is pure: folding one by one leaves every earlier state untouched
    state = RoomState()
    frozen = state.to_json()
    for event in events[:10]:
        new = apply(state, event)
        assert state.to_json() == frozen
        state, frozen = new, new.to_json()
    store.close()
