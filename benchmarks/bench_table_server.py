"""Table server benchmark: event fan-out latency from one line posted to every WebSocket
client receiving it, next to a bare Starlette WebSocket broadcast in the same run.

Scenarios (each server a uvicorn subprocess on loopback; clients are ``websockets``
connections in this process; a line is ``POST …/lines`` over a keep-alive connection):

- ``1 room × 100 clients`` — SQLite, one ``saikoro serve`` (in-memory fan-out);
- ``200 rooms × 5 clients`` — SQLite, one line posted to each room in turn;
- ``1 room × 100 clients, 2 processes`` — PostgreSQL, two ``saikoro serve`` on one
  database: lines posted to process A, half the clients on A and half on B (LISTEN/NOTIFY);
- the bare broadcast: a Starlette app that keeps the room's sockets in a set and sends the
  line to each, for the first two shapes.

Latency = time from just before the POST to the moment a client has read its event;
p50/p99 over every (line, client). Then lines/s per room: one link posting lines back to
back (5 clients listening), for ``--seconds`` seconds.

Usage::

    python benchmarks/bench_table_server.py                 # all scenarios (PostgreSQL when
                                                            # SAIKORO_TEST_POSTGRES_URL or
                                                            # scripts/test-postgres.sh works)
    python benchmarks/bench_table_server.py --quick
    python benchmarks/bench_table_server.py --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

# This folder is on sys.path when run as a script: the other benchmarks' server helpers.
from bench_hostile import start_server
from bench_hostile import stop_server as stop
from bench_server import free_port, start

REPO = Path(__file__).resolve().parents[1]


# -- the bare broadcast (this file run with --serve-bare PORT) ------------------------------


def serve_bare(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, set[WebSocket]] = {}
    seqs: dict[str, int] = {}

    async def socket_endpoint(websocket: WebSocket) -> None:
        room = websocket.path_params["room"]
        await websocket.accept()
        rooms.setdefault(room, set()).add(websocket)
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            rooms[room].discard(websocket)

    async def line(request: Request) -> JSONResponse:
        room = request.path_params["room"]
        body = await request.json()
        seqs[room] = seqs.get(room, 0) + 1
        text = f"GM: {body['line']}"
        event = json.dumps(  # the same fields, so the same size, as saikoro's chat frame
            {
                "type": "event",
                "seq": seqs[room],
                "kind": "chat",
                "data": {"text": body["line"]},
                "actor": "GM",
                "command_id": uuid.uuid4().hex,
                "at": "2026-12-01T12:34:56.789+00:00",
                "text": {"ja": text, "en": text},
                "by_gm": True,
                "change": {"version": seqs[room]},
            },
            ensure_ascii=False,
        )
        for websocket in list(rooms.get(room, ())):
            await websocket.send_text(event)
        return JSONResponse({"ok": True, "text": body["line"], "events": []})

    async def version(request: Request) -> JSONResponse:
        return JSONResponse({"api": "bare"})

    app = Starlette(
        routes=[
            Route("/v2/version", version),
            Route("/api/rooms/{room}/lines", line, methods=["POST"]),
            WebSocketRoute("/api/rooms/{room}/ws", socket_endpoint),
        ]
    )
    uvicorn.run(app, host="127.0.0.1", port=port, **bare_settings())  # type: ignore[arg-type]


def bare_settings() -> dict[str, Any]:
    """``saikoro serve``'s uvicorn options (its guarded protocol class aside): no
    per-message deflate, the same message bound, pings and keep-alive."""
    from bench_campaign import WS_SETTINGS
    from bench_server import uvicorn_settings

    return {**uvicorn_settings(), **WS_SETTINGS}


# -- servers ---------------------------------------------------------------------------------


def saikoro_serve(db: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    options = [
        "--db", db, "--line-rate", "0", "--rooms-per-minute", "0",
        "--max-ws-per-room", "1000", "--max-ws-per-link", "1000",
    ]  # fmt: skip
    return start_server(port, options), port


def bare_serve() -> tuple[subprocess.Popen, int]:
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "--serve-bare", str(port)]
    return start(command, port), port


def postgres_url() -> tuple[str | None, bool]:
    """A PostgreSQL URL (and whether this run started the server), or None."""
    url = os.environ.get("SAIKORO_TEST_POSTGRES_URL")
    if url:
        return url, False
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        return None, False
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "test-postgres.sh"), "start"],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **os.environ,
            "SAIKORO_TEST_PG_PORT": "54331",
            "SAIKORO_TEST_PG_DIR": "/tmp/saikoro-bench-pg",
        },
    )
    if done.returncode != 0:
        return None, False
    return done.stdout.strip().rpartition("=")[2], True


def stop_postgres() -> None:
    subprocess.run(
        ["bash", str(REPO / "scripts" / "test-postgres.sh"), "stop"],
        env={
            **os.environ,
            "SAIKORO_TEST_PG_PORT": "54331",
            "SAIKORO_TEST_PG_DIR": "/tmp/saikoro-bench-pg",
        },
        timeout=60,
        check=False,
    )


# -- clients ---------------------------------------------------------------------------------


class Poster:
    """``POST /api/rooms/{room}/lines`` over one keep-alive connection (no httpx overhead)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, room: str, token: str, line: str) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        body = json.dumps({"line": line}, ensure_ascii=False).encode()
        self.writer.write(
            (
                f"POST /api/rooms/{quote(room, safe='')}/lines HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            + body
        )
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next(
            int(v)
            for n, _, v in (h.partition(":") for h in lines[1:])
            if n.lower() == "content-length"
        )
        await self.reader.readexactly(length)
        return int(lines[0].split()[1])

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class RoomLinks:
    name: str
    token: str


def create_rooms(port: int, count: int, bare: bool) -> list[RoomLinks]:
    import httpx

    rooms = []
    for _ in range(count):
        name = f"bench-{uuid.uuid4().hex[:10]}"
        if bare:
            rooms.append(RoomLinks(name, "x"))
            continue
        response = httpx.post(
            f"http://127.0.0.1:{port}/api/rooms",
            json={"name": name, "system": "DiceBot"},
            timeout=30,
        )
        response.raise_for_status()
        rooms.append(RoomLinks(name, response.json()["gm_token"]))
    return rooms


async def open_clients(
    ports: list[int], rooms: list[RoomLinks], per_room: int
) -> list[tuple[int, Any]]:
    """``per_room`` clients per room, spread over ``ports``: (room index, connection)."""
    from websockets.asyncio.client import connect

    clients = []
    for index, room in enumerate(rooms):
        for k in range(per_room):
            port = ports[k % len(ports)]
            url = (
                f"ws://127.0.0.1:{port}/api/rooms/{quote(room.name, safe='')}/ws?token={room.token}"
            )
            clients.append((index, await connect(url, open_timeout=30, ping_interval=None)))
    return clients


async def fan_out(
    post_port: int, client_ports: list[int], rooms: list[RoomLinks], per_room: int, lines: int
) -> list[float]:
    """Latencies (s) of every (line, client): ``lines`` rounds, one line to each room."""
    clients = await open_clients(client_ports, rooms, per_room)
    by_room: dict[int, list[Any]] = {}
    for index, connection in clients:
        by_room.setdefault(index, []).append(connection)
    poster = Poster(post_port)
    latencies: list[float] = []

    async def receive(connection: Any, marker: str, started: float) -> None:
        while True:
            message = json.loads(await asyncio.wait_for(connection.recv(), 30))
            if message.get("type") == "ping":
                await connection.send('{"type":"pong"}')
                continue
            text = (message.get("text") or {}).get("ja", "")
            if message.get("type") == "event" and marker in text:
                latencies.append(time.perf_counter() - started)
                return

    await asyncio.wait_for(poster.post(rooms[0].name, rooms[0].token, "warm-up"), 30)
    await asyncio.gather(*(receive(c, "warm-up", time.perf_counter()) for c in by_room[0]))
    latencies.clear()
    for round_ in range(lines):
        for index, room in enumerate(rooms):
            marker = f"line-{round_}-{index}"
            started = time.perf_counter()
            waiting = [asyncio.create_task(receive(c, marker, started)) for c in by_room[index]]
            status = await asyncio.wait_for(poster.post(room.name, room.token, marker), 30)
            if status != 200:
                raise RuntimeError(f"POST answered {status}")
            await asyncio.gather(*waiting)
    await poster.close()
    for _index, connection in clients:
        await connection.close()
    return latencies


async def lines_per_second(
    port: int, room: RoomLinks, seconds: float, listeners: int
) -> tuple[int, float]:
    clients = await open_clients([port], [room], listeners)
    drained = 0

    async def drain(connection: Any) -> None:
        nonlocal drained
        async for _message in connection:
            drained += 1

    tasks = [asyncio.create_task(drain(c)) for _i, c in clients]
    poster = Poster(port)
    count = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        await poster.post(room.name, room.token, f"rate-{count}")
        count += 1
    elapsed = time.perf_counter() - began
    await poster.close()
    for _i, connection in clients:
        await connection.close()
    for task in tasks:
        task.cancel()
    return count, elapsed


# -- figures ---------------------------------------------------------------------------------


@dataclass
class Figures:
    scenario: str
    server: str
    deliveries: int
    p50_ms: float
    p99_ms: float


def figures(scenario: str, server: str, latencies: list[float]) -> Figures:
    latencies = sorted(latencies)
    return Figures(
        scenario,
        server,
        len(latencies),
        round(statistics.median(latencies) * 1000, 2),
        round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 2),
    )


