"""What a new GM and two players read at a first session, in Chromium (issue 19): each message
in the page's language, without programmers' words, command-line flags or internal numbers;
the log says who made a GM edit and where a capped edit stopped; the English page uses no
Japanese game term and cuts no label; result colours of their own.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.characters import ENEMIES, LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import (
    LAPTOP,
    PHONE,
    card_hp,
    create_room,
    drop_file,
    invite_url,
    join,
    new_page,
    send_line,
)


def refused(page: Page, line: str) -> str:
    page.fill("#line", line)
    page.press("#line", "Enter")
    error = page.locator("#line-error")
    expect(error).not_to_have_text("")
    return error.inner_text()


#: system: (the player's CCFOLIA JSON, their name, the enemy's file)
PLAYERS = {
    "LittleWorld": (LITTLEWORLD_PLAYERS[0], "ミナ", "goblin.yaml"),
    "UnmeiD100": (UNMEID100_PLAYERS[1], "リナ", "goblin.json"),
}


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("system", sorted(PLAYERS))
def test_the_messages_of_a_first_session(browser, server, system, viewport) -> None:
    character, me, enemy_file = PLAYERS[system]
    gm = new_page(browser, viewport)
    gm.goto(server)
    about = gm.locator("#lobby .about")
    expect(about).to_contain_text("BCDice-API として使えます")
    expect(gm.locator("#lobby")).not_to_contain_text("Hello. This is")
    create_room(gm, server, f"初めての卓 {system} {viewport['width']}", system)

    # the empty room says what to do next; the invite link is one row
    expect(gm.locator("#next-step")).to_have_text(
        "招待リンクをコピーしてプレイヤーに送ってください (下の「招待リンク」)。"
        "敵は下の枠にドロップして追加します。"
    )
    invite = invite_url(gm)
    expect(gm.locator("#links li", has_text="招待 (プレイヤー)")).to_have_count(1)
    expect(gm.locator("#links li", has_text="招待 (プレイヤー)").locator("input")).to_have_value(
        invite
    )

    # joining with an empty box, then with prose
    player = new_page(browser, viewport)
    player.goto(invite)
    error = player.locator("#join-form .error")
    player.click("#join-form button[type=submit]")
    expect(error).to_have_text(
        "キャラクターがありません: キャラクターのデータを貼り付けるかドロップするか、"
        "部屋にいるキャラクターの名前を書いてください"
    )
    player.fill("#join-form [name=character]", "こんにちは、ミナです。よろしくお願いします!")
    player.click("#join-form button[type=submit]")
    expect(error).to_contain_text("キャラクターとして読めませんでした")
    expect(error).not_to_contain_text("辞書")
    join(player, invite, "character.json", character)
    expect(gm.locator("#next-step")).to_be_hidden()
    expect(gm.locator("#links li", has_text="招待 (プレイヤー)")).to_have_count(1)

    # a player's /gm: no command-line flag
    message = refused(player, "/gm rest 1")
    assert message == "/gm は GM だけが使えます (GM のリンクで開いたページから)", message
    player.fill("#line", "")

    # the GM's HP edit says it was the GM, and where +99 stopped
    drop_file(gm, "#npc-drop", enemy_file, ENEMIES[system])
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 8/8")
    send_line(gm, "@ゴブリン :HP-5")
    send_line(gm, "@ゴブリン :HP+99")
    last = player.locator("#log li.ev").last
    expect(last.locator(".who")).to_have_text("GM")
    expect(last).to_contain_text("ゴブリン HP 3 → 8 (最大 8)")

    # a revealed secret names no internal number
    send_line(player, "S2D6")
    player.locator("#log li.secret .reveal").last.click()
    revealed = gm.locator("#log li.kind-revealed").last
    expect(revealed).to_contain_text(f"シークレットダイス公開: {me}: (2D6) ＞ 8[4,4] ＞ 8")
    expect(revealed).not_to_contain_text("#")

    # losing the connection is said loudly and nothing can be typed meanwhile
    player.context.set_offline(True)
    player.evaluate("window.saikoro.view.live.drop()")
    expect(player.locator("body")).to_have_class("offline")
    expect(player.locator("#line")).to_be_disabled()
    player.context.set_offline(False)
    expect(player.locator("#status")).to_have_text("接続中")
    expect(player.locator("#line")).to_be_enabled()

    # English: no Japanese game term on the cards, no label cut short (every string of the
    # English page: test_english_page.py)
    if system == "LittleWorld":
        send_line(gm, "/gm row ミナ 後衛")
    gm.get_by_role("button", name="English").click()
    cards = gm.locator("#cards .list")
    if system == "LittleWorld":
        expect(cards.locator('.card[data-name="ミナ"] .row')).to_have_text("Row: back row")
    for word in ("体力", "技巧", "理知", "前衛", "後衛", "体格", "敏捷度", "魅力", "運命"):
        expect(cards).not_to_contain_text(word)
    expect(cards.locator(".values dt").first).to_have_text(
        "Body" if system == "LittleWorld" else "Build"
    )
    add = cards.locator(".add-condition input").first
    assert add.evaluate("i => i.scrollWidth <= i.clientWidth + 1"), "the placeholder is cut"
    gm.get_by_role("button", name="日本語").click()
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_result_colours_of_their_own(browser, server) -> None:
    """クリティカル and ファンブル are not coloured as 成功 / 失敗; tracker lines are coloured."""
    gm = new_page(browser)
    create_room(gm, server, "色の卓", "UnmeiD100")
    invite = invite_url(gm)
    player = new_page(browser)
    join(player, invite, "character.json", UNMEID100_PLAYERS[1])
    drop_file(gm, "#npc-drop", "goblin.json", ENEMIES["UnmeiD100"])
    expect(card_hp(gm, "ゴブリン")).to_be_visible()
    send_line(gm, "MA60,0,30")  # 30 ≤ 敏捷度 30: a critical
    send_line(gm, "1D100<=50")  # 30: a success
    send_line(gm, "1D100<=10")  # 30: a failure
    colour = lambda sel: gm.locator(sel).last.evaluate(  # noqa: E731
        "m => getComputedStyle(m).color + ' ' + getComputedStyle(m).backgroundColor"
    )
    critical, success, failure = (
        colour("#log mark.critical"),
        colour("#log mark.success"),
        colour("#log mark.failure"),
    )
    assert len({critical, success, failure}) == 3, (critical, success, failure)
    gm.get_by_role("button", name="戦闘開始").click()
    me = "リナ"
    expect(player.locator("#combat .summary")).to_contain_text(f"{me}の手番")
    player.locator("#combat .actions").get_by_role("button", name="白兵", exact=True).click()
    expect(gm.locator("#log li.kind-roll.hit mark.hit").last).to_have_text("命中")
    damage = gm.locator("#log li.kind-status_set.damage").last
    expect(damage).to_contain_text("ダメージ")
    assert damage.locator(".text").evaluate("t => getComputedStyle(t).color") != (
        gm.locator("#log li.kind-turn_started .text").last.evaluate(
            "t => getComputedStyle(t).color"
        )
    )
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()
