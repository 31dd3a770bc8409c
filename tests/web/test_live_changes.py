"""The page updates from the event frames themselves: HP, the turn and conditions change on
every page with no ``/state`` request per event (a chat line needs no request at all); after
a gap (the socket lost while the table went on) it reads the state once and is right again;
a long log opens with its newest lines and scrolling up brings the older ones, in order."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, expect

from tests.loopback import free_address
from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS
from tests.web.conftest import FIXED_FACES, HERE, Served
from tests.web.helpers import card_hp, create_room, drop_file, invite_url, join, new_page, send_line


def api_requests(page: Page) -> list[str]:
    """The table API requests the page makes from now on (their paths)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if "/api/rooms/" in request.url:
            seen.append(request.url.split("/api/rooms/", 1)[1])

    page.on("request", note)
    return seen


def states(seen: list[str]) -> list[str]:
    return [path for path in seen if path.split("?")[0].endswith("/state")]


def test_hp_turn_and_conditions_come_from_the_frames(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "フレームで動く卓", "LittleWorld")
    drop_file(gm, "#npc-drop", "goblin.yaml", ENEMIES["LittleWorld"])
    player = new_page(browser)
    join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
    for page in (gm, player):
        expect(card_hp(page, "ゴブリン")).to_have_text("HP 8/8")
        expect(page.locator("#status")).to_have_text("接続中")
    seen = {"gm": api_requests(gm), "player": api_requests(player)}

    send_line(gm, "こんにちは")
    send_line(gm, "@ゴブリン :HP-3")
    send_line(gm, "/cond add ゴブリン 毒 2")
    gm.get_by_role("button", name="戦闘開始").click()
    for page in (gm, player):
        expect(card_hp(page, "ゴブリン")).to_have_text("HP 5/8")
        expect(page.locator('.card[data-name="ゴブリン"] .conditions')).to_contain_text("毒:2")
        expect(page.locator("#combat .summary")).to_contain_text("の手番")
    current = player.locator("#combat .order li.current").inner_text()
    expect(gm.locator("#combat .order li.current")).to_have_text(current)
    send_line(gm, "/cond remove ゴブリン 毒")
    for page in (gm, player):
        expect(page.locator('.card[data-name="ゴブリン"] .conditions')).not_to_contain_text("毒")

    # the GM's own lines were POSTs; nobody fetched /state for any of these events
    assert states(seen["gm"]) == [] and states(seen["player"]) == [], seen
    assert seen["player"] == [], seen["player"]  # the player's page asked nothing at all
    assert gm.errors == [] and player.errors == []  # type: ignore[attr-defined]


def test_a_gap_is_mended_by_one_state_read(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "途切れた卓", "LittleWorld")
    player = new_page(browser)
    join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
    expect(player.locator("#status")).to_have_text("接続中")
    expect(card_hp(player, "ミナ")).to_have_text("HP 14/14")
    seen = api_requests(player)

    player.context.set_offline(True)
    player.evaluate("window.saikoro.view.live.drop()")
    expect(player.locator("#status")).to_have_text("再接続しています…")
    send_line(gm, "@ミナ :HP-3")
    send_line(gm, "/cond add ミナ 麻痺")
    send_line(gm, "離れている間の発言")
    player.context.set_offline(False)
    expect(player.locator("#status")).to_have_text("接続中")
    expect(player.locator("#log li.ev").last).to_contain_text("離れている間の発言")
    expect(card_hp(player, "ミナ")).to_have_text("HP 11/14")
    expect(player.locator('.card[data-name="ミナ"] .conditions')).to_contain_text("麻痺")
    # the frames the socket re-read still carry their changes (the server kept them) or the
    # page read the state: a few requests at most, never one per line said
    assert len(states(seen)) <= 2, seen
    before = len(states(seen))
    send_line(gm, "@ミナ :HP+1")  # back in step: frames again
    expect(card_hp(player, "ミナ")).to_have_text("HP 12/14")
    assert len(states(seen)) == before, seen


def test_frames_without_a_change_make_the_page_read_the_state(browser, server) -> None:
    """A frame the page cannot chain (here: its ``change`` stripped on the way, as from a
    server that lost track of the room) makes it read ``/state`` — and be right."""
    gm = new_page(browser)
    create_room(gm, server, "変化なしの卓", "LittleWorld")
    player = new_page(browser)
    invite = invite_url(gm)

    def strip(ws) -> None:  # type: ignore[no-untyped-def]
        server_side = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            data.pop("change", None)
            ws.send(json.dumps(data))

        server_side.on_message(to_page)

    player.route_web_socket("**/ws?*", strip)
    join(player, invite, "mina.json", LITTLEWORLD_PLAYERS[0])
    expect(player.locator("#status")).to_have_text("接続中")
    seen = api_requests(player)
    send_line(gm, "@ミナ :HP-4")
    expect(card_hp(player, "ミナ")).to_have_text("HP 10/14")
    assert len(states(seen)) >= 1, seen


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A ``saikoro serve`` whose database file this test writes to as well (as
    ``saikoro play --db`` would): its base URL and the file."""
    cwd = tmp_path_factory.mktemp("serve-long")
    host, port = free_address()
    served = Served(
        [
            sys.executable,
            str(HERE / "serve_fixed_dice.py"),
            FIXED_FACES,
            *("--host", host, "--port", str(port)),
        ],
        cwd,
    )
    try:
        base = f"http://{host}:{port}/"
        served.wait_until_up(base)
        yield base, cwd / "saikoro.db"
    finally:
        served.stop()


def test_scrolling_up_loads_older_lines_in_order(browser, own_server) -> None:
    from saikoro.store import open_store
    from saikoro.table.session import TableSession

    base, db = own_server
    gm = new_page(browser)
    create_room(gm, base, "長い記録の卓", "DiceBot")
    store = open_store(str(db))
    try:
        session = TableSession.open(store, "長い記録の卓", gm=True)
        for i in range(450):
            session.run(f"発言{i}")
    finally:
        store.close()
    gm.reload()
    expect(gm.locator("#log li.ev").last).to_contain_text("発言449")
    shown = gm.locator("#log li.ev")
    expect(shown).to_have_count(100)  # the newest page only
    for pages in range(2, 6):
        gm.evaluate("document.querySelector('#log').scrollTop = 0")
        gm.locator("#log").dispatch_event("scroll")
        expect(shown).to_have_count(min(100 * pages, 451))
    texts = [t.split("発言")[-1] for t in shown.all_inner_texts() if "発言" in t]
    assert texts == [str(i) for i in range(450)]
    seqs = [int(s) for s in shown.evaluate_all("items => items.map((i) => i.dataset.seq)")]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert gm.errors == []  # type: ignore[attr-defined]
