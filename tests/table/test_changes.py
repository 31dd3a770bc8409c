"""Each event's state change, applied the way the web page applies it, gives exactly the
``/state`` each reader would have fetched (the GM, a character's player, a spectator); an
unrevealed secret roll's change tells others nothing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.table.actors import Actor
from saikoro.table.changes import state_change, view_change
from saikoro.table.session import TableSession
from saikoro.table.state import RoomState, apply_in_place
from saikoro.table.view import may_see, revealed_ids, view_state

from .helpers import SHEETS

LINES = [
    f"/char add {SHEETS}/alice.json",
    f"/char add {SHEETS}/bob.json",
    f"/char add {SHEETS}/goblin.json",
    "こんにちは",
    "/combat start",
    "/cond add ゴブリン 毒 2",
    "@アリス /attack ゴブリン 技巧",
    "/cond add ボブ 麻痺",
    "@ゴブリン /attack アリス 体力",
    "/undo",
    "@アリス :HP-3",
    "@アリス S2D6>=7 こっそり",
    "/gm setting paralysis_recovery_turns 3",
    "@ゴブリン /pass",
    "/cond remove ボブ 麻痺",
    "/combat end",
    "/char remove ゴブリン",
    "@ボブ :HP+1",
]


def apply_change(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """What app.js does with a frame's ``change`` (a copy of its rules in Python)."""
    assert "stale" not in change, change
    out = copy.deepcopy(view)
    rows = change.get("characters")
    if change.get("all"):
        out["characters"] = rows
        out["system"] = change["system"]
    elif rows:
        by_name = {row["name"]: i for i, row in enumerate(out["characters"])}
        for row in rows:
            if row["name"] in by_name:
                out["characters"][by_name[row["name"]]] = row
            else:
                out["characters"].append(row)
    for name in change.get("removed", ()):
        out["characters"] = [r for r in out["characters"] if r["name"] != name]
    if "combat" in change:
        out["combat"] = change["combat"]
    return out


def played(tmp_path: Path) -> tuple[TableSession, list[Any]]:
    store = open_store(str(tmp_path / "rooms.db"))
    session = TableSession.open(
        store, "卓", "LittleWorld", source=SeededSource(7), gm=True, allow_files=True
    )
    refused: list[tuple[str, str]] = []
    for line in LINES:
        try:
            session.run(line, actor=None)
        except SaikoroError as error:
            refused.append((line, error.message.en))  # a refused line changes nothing
    events = list(store.iter_events(session.room))
    assert len(refused) <= 2, refused  # the session is a real one, not a row of refusals
    return session, events


def test_changes_rebuild_every_readers_state(tmp_path: Path) -> None:
    _session, events = played(tmp_path)
    readers = {
        "gm": Actor.gm(),
        "alice": Actor.player("アリス"),
        "spectator": Actor.spectator(),
    }
    state = RoomState()
    views = {who: view_state(state, actor) for who, actor in readers.items()}
    kinds = set()
    revealed: set[str] = set()
    for event in events:
        apply_in_place(state, event)
        revealed |= revealed_ids([event])
        change = state_change(state, event)
        kinds.add(event.kind)
        for who, actor in readers.items():
            hidden = not may_see(event, actor, revealed)
            shown = view_change(change, actor, redacted=hidden)
            assert shown["version"] == state.version
            views[who] = apply_change(views[who], shown)
            expected = view_state(state, actor)
            assert views[who]["characters"] == expected["characters"], (who, event.kind)
            assert views[who]["combat"] == expected["combat"], (who, event.kind)
    # the session went through what a table does
    assert {"character_added", "status_set", "condition_added", "turn_started", "undone"} <= kinds
    assert {"combat_started", "combat_ended", "character_removed", "setting_set"} <= kinds


def test_a_secret_rolls_change_reveals_nothing_to_others(tmp_path: Path) -> None:
    _session, events = played(tmp_path)
    secret = [e for e in events if e.secret]
    assert secret
    state = RoomState()
    for seq, event in enumerate(events, 1):
        apply_in_place(state, event)
        if not event.secret:
            continue
        change = state_change(state, event)
        for actor in (Actor.player("ボブ"), Actor.spectator()):
            assert not may_see(event, actor, set())
            assert view_change(change, actor, redacted=True) == {"version": seq}
        assert view_change(change, Actor.gm(), redacted=False)["version"] == seq


def test_a_hidden_event_that_changed_the_room_only_says_stale() -> None:
    from saikoro.table.changes import StateChange

    change = StateChange(5, rows={"アリス": {"name": "アリス", "hp": 3}}, values={"アリス": {}})
    assert view_change(change, Actor.spectator(), redacted=True) == {"version": 5, "stale": True}
