"""``saikoro serve`` behind a real Caddy with automatic HTTPS (``tls internal``) on loopback.

What docs/deploy.md promises, run end to end: Caddy (Debian's ``caddy``) terminates TLS
with a certificate from its own local CA (kept in a temporary directory, never installed in
the system's trust store) and proxies to ``saikoro serve --trusted-proxy 127.0.0.1``. Over
HTTPS, trusting only that CA's root file: the page, the table API (a room whose invite and
GM links start with the public ``https://`` origin, a join through the invite), a ``wss://``
WebSocket that receives a posted line, and Chromium opening the table over HTTPS.

Without Caddy the test is skipped on a developer's machine and fails in CI (CI=true), as the
PostgreSQL and browser tests do.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.loopback import free_address

from .table_live import Server, sheet, start_server, unique_room

CADDYFILE = """\
{{
	admin off
	skip_install_trust
	http_port {http_port}
	https_port {https_port}
	auto_https disable_redirects
	storage file_system {{
		root {storage}
	}}
	servers {{
		protocols h1 h2
	}}
}}

{origin} {{
	bind {host}
	tls internal
	reverse_proxy {upstream}
}}
"""


def caddy_path() -> str:
    found = shutil.which("caddy")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs Caddy: apt-get install caddy (see .ci/run)")
        pytest.skip("Caddy is not installed (apt-get install caddy)")
    return found


@dataclass
class Proxied:
    origin: str  # https://127.x.y.z:PORT, what players would open
    root_ca: Path  # Caddy's local CA certificate: the only thing the clients trust
    saikoro: Server
    caddy_log: Path

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_ca))

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.origin, verify=self.tls(), timeout=20.0)


def wait_for_https(proxied: Proxied, caddy: subprocess.Popen, timeout: float = 60.0) -> None:
    """Until Caddy has made its CA and certificate and answers the page through saikoro."""
    deadline = time.monotonic() + timeout
    while True:
        if caddy.poll() is not None:
            raise AssertionError("caddy exited:\n" + proxied.caddy_log.read_text("utf-8"))
        if proxied.root_ca.exists():
            try:
                with proxied.http() as client:
                    if client.get("/").status_code == 200:
                        return
            except (httpx.TransportError, ssl.SSLError):
                pass
        if time.monotonic() > deadline:
            raise AssertionError("caddy did not serve:\n" + proxied.caddy_log.read_text("utf-8"))
        time.sleep(0.1)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    executable = caddy_path()
    folder = tmp_path_factory.mktemp("caddy")
    saikoro = start_server(str(folder / "rooms.sqlite"), folder, "--trusted-proxy", "127.0.0.1")
    host, https_port = free_address()
    origin = f"https://{host}:{https_port}"
    caddyfile = folder / "Caddyfile"
    caddyfile.write_text(
        CADDYFILE.format(
            http_port=free_address()[1],  # unused: no site is plain HTTP
            host=host,
            https_port=https_port,
            storage=folder / "caddy-data",
            origin=origin,
            upstream=saikoro.base.removeprefix("http://"),
        ),
        "utf-8",
    )
    home = folder / "home"  # Caddy's config and data folders: nothing outside the test's
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    caddy_log = folder / "caddy.log"
    with caddy_log.open("wb") as log:
        caddy = subprocess.Popen(
            [executable, "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=folder,
            env=env,
        )
    proxy = Proxied(
        origin, folder / "caddy-data/pki/authorities/local/root.crt", saikoro, caddy_log
    )
    try:
        wait_for_https(proxy, caddy)
        yield proxy
    finally:
        caddy.terminate()
        try:
            caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            caddy.kill()
            caddy.wait()
        saikoro.stop()


def test_the_page_and_the_api_over_https_give_https_links(proxied: Proxied) -> None:
    with proxied.http() as client:
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "Caddy" in page.headers["server"]  # it came through the proxy
        assert client.get("/v2/version").json()["api"]

        created = client.post("/api/rooms", json={"name": unique_room(), "system": "LittleWorld"})
        assert created.status_code == 201, created.text
        room = created.json()
        for key in ("gm_url", "invite_url", "spectator_url"):
            assert room[key].startswith(f"{proxied.origin}/#room="), room[key]
        assert "&invite=" in room["invite_url"] and "?" not in room["invite_url"]

        # Join as a player would: the room and the invite token read from the invite URL.
        fragment = dict(
            part.split("=", 1) for part in room["invite_url"].partition("#")[2].split("&")
        )
        joined = client.post(
            f"/api/rooms/{fragment['room']}/join",
            json={"invite": fragment["invite"], "character": sheet("alice")},
        )
        assert joined.status_code == 200, joined.text
        assert joined.json()["url"].startswith(f"{proxied.origin}/#room=")
    # saikoro counted the client Caddy named (here also 127.0.0.1), with its own port gone.
    assert '127.0.0.1:0 - "POST /api/rooms HTTP/1.1" 201' in proxied.saikoro.log()


def test_a_wss_socket_through_caddy_receives_a_posted_line(proxied: Proxied) -> None:
    with proxied.http() as client:
        name = unique_room()
        created = client.post("/api/rooms", json={"name": name, "system": "LittleWorld"})
        assert created.status_code == 201, created.text
        gm_token = created.json()["gm_token"]
        path = f"/api/rooms/{quote(name, safe='')}"
        wss = proxied.origin.replace("https://", "wss://") + f"{path}/ws?token={gm_token}"

        async def scenario() -> dict:
            async with connect(wss, ssl=proxied.tls(), open_timeout=20) as socket:
                while True:  # the server says when it has subscribed the socket
                    message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                    if message.get("type") == "ready":
                        break
                said = await asyncio.to_thread(
                    client.post, f"{path}/lines", json={"line": "HTTPS越しです"},
                    headers={"Authorization": f"Bearer {gm_token}"},
                )  # fmt: skip
                assert said.status_code == 200, said.text
                while True:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 20))
                    if message.get("type") == "event":
                        return message

        event = asyncio.run(scenario())
    assert "HTTPS越しです" in event["text"]["ja"]


def test_chromium_opens_the_table_over_https(proxied: Proxied) -> None:
    from tests.web.conftest import CHROMIUM_ARGS, chromium_path

    executable = chromium_path()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            # The page trusts no system CA store here: Caddy's local root is not installed.
            page = browser.new_context(ignore_https_errors=True).new_page()
            page.goto(proxied.origin + "/")
            page.fill("#create-form [name=name]", unique_room())
            page.select_option("#create-form [name=system]", "LittleWorld")
            page.click("#create-form button[type=submit]")
            expect(page.locator("#status")).to_have_text("接続中")  # the wss:// socket is up
            invite = re.compile("^" + re.escape(proxied.origin + "/#room=") + ".*&invite=")
            expect(page.locator("#links input").first).to_have_value(invite)
            page.fill("#line", "ブラウザからです")
            page.press("#line", "Enter")
            expect(page.locator("#log li.ev").last).to_contain_text("ブラウザからです")
            assert page.evaluate("location.protocol") == "https:"
        finally:
            browser.close()


def test_every_caddyfile_in_docs_deploy_is_one_caddy_accepts(tmp_path: Path) -> None:
    """The domain's Caddyfile cannot be served here (no public domain, no ACME), but Caddy
    itself checks that it and the others in docs/deploy.md are valid (``caddy adapt``)."""
    executable = caddy_path()
    text = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text("utf-8")
    blocks = [block.split("```")[0] for block in text.split("```caddy\n")[1:]]
    assert len(blocks) >= 2
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    for number, block in enumerate(blocks):
        caddyfile = tmp_path / f"Caddyfile{number}"
        caddyfile.write_text(block, "utf-8")
        done = subprocess.run(
            [executable, "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
            capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, block + done.stderr
