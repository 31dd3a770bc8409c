"""Running behind a reverse proxy: whose forwarded headers to believe, and the public origin.

A proxy that terminates TLS (Caddy, nginx) connects to ``saikoro serve`` itself, so the
server sees the proxy's address, ``http`` and whatever ``Host`` the proxy sends. The proxy
says who the client was in ``X-Forwarded-For``, ``X-Forwarded-Proto`` and
``X-Forwarded-Host`` — but any client can send those headers too. :func:`forwarded_scope`
(applied to every request by the app's front door, :class:`saikoro.server.fastpath.SaikoroAPI`)
believes them only on a connection from an address of :class:`TrustedProxies` (``saikoro
serve --trusted-proxy``; none by default), and then rewrites the request's client address
(what the per-address limits count), scheme and host (what invite and GM links are built
from). From any other address they are ignored.

A ``--public-url`` (:func:`parse_public_url`) fixes the origin of every link the server
builds, whatever the headers say.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.middleware import Scope

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: What a forwarded host may be: a DNS name or an address, with an optional port.
_HOST = re.compile(
    r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$"
)


class ProxySettingError(SaikoroError):
    reason = "bad proxy setting"


@dataclass(frozen=True)
class TrustedProxies:
    """The addresses (or networks) whose forwarded headers are believed."""

    networks: tuple[Network, ...] = ()
    _cache: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def parse(cls, entries: Iterable[str]) -> TrustedProxies:
        """``127.0.0.1``, ``::1``, ``10.0.0.0/8``…; anything else is a bilingual error
        (``*`` too: trusting every address would let any client forge its address)."""
        networks: list[Network] = []
        for entry in (e.strip() for e in entries):
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                raise ProxySettingError(
                    Message(
                        f"信頼するプロキシ {entry!r} は IP アドレスかネットワーク"
                        " (例: 127.0.0.1, ::1, 10.0.0.0/8) ではありません",
                        f"trusted proxy {entry!r} is not an IP address or network"
                        " (e.g. 127.0.0.1, ::1, 10.0.0.0/8)",
                    )
                ) from None
        return cls(tuple(dict.fromkeys(networks)))

    def texts(self) -> list[str]:
        """The entries as text (single addresses without their /32 or /128)."""
        return [
            str(net.network_address) if net.num_addresses == 1 else str(net)
            for net in self.networks
        ]

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, host: object) -> bool:
        if not self.networks or not isinstance(host, str) or not host:
            return False
        known = self._cache.get(host)
        if known is None:
            known = _in_networks(host, self.networks)
            if len(self._cache) < 4096:
                self._cache[host] = known
        return known


def _in_networks(host: str, networks: tuple[Network, ...]) -> bool:
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        mapped = address.ipv4_mapped
        return any(mapped in net or address in net for net in networks)
    return any(address in net for net in networks)


def parse_public_url(text: str) -> str:
    """``https://table.example.org`` (optionally with a port): the origin, without a
    trailing slash. A path, query, fragment or user name is refused (the table is served
    at the root of its origin)."""
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 -- raises ValueError on a port that is not a number
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or not _HOST.match(parts.netloc)
    ):
        raise ProxySettingError(
            Message(
                f"公開 URL {text!r} は https://ホスト名[:ポート] の形で指定してください"
                " (パスやクエリは付けません)",
                f"public URL {text!r} must be https://host[:port] (no path or query)",
            )
        )
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _last(value: bytes) -> str:
    """The value the nearest proxy set: the last of a comma-separated list."""
    return value.decode("latin-1").rpartition(",")[2].strip()


def _client_from(forwarded_for: str, trusted: TrustedProxies) -> str | None:
    """The client: the right-most address the trusted proxies did not add themselves."""
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        host = _strip_port(hop)
        if host not in trusted:
            return host if _is_address(host) else None
    return _strip_port(hops[0]) if hops and _is_address(_strip_port(hops[0])) else None


def _strip_port(hop: str) -> str:
    if hop.startswith("["):
        return hop[1:].partition("]")[0]
    if hop.count(":") == 1:
        return hop.partition(":")[0]
    return hop


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def forwarded_scope(scope: Scope, trusted: TrustedProxies) -> Scope:
    """``scope`` as the proxy's client sent it, when the connection is from a trusted
    proxy; otherwise ``scope`` unchanged (forged headers are ignored)."""
    client = scope.get("client")
    if not client or client[0] not in trusted:
        return scope
    headers: list[tuple[bytes, bytes]] = list(scope.get("headers") or [])
    forwarded_for = [value for name, value in headers if name == b"x-forwarded-for"]
    proto = next((value for name, value in headers if name == b"x-forwarded-proto"), None)
    host = next((value for name, value in headers if name == b"x-forwarded-host"), None)
    changed: dict[str, Any] = {}
    if forwarded_for:
        real = _client_from(b",".join(forwarded_for).decode("latin-1"), trusted)
        if real:
            changed["client"] = (real, 0)
    if proto is not None and _last(proto) in ("http", "https"):
        secure = _last(proto) == "https"
        if scope["type"] == "websocket":
            changed["scheme"] = "wss" if secure else "ws"
        else:
            changed["scheme"] = "https" if secure else "http"
    if host is not None and _HOST.match(_last(host)):
        public_host = _last(host).encode("latin-1")
        changed["headers"] = [(n, v) for n, v in headers if n != b"host"] + [(b"host", public_host)]
    return {**scope, **changed} if changed else scope
