"""The page needs nothing but its own server: with every other host blocked it loads and
plays, and it never even tries another host. And the README's first command leaves a
server whose printed URL opens the page."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.loopback import free_address
from tests.web.characters import UNMEID100_PLAYERS
from tests.web.conftest import Served
from tests.web.helpers import HANG_GUARD_MS, create_room, invite_url, join, new_page, send_line

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_page_works_with_every_other_host_blocked(browser, server) -> None:
    own = urlsplit(server).netloc
    attempted: list[str] = []
    context = browser.new_context()
    context.set_default_timeout(HANG_GUARD_MS)

    def only_own(route) -> None:  # type: ignore[no-untyped-def]
        if urlsplit(route.request.url).netloc == own:
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort()

    context.route("**/*", only_own)
    gm = context.new_page()
    create_room(gm, server, "閉じた卓", "UnmeiD100")
    player = new_page(browser)
    player.context.route("**/*", only_own)
    join(player, invite_url(gm), "rina.json", UNMEID100_PLAYERS[1])
    player.locator(".palette-item", has_text="運命判定").first.click()
    expect(gm.locator("#log li.ev").last).to_contain_text("運命判定")
    send_line(gm, "/combat start")
    expect(player.locator("#combat .order li")).to_have_count(1)
    gm.get_by_role("button", name="English").click()
    expect(gm.get_by_role("button", name="Start combat")).to_be_visible()
    expect(gm.locator("#log li.ev").last).to_contain_text("turn")
    expect(gm.locator("#status")).to_have_text("Connected")
    assert attempted == [], attempted


def test_the_readme_first_command_serves_the_page(browser, tmp_path: Path) -> None:
    """Quick start 1 on a fresh copy of the repository (its committed files): a new venv,
    ``pip install ".[server]"``, ``saikoro serve`` (on a free port), whose printed URL opens the
    page. Installing takes a minute or more, so outside CI (or SAIKORO_TEST_FRESH_INSTALL=1)
    only the serve part runs, from this checkout's environment, in an empty directory."""
    first = next(
        line
        for line in README.read_text("utf-8").splitlines()
        if line.startswith("python3 -m venv")
    )
    assert first.endswith(' && .venv/bin/pip install ".[server]" && .venv/bin/saikoro serve'), first
    host, port = free_address()
    if os.environ.get("CI") or os.environ.get("SAIKORO_TEST_FRESH_INSTALL"):
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True, check=True
        )
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp_path)
        command = ["bash", "-c", f"{first} --host {host} --port {port}"]
    else:
        command = [sys.executable, "-m", "saikoro", "serve", "--host", host, "--port", str(port)]
    served = Served(command, tmp_path)
    try:
        url = served.printed_url(timeout=900)
        served.wait_until_up(url)  # printed before it listens
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200
            assert '<main id="lobby"' in response.read().decode("utf-8")
        page = browser.new_page()
        page.set_default_timeout(HANG_GUARD_MS)
        page.goto(url)
        expect(page.get_by_role("heading", name="部屋を作る")).to_be_visible()
        page.close()
        assert (tmp_path / "saikoro.db").exists()  # the embedded SQLite default
    finally:
        served.stop()
