"""Chat tabs and whispers over real sockets (issue 24, points 1 and 2).

Every event carries its tab (the line's, ``info`` for the table's own lines); a whisper
reaches exactly its sender, the named character's player and the GM — on the WebSocket,
after a reconnect with ``after=``, in ``/events`` (both ways), ``/log`` and ``log.html``
(the GM's download with ``whispers=1`` only) — and nobody else gets anything of it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .table_live import Link, Room, Server, create_room, open_socket, sheet, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("tabs"))
    running = start_server(str(folder / "rooms.db"), folder, "--line-burst", "100")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def room(server: Server) -> Room:
    room = create_room(server.base)
    for name in ("alice", "bob", "carol"):
        room.join(sheet(name))
    return room


def post(link: Link, line: str, tab: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"line": line}
    if tab is not None:
        body["tab"] = tab
    response = link.http.post(f"{link.path}/lines", json=body)
    assert response.status_code == 200, response.text
    return response.json()


#: The whispers of the scenario: (sender link, line, recipient).
WHISPERS = (
    ("アリス", "/w ボブ 内緒の話", "ボブ"),
    ("ボブ", "/whisper GM 相談があります", "GM"),
    ("gm", "/w アリス GMから一言", "アリス"),
)
#: Who receives each whisper (by its text).
RECEIVERS = {
    "内緒の話": {"gm", "アリス", "ボブ"},
    "相談があります": {"gm", "ボブ"},
    "GMから一言": {"gm", "アリス"},
}
READERS = ("gm", "アリス", "ボブ", "キャロル", "spectator")


def links(room: Room) -> dict[str, Link]:
    return {"gm": room.gm, **room.players, "spectator": room.spectator}


def whispers_in(events: list[dict[str, Any]]) -> set[str]:
    """The whisper texts in a reader's events (and a check that nothing else leaks)."""
    found = {e["data"]["text"] for e in events if e.get("whisper")}
    blob = json.dumps(events, ensure_ascii=False)
    for text in RECEIVERS:
        assert (text in blob) == (text in found), text
    return found


def expected(who: str) -> set[str]:
    return {text for text, readers in RECEIVERS.items() if who in readers}


def run_scenario(room: Room) -> None:
    every = links(room)
    post(room.gm, "こんにちは")
    post(every["アリス"], "休憩しよう", tab="other")
    for sender, line, _to in WHISPERS:
        post(every[sender], line)
    post(room.gm, "おわり")


def test_every_event_carries_its_tab_and_whispers_reach_only_their_readers(room: Room) -> None:
    every = links(room)
    start = room.gm.state()["version"]

    async def scenario() -> dict[str, list[dict[str, Any]]]:
        sockets = {who: await open_socket(link) for who, link in every.items()}
        await asyncio.to_thread(run_scenario, room)
        seen: dict[str, list[dict[str, Any]]] = {}
        for who, socket in sockets.items():
            while not any(e["data"].get("text") == "おわり" for e in socket.events):
                await socket.next_message()
            seen[who] = socket.events
            await socket.close()
        return seen

    seen = asyncio.run(scenario())
    for who in READERS:
        assert whispers_in(seen[who]) == expected(who), who
        assert all("tab" in e for e in seen[who]), who
    tabs = {e["data"].get("text"): e["tab"] for e in seen["gm"]}
    assert tabs["こんにちは"] == "main" and tabs["休憩しよう"] == "other"
    # a reconnect from the start, and /events, give each reader the same
    for who, link in every.items():

        async def again(link: Link = link) -> list[dict[str, Any]]:
            socket = await open_socket(link, after=start)
            while not any(e["data"].get("text") == "おわり" for e in socket.events):
                await socket.next_message()
            await socket.close()
            return socket.events

        assert whispers_in(asyncio.run(again())) == expected(who), who
        after = link.events(after=0)["events"]
        assert whispers_in(after) == expected(who), who
        assert all("tab" in e for e in after)
        joins = [e for e in after if e["kind"] == "character_added"]
        assert joins and all(e["tab"] == "info" for e in joins)
        end = link.events()["last_seq"]
        page = link.http.get(f"{link.path}/events", params={"before": end + 1, "limit": 1000})
        assert page.status_code == 200, page.text
        assert whispers_in(page.json()["events"]) == expected(who), who
        assert all("tab" in e for e in page.json()["events"])
        log = post(link, "/log 50")["text"] if who != "spectator" else None
        if log is not None:
            assert {t for t in RECEIVERS if t in log} == expected(who), who


