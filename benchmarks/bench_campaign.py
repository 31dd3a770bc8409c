"""The live table at campaign scale: 100 pages in one room, and opening a 100 000-event room.

**100 pages** — one ``saikoro serve`` (SQLite) and 100 WebSocket clients in one room, each
doing what the web page does with an event frame: apply its ``change`` when it chains onto
the version it holds, else ``GET …/state`` (over its own keep-alive connection) — so a
client "has the line and its state" when it read the frame and, if it had to, the state.
The GM posts lines one at a time (alternately a chat line and ``@X :HP-1``, a state change);
latency = from just before the POST to the moment a client has the line and its state, over
every (line, client). Next to it, in the same run, the bare peer: a Starlette app under
uvicorn with exactly ``saikoro serve``'s WebSocket settings (no per-message deflate, 64 KiB
message bound, 20 s pings) that keeps the sockets in a set and sends each of them a frame of
the same bytes as saikoro's (captured from the saikoro run), its clients running the same code.
Clients connect from distinct loopback addresses (the per-address connection cap).

**Open a room** — two rooms in one database, of 100 and 100 000 events; opening one is what
the page does first: ``GET …/state`` then ``GET …/events?before=VERSION+1&limit=100`` (as app.js).
Printed: bytes and time until both answers are read (the first render's input).

Every figure is min / median / max over ``--rounds`` rounds, the scenarios alternating, with
the ratios of the medians (targets: p99 ≤ 2× bare; open 100k ≤ 2× open 100, bytes and time).

Usage::

    python benchmarks/bench_campaign.py              # 100 clients, 20 lines, 3 rounds
    python benchmarks/bench_campaign.py --quick      # 30 clients, 8 lines, 2 rounds
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench_hostile import start_server
from bench_hostile import stop_server as stop
from bench_server import free_port, start

REPO = Path(__file__).resolve().parents[1]

#: ``saikoro serve``'s WebSocket options (src/saikoro/cli/serve.py), for the bare peer.
WS_SETTINGS: dict[str, Any] = {
    "ws_max_size": 64 * 1024,
    "ws_ping_interval": 20.0,
    "ws_ping_timeout": 20.0,
    "ws_per_message_deflate": False,
}


#: The events the page loads on opening a room (app.js's LOG_PAGE).
PAGE = 100
#: The bare peer's seqs start here (numbers of a long room's width, no leading zeros).
BASE = 10_000


def serve_bare(port: int, frame_file: str) -> None:
    """The bare broadcast: every POSTed line sends the captured frame (seq and version
    renumbered, same length) to every socket of the room."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from saikoro.server.connections import ConnectionRules, uvicorn_options

    frames = json.loads(Path(frame_file).read_text("utf-8"))
    sockets: set[WebSocket] = set()
    seq = {"n": 0}

    async def socket_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text(json.dumps({"type": "ready", "after": BASE + seq["n"]}))
        sockets.add(websocket)
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            sockets.discard(websocket)

    async def line(request: Request) -> JSONResponse:
        await request.body()
        seq["n"] += 1
        frame = frames[seq["n"] % len(frames)].replace("@SEQ@", str(BASE + seq["n"]))
        for websocket in list(sockets):
            await websocket.send_text(frame)
        return JSONResponse({"ok": True, "text": "", "events": []})

    async def state(request: Request) -> JSONResponse:
        return JSONResponse({"version": BASE + seq["n"], "characters": [], "combat": None})

    async def version(request: Request) -> JSONResponse:
        return JSONResponse({"api": "bare"})

    app = Starlette(
        routes=[
            Route("/v2/version", version),
            Route("/api/rooms/{room}/lines", line, methods=["POST"]),
            Route("/api/rooms/{room}/state", state),
            WebSocketRoute("/api/rooms/{room}/ws", socket_endpoint),
        ]
    )
    options = {k: v for k, v in uvicorn_options(ConnectionRules()).items() if k != "http"}
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **options, **WS_SETTINGS)


# -- HTTP over one keep-alive connection -----------------------------------------------------


class Http:
    def __init__(self, port: int, token: str, source: str = "127.0.0.1") -> None:
        self.port, self.token, self.source = port, token, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.requests = 0

    async def call(self, method: str, path: str, body: bytes | None = None) -> bytes:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.source, 0)
            )
        assert self.reader is not None
        self.requests += 1
        extra = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n" if body else ""
        self.writer.write(
            (
                f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {self.token}\r\n{extra}\r\n"
            ).encode()
            + (body or b"")
        )
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(
            int(v)
            for n, _, v in (h.partition(":") for h in lines[1:])
            if n.lower() == "content-length"
        )
        data = await self.reader.readexactly(length)
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {data[:200]!r}")
        return data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- 100 pages -------------------------------------------------------------------------------


