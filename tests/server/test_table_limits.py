"""What one invite, one address and one room may take (issue 18, point 1), through real
sockets: a join flood from one invite is cut at the limit with the room's players
unaffected; a room at its storage quota refuses lines clearly, with its usage on the GM's
state; a huge legal roll is stored as a bounded event (its totals kept, the cut said) and
pushed to every socket at that size; an address creates only so many rooms.

The review's numbers before: 50 joins with one invite in 0.9 s, ten links of legal heavy
dice lines (0.5–0.8 MB stored per event) growing the database by 24.8 MB in 3.1 s, each
line pushed whole to every socket of the room.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from saikoro.table.bounds import MAX_DICE, MAX_EVENT_BYTES, MAX_TEXT_CHARS

from .table_live import Room, create_room, open_socket, start_server


def lw_sheet(name: str) -> str:
    return json.dumps(
        {
            "system": "LittleWorld",
            "name": name,
            "max_hp": 10,
            "abilities": {"体力": 2, "技巧": 2, "理知": 2},
        },
        ensure_ascii=False,
    )


async def flood(room: Room, count: int) -> list[httpx.Response]:
    """``count`` joins at once, all with the room's one invite, each a new character."""
    url = f"{room.base}/api/rooms/{room.gm.path.rpartition('/')[2]}/join"
    invite = room.created["invite_token"]
    async with httpx.AsyncClient(timeout=120) as http:
        return list(
            await asyncio.gather(
                *(
                    http.post(url, json={"invite": invite, "character": lw_sheet(f"群衆{i}")})
                    for i in range(count)
                )
            )
        )


def bilingual(response: httpx.Response, reason: str) -> dict[str, Any]:
    body = response.json()
    assert body["ok"] is False and body["reason"] == reason, body
    assert body["messages"]["ja"] and body["messages"]["en"]
    assert body["messages"]["ja"] != body["messages"]["en"]
    return body


def test_a_join_flood_from_one_invite_is_cut_at_the_limits(tmp_path: Path) -> None:
    """Default limits: 12 joins per invite per minute (all at once), 12 players. The rate's
    clock stands still (a bucket refills by 1 every 5 s: a flood a busy machine stretches
    past that would let one more join reach the players' cap)."""
    server = start_server(
        str(tmp_path / "rooms.db"), tmp_path, "--rooms-per-minute", "0", still_clock=True
    )
    try:
        room = create_room(server.base)
        alice, bob = room.join(lw_sheet("アリス")), room.join(lw_sheet("ボブ"))
        answers = asyncio.run(flood(room, 50))
        joined = [a for a in answers if a.status_code == 200]
        refused = [a for a in answers if a.status_code != 200]
        assert len(joined) == 10  # the default cap: 12 players, two were there
        for answer in refused:
            assert answer.status_code in (409, 429), answer.text
            bilingual(answer, "room full" if answer.status_code == 409 else "rate limited")
            if answer.status_code == 429:
                assert int(answer.headers["retry-after"]) >= 1
        assert all(a.status_code == 429 for a in refused)  # the invite's rate came first
        # the players already there are unaffected: they play on, and see the table live
        state = room.gm.state()
        assert state["limits"]["players"] == {"used": 12, "max": 12}
        names = {c["name"] for c in state["characters"]}
        assert {"アリス", "ボブ"} <= names and len(names) == 12  # the refused added nothing

        async def still_live() -> dict[str, Any]:
            socket = await open_socket(bob)
            try:
                assert alice.line("2D6").status_code == 200
                events = await socket.until_events(1)
                return events[0]
            finally:
                await socket.close()

        assert asyncio.run(still_live())["kind"] == "roll"
        assert bob.line("こんにちは").status_code == 200
        assert "limits" not in alice.state()  # the GM's to see
        # the GM's page follows them at /limits (the same figures, without the whole state)
        limits = room.gm.http.get(f"{room.gm.path}/limits")
        assert limits.status_code == 200 and limits.json() == room.gm.state()["limits"]
        bilingual(alice.http.get(f"{alice.path}/limits"), "forbidden")
    finally:
        server.stop()


def test_the_players_cap_holds_under_a_flood_of_concurrent_joins(tmp_path: Path) -> None:
    """Without the invite's rate, 50 joins at once: the room fills to its 12 players."""
    server = start_server(str(tmp_path / "rooms.db"), tmp_path, "--joins-per-minute", "0")
    try:
        room = create_room(server.base)
        answers = asyncio.run(flood(room, 50))
        assert sum(a.status_code == 200 for a in answers) == 12
        full = [a for a in answers if a.status_code != 200]
        for answer in full:
            assert answer.status_code == 409, answer.text
            bilingual(answer, "room full")
        assert "12" in full[0].json()["messages"]["en"]
        assert "--max-players" in full[0].json()["messages"]["ja"]
        assert len(room.gm.state()["characters"]) == 12
    finally:
        server.stop()


