"""「ログをダウンロード (HTML)」 after every tracker verb of every system, in Chromium (issue 19).

The GM drops the script's sheets on the page and types its lines (tests/verb_scripts.py: every
verb of the system's tracker), then downloads the log: the file comes (運命判定d100's ``/melee``
once made it answer 500) and shows the tracker's results in their colours' classes. A failed
download says so in the page's language, never a raw ``500 Internal Server Error``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.verb_scripts import SCRIPTS
from tests.web.helpers import LAPTOP, PHONE, create_room, drop_file, new_page, send_line

#: What each system's downloaded log must mark (the tracker's results, coloured by class).
MARKS = {
    "Cthulhu7th": ('class="roll success"',),  # CC1<=50 with every d10 on 1: 11, ハード成功
    "DiceBot": ('class="roll success"',),
    "LittleWorld": ('class="roll success"', 'class="roll miss"'),
    "UnmeiD100": ('class="roll hit"', 'class="roll miss"', 'class="system damage"'),
}


def download_log(page: Page) -> str:
    with page.expect_download() as download:
        page.get_by_role("button", name="ログをダウンロード (HTML)").click()
    return Path(download.value.path()).read_text("utf-8")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("system", sorted(SCRIPTS))
def test_the_log_downloads_after_every_verb(browser, fast_server, system: str, viewport) -> None:
    script = SCRIPTS[system]
    gm = new_page(browser, viewport)
    create_room(gm, fast_server, f"ログ {system} {viewport['width']}", system)
    for sheet in script.sheets:
        drop_file(gm, "#npc-drop", sheet.name, sheet.read_text("utf-8"))
        expect(gm.locator("#cards .card")).to_have_count(script.sheets.index(sheet) + 1)
    for line in script.lines:
        try:
            send_line(gm, line)
        except AssertionError:
            raise AssertionError(f"{line}: {gm.locator('#line-error').inner_text()}") from None
        expect(gm.locator("#line-error")).to_have_text("")
    page = download_log(gm)
    assert page.startswith("<!doctype html>")
    for mark in MARKS[system]:
        assert mark in page, mark
    # the page colours the same results (the server's outcome word is the line's class)
    if system == "UnmeiD100":
        expect(gm.locator("#log li.ev.kind-roll.hit mark.hit").first).to_have_text("命中")
        expect(gm.locator("#log li.ev.kind-status_set.damage").first).to_contain_text("ダメージ")
    assert gm.errors == [], gm.errors  # type: ignore[attr-defined]
    gm.context.close()


def test_a_failed_download_is_said_in_the_pages_language(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "ログ 失敗", "DiceBot")
    gm.route(
        "**/log.html*",
        lambda route: route.fulfill(
            status=500, body="Internal Server Error", content_type="text/plain"
        ),
    )
    error = gm.locator("#line-error")
    gm.get_by_role("button", name="ログをダウンロード (HTML)").click()
    expect(error).to_have_text(
        "ログをダウンロードできませんでした: "
        "サーバーでエラーが起きました。しばらくしてからもう一度試してください (500)"
    )
    gm.get_by_role("button", name="English").click()
    gm.get_by_role("button", name="Download the log (HTML)").click()
    expect(error).to_have_text(
        "The log could not be downloaded: The server failed. Try again in a moment (500)"
    )
    expect(error).not_to_contain_text("Internal Server Error")
    gm.get_by_role("button", name="日本語").click()
    gm.context.close()