def test_log_html_keeps_tabs_and_whispers_only_in_the_gms_download(room: Room) -> None:
    run_scenario(room)
    carol = room.players["キャロル"]
    public = carol.http.get(f"{carol.path}/log.html")
    assert public.status_code == 200
    assert not any(text in public.text for text in RECEIVERS)
    assert 'data-tab="other"' in public.text and "[雑談]" in public.text
    assert "[情報]" in public.text
    gm_public = room.gm.http.get(f"{room.gm.path}/log.html")
    assert not any(text in gm_public.text for text in RECEIVERS)
    with_whispers = room.gm.http.get(f"{room.gm.path}/log.html", params={"whispers": "1"})
    assert with_whispers.status_code == 200
    assert all(text in with_whispers.text for text in RECEIVERS)
    assert 'class="chat whisper"' in with_whispers.text
    refused = carol.http.get(f"{carol.path}/log.html", params={"whispers": "1"})
    assert refused.status_code == 403 and "GM" in refused.json()["message"]
    other = carol.http.get(f"{carol.path}/log.html", params={"tab": "other"})
    assert "休憩しよう" in other.text and "こんにちは" not in other.text
    assert 'data-tab="main"' not in other.text


def test_the_gms_tabs_and_bad_tabs_or_whispers(room: Room) -> None:
    alice = room.players["アリス"]
    before = room.gm.state()["version"]
    refused = alice.http.post(f"{alice.path}/lines", json={"line": "やあ", "tab": "作戦"})
    assert refused.status_code == 422
    assert "作戦" in refused.json()["messages"]["ja"] and "tab" in refused.json()["messages"]["en"]
    assert room.gm.state()["version"] == before  # nothing changed
    response = alice.line("/gm tab add 作戦")
    assert response.status_code == 403
    post(room.gm, "/gm tab add 作戦")
    assert room.gm.state()["tabs"] == ["main", "info", "other", "作戦"]
    said = post(alice, "突撃する", tab="作戦")
    assert [e["tab"] for e in said["events"]] == ["作戦"]
    for line in ("/w", "/w ボブ", "/w ダレカ こんにちは"):
        bad = alice.line(line)
        assert bad.status_code == 422, (line, bad.text)
        assert bad.json()["messages"]["en"], line
    watcher = room.spectator.line("/w GM 見てます")
    assert watcher.status_code == 403
    post(room.gm, "/gm tab remove 作戦")
    assert room.gm.state()["tabs"] == ["main", "info", "other"]


def test_websocket_lines_take_a_tab(room: Room) -> None:
    alice = room.players["アリス"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = await open_socket(alice)
        await socket.connection.send(
            json.dumps({"type": "line", "line": "雑談です", "tab": "other", "id": "a"})
        )
        while not any(m.get("type") == "outcome" for m in socket.other):
            await socket.next_message()
        good = next(m for m in socket.other if m.get("type") == "outcome")
        await socket.connection.send(
            json.dumps({"type": "line", "line": "x", "tab": "nowhere", "id": "b"})
        )
        while len([m for m in socket.other if m.get("type") == "outcome"]) < 2:
            await socket.next_message()
        bad = [m for m in socket.other if m.get("type") == "outcome"][1]
        await socket.close()
        return good, bad

    good, bad = asyncio.run(scenario())
    assert good["ok"] and [e["tab"] for e in good["events"]] == ["other"]
    assert bad["ok"] is False and bad["reason"] == "unknown tab"


def test_an_event_stored_before_tabs_reads_its_tab_by_kind() -> None:
    from saikoro.table.events import Event

    old_chat = Event.from_json({"kind": "chat", "data": {"text": "やあ"}})
    old_turn = Event.from_json({"kind": "turn_started", "data": {"name": "アリス"}})
    assert old_chat.to_json()["tab"] == "main" and old_turn.to_json()["tab"] == "info"
    stored = Event.from_json({"kind": "chat", "tab": "other", "whisper": "GM"})
    assert stored.to_json()["tab"] == "other" and stored.to_json()["whisper"] == "GM"
