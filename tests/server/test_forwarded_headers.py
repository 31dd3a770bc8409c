"""Forwarded headers are believed only from ``--trusted-proxy`` addresses (real sockets).

The trusted "proxy" is this test connecting from 127.0.0.2 (all of 127.0.0.0/8 is
loopback on Linux); a client connecting from 127.0.0.1 sends the same headers, forged.
Room creation is limited to one per client address (``--rooms-per-minute 0.01``: the next
token comes after 100 minutes), so which address the server counted shows in 201 vs 429.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from saikoro.server.proxy import (
    ProxySettingError,
    TrustedProxies,
    forwarded_scope,
    parse_public_url,
)

from .table_live import Server, sheet, start_server, unique_room

PROXY = "127.0.0.2"


def client_from(address: str, base: str) -> httpx.Client:
    return httpx.Client(
        base_url=base, timeout=20.0, transport=httpx.HTTPTransport(local_address=address)
    )


def create(client: httpx.Client, **headers: str) -> httpx.Response:
    return client.post("/api/rooms", json={"name": unique_room(), "system": "LittleWorld"},
                       headers=headers)  # fmt: skip


FORGED = {
    "X-Forwarded-For": "203.0.113.7",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "evil.example",
}


@pytest.fixture(scope="module")
def untrusting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("no-proxy")
    server = start_server(str(folder / "rooms.sqlite"), folder, "--rooms-per-minute", "0.01")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("proxy")
    server = start_server(
        str(folder / "rooms.sqlite"), folder, "--rooms-per-minute", "0.01",
        "--trusted-proxy", PROXY,
    )  # fmt: skip
    yield server
    server.stop()


def test_by_default_forwarded_headers_are_ignored(untrusting: Server) -> None:
    with client_from("127.0.0.1", untrusting.base) as client:
        first = create(client, **FORGED)
        assert first.status_code == 201, first.text
        body = first.json()
        for key in ("gm_url", "invite_url", "spectator_url"):  # the address it was reached at
            assert body[key].startswith(f"{untrusting.base}/#room="), body[key]
        # A new forged address does not buy a new room: the server counts 127.0.0.1.
        again = create(client, **{**FORGED, "X-Forwarded-For": "203.0.113.8"})
        assert again.status_code == 429, again.text
    assert "evil.example" not in untrusting.log() and "203.0.113" not in untrusting.log()


def test_a_trusted_proxy_names_the_client_scheme_and_host(behind_proxy: Server) -> None:
    forwarded = {**FORGED, "X-Forwarded-Host": "table.example.org"}
    with client_from(PROXY, behind_proxy.base) as proxy:
        first = create(proxy, **forwarded)
        assert first.status_code == 201, first.text
        body = first.json()
        for key in ("gm_url", "invite_url", "spectator_url"):
            assert body[key].startswith("https://table.example.org/#room="), body[key]
        assert "&invite=" in body["invite_url"]  # the token stays in the fragment
        # The limit counts the client the proxy named, not the proxy.
        same_client = create(proxy, **forwarded)
        assert same_client.status_code == 429, same_client.text
        other_client = create(proxy, **{**forwarded, "X-Forwarded-For": "203.0.113.99"})
        assert other_client.status_code == 201, other_client.text
        # A chain: the client is the right-most address the trusted proxy did not add.
        chained = create(
            proxy, **{**forwarded, "X-Forwarded-For": f"198.51.100.1, 203.0.113.50, {PROXY}"}
        )
        assert chained.status_code == 201, chained.text
        assert create(proxy, **{**forwarded, "X-Forwarded-For": "203.0.113.50"}).status_code == 429
    assert "203.0.113.7" in behind_proxy.log()  # the access log shows the real client


def test_forged_headers_from_another_address_are_ignored_behind_a_proxy(
    behind_proxy: Server,
) -> None:
    with client_from("127.0.0.1", behind_proxy.base) as direct:
        first = create(direct, **{**FORGED, "X-Forwarded-For": "203.0.113.200"})
        assert first.status_code == 201, first.text
        assert first.json()["gm_url"].startswith(f"{behind_proxy.base}/#room=")
        forged = create(direct, **{**FORGED, "X-Forwarded-For": "203.0.113.201"})
        assert forged.status_code == 429, forged.text  # still 127.0.0.1's bucket
    with client_from(PROXY, behind_proxy.base) as proxy:  # the forged client got no room
        named = create(proxy, **{**FORGED, "X-Forwarded-For": "203.0.113.200"})
        assert named.status_code == 201, named.text


def test_a_public_url_fixes_the_links_origin(tmp_path: Path) -> None:
    server = start_server(
        str(tmp_path / "rooms.sqlite"), tmp_path, "--public-url", "https://table.example.org"
    )
    try:
        with client_from("127.0.0.1", server.base) as client:
            created = create(client, **FORGED)  # untrusted headers change nothing either
            assert created.status_code == 201, created.text
            body = created.json()
            assert body["invite_url"].startswith("https://table.example.org/#room=")
            joined = client.post(
                f"/api/rooms/{body['room']}/join",
                json={"invite": body["invite_token"], "character": sheet("carol")},
            )
            assert joined.status_code == 200, joined.text
            assert joined.json()["url"].startswith("https://table.example.org/#room=")
    finally:
        server.stop()


def scope(client: str, headers: dict[str, str], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "client": (client, 50000),
        "headers": [(b"host", b"127.0.0.1:8000")]
        + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }


def test_forwarded_scope_rules() -> None:
    trusted = TrustedProxies.parse(["127.0.0.1", "10.0.0.0/8"])
    same = scope("192.0.2.1", FORGED)
    assert forwarded_scope(same, trusted) is same  # untrusted: untouched
    seen = forwarded_scope(scope("10.2.3.4", FORGED), trusted)
    assert seen["client"] == ("203.0.113.7", 0) and seen["scheme"] == "https"
    assert (b"host", b"evil.example") in seen["headers"]
    assert [n for n, _ in seen["headers"]].count(b"host") == 1
    socket = forwarded_scope(scope("127.0.0.1", FORGED, "websocket"), trusted)
    assert socket["scheme"] == "wss"
    mapped = forwarded_scope(scope("::ffff:127.0.0.1", FORGED), trusted)
    assert mapped["client"][0] == "203.0.113.7"
    # Junk values are ignored one by one, never half-applied.
    junk = forwarded_scope(
        scope("127.0.0.1", {"X-Forwarded-For": "not-an-ip", "X-Forwarded-Proto": "gopher",
                            "X-Forwarded-Host": "a b/c"}), trusted)  # fmt: skip
    assert junk["client"] == ("127.0.0.1", 50000) and junk["scheme"] == "http"
    assert junk["headers"][0] == (b"host", b"127.0.0.1:8000")
    ported = forwarded_scope(scope("127.0.0.1", {"X-Forwarded-For": "[2001:db8::1]:443",
                                                  "X-Forwarded-Host": "t.example:8443"}), trusted)  # fmt: skip
    assert ported["client"][0] == "2001:db8::1"
    assert (b"host", b"t.example:8443") in ported["headers"]
    # Every hop trusted: the left-most is the client.
    assert forwarded_scope(scope("127.0.0.1", {"X-Forwarded-For": "10.0.0.9, 10.0.0.8"}),
                           trusted)["client"][0] == "10.0.0.9"  # fmt: skip


def test_setting_parsers() -> None:
    assert TrustedProxies.parse(["127.0.0.1", " ::1 ", "", "127.0.0.1"]).texts() == [
        "127.0.0.1",
        "::1",
    ]
    assert not TrustedProxies.parse([])
    assert parse_public_url("HTTPS://Example.org:8443/") == "https://example.org:8443"
    assert parse_public_url("http://[2001:db8::1]:8000") == "http://[2001:db8::1]:8000"
    for bad in ("*", "localhost", "10.0.0.0/33"):
        with pytest.raises(ProxySettingError):
            TrustedProxies.parse([bad])
    for bad in (
        "",
        "example.org",
        "https://",
        "https://e.org/x",
        "https://e.org#f",
        "https://e.org:99999",
    ):
        with pytest.raises(ProxySettingError):
            parse_public_url(bad)
