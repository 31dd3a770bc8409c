"""What the GM and a player may do from their pages: edit HP and conditions by clicking
(the GM any character, a player their own), refusals shown inline, the input's history,
the HTML log download, and the GM's links panel revoking an invite."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from saikoro.sheets import load_sheet
from saikoro.transfer import export_udonarium
from tests.web.characters import ENEMIES, EXAMPLES, LITTLEWORLD_PLAYERS
from tests.web.helpers import (
    card_hp,
    create_room,
    drop_file,
    invite_url,
    join,
    log_texts,
    new_page,
    send_line,
)


def test_edits_refusals_history_log_and_revoking(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "操作の卓", "LittleWorld")
    drop_file(gm, "#npc-drop", "goblin.yaml", ENEMIES["LittleWorld"])
    invite = invite_url(gm)
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    gm.locator("#links li", has_text="招待").get_by_role("button", name="コピー").first.click()
    # the page re-reads its links when the window gets focus: "copied" survives that re-render
    with gm.expect_response(lambda response: response.url.endswith("/links")):
        gm.evaluate("() => window.dispatchEvent(new Event('focus'))")
    expect(
        gm.locator("#links li", has_text="招待").get_by_role("button", name="コピーしました")
    ).to_be_visible()
    assert gm.evaluate("() => navigator.clipboard.readText()") == invite
    player = new_page(browser)
    join(player, invite, "mina.json", LITTLEWORLD_PLAYERS[0])

    # the GM drops an Udonarium zip; a player joins as that character by its name
    gin = load_sheet(EXAMPLES / "littleworld" / "pc_gin_fighter.yaml", "LittleWorld")
    drop_file(gm, "#npc-drop", "gin.zip", export_udonarium(gin))
    expect(card_hp(gm, "ギン")).to_have_text("HP 20/20")
    second = new_page(browser)
    second.goto(invite)
    second.fill("#join-form [name=existing]", "ギン")
    second.click("#join-form button[type=submit]")
    expect(second.locator("#room")).to_be_visible()
    expect(second.locator('.card[data-name="ギン"] button.hp')).to_have_count(1)  # theirs now
    expect(second.locator('.card[data-name="ミナ"] button.hp')).to_have_count(0)
    lily = load_sheet(EXAMPLES / "littleworld" / "pc_lily_keeper.yaml", "LittleWorld")
    third = new_page(browser)
    join(third, invite, "lily.zip", export_udonarium(lily))  # a player drops an Udonarium zip
    expect(third.locator("#speaker option")).to_have_text([lily.name])

    # the GM clicks a character's HP and types the new value
    card_hp(gm, "ミナ").click()
    gm.locator('.card[data-name="ミナ"] form.inline input').fill("10")
    gm.locator('.card[data-name="ミナ"] form.inline input').press("Enter")
    for page in (gm, player):
        expect(card_hp(page, "ミナ")).to_have_text("HP 10/14")

    # a player edits their own card (−2 HP, a condition), not another's
    card_hp(player, "ミナ").click()
    player.locator('.card[data-name="ミナ"] form.inline input').fill("-2")
    player.locator('.card[data-name="ミナ"] form.inline input').press("Enter")
    player.locator('.card[data-name="ミナ"] .add-condition input').fill("毒")
    player.locator('.card[data-name="ミナ"] .add-condition input').press("Enter")
    for page in (gm, player):
        expect(card_hp(page, "ミナ")).to_have_text("HP 8/14")
        expect(page.locator('.card[data-name="ミナ"] .chip')).to_contain_text("毒")
    expect(player.locator('.card[data-name="ゴブリン"] button.hp')).to_have_count(0)
    expect(player.locator('.card[data-name="ゴブリン"] .add-condition')).to_have_count(0)

    # refusals are shown inline and change nothing
    before = log_texts(gm)
    player.fill("#line", "@ゴブリン :HP-3")
    player.press("#line", "Enter")
    expect(player.locator("#line-error")).not_to_be_empty()
    expect(player.locator("#line")).to_have_value("@ゴブリン :HP-3")  # kept to fix and resend
    player.fill("#line", "/combat start")
    player.press("#line", "Enter")
    expect(player.locator("#line-error")).to_contain_text("GM")
    assert log_texts(gm) == before
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 8/8")

    # ↑/↓ walk the lines typed (full-width input is read as typed on a Japanese keyboard)
    send_line(player, "２Ｄ６＞＝７")
    expect(gm.locator("#log li.ev").last).to_contain_text("(2D6>=7)")
    send_line(player, "：ＨＰ＋１")
    expect(card_hp(gm, "ミナ")).to_have_text("HP 9/14")
    player.press("#line", "ArrowUp")
    expect(player.locator("#line")).to_have_value("：ＨＰ＋１")
    player.press("#line", "ArrowUp")
    expect(player.locator("#line")).to_have_value("２Ｄ６＞＝７")
    player.press("#line", "ArrowDown")
    expect(player.locator("#line")).to_have_value("：ＨＰ＋１")

    # the HTML log, downloaded from the page
    with player.expect_download() as download:
        player.get_by_role("button", name="ログをダウンロード (HTML)").click()
    html = Path(download.value.path()).read_text("utf-8")
    assert "<html" in html and "(2D6&gt;=7)" in html and "ミナ: HP 8 → 9" in html

    # a spectator reads along: the log and the cards, nothing to type or edit
    spectator = new_page(browser)
    spectator.goto(gm.locator("#links input").nth(1).input_value())
    expect(spectator.locator("#log li.ev").last).to_contain_text("HP 8 → 9")
    expect(spectator.locator("#line-form")).to_be_hidden()
    expect(spectator.locator("#cards button.hp")).to_have_count(0)
    expect(spectator.get_by_role("button", name="戦闘開始")).to_be_hidden()
    spectator.context.close()

    # the GM revokes the invite: the old link no longer lets anyone in
    gm.locator("#links li", has_text="招待").get_by_role("button", name="無効にする").first.click()
    expect(gm.locator("#links li.revoked")).to_have_count(1)
    late = new_page(browser)
    late.goto(invite)
    drop_file(late, "#drop", "sora.json", LITTLEWORLD_PLAYERS[1])
    late.click("#join-form button[type=submit]")
    expect(late.locator("#join-form .error")).not_to_be_empty()
    expect(late.locator("#join")).to_be_visible()
    # a closed tab loses nothing: the lobby lists the rooms this browser opened
    gm.goto(server)
    gm.get_by_role("link", name="操作の卓 — GM").click()
    expect(gm.locator("#links")).to_be_visible()
    expect(card_hp(gm, "ミナ")).to_have_text("HP 9/14")
    for page in (gm, player, second, third, late):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
