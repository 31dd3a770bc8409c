"""Limits that keep one room (or one link) from hurting the others, per server process.

- a token bucket per link for lines (HTTP and WebSocket alike) and per client address
  for creating rooms;
- caps on open WebSockets per room and per link;
- what one invite, one address and one room may take (issue 18: one invite filled the
  disk): joins per invite per minute, players per room, rooms per address, and a storage
  quota per room (its events' bytes; the GM sees the usage in ``/state``);
- the WebSocket heartbeat: a ``{"type": "ping"}`` every ``ping_interval`` seconds, and the
  socket is closed when the client sent nothing for ``idle_timeout`` seconds.

Line length is the same bound as ``saikoro play`` (the dispatcher's ``MAX_INPUT_LENGTH``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class TableLimits:
    #: Lines per second per link (sustained); 0 = unlimited.
    line_rate: float = 5.0
    #: Lines a link may send at once before the rate applies.
    line_burst: int = 20
    #: Rooms one client address may create per minute; 0 = unlimited.
    rooms_per_minute: float = 10.0
    max_ws_per_room: int = 200
    max_ws_per_link: int = 8
    ping_interval: float = 20.0
    idle_timeout: float = 90.0
    #: Joins one invite link may make per minute (also at once); 0 = unlimited.
    joins_per_minute: float = 12.0
    #: Players (live personal links) per room; 0 = unlimited.
    max_players: int = 12
    #: Rooms one client address may create while this process runs; 0 = unlimited.
    rooms_per_address: int = 100
    #: Bytes of stored events per room; a room at its quota takes no more lines; 0 = none.
    room_quota_bytes: int = 32 * 1024 * 1024


class TokenBuckets:
    """``allow(key)``: one token from ``key``'s bucket (refilled at ``rate`` per second).

    At most ``max_keys`` buckets are kept (the least recently used go first: a forgotten
    bucket is a full one, which only ever errs on the side of allowing).
    """

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_keys = max_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        if self.rate <= 0:
            return True
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self.buckets[key] = (tokens, now)
        if len(self.buckets) > self.max_keys:
            self.buckets.popitem(last=False)
        return allowed

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` has a token again."""
        tokens, _then = self.buckets.get(key, (self.burst, 0.0))
        return max(0.0, (1.0 - tokens) / self.rate) if self.rate > 0 else 0.0


class ConnectionCaps:
    """Counts open WebSockets per room and per link; ``acquire`` refuses past the caps."""

    def __init__(self, per_room: int, per_link: int) -> None:
        self.per_room = per_room
        self.per_link = per_link
        self.rooms: dict[str, int] = {}
        self.links: dict[str, int] = {}

    def acquire(self, room: str, link: str) -> str | None:
        """None when taken; else which cap is full ("room" or "link")."""
        if self.rooms.get(room, 0) >= self.per_room:
            return "room"
        if self.links.get(link, 0) >= self.per_link:
            return "link"
        self.rooms[room] = self.rooms.get(room, 0) + 1
        self.links[link] = self.links.get(link, 0) + 1
        return None

    def release(self, room: str, link: str) -> None:
        for counts, key in ((self.rooms, room), (self.links, link)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)