class Page:
    """A client doing what app.js does with each event frame."""

    def __init__(self, port: int, room_path: str, token: str, source: str) -> None:
        self.http = Http(port, token, source)
        self.url = f"ws://127.0.0.1:{port}{room_path}/ws?token={token}"
        self.source = source
        self.room_path = room_path
        self.version = 0
        self.done: asyncio.Queue[float] = asyncio.Queue()

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.socket = await connect(
            self.url, compression=None, max_size=2**20, local_addr=(self.source, 0)
        )
        ready = json.loads(await self.socket.recv())
        self.version = ready.get("after", 0)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            data = json.loads(message)
            if data.get("type") == "ping":
                await self.socket.send('{"type": "pong"}')
                continue
            if data.get("type") != "event":
                continue
            change = data.get("change")
            if change and not change.get("stale") and change["version"] == self.version + 1:
                self.version = change["version"]  # applied: no request
            else:
                state = json.loads(await self.http.call("GET", f"{self.room_path}/state"))
                self.version = state["version"]
            self.done.put_nowait(time.perf_counter())

    async def close(self) -> None:
        await self.socket.close()
        await self.http.close()


async def fan_out(port: int, room: str, gm_token: str, clients: int, lines: int,
                  capture: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
    room_path = f"/api/rooms/{quote(room, safe='')}"
    pages = [Page(port, room_path, gm_token, f"127.0.0.{2 + i % 250}") for i in range(clients)]
    for page in pages:
        await page.open()
    if capture is not None:  # the frames' bytes, for the bare peer
        from websockets.asyncio.client import connect

        spy = await connect(
            f"ws://127.0.0.1:{port}{room_path}/ws?token={gm_token}", compression=None
        )
        await spy.recv()
    poster = Http(port, gm_token, "127.0.0.1")
    latencies: list[float] = []
    for i in range(lines):
        line = (
            ("@ゴブリン :HP-1", "@ゴブリン :HP+1")[i // 2 % 2]
            if i % 2
            else f"こんにちは、{i} 行目です"
        )
        started = time.perf_counter()
        await poster.call("POST", f"{room_path}/lines", json.dumps({"line": line}).encode())
        for page in pages:
            latencies.append(await asyncio.wait_for(page.done.get(), 60) - started)
        if capture is not None:
            while True:
                frame = json.loads(await spy.recv())
                if frame.get("type") == "event":
                    frame["seq"] = "@SEQ@"
                    if "change" in frame:
                        frame["change"]["version"] = "@SEQ@"
                    text = json.dumps(frame, ensure_ascii=False).replace('"@SEQ@"', "@SEQ@")
                    capture.append(text)
                    break
    requests = sum(page.http.requests for page in pages)
    for page in pages:
        await page.close()
    await poster.close()
    if capture is not None:
        await spy.close()
    latencies.sort()
    return {
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "state_requests_per_event": requests / (clients * lines),
    }


# -- opening a room --------------------------------------------------------------------------


def build_rooms(db: str, sizes: list[int]) -> dict[int, tuple[str, str]]:
    """Rooms of ``sizes`` events (chat lines and rolls), straight into the store."""
    from saikoro.i18n import Message
    from saikoro.store import open_store
    from saikoro.table.events import Event
    from saikoro.table.rooms import create_room
    from saikoro.table.state import apply_in_place

    store = open_store(db)
    made: dict[int, tuple[str, str]] = {}
    try:
        for size in sizes:
            created = create_room(store, f"長い卓{size}", "DiceBot")
            room = store.get_room(created.room)
            assert room is not None
            state = store.load_state(room)
            while state.version < size:
                batch = [
                    Event("chat", {"text": f"発言 {state.version + i}"}, actor="ギン",
                          command_id=f"c{state.version + i}",
                          text=Message(f"ギン: 発言 {state.version + i} です", f"Gin: line {state.version + i}"))
                    for i in range(min(500, size - state.version))
                ]  # fmt: skip
                seen = state.version
                for event in batch:
                    apply_in_place(state, event)
                store.append(room, seen, batch, state)  # a snapshot every 500, as in play
            made[size] = (created.room, created.gm_token)
    finally:
        store.close()
    return made


async def open_room(port: int, room: str, token: str) -> tuple[float, int]:
    """What the page reads before its first render: the state, then the newest events."""
    http = Http(port, token)
    path = f"/api/rooms/{quote(room, safe='')}"
    started = time.perf_counter()
    state = await http.call("GET", f"{path}/state")
    version = json.loads(state)["version"]
    events = await http.call("GET", f"{path}/events?before={version + 1}&limit={PAGE}")
    elapsed = time.perf_counter() - started
    await http.close()
    return elapsed, len(state) + len(events)


# -- main ------------------------------------------------------------------------------------


def spread(values: list[float], digits: int = 1) -> str:
    return " / ".join(
        f"{v:.{digits}f}" for v in (min(values), statistics.median(values), max(values))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve-bare", nargs=2, metavar=("PORT", "FRAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--lines", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--big", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(int(args.serve_bare[0]), args.serve_bare[1])
        return
    if args.quick:
        args.clients, args.lines, args.rounds = 30, 8, 2

    folder = Path(tempfile.mkdtemp(prefix="saikoro-campaign-"))
    db = str(folder / "rooms.db")
    print(f"building rooms of 100 and {args.big} events …", flush=True)
    opened = build_rooms(db, [100, args.big])
    port = free_port()
    options = ["--db", db, "--line-rate", "0", "--line-burst", "100000", "--rooms-per-minute", "0",
               "--max-ws-per-room", "1000", "--max-ws-per-link", "1000"]  # fmt: skip
    server = start_server(port, options)
    print(f"settings: saikoro serve {' '.join(options)} (defaults otherwise: no per-message "
          f"deflate, 64 KiB messages, 20 s pings); bare peer: uvicorn {WS_SETTINGS}; "
          f"{args.clients} clients at distinct 127.0.0.x, {args.lines} lines per round "
          f"(chat and :HP-1 / :HP+1 alternately), {args.rounds} rounds, {os.cpu_count()} CPUs", flush=True)  # fmt: skip
    import httpx

    made = httpx.post(
        f"http://127.0.0.1:{port}/api/rooms", json={"name": "百人の卓", "system": "LittleWorld"}
    ).json()
    httpx.post(
        f"http://127.0.0.1:{port}/api/rooms/{quote('百人の卓', safe='')}/characters",
        headers={"Authorization": f"Bearer {made['gm_token']}"},
        json={"character": (REPO / "examples/scripts/sheets/goblin.json").read_text("utf-8"), "side": "npc"},
    )  # fmt: skip
    frames: list[str] = []
    asyncio.run(fan_out(port, made["room"], made["gm_token"], 1, 4, capture=frames))
    frame_file = folder / "frames.json"
    frame_file.write_text(json.dumps(frames, ensure_ascii=False), "utf-8")
    bare_port = free_port()
    bare = start([sys.executable, os.path.abspath(__file__), "--serve-bare", str(bare_port), str(frame_file)],
                 bare_port)  # fmt: skip
    fan: dict[str, list[dict[str, Any]]] = {"saikoro": [], "bare": []}
    opens: dict[int, list[tuple[float, int]]] = {100: [], args.big: []}
    try:
        for _ in range(args.rounds):
            fan["saikoro"].append(
                asyncio.run(fan_out(port, made["room"], made["gm_token"], args.clients, args.lines))
            )
            fan["bare"].append(
                asyncio.run(fan_out(bare_port, "bare", "-", args.clients, args.lines))
            )
            for size, (room, token) in opened.items():
                for _ in range(3):
                    opens[size].append(asyncio.run(open_room(port, room, token)))
    finally:
        stop(server)
        stop(bare)
    print(f"frame sizes (bytes): {sorted({len(f.encode()) for f in frames})}")
    print(
        f"{'100 pages':<12}{'p50 ms min/med/max':>28}{'p99 ms min/med/max':>28}{'HTTP req/event':>16}"
    )
    for name, runs in fan.items():
        print(f"{name:<12}{spread([r['p50_ms'] for r in runs]):>28}{spread([r['p99_ms'] for r in runs]):>28}"
              f"{statistics.median(r['state_requests_per_event'] for r in runs):>16.3f}")  # fmt: skip
    p99 = {name: statistics.median(r["p99_ms"] for r in runs) for name, runs in fan.items()}
    print(f"p99 ratio saikoro/bare = {p99['saikoro'] / p99['bare']:.2f} (target <= 2)")
    print(f"{'open room':<12}{'ms min/med/max':>28}{'bytes':>12}")
    for size, runs in opens.items():
        print(
            f"{size:<12}{spread([t * 1000 for t, _ in runs]):>28}{statistics.median(b for _, b in runs):>12.0f}"
        )
    small, big = opens[100], opens[args.big]
    time_ratio = statistics.median(t for t, _ in big) / statistics.median(t for t, _ in small)
    byte_ratio = statistics.median(b for _, b in big) / statistics.median(b for _, b in small)
    print(
        f"open {args.big} / open 100: time {time_ratio:.2f}, bytes {byte_ratio:.2f} (targets <= 2)"
    )


if __name__ == "__main__":
    main()
