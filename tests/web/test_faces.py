"""Faces on the page (issue 24, point 3), on a laptop and a phone: a player uploads their
character's icon from its card; it shows on the card and beside their log lines, on their
page and — without a reload — on another player's page, who gets no upload button on a
card that is not theirs; the downloaded ``log.html`` carries the face as a ``data:`` URL
and shows it opened from ``file://`` with every network request blocked."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.web.characters import FACES, LITTLEWORLD_PLAYERS
from tests.web.helpers import (
    LAPTOP,
    PHONE,
    create_room,
    invite_url,
    join,
    new_page,
    send_line,
    upload_face,
)


def shown_image(slot: Locator) -> None:
    """The slot holds an image that the browser decoded (not a broken one)."""
    image = slot.locator("img")
    expect(image).to_have_count(1)
    image.evaluate("img => img.decode()")  # waits for it to decode (rejects when broken)
    assert image.evaluate("img => img.naturalWidth") > 0


def line_face(page: Page, text: str) -> Locator:
    return page.locator("#log li.ev", has_text=text).locator(".face")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_face_uploaded_on_the_card_shows_everywhere(
    browser, server, viewport, tmp_path: Path
) -> None:
    gm = new_page(browser, viewport)
    create_room(gm, server, f"顔の卓-{viewport['width']}", "LittleWorld")
    invite = invite_url(gm)
    mina, sora = new_page(browser, viewport), new_page(browser, viewport)
    join(mina, invite, "mina.json", LITTLEWORLD_PLAYERS[0])
    join(sora, invite, "sora.json", LITTLEWORLD_PLAYERS[1])
    send_line(mina, "顔の前")
    expect(line_face(sora, "顔の前").locator("img")).to_have_count(0)

    # ソラ may not change ミナ's face: no upload on her card, only on her own
    expect(sora.locator('.card[data-name="ミナ"] .face-upload')).to_have_count(0)
    expect(sora.locator('.card[data-name="ソラ"] .face-upload')).to_have_count(1)

    upload_face(mina, "ミナ", FACES[0])
    for page in (mina, sora, gm):  # the event brings it to every page, none reloaded
        shown_image(page.locator('.card[data-name="ミナ"] .face'))
        shown_image(line_face(page, "顔の前"))  # lines already there follow the face
    send_line(mina, "顔のあと")
    for page in (mina, sora):
        shown_image(line_face(page, "顔のあと"))
    expect(mina.locator("#line-error")).to_have_text("")

    # a file that is no image: refused with a message, the face stays
    upload_face(mina, "ミナ", b"no image")
    expect(mina.locator("#line-error")).to_contain_text("画像として読めません")
    shown_image(mina.locator('.card[data-name="ミナ"] .face'))

    # the log as one offline file: its face is a data: URL, shown with the network blocked
    with gm.expect_download() as download:
        gm.get_by_role("button", name="ログをダウンロード (HTML)").click()
    saved = tmp_path / "log.html"
    saved.write_bytes(Path(download.value.path()).read_bytes())
    offline = browser.new_context(viewport=viewport, offline=True)
    requests: list[str] = []

    def block(route: Route) -> None:  # the file itself opens; anything else would be fetched
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            requests.append(route.request.url)
            route.abort()

    offline.route("**/*", block)
    reader = offline.new_page()
    reader.goto(saved.as_uri())
    face = reader.locator("li", has_text="顔のあと").locator("img.face")
    expect(face).to_have_count(1)
    assert face.get_attribute("src").startswith("data:image/")
    face.evaluate("img => img.decode()")
    assert face.evaluate("img => img.naturalWidth") > 0
    assert requests == []
    offline.close()
    for page in (gm, mina, sora):
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
