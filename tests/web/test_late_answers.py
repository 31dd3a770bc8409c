"""When an older answer arrives after newer news (a slow ``/state`` while event frames already
moved the room on, a slow links list), the page keeps the newer one instead of drawing the past."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.web.characters import ENEMIES
from tests.web.helpers import card_hp, create_room, drop_file, new_page, send_line


def hold_first(page: Page, pattern: str) -> list[tuple[Route, Any]]:
    """Route `pattern` so that its first answer is fetched at once but held back until the test
    releases it; later requests pass untouched."""
    held: list[tuple[Route, Any]] = []

    def handler(route: Route) -> None:
        if held:
            route.continue_()
            return
        held.append((route, route.fetch()))

    page.route(pattern, handler)
    return held


def wait_until_held(page: Page, held: list[tuple[Route, Any]]) -> None:
    """Until the page's request is held (the bound only stops a hang: 90 s)."""
    for _ in range(1800):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page never asked")


def test_a_late_older_state_does_not_overwrite_a_newer_one(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "遅い返事の卓", "LittleWorld")
    drop_file(gm, "#npc-drop", "goblin.yaml", ENEMIES["LittleWorld"])
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 8/8")

    held = hold_first(gm, "**/state")
    gm.evaluate("() => { window.saikoro.view.refresh(); }")  # as after a gap: HP 8 held back
    wait_until_held(gm, held)
    send_line(gm, "@ゴブリン :HP-3")
    send_line(gm, "@ゴブリン :HP-2")
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 3/8")  # from the event frames

    route, answer = held[0]
    with gm.expect_request_finished(lambda request: request.url.endswith("/state")):
        route.fulfill(response=answer)  # the older answer (HP 8) arrives last
    gm.wait_for_timeout(100)
    expect(card_hp(gm, "ゴブリン")).to_have_text("HP 3/8")
    assert gm.errors == []  # type: ignore[attr-defined]


def test_a_late_links_answer_does_not_bring_back_a_revoked_link(browser, server) -> None:
    gm = new_page(browser)
    create_room(gm, server, "遅いリンクの卓", "LittleWorld")
    links = gm.locator("#links li", has_text="招待 (プレイヤー) (")
    expect(links.get_by_role("button", name="無効にする")).to_have_count(1)

    held = hold_first(gm, "**/links")
    with gm.expect_request("**/links"):
        gm.evaluate("() => window.dispatchEvent(new Event('focus'))")  # an answer before revoking
    wait_until_held(gm, held)
    links.get_by_role("button", name="無効にする").click()
    expect(gm.locator("#links li.revoked")).to_have_count(1)

    route, answer = held[0]
    with gm.expect_request_finished(lambda request: request.url.endswith("/links")):
        route.fulfill(response=answer)
    gm.wait_for_timeout(100)
    expect(gm.locator("#links li.revoked")).to_have_count(1)
    expect(links.get_by_role("button", name="無効にする")).to_have_count(0)
