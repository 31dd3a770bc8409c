"""The web table in Chromium: palette click → result on the other browser, and page weight.

    python benchmarks/bench_webtable.py [--clicks 50]

Starts ``saikoro serve`` on loopback (a temporary SQLite database), opens a GM and a player
page (Debian's /usr/bin/chromium through Playwright), and clicks the player's first palette
button that sends its line (``【体力】判定``, not one to fill in first) ``--clicks`` times
(paced under the server's per-link line rate). Each delay is from the click (the player
page's clock) to the first log line that click adds appearing in the GM's page (its clock;
both pages run in one browser on this machine, so the clocks agree). Also the bytes transferred when the room page first
loads (HTML, CSS, JS, icon; then with the API calls of the first render).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.characters import LITTLEWORLD_PLAYERS  # noqa: E402
from tests.web.conftest import CHROMIUM_ARGS, Served, free_port  # noqa: E402
from tests.web.helpers import create_room, invite_url, join  # noqa: E402

WATCH = """() => {
    window.__seen = [];
    new MutationObserver((changes) => {
        const at = performance.timeOrigin + performance.now();
        for (const change of changes) for (const node of change.addedNodes) window.__seen.push(at);
    }).observe(document.querySelector('#log'), {childList: true});
}"""
CLICK = """() => {
    const button = document.querySelector('.palette-item:not(.edit)');
    const at = performance.timeOrigin + performance.now();
    button.click();
    return at;
}"""


def page_weight(browser, url: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Bytes (headers + bodies) of every response while ``url`` first loads."""
    page = browser.new_context().new_page()
    sizes: list[tuple[str, int]] = []

    def done(request) -> None:  # type: ignore[no-untyped-def]
        s = request.sizes()
        sizes.append((request.url, s["responseBodySize"] + s["responseHeadersSize"]))

    page.on("requestfinished", done)
    page.goto(url)
    page.wait_for_selector("#status:text('接続中')")
    page.wait_for_timeout(500)
    page.close()
    static = sum(n for u, n in sizes if "/api/" not in u)
    return {"static_bytes": static, "total_bytes": sum(n for _, n in sizes), "requests": len(sizes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clicks", type=int, default=50)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        port = free_port()
        served = Served(
            [
                sys.executable,
                "-m",
                "saikoro",
                "serve",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            Path(tmp),
        )
        try:
            base = f"http://127.0.0.1:{port}/"
            served.wait_until_up(base)
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            gm = browser.new_context().new_page()
            create_room(gm, base, "計測", "LittleWorld")
            player = browser.new_context().new_page()
            join(player, invite_url(gm), "mina.json", LITTLEWORLD_PLAYERS[0])
            player.wait_for_selector(".palette-item:not(.edit)")
            gm.evaluate(WATCH)
            delays = []
            for _ in range(args.clicks):
                before = gm.evaluate("() => window.__seen.length")
                clicked = player.evaluate(CLICK)
                gm.wait_for_function("(n) => window.__seen.length > n", arg=before)
                seen = gm.evaluate("(n) => window.__seen[n]", before)
                delays.append(seen - clicked)
                time.sleep(0.25)  # under the server's 5 lines/s per link
            weight = page_weight(browser, player.url)
            browser.close()
        finally:
            served.stop()
    delays.sort()
    result = {
        "clicks": len(delays),
        "p50_ms": round(statistics.median(delays), 1),
        "p90_ms": round(delays[int(len(delays) * 0.9) - 1], 1),
        "max_ms": round(delays[-1], 1),
        **weight,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
