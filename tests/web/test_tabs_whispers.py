"""Chat tabs and whispers in the page (issue 24, points 1 and 2), on a laptop and a phone:
a line typed in a tab lands there, other tabs count it unread until opened, 「すべて」 shows
every line; a whisper is shown to its sender, its recipient and the GM, and a third
player's page never gets it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.characters import LITTLEWORLD_PLAYERS, ccfolia
from tests.web.helpers import LAPTOP, PHONE, create_room, invite_url, join, new_page, send_line


def tab(page: Page, name: str) -> Locator:
    return page.locator("#tabs button", has_text=name)


def line_of(page: Page, text: str) -> Locator:
    return page.locator("#log li.ev", has_text=text)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_tabs_unread_counts_and_a_whisper_for_its_readers_only(browser, server, viewport) -> None:
    gm = new_page(browser, viewport)
    create_room(gm, server, f"タブの卓-{viewport['width']}", "LittleWorld")
    invite = invite_url(gm)
    mina, sora, haru = (new_page(browser, viewport) for _ in range(3))
    join(mina, invite, "mina.json", LITTLEWORLD_PLAYERS[0])
    join(sora, invite, "sora.json", LITTLEWORLD_PLAYERS[1])
    join(haru, invite, "haru.json", ccfolia("ハル", 10, {"体力": 3, "技巧": 3, "理知": 3}))
    for page in (gm, mina, sora, haru):
        expect(tab(page, "すべて")).to_have_attribute("aria-selected", "true")
        for name in ("メイン", "情報", "雑談"):
            expect(tab(page, name)).to_be_visible()

    # ソラ reads メイン; a line typed in 雑談 is counted there, unread, until she opens it
    tab(sora, "メイン").click()
    send_line(gm, "こんにちは")
    expect(line_of(sora, "こんにちは")).to_be_visible()
    tab(mina, "雑談").click()
    send_line(mina, "休憩しよう")
    expect(line_of(mina, "休憩しよう")).to_be_visible()
    expect(tab(sora, "雑談").locator(".unread")).to_have_text("1")
    expect(line_of(sora, "休憩しよう")).to_be_hidden()
    expect(line_of(sora, "ミナ が参加")).to_have_count(1)
    expect(line_of(sora, "ミナ が参加")).to_be_hidden()  # a join is 情報, not メイン
    tab(sora, "雑談").click()
    expect(line_of(sora, "休憩しよう")).to_be_visible()
    expect(tab(sora, "雑談").locator(".unread")).to_have_count(0)
    expect(line_of(sora, "こんにちは")).to_be_hidden()
    tab(sora, "すべて").click()
    expect(line_of(sora, "こんにちは")).to_be_visible()
    expect(line_of(gm, "休憩しよう")).to_be_visible()  # the GM reads すべて

    # a whisper: its sender, its recipient and the GM see it; ハル never gets it
    send_line(mina, "/w ソラ 秘密の話")
    for page in (mina, sora, gm):
        whisper = page.locator("#log li.ev.whisper", has_text="秘密の話")
        expect(whisper).to_be_visible()
        expect(whisper.locator(".badge")).to_contain_text("秘話")
    send_line(gm, "おわり")
    expect(line_of(haru, "おわり")).to_be_visible()
    expect(haru.locator("#log")).not_to_contain_text("秘密の話")
    expect(haru.locator("#log li.ev.whisper")).to_have_count(0)
    # after a reload the log is read back: still nothing of it for ハル, still there for ソラ
    haru.reload()
    expect(line_of(haru, "おわり")).to_be_visible()
    expect(haru.locator("#log")).not_to_contain_text("秘密の話")
    sora.reload()
    expect(sora.locator("#log li.ev.whisper", has_text="秘密の話")).to_be_visible()
    for page in (gm, mina, sora, haru):
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
