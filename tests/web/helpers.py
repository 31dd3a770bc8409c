"""Steps the browser tests share: create a room, join by a link, drop a file, read the page."""

from __future__ import annotations

import base64
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

#: How long a step may wait for its condition (a page to show something, a value to
#: appear) before the test reports a hang. Every wait is on a condition, so a fast machine
#: never waits this long; only a stuck page does. Playwright's default (5 s) is a race on a
#: machine under load: CI saw a GM's invite URL appear after it.
HANG_GUARD_MS = 90_000
expect.set_options(timeout=HANG_GUARD_MS)

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def new_page(browser: Browser, viewport: dict[str, int] = LAPTOP) -> Page:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(HANG_GUARD_MS)
    context.set_default_navigation_timeout(HANG_GUARD_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def drop_file(page: Page, selector: str, filename: str, content: str | bytes) -> None:
    """Drop a file (text, or bytes such as a zip) onto an element as a user dragging it from
    their desktop would."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    transfer: Any = page.evaluate_handle(
        """([name, b64]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const data = new DataTransfer();
            data.items.add(new File([bytes], name, {type: 'application/octet-stream'}));
            return data;
        }""",
        [filename, base64.b64encode(raw).decode("ascii")],
    )
    page.dispatch_event(selector, "drop", {"dataTransfer": transfer})


def create_room(page: Page, base: str, name: str, system: str) -> None:
    page.goto(base)
    page.fill("#create-form [name=name]", name)
    page.select_option("#create-form [name=system]", system)
    page.click("#create-form button[type=submit]")
    expect(page.locator("#room")).to_be_visible()
    expect(page.locator("#status")).to_have_text("接続中")


def invite_url(gm: Page) -> str:
    field = gm.locator("#links input").first
    expect(field).to_have_value(re.compile(r"#room=.*&invite="))
    return field.input_value()


def join(page: Page, invite: str, filename: str, character: str | bytes) -> None:
    """Open the invite link and join with a dropped character file."""
    page.goto(invite)
    expect(page.locator("#join")).to_be_visible()
    drop_file(page, "#drop", filename, character)
    expect(page.locator("#join-form [name=character]")).not_to_have_value("")
    page.click("#join-form button[type=submit]")
    expect(page.locator("#room")).to_be_visible()
    expect(page.locator("#status")).to_have_text("接続中")


def send_line(page: Page, line: str) -> None:
    page.fill("#line", line)
    page.press("#line", "Enter")
    expect(page.locator("#line")).to_have_value("")


def log_texts(page: Page) -> list[str]:
    return page.locator("#log li.ev:not(.local)").all_inner_texts()


def card_hp(page: Page, name: str) -> Any:
    return page.locator(f'.card[data-name="{name}"] .hp')


def upload_face(page: Page, name: str, image: bytes) -> None:
    """Choose an image file for ``name``'s face on its card (the card's upload button)."""
    upload = page.locator(f'.card[data-name="{name}"] .face-upload input[type=file]')
    upload.set_input_files(files=[{"name": "face.png", "mimeType": "image/png", "buffer": image}])