def run_shape(
    name: str, rooms_count: int, per_room: int, lines: int, folder: Path, repeat: int = 3
) -> list[Figures]:
    """``repeat`` rounds, saikoro and the bare peer alternately: every round's figures."""
    out: list[Figures] = []
    for _ in range(repeat):
        out += _run_shape_once(name, rooms_count, per_room, lines, folder)
    return out


def _run_shape_once(
    name: str, rooms_count: int, per_room: int, lines: int, folder: Path
) -> list[Figures]:
    out = []
    process, port = saikoro_serve(str(folder / f"{uuid.uuid4().hex}.db"))
    try:
        rooms = create_rooms(port, rooms_count, bare=False)
        out.append(
            figures(name, "saikoro", asyncio.run(fan_out(port, [port], rooms, per_room, lines)))
        )
    finally:
        stop(process)
    process, port = bare_serve()
    try:
        rooms = create_rooms(port, rooms_count, bare=True)
        out.append(
            figures(
                name, "bare Starlette", asyncio.run(fan_out(port, [port], rooms, per_room, lines))
            )
        )
    finally:
        stop(process)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--lines", type=int, default=30, help="lines in the 1-room scenarios")
    parser.add_argument("--rounds", type=int, default=2, help="lines per room, 200-room scenario")
    parser.add_argument("--seconds", type=float, default=5.0, help="lines/s measuring time")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of each scenario")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare)
        return
    if args.quick:
        args.lines, args.rounds, args.seconds = 10, 1, 2.0

    results: list[Figures] = []
    rates: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="saikoro-bench-table-") as tmp:
        folder = Path(tmp)
        results += run_shape("1 room x 100 clients", 1, 100, args.lines, folder, args.repeat)
        results += run_shape("200 rooms x 5 clients", 200, 5, args.rounds, folder, args.repeat)

        process, port = saikoro_serve(str(folder / "rate.db"))
        try:
            room = create_rooms(port, 1, bare=False)[0]
            count, elapsed = asyncio.run(lines_per_second(port, room, args.seconds, 5))
            rates.append({"db": "SQLite", "lines": count, "lines_per_s": round(count / elapsed, 1)})
        finally:
            stop(process)

        url, started = (None, False) if args.no_postgres else postgres_url()
        if url is None:
            print("(PostgreSQL not available: the 2-process scenario is skipped)", file=sys.stderr)
        else:
            try:
                one, port_one = saikoro_serve(url)
                two, port_two = saikoro_serve(url)
                try:
                    rooms = create_rooms(port_one, 1, bare=False)
                    latencies = asyncio.run(
                        fan_out(port_one, [port_one, port_two], rooms, 100, args.lines)
                    )
                    results.append(
                        figures(
                            "1 room x 100 clients, 2 processes (PostgreSQL)", "saikoro", latencies
                        )
                    )
                    room = create_rooms(port_one, 1, bare=False)[0]
                    count, elapsed = asyncio.run(lines_per_second(port_one, room, args.seconds, 5))
                    rates.append(
                        {
                            "db": "PostgreSQL",
                            "lines": count,
                            "lines_per_s": round(count / elapsed, 1),
                        }
                    )
                finally:
                    stop(one)
                    stop(two)
            finally:
                if started:
                    stop_postgres()

    print(f"settings: saikoro serve --line-rate 0 --rooms-per-minute 0 --max-ws-per-room 1000 "
          f"--max-ws-per-link 1000; bare peer uvicorn {bare_settings()}; {args.repeat} rounds; "
          f"frames of the same fields (chat: type, seq, kind, data, actor, command_id, at, "
          f"text ja/en, by_gm, change); {os.cpu_count()} CPUs")  # fmt: skip
    groups: dict[tuple[str, str], list[Figures]] = {}
    for f in results:
        groups.setdefault((f.scenario, f.server), []).append(f)

    def spread(values: list[float]) -> str:
        return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"

    print(f"{'scenario':<48} {'server':<15} {'p50 ms min/med/max':>22} {'p99 ms min/med/max':>22}")
    for (scenario, server), fs in groups.items():
        print(f"{scenario:<48} {server:<15} {spread([f.p50_ms for f in fs]):>22} "
              f"{spread([f.p99_ms for f in fs]):>22}")  # fmt: skip
    for (scenario, server), fs in groups.items():
        bare = groups.get((scenario, "bare Starlette"))
        if server == "saikoro" and bare:
            p50 = statistics.median(f.p50_ms for f in fs) / statistics.median(
                f.p50_ms for f in bare
            )
            p99 = statistics.median(f.p99_ms for f in fs) / statistics.median(
                f.p99_ms for f in bare
            )
            print(f"  {scenario}: saikoro/bare medians p50 x{p50:.2f}, p99 x{p99:.2f}")
    for rate in rates:
        print(f"lines/s per room ({rate['db']}, 1 poster, 5 listeners): {rate['lines_per_s']}")
    if args.json:
        args.json.write_text(
            json.dumps({"fan_out": [asdict(f) for f in results], "lines_per_room": rates}, indent=2)
        )


if __name__ == "__main__":
    main()
