"""Loopback addresses for the test servers (saikoro serve, PostgreSQL, Caddy)."""

from __future__ import annotations

import secrets
import socket


def free_address() -> tuple[str, int]:
    """A loopback address of its own (127.x.y.z, picked at random) and a free port on it.

    Test suites running side by side on one machine each pick a free port for a server, which
    binds it a moment later; on 127.0.0.1 two suites could pick the same port in that moment,
    and one suite's requests then reached the other's server. Nobody else listens on an
    address picked from 16 million. The clients still connect from 127.0.0.1.
    """
    pick = secrets.SystemRandom()  # not the seeded `random` some tests set
    host = f"127.{pick.randrange(1, 255)}.{pick.randrange(256)}.{pick.randrange(1, 255)}"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return host, int(sock.getsockname()[1])
