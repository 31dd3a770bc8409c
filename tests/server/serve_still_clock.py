"""``saikoro serve`` (the real CLI and server) whose rate limits' clock stands still:
``python tests/server/serve_still_clock.py ARGS…`` (the arguments of ``saikoro serve``).

Every token bucket of the table (joins per invite, rooms per address, lines per link) is
asked at one fixed instant, so a bucket never refills: a test of a limit counts tokens,
and a flood that a busy machine stretches over seconds is cut exactly where one sent in
a millisecond is.
"""

from __future__ import annotations

import sys

from saikoro.cli.main import app
from saikoro.server.table import limits


def main() -> None:
    allow = limits.TokenBuckets.allow

    def allow_now(self: limits.TokenBuckets, key: str, now: float | None = None) -> bool:
        return allow(self, key, 0.0)

    limits.TokenBuckets.allow = allow_now  # type: ignore[method-assign]
    app(["serve", *sys.argv[1:]])


if __name__ == "__main__":
    main()
