"""The GM's fight simulation on the web table, in Chromium (issue 25): the GM's page runs it
on the server and shows the party's win rate and each card's chance to go down before the
fight starts; a player's page has none of it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS
from tests.web.helpers import create_room, drop_file, invite_url, join, new_page


def test_the_gm_sees_the_simulation_and_a_player_does_not(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "ゴブリン退治の下見", "LittleWorld")
    drop_file(gm, "#npc-drop", "enemy_goblin.yaml", ENEMIES["LittleWorld"])
    player = new_page(browser)
    join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
    me = player.locator("#speaker option").first.inner_text()
    expect(gm.locator(f'.card[data-name="{me}"]')).to_have_count(1)

    panel = gm.locator("#simulation")
    expect(panel).to_be_visible()
    expect(panel.locator(".sim-npcs input[type=checkbox]")).to_have_count(1)
    panel.locator(".sim-form input").fill("100")
    panel.get_by_role("button", name="シミュレート").click()
    result = panel.locator(".sim-result")
    expect(result).to_contain_text(re.compile(r"味方の勝率 \d+\.\d%"), timeout=60_000)
    expect(result).to_contain_text("100 戦")
    for name in (me, "ゴブリン"):
        chance = gm.locator(f'.card[data-name="{name}"] .sim-chance')
        expect(chance).to_have_text(re.compile(r"^倒れる \d+\.\d%"))
    # the chances stay on the cards when the cards are drawn again (an HP change)
    gm.locator(f'.card[data-name="{me}"] .hp').click()
    gm.keyboard.press("Escape")
    expect(gm.locator(f'.card[data-name="{me}"] .sim-chance')).to_have_count(1)

    gm.get_by_role("button", name="English").click()
    expect(gm.locator("#simulation h3")).to_have_text("Fight simulation")
    gm.get_by_role("button", name="日本語").click()

    # the player's page: no panel, no chances, no simulation words
    expect(player.locator(f'.card[data-name="{me}"]')).to_have_count(1)
    expect(player.locator("#simulation")).to_have_count(0)
    expect(player.locator(".sim-chance")).to_have_count(0)
    expect(player.locator("body")).not_to_contain_text("シミュレーション")
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
