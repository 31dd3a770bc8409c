"""The shared table over a real ``saikoro serve`` on loopback: every route, the WebSocket,
roles and secrets as each link sees them, refusals, limits, and no token in the log."""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .table_live import (
    Link,
    Room,
    Server,
    create_room,
    example,
    open_socket,
    sheet,
    start_server,
    unique_room,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("table-api"))
    running = start_server(
        str(folder / "rooms.db"),
        folder,
        "--log-level",
        "info",
        "--max-ws-per-link",
        "3",
        "--line-burst",
        "30",
        "--rooms-per-minute",
        "0",
    )
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def room(server: Server) -> Room:
    """A LittleWorld room with the GM's enemy and two players (アリス, ボブ)."""
    room = create_room(server.base)
    room.join(sheet("alice"))
    room.join(sheet("bob"))
    room.add_character(sheet("goblin"), side="npc")
    return room


def _texts(events: list[dict]) -> list[str]:
    return [e["text"]["ja"] for e in events if e.get("text")]


# -- creating and joining ----------------------------------------------------------------


def test_create_room_returns_the_links(server: Server) -> None:
    name = unique_room()
    response = httpx.post(f"{server.base}/api/rooms", json={"name": name, "system": "LittleWorld"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "room", "gm_url", "gm_token", "invite_url", "invite_token", "spectator_url",
    }  # fmt: skip
    assert body["room"] == name
    encoded = quote(name, safe="")
    assert body["gm_url"] == f"{server.base}/#room={encoded}&token={body['gm_token']}"
    assert body["invite_url"] == f"{server.base}/#room={encoded}&invite={body['invite_token']}"
    assert len(body["gm_token"]) >= 22 and body["gm_token"] != body["invite_token"]


def test_creating_a_room_twice_is_a_conflict(server: Server) -> None:
    room = create_room(server.base)
    again = httpx.post(
        f"{server.base}/api/rooms", json={"name": room.name, "system": "LittleWorld"}
    )
    assert again.status_code == 409
    assert again.json()["ok"] is False and " / " in again.json()["message"]


@pytest.mark.parametrize(
    "body",
    [{"name": "x"}, {"name": "", "system": "LittleWorld"}, {"name": "x", "system": "NoSuch"}],
)
def test_bad_room_bodies_are_422(server: Server, body: dict) -> None:
    response = httpx.post(f"{server.base}/api/rooms", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["ok"] is False


@pytest.mark.parametrize("name", ["12/1 セッション", "a/b", "1/2の卓/links", "%2F?#&=", "/x/"])
def test_a_room_named_with_a_slash_works_through_every_route(server: Server, name: str) -> None:
    """Dates (12/1) are common room names: the routes take the name up to their own suffix."""
    room = create_room(server.base, name=f"{name}-{unique_room()}")
    alice = room.join(sheet("alice"))
    assert alice.say("2D6>=7")["ok"] is True
    assert room.gm.state()["you"]["role"] == "gm"
    assert any(e["kind"] == "roll" for e in room.gm.events()["events"])
    links = room.gm.http.get(f"{room.gm.path}/links")
    assert links.status_code == 200 and len(links.json()["links"]) >= 4
    log = room.spectator.http.get(f"{room.gm.path}/log.html")
    assert log.status_code == 200 and html.escape(room.name, quote=False) in log.text
    palette = alice.http.get(f"{alice.path}/palette", params={"name": "アリス"})
    assert palette.status_code == 200 and palette.json()["items"]

    async def live() -> None:
        socket = await open_socket(room.gm)
        outcome = await socket.send_line("GMです")
        assert outcome["ok"] is True
        await socket.close()

    asyncio.run(live())


@pytest.mark.parametrize(
    ("name", "says"),
    [
        *[("   ", "empty"), ("\u3000", "empty"), ("a\nb", "control"), ("a\tb", "control")],
        *[("..", "'..'"), ("a/../b", "'..'"), ("./a", "'.'"), ("a/.", "'.'")],
    ],
)
def test_a_room_name_that_cannot_be_a_room_is_refused_and_nothing_is_made(
    server: Server, name: str, says: str
) -> None:
    response = httpx.post(f"{server.base}/api/rooms", json={"name": name, "system": "LittleWorld"})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["reason"] == "bad request" and says in body["message"]
    assert " / " in body["message"]  # Japanese / English
    trimmed = name.strip()
    if trimmed:  # nothing was made: the name is still free
        state = httpx.get(f"{server.base}/api/rooms/{quote(trimmed, safe='')}/state")
        assert state.status_code in (401, 404)


def test_a_room_name_is_trimmed(server: Server) -> None:
    name = unique_room()
    response = httpx.post(
        f"{server.base}/api/rooms", json={"name": f"  {name} ", "system": "LittleWorld"}
    )
    assert response.status_code == 201 and response.json()["room"] == name


def test_join_gives_a_personal_link_that_speaks_as_the_character(room: Room) -> None:
    alice = room.players["アリス"]
    state = alice.state()
    assert state["you"]["role"] == "player" and state["you"]["characters"] == ["アリス"]
    assert {c["name"] for c in state["characters"]} >= {"アリス", "ボブ"}
    outcome = alice.say("こんにちは")
    assert outcome["ok"] is True and "アリス" in outcome["text"]
    assert outcome["events"][0]["actor"] == "アリス"


def test_join_with_an_udonarium_zip_and_a_ccfolia_json(server: Server) -> None:
    import base64

    from saikoro.sheets import parse_sheet_text
    from saikoro.transfer import export_ccfolia, export_udonarium

    room = create_room(server.base)
    alice = parse_sheet_text(sheet("alice"), ".json", "LittleWorld")
    bob = parse_sheet_text(sheet("bob"), ".json", "LittleWorld")
    url = f"{room.base}/api/rooms/{quote(room.name, safe='')}/join"
    invite = room.created["invite_token"]
    zipped = base64.b64encode(export_udonarium(alice)).decode()
    joined = httpx.post(url, json={"invite": invite, "character_base64": zipped})
    assert joined.status_code == 200, joined.text
    assert joined.json()["as"] == "アリス"
    joined = httpx.post(url, json={"invite": invite, "character": export_ccfolia(bob)})
    assert joined.status_code == 200 and joined.json()["as"] == "ボブ"
    names = {c["name"] for c in room.gm.state()["characters"]}
    assert names == {"アリス", "ボブ"}
    for body in ({"invite": invite}, {"invite": invite, "character_base64": "***"}):
        refused = httpx.post(url, json=body)
        assert refused.status_code == 422 and " / " in refused.json()["message"]


def test_join_with_an_existing_characters_name(server: Server) -> None:
    """The GM brought the PC in; its player joins by naming it."""
    room = create_room(server.base)
    assert room.add_character(sheet("alice"), side="pc") == "アリス"
    again = room.join("アリス")
    assert again.state()["you"]["characters"] == ["アリス"]


def test_join_with_a_bad_invite_is_401_and_a_bad_sheet_422(room: Room) -> None:
    url = f"{room.base}/api/rooms/{quote(room.name, safe='')}/join"
    bad = httpx.post(url, json={"invite": "not-a-token", "character": sheet("carol")})
    assert bad.status_code == 401 and "not-a-token" not in bad.text
    gm_as_invite = httpx.post(url, json={"invite": room.gm.token, "character": sheet("carol")})
    assert gm_as_invite.status_code == 403
    broken = httpx.post(
        url, json={"invite": room.created["invite_token"], "character": '{"system": "Little'}
    )
    assert broken.status_code == 422 and " / " in broken.json()["message"]


def test_unknown_room_is_404(server: Server, room: Room) -> None:
    response = httpx.get(
        f"{server.base}/api/rooms/no-such-room/state",
        headers={"Authorization": f"Bearer {room.gm.token}"},
    )
    assert response.status_code == 404 and response.json()["reason"] == "no such room"


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer wrong", "Basic abc"])
def test_every_route_wants_a_valid_bearer_token(room: Room, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    path = f"{room.base}/api/rooms/{quote(room.name, safe='')}"
    for method, route, body in [
        ("POST", "/lines", {"line": "hi"}),
        ("GET", "/state", None),
        ("GET", "/events", None),
        ("GET", "/log.html", None),
        ("GET", "/links", None),
    ]:
        response = httpx.request(method, path + route, json=body, headers=headers)
        assert response.status_code == 401, (route, response.text)
        assert response.json()["reason"] == "unauthorized"


# -- live lines ------------------------------------------------------------------------


def test_gm_and_two_players_see_each_others_lines_live_in_order(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]

    async def scenario() -> list[list[dict]]:
        start = room.gm.events()["last_seq"]
        sockets = [await open_socket(link) for link in (room.gm, alice, bob)]
        said = [
            (room.gm, "GM: 扉が開いた"),
            (alice, "アリスです"),
            (bob, "2D6 ボブの判定"),
            (alice, "@アリス :HP-1"),
            (room.gm, "続けて"),
        ]
        for link, line in said:
            await asyncio.to_thread(link.say, line)
        last = room.gm.events()["last_seq"]
        seen = []
        for socket in sockets:
            events = await socket.until_events(last - start)
            assert events[0]["seq"] == start + 1 and events[-1]["seq"] == last
            seen.append(events)
            await socket.close()
        return seen

    seen = asyncio.run(scenario())
    gm_view = seen[0]
    seqs = [e["seq"] for e in gm_view]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # in order, no gaps
    for view in seen[1:]:
        assert [e["seq"] for e in view] == seqs
        assert _texts(view) == _texts(gm_view)
    texts = "\n".join(_texts(gm_view))
    assert "扉が開いた" in texts and "アリスです" in texts and "ボブ" in texts
    assert [e["actor"] for e in gm_view][:3] == ["GM", "アリス", "ボブ"]


def test_a_line_sent_over_the_websocket_gets_an_outcome_and_reaches_the_others(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]

    async def scenario() -> tuple[dict, list[dict]]:
        mine, theirs = await open_socket(alice), await open_socket(bob)
        outcome = await mine.send_line("WebSocket から", request_id="abc")
        events = await theirs.until_events(1)
        await mine.close()
        await theirs.close()
        return outcome, events

    outcome, events = asyncio.run(scenario())
    assert outcome["type"] == "outcome" and outcome["ok"] is True and outcome["id"] == "abc"
    assert "WebSocket から" in outcome["text"]
    assert events[0]["actor"] == "アリス" and "WebSocket から" in events[0]["text"]["ja"]


def test_reconnect_with_after_misses_nothing(room: Room) -> None:
    alice = room.players["アリス"]

    async def scenario() -> tuple[list[int], list[int]]:
        socket = await open_socket(alice)
        await asyncio.to_thread(room.gm.say, "一つ目")
        first = await socket.until_events(1)
        last_seen = first[-1]["seq"]
        await socket.close()
        for i in range(4):  # said while alice is away
            await asyncio.to_thread(room.gm.say, f"留守中 {i}")
        again = await open_socket(alice, after=last_seen)
        await asyncio.to_thread(room.gm.say, "戻った")
        events = await again.until_events(5)
        await again.close()
        return [last_seen], [e["seq"] for e in events]

    (last_seen,), seqs = asyncio.run(scenario())
    assert seqs == list(range(last_seen + 1, last_seen + 6))
    everything = alice.events(after=last_seen)["events"]
    assert [e["seq"] for e in everything] == seqs


def test_events_after_gives_the_log_from_there(room: Room) -> None:
    room.gm.say("ログ 1")
    whole = room.gm.events()
    assert whole["events"][0]["seq"] == 1 and whole["last_seq"] == whole["events"][-1]["seq"]
    tail = room.gm.events(after=whole["last_seq"] - 1)
    assert [e["seq"] for e in tail["events"]] == [whole["last_seq"]]
    bad = room.gm.http.get(f"{room.gm.path}/events", params={"after": -1})
    assert bad.status_code == 422


# -- secrets -------------------------------------------------------------------------------


def test_secret_roll_is_seen_by_the_roller_and_gm_only_until_revealed(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]

    async def scenario() -> dict[str, list[dict]]:
        sockets = {
            "gm": await open_socket(room.gm),
            "alice": await open_socket(alice),
            "bob": await open_socket(bob),
            "spectator": await open_socket(room.spectator),
        }
        rolled = await asyncio.to_thread(alice.say, "S2D6>=7 こっそり")
        assert "シークレット" not in rolled["text"] or "(2D6>=7)" in rolled["text"]
        for socket in sockets.values():
            await socket.until_events(1)
        before = {who: list(s.events) for who, s in sockets.items()}
        await asyncio.to_thread(alice.say, "/reveal")
        for socket in sockets.values():
            await socket.until_events(2)
        after = {who: s.events[1:] for who, s in sockets.items()}
        for socket in sockets.values():
            await socket.close()
        return {"before": before, "after": after}  # type: ignore[dict-item]

    seen = asyncio.run(scenario())
    before = seen["before"]
    for who in ("gm", "alice"):
        assert "(2D6>=7)" in before[who][0]["text"]["ja"], who
        assert before[who][0]["data"]["result"]
    for who in ("bob", "spectator"):
        event = before[who][0]
        assert "シークレットダイス" in event["text"]["ja"], who
        assert "(2D6>=7)" not in str(event) and event["data"] == {} and "dice" not in event
    # /events and /state agree with the WebSocket for bob, and the log shows it once revealed
    secret_seq = before["gm"][0]["seq"]
    bob_log = {e["seq"]: e for e in bob.events()["events"]}
    assert "(2D6>=7)" in bob_log[secret_seq]["text"]["ja"]  # revealed now: everyone sees it
    assert any(e["kind"] == "revealed" for e in seen["after"]["bob"])
    published = room.spectator.http.get(f"{room.spectator.path}/log.html").text
    assert "(2D6&gt;=7)" in published  # the published log shows it once revealed


def test_spectator_sees_no_secret_and_cannot_speak(room: Room) -> None:
    room.gm.say("S1D100 GMの秘密")
    events = room.spectator.events()["events"]
    assert all("(1D100)" not in str(e) for e in events)
    refused = room.spectator.line("こんにちは")
    assert refused.status_code == 403 and refused.json()["reason"] == "forbidden"
    for reading in ("/state", "/log 3", "/char list", "/help"):  # reading is what they may
        answer = room.spectator.line(reading)
        assert answer.status_code == 200 and answer.json()["ok"], (reading, answer.text)
        assert "(1D100)" not in answer.text
    gm_events = room.gm.events()["events"]
    assert any("(1D100)" in str(e) for e in gm_events)
    log = room.spectator.http.get(f"{room.spectator.path}/log.html")
    assert log.status_code == 200 and "(1D100)" not in log.text


# -- the refusals of the issue ("Why"), each changing nothing ----------------------------------


def _snapshot(room: Room) -> tuple[int, list]:
    state = room.gm.state()
    return room.gm.events()["last_seq"], state["characters"]


@pytest.mark.parametrize(
    "line",
    [
        "@ボブ :HP-3",  # another's HP
        "@ボブ こんにちは",  # speaking as another
        "/char remove ボブ",
        "/combat start",
        "@ＧＭ 私がGMだ",  # full-width GM
        "@GM 私がGMだ",
        "/gm hp ボブ 1",
        "@ゴブリン /undo",  # the GM's line, as the GM's character
        "/undo",  # the GM's line, as oneself
    ],
)
def test_a_player_is_refused_what_is_not_theirs(room: Room, line: str) -> None:
    room.gm.say("@ゴブリン :HP-1")  # the newest line that changed the table is the GM's
    before = _snapshot(room)
    response = room.players["アリス"].line(line)
    assert response.status_code == 403, response.text
    body = response.json()
    assert body["ok"] is False and body["reason"] == "forbidden"
    ja, _, en = body["message"].partition(" / ")
    assert ja and en and room.players["アリス"].token not in body["message"]
    assert _snapshot(room) == before


def test_a_player_cannot_end_combat_or_pick_the_turn(server: Server) -> None:
    room = create_room(server.base, system="UnmeiD100")
    room.add_character(example("unmeid100/mob_goblin.json"), side="npc")
    lina = room.join(example("unmeid100/pc_lina.yaml"))
    room.gm.say("/combat start")
    before = _snapshot(room)
    for line in ("/combat end", "/next ゴブリン", "/combat start"):
        refused = lina.line(line)
        assert refused.status_code == 403, (line, refused.text)
        assert refused.json()["reason"] == "forbidden"
    assert _snapshot(room) == before


def test_a_name_that_is_not_in_the_room_is_no_character(room: Room) -> None:
    response = httpx.post(
        f"{room.base}/api/rooms/{quote(room.name, safe='')}/join",
        json={"invite": room.created["invite_token"], "character": "ナナシ"},
    )
    assert response.status_code == 422 and " / " in response.json()["message"]


def test_a_player_cannot_take_an_npc_or_someone_elses_character(room: Room) -> None:
    url = f"{room.base}/api/rooms/{quote(room.name, safe='')}/join"
    invite = room.created["invite_token"]
    npc = httpx.post(url, json={"invite": invite, "character": "ゴブリン"})
    assert npc.status_code == 403
    held = httpx.post(url, json={"invite": invite, "character": "アリス"})
    assert held.status_code == 409


def test_files_on_the_server_cannot_be_named(room: Room) -> None:
    before = _snapshot(room)
    for link in (room.gm, room.players["アリス"]):
        response = link.line("/char add /etc/passwd")
        assert response.status_code in (403, 422), response.text
        assert "root:" not in response.text
    assert _snapshot(room) == before


def test_a_revoked_link_is_refused(room: Room) -> None:
    bob = room.players["ボブ"]
    links = room.gm.http.get(f"{room.gm.path}/links").json()["links"]
    assert all("token" not in link for link in links)
    bobs = next(link for link in links if link["character"] == "ボブ" and not link["revoked"])
    assert bob.line("まだいる").status_code == 200

    async def scenario() -> tuple[int | None, int | None]:
        socket = await open_socket(bob)
        revoked = await asyncio.to_thread(
            room.gm.http.post, f"{room.gm.path}/links/{bobs['id']}/revoke"
        )
        assert revoked.status_code == 200
        try:  # the socket is closed at once: no line is taken any more
            refused: dict | None = await socket.send_line("消されたはず")
        except ConnectionClosed:
            refused = None
        assert refused is None or refused["status"] == 401
        await socket.close()
        late = await open_socket(bob, ready=False)
        try:
            while True:
                await late.next_message(timeout=5)
        except Exception:
            pass
        return late.connection.close_code, socket.connection.close_code

    close_code, open_close_code = asyncio.run(scenario())
    assert close_code == 4401 and open_close_code == 4401
    assert bob.line("もういない").status_code == 401
    assert bob.http.get(f"{bob.path}/state").status_code == 401


def test_a_revoked_links_open_socket_is_closed_at_once(room: Room) -> None:
    """A kicked player's page stops receiving the moment the GM revokes the link (not at
    the next heartbeat, 20 s later)."""
    bob = room.players["ボブ"]
    links = room.gm.http.get(f"{room.gm.path}/links").json()["links"]
    bobs = next(link for link in links if link["character"] == "ボブ" and not link["revoked"])

    async def scenario() -> tuple[int, int | None, list[dict]]:
        socket = await open_socket(bob)
        await asyncio.to_thread(room.gm.http.post, f"{room.gm.path}/links/{bobs['id']}/revoke")
        await asyncio.to_thread(room.gm.say, "ボブには見えないはず")
        heard = []
        try:
            while True:
                heard.append(await socket.next_message())
        except Exception:
            pass
        return socket.pings, socket.connection.close_code, heard

    # Closed by the revoke itself, not at a heartbeat: no ping came before the close.
    pings, close_code, heard = asyncio.run(scenario())
    assert close_code == 4401 and pings == 0
    assert not any("見えないはず" in str(message) for message in heard)


def test_only_the_gm_manages_links(room: Room) -> None:
    alice = room.players["アリス"]
    assert alice.http.get(f"{alice.path}/links").status_code == 403
    made = room.gm.http.post(f"{room.gm.path}/links", json={"role": "spectator"})
    assert made.status_code == 201
    token = made.json()["token"]
    assert made.json()["url"].endswith(f"&token={token}")


def test_lines_too_long_are_refused_as_in_play(room: Room) -> None:
    from saikoro.dice.normalize import MAX_INPUT_LENGTH

    response = room.gm.line("a" * (MAX_INPUT_LENGTH + 1))
    assert response.status_code == 422 and " / " in response.json()["message"]


def test_a_bad_body_is_422(room: Room) -> None:
    response = room.gm.http.post(f"{room.gm.path}/lines", json={"text": "no line"})
    assert response.status_code == 422 and response.json()["ok"] is False


# -- limits -------------------------------------------------------------------------------------


def test_lines_are_rate_limited_per_link(room: Room) -> None:
    alice, bob = room.players["アリス"], room.players["ボブ"]
    limited = None
    for i in range(150):  # a burst of 30, then 5 a second: refused well before 150
        response = alice.line(f"連投 {i}")
        assert response.status_code in (200, 429)
        if response.status_code == 429:
            limited = (i, response)
            break
    assert limited is not None and limited[0] >= 30
    body = limited[1].json()
    assert body["reason"] == "rate limited" and " / " in body["message"]
    assert int(limited[1].headers["Retry-After"]) >= 1
    assert bob.line("私は平気").status_code == 200  # another link is not limited


def test_connections_per_link_are_capped(room: Room) -> None:
    alice = room.players["アリス"]

    async def scenario() -> int | None:
        open_ = [await open_socket(alice) for _ in range(3)]
        extra = await open_socket(alice, ready=False)
        message = await extra.next_message()
        assert message["type"] == "error" and message["reason"] == "too many connections"
        with pytest.raises(Exception):  # noqa: B017 - closed by the server
            await extra.next_message(timeout=5)
        for socket in open_:
            await socket.close()
        return extra.connection.close_code

    assert asyncio.run(scenario()) == 4429


# -- the log, the page, the API description -------------------------------------------------


def test_log_html_is_self_contained_and_shows_the_fight(room: Room) -> None:
    alice = room.players["アリス"]
    room.gm.say("/combat start")
    alice.say("2D6>=5 攻撃")
    response = alice.http.get(f"{alice.path}/log.html")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<style>" in page and "<script" not in page and "http://" not in page
    assert "(2D6&gt;=5)" in page and 'class="roll' in page and "アリス" in page


def test_front_page_and_openapi(server: Server) -> None:
    front = httpx.get(f"{server.base}/")
    assert front.status_code == 200 and front.headers["content-type"].startswith("text/html")
    schema = httpx.get(f"{server.base}/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/rooms",
        "/api/rooms/{room}/join",
        "/api/rooms/{room}/lines",
        "/api/rooms/{room}/state",
        "/api/rooms/{room}/events",
        "/api/rooms/{room}/log.html",
    ):
        assert path in paths, path
    assert "/v2/version" in paths  # the BCDice-API routes are unchanged


def test_bcdice_api_still_answers(server: Server) -> None:
    assert httpx.get(f"{server.base}/v2/version").json()["api"]


def test_no_token_ever_reaches_the_log(server: Server, room: Room) -> None:
    """Runs last in this module (by name order within the file it may not; it reads
    whatever the server logged so far, which includes every request above)."""

    async def touch() -> None:
        socket = await open_socket(room.players["アリス"], after=0)
        await socket.until_events(1)
        await socket.close()

    asyncio.run(touch())
    room.gm.say("ログ確認")
    log = server.log()
    assert "GET /api/rooms" in log or "WebSocket /api/rooms" in log  # the log is on
    assert "token=[redacted]" in log
    tokens = [room.gm.token, room.spectator.token, room.created["invite_token"]]
    tokens += [link.token for link in room.players.values()]
    for token in tokens:
        assert token not in log


def test_no_capability_parameter_reaches_the_log_or_an_answer(server: Server, room: Room) -> None:
    """``?invite=`` was written to the access log in clear (only ``token=`` was redacted):
    every capability parameter (saikoro.server.table.redact.CAPABILITY_PARAMS, and any
    parameter whose name contains one) is redacted, and no answer echoes one back."""
    from saikoro.server.table.redact import CAPABILITY_PARAMS

    invite = room.created["invite_token"]
    secrets = {
        "invite": invite,
        "token": room.gm.token,
        "invite_token": "a-future-secret-1",
        "gm_token": "a-future-secret-2",
    }
    assert set(CAPABILITY_PARAMS) <= set(secrets)
    query = "&".join(f"{key}={value}" for key, value in secrets.items())
    page = httpx.get(f"{server.base}/?room={room.name}&{query}", timeout=60)
    assert page.status_code == 200
    answers = [
        httpx.get(f"{server.base}{room.gm.path}/state?{query}", timeout=60),  # no Bearer: 401
        httpx.get(f"{server.base}/no/such/page?{query}", timeout=60),
        httpx.post(f"{server.base}{room.gm.path}/join?{query}", json={"invite": "x"}, timeout=60),
        httpx.post(f"{server.base}{room.gm.path}/join", json={"invite": 5}, timeout=60),
    ]
    for answer in answers:
        assert answer.status_code >= 400
        assert not any(secret in answer.text for secret in secrets.values()), answer.text
    log = server.log()
    assert "GET /?room=" in log  # the access log is on
    for key, secret in secrets.items():
        assert secret not in log, key
        assert f"{key}=[redacted]" in log


# -- names and lines that would let a player pass for someone else ----------------------------


def _lw_sheet(name: str) -> str:
    return json.dumps(
        {
            "system": "LittleWorld",
            "name": name,
            "max_hp": 10,
            "abilities": {"体力": 2, "技巧": 2, "理知": 2},
        },
        ensure_ascii=False,
    )


@pytest.mark.parametrize("name", ["ゴブリン１", "ｺﾞﾌﾞﾘﾝ1", "GM", "ＧＭ", "gm", "GM "])
def test_a_look_alike_or_gm_name_cannot_join(server: Server, name: str) -> None:
    """ゴブリン１ is ゴブリン1 at the table (and GM the GM's): joining under such a name would
    speak for that character and read its secrets, so it is refused and nothing changes."""
    room = create_room(server.base)
    room.add_character(_lw_sheet("ゴブリン1"), side="npc")
    before = _snapshot(room)
    response = httpx.post(
        f"{room.base}/api/rooms/{quote(room.name, safe='')}/join",
        json={"invite": room.created["invite_token"], "character": _lw_sheet(name)},
    )
    if name.startswith("ｺﾞ"):  # half-width kana is another name: it may join, as itself only
        assert response.status_code == 200, response.text
        player = Link(room.base, room.name, response.json()["token"])
        assert player.line("@ゴブリン1 :HP-9").status_code == 403
        return
    assert response.status_code == 409, response.text
    assert response.json()["reason"] in ("duplicate", "reserved name")
    assert " / " in response.json()["message"]
    assert _snapshot(room) == before


def test_the_gms_lines_as_a_players_character_stay_the_gms(room: Room) -> None:
    """The GM's `@アリス :HP-3` (a trap) is not Alice's player's to undo, and the GM's secret
    roll made as アリス is not shown to her player until revealed."""
    alice = room.players["アリス"]
    room.gm.say("@アリス :HP-3")
    before = _snapshot(room)
    refused = alice.line("/undo")
    assert refused.status_code == 403 and refused.json()["reason"] == "forbidden"
    assert _snapshot(room) == before
    room.gm.say("@アリス S2D6 罠に気づいたか")
    secret = alice.events()["events"][-1]
    assert "シークレットダイス" in secret["text"]["ja"] and "(2D6)" not in str(secret)
    assert "(2D6)" in str(room.gm.events()["events"][-1])
    assert alice.line("/reveal").status_code in (403, 422)  # not hers to reveal
    room.gm.say("/reveal")
    assert "(2D6)" in str(alice.events()["events"][-2])
