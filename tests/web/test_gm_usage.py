"""The GM sees what the room uses of its limits (issue 18 point 1: "a per-room storage quota
with usage shown to the GM"), in Chromium: 「プレイヤー 1/12 · 保存容量 0.01/32 MB」 in the GM's
links panel, kept up to date as players join and lines are stored, in both languages; a
player's page never shows it. The figures are the GM's ``/state`` ``limits``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.characters import LITTLEWORLD_PLAYERS, UNMEID100_PLAYERS
from tests.web.helpers import LAPTOP, PHONE, create_room, invite_url, join, new_page, send_line

MB = 1024 * 1024


def limits(page: Page) -> dict:  # type: ignore[type-arg]
    """The ``limits`` of the page's own ``/state`` (the GM's link)."""
    return page.evaluate("async () => (await window.saikoro.view.api.get('/state')).limits")


def megabytes(size: int) -> str:
    mb = size / MB
    return f"{mb:.2f}" if mb < 1 else f"{mb:.1f}" if mb < 10 else f"{mb:.0f}"


def expected(page: Page, players: str, storage: str) -> str:
    now = limits(page)
    return (
        f"{players} {now['players']['used']}/{now['players']['max']} · "
        f"{storage} {megabytes(now['storage']['used_bytes'])}/"
        f"{megabytes(now['storage']['quota_bytes'])} MB"
    )


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_gm_sees_players_and_storage_against_the_limits(browser, server, viewport) -> None:
    gm = new_page(browser, viewport)
    create_room(gm, server, f"上限 {viewport['width']}", "LittleWorld")
    usage = gm.locator("#links #usage")
    expect(usage).to_have_text(re.compile(r"^プレイヤー 0/12 · 保存容量 \d\.\d\d/32 MB$"))
    expect(usage).to_be_visible()

    # a player joins: the GM's page counts them without a reload; the player sees no usage
    player = new_page(browser, viewport)
    join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
    expect(usage).to_contain_text("プレイヤー 1/12 · ")
    expect(player.locator("#usage")).to_be_hidden()
    expect(player.locator("body")).not_to_contain_text("保存容量")

    # lines are stored: the figure follows the server's count
    before = limits(gm)["storage"]["used_bytes"]
    for n in range(3):
        send_line(player, f"長めの発言 {n} " + "あ" * 2000)
    assert limits(gm)["storage"]["used_bytes"] > before
    expect(usage).to_have_text(expected(gm, "プレイヤー", "保存容量"))

    gm.get_by_role("button", name="English").click()
    expect(usage).to_have_text(expected(gm, "Players", "Storage"))
    expect(usage).not_to_have_class(re.compile("near"))
    gm.get_by_role("button", name="日本語").click()
    for page in (gm, player):
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_a_full_room_is_shown_as_such(browser, tmp_path) -> None:
    """At the players' limit the line stands out (a GM who wonders why a join is refused)."""
    from tests.web.conftest import serving

    for base in serving(tmp_path, "--max-players", "1"):
        gm = new_page(browser)
        create_room(gm, base, "満員", "UnmeiD100")
        usage = gm.locator("#usage")
        expect(usage).to_contain_text("プレイヤー 0/1")
        expect(usage).not_to_have_class(re.compile("near"))
        join(new_page(browser), invite_url(gm), "character.json", UNMEID100_PLAYERS[0])
        expect(usage).to_contain_text("プレイヤー 1/1")
        expect(usage).to_have_class(re.compile("near"))
        assert gm.errors == [], gm.errors  # type: ignore[attr-defined]