def test_joins_per_invite_per_minute(tmp_path: Path) -> None:
    """Two joins a minute (a token every 30 s, two at once): of 20 joins at once, two (the
    rate's clock stands still: however long the flood takes, no token comes back)."""
    server = start_server(
        str(tmp_path / "rooms.db"),
        tmp_path,
        "--joins-per-minute",
        "2",
        "--max-players",
        "0",
        still_clock=True,
    )
    try:
        room = create_room(server.base)
        answers = asyncio.run(flood(room, 20))
        assert sum(a.status_code == 200 for a in answers) == 2
        for answer in answers:
            if answer.status_code != 200:
                assert answer.status_code == 429
                bilingual(answer, "rate limited")
        assert room.gm.state()["limits"]["joins_per_invite_per_minute"] == 2
    finally:
        server.stop()


def test_the_room_quota_refuses_a_line_clearly_and_the_gm_sees_the_usage(tmp_path: Path) -> None:
    server = start_server(
        str(tmp_path / "rooms.db"),
        tmp_path,
        "--room-quota-mb",
        "0.05",
        "--line-rate",
        "0",
        "--rooms-per-minute",
        "0",
    )
    try:
        room = create_room(server.base)
        player = room.join(lw_sheet("アリス"))
        before = room.gm.state()["limits"]["storage"]
        assert before["quota_bytes"] == int(0.05 * 1024 * 1024) and before["used_bytes"] > 0
        for taken in range(1000):
            answer = player.line(f"長話 {taken} " + "あ" * 2000)
            if answer.status_code != 200:
                break
        assert answer.status_code == 507, answer.text
        body = bilingual(answer, "quota exceeded")
        assert "0.05 MiB" in body["messages"]["en"] and "容量" in body["messages"]["ja"]
        state = room.gm.state()
        usage = state["limits"]["storage"]
        assert usage["used_bytes"] >= usage["quota_bytes"]
        assert usage["used_bytes"] < usage["quota_bytes"] + 20_000  # passed by one line at most
        version = state["version"]
        assert room.gm.line("GM も").status_code == 507  # nothing more, whoever writes
        assert room.gm.state()["version"] == version  # nothing half-written
        assert player.events()["last_seq"] == version  # reads work
        other = create_room(server.base)  # other rooms are not affected
        assert other.gm.line("別の部屋").status_code == 200
    finally:
        server.stop()


@pytest.mark.parametrize("command", ["x100 100B66", "x100 100D6"])
def test_a_huge_legal_roll_is_stored_and_pushed_bounded(tmp_path: Path, command: str) -> None:
    server = start_server(str(tmp_path / "rooms.db"), tmp_path)
    try:
        room = create_room(server.base, "DiceBot")
        player = room.spectator  # a socket of the room: what every socket is pushed

        async def roll_and_listen() -> tuple[dict[str, Any], str]:
            socket = await open_socket(player)
            try:
                answer = await asyncio.to_thread(room.gm.say, command)
                await socket.until_events(1)
                raw = next(  # the pushed message as sent
                    json.dumps(m, ensure_ascii=False) for m in socket.events if m["kind"] == "roll"
                )
                return answer, raw
            finally:
                await socket.close()

        answer, pushed = asyncio.run(roll_and_listen())
        assert len(answer["text"]) > 10 * MAX_TEXT_CHARS  # the caller's own answer: whole
        (event,) = [e for e in room.gm.events()["events"] if e["kind"] == "roll"]
        cut = event["data"]["cut"]
        assert cut["dice"] == 10_000 and len(event.get("dice", [])) == MAX_DICE
        assert cut["text"]["ja"] > 10 * MAX_TEXT_CHARS
        for text in event["text"].values():
            assert len(text) < MAX_TEXT_CHARS + 100
        assert "文字省略" in event["text"]["ja"] and "characters cut" in event["text"]["en"]
        result = event["data"]["result"]
        assert {"success", "failure", "critical", "fumble", "value"} <= set(result)
        stored = len(json.dumps(event, ensure_ascii=False).encode())
        assert stored < 20_000 < MAX_EVENT_BYTES, stored  # was 0.5–0.8 MB
        assert len(pushed.encode()) < 20_000  # what every socket receives
    finally:
        server.stop()


def test_rooms_per_address(tmp_path: Path) -> None:
    server = start_server(
        str(tmp_path / "rooms.db"),
        tmp_path,
        "--rooms-per-address",
        "3",
        "--rooms-per-minute",
        "0",
    )
    try:
        for _ in range(3):
            create_room(server.base)
        refused = httpx.post(
            f"{server.base}/api/rooms", json={"name": "四つ目", "system": "LittleWorld"}
        )
        assert refused.status_code == 429
        bilingual(refused, "too many rooms")
        assert "3" in refused.json()["message"]
    finally:
        server.stop()
