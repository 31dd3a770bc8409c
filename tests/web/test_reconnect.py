"""Reloading the page, or losing the connection for a few seconds, shows the same log with
nothing missing (the page resumes the WebSocket with ``after=`` the last event it has)."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.web.characters import LITTLEWORLD_PLAYERS
from tests.web.helpers import PHONE, create_room, invite_url, join, log_texts, new_page, send_line


def test_reload_and_a_lost_connection_miss_nothing(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "再接続の卓", "LittleWorld")
    player = new_page(browser, PHONE)
    join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
    for line in ("2D6>=7", "こんにちは", "1D6"):
        send_line(gm, line)
    expect(player.locator("#log li.ev")).to_have_count(len(log_texts(gm)))

    player.reload()
    expect(player.locator("#status")).to_have_text("接続中")
    assert log_texts(player) == log_texts(gm)

    # the connection drops for a few seconds while the table goes on
    player.context.set_offline(True)
    player.evaluate("window.saikoro.view.live.drop()")
    expect(player.locator("#status")).to_have_text("再接続しています…")
    for line in ("3D6", "@ミナ :HP-3", "切断中の発言"):
        send_line(gm, line)
    time.sleep(3)
    expect(player.locator("#log")).not_to_contain_text("切断中の発言")
    player.context.set_offline(False)
    expect(player.locator("#status")).to_have_text("接続中")
    expect(player.locator("#log li.ev").last).to_contain_text("切断中の発言")
    assert log_texts(player) == log_texts(gm)
    expect(player.locator('.card[data-name="ミナ"] .hp')).to_have_text("HP 11/14")

    # the phone layout: one column, nothing wider than the screen
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert player.errors == [] and gm.errors == []  # type: ignore[attr-defined]
