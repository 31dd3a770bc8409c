"""The web table's page with an Udonarium room file (issue 23): the GM drops it and picks
characters by name or brings all in as NPCs; a player drops it and joins as one of them."""

from __future__ import annotations

import base64

from playwright.sync_api import expect

from tests.server.test_udonarium_room_web import NAMES, room_zip

from .helpers import create_room, drop_file, invite_url, new_page


def test_the_gm_picks_by_name_then_all_npcs_and_a_player_joins_as_one(browser, server) -> None:
    raw = base64.b64decode(room_zip())
    gm = new_page(browser)
    create_room(gm, server, "ユドナリウムの部屋ファイル", "LittleWorld")
    drop_file(gm, "#npc-drop", "room.zip", raw)
    picker = gm.locator("#line-error .picker")
    expect(picker.locator("option")).to_have_text(list(NAMES))
    picker.locator("select").select_option(["ボブ"])
    picker.get_by_role("button", name="選んだキャラクターを追加").click()
    cards = gm.locator("#cards .list")
    expect(cards).to_contain_text("ボブ")
    expect(gm.locator("#line-error")).to_have_text("")

    player = new_page(browser)
    player.goto(invite_url(gm))
    expect(player.locator("#join")).to_be_visible()
    drop_file(player, "#drop", "room.zip", raw)
    expect(player.locator("#join-form [name=character]")).to_have_value("(room.zip)")
    player.click("#join-form button[type=submit]")
    join_picker = player.locator("#join-form .picker")
    expect(join_picker.locator("option")).to_have_text(list(NAMES))
    join_picker.locator("select").select_option("キャロル")
    join_picker.get_by_role("button", name="このキャラクターで参加").click()
    expect(player.locator("#room")).to_be_visible()
    expect(cards).to_contain_text("キャロル")

    other = base64.b64decode(room_zip())
    drop_file(gm, "#npc-drop", "room.zip", other)
    gm.locator("#line-error .picker").get_by_role("button", name="全員を NPC として追加").click()
    expect(gm.locator("#line-error")).to_contain_text("ボブ")  # already here: nothing added
    assert gm.errors == [] and player.errors == []
