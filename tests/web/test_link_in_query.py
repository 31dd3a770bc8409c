"""A link given as a query (``/?room=…&invite=…``, as some chat apps rewrite a fragment)
still opens the room, and the page moves its secret into the fragment at once: the
address bar, a reload and the Referer no longer carry it to any server."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.web.helpers import new_page


def test_an_invite_in_the_query_is_moved_into_the_fragment(browser, server) -> None:
    made = httpx.post(
        f"{server}api/rooms", json={"name": "クエリの卓", "system": "LittleWorld"}, timeout=60
    ).json()
    invite = made["invite_token"]
    page = new_page(browser)
    page.goto(f"{server}?room=%E3%82%AF%E3%82%A8%E3%83%AA%E3%81%AE%E5%8D%93&invite={invite}")
    expect(page.locator("#join")).to_be_visible()
    assert page.evaluate("location.search") == ""
    assert f"invite={invite}" in page.evaluate("location.hash")
    page.reload()  # the reloaded page still knows the room, from the fragment
    expect(page.locator("#join")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
