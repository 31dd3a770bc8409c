"""Server benchmark: ``/v2/game_system/{id}/roll`` under concurrent load, next to a bare
Starlette JSON endpoint served the same way in the same run.

Both servers run as uvicorn subprocesses on loopback with the same settings; the same
async httpx client load (``--concurrency`` workers sharing ``--requests`` requests)
measures each. Printed: throughput (requests/s), p50/p99 latency, errors, and the
ratio saikoro/bare — the ratio is saikoro's own cost (routing, engine, JSON) on top of
what any ASGI endpoint costs on this machine.

Usage::

    python benchmarks/bench_server.py                      # 100 clients, 4000 requests each side
    python benchmarks/bench_server.py --quick              # 50 clients, 1000 requests
    python benchmarks/bench_server.py --command 'LWA3-2' --system LittleWorld
    python benchmarks/bench_server.py --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import quote

UVICORN_SETTINGS = {
    "log_level": "warning",
    "timeout_keep_alive": 5,
    "limit_concurrency": 1000,
    "h11_max_incomplete_event_size": 64 * 1024,
}


# -- the bare endpoint (this file run with --serve-bare PORT) -------------------------------


def serve_bare(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    body = {
        "ok": True,
        "text": "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
        "secret": False,
        "success": True,
        "failure": False,
        "critical": False,
        "fumble": False,
        "rands": [
            {"kind": "normal", "sides": 6, "value": 3},
            {"kind": "normal", "sides": 6, "value": 4},
        ],
    }

    async def roll(request):  # type: ignore[no-untyped-def]
        return JSONResponse(body)

    app = Starlette(routes=[Route("/v2/game_system/{id}/roll", roll), Route("/v2/version", roll)])
    uvicorn.run(app, host="127.0.0.1", port=port, **UVICORN_SETTINGS)  # type: ignore[arg-type]


# -- measuring -----------------------------------------------------------------------------


@dataclass
class Figures:
    name: str
    requests: int
    errors: int
    seconds: float
    throughput: float
    p50_ms: float
    p99_ms: float


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(command: list[str], port: int) -> subprocess.Popen:
    import httpx

    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v2/version", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"server did not start: {command}")


class KeepAliveConnection:
    """A minimal HTTP/1.1 keep-alive client (much lighter than httpx, so the client
    does not hide the servers' cost on a small machine)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, target: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(
            f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n".encode()
        )
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        body = await self.reader.readexactly(length)
        return status, body

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def load(
    port: int, target: str, concurrency: int, total: int
) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    errors = 0
    remaining = total

    async def worker(connection: KeepAliveConnection) -> None:
        nonlocal remaining, errors
        while remaining > 0:
            remaining -= 1
            started = time.perf_counter()
            try:
                status, body = await connection.get(target)
                ok = status == 200 and json.loads(body).get("ok") is True
            except (OSError, asyncio.IncompleteReadError, ValueError):
                ok = False
                await connection.close()
                connection.writer = None
            latencies.append(time.perf_counter() - started)
            errors += not ok

    connections = [KeepAliveConnection(port) for _ in range(concurrency)]
    for connection in connections:  # warm-up: open every connection once
        await connection.get(target)
    began = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in connections))
    elapsed = time.perf_counter() - began
    for connection in connections:
        await connection.close()
    return latencies, errors, elapsed


def measure(name: str, port: int, target: str, concurrency: int, total: int) -> Figures:
    latencies, errors, elapsed = asyncio.run(load(port, target, concurrency, total))
    latencies.sort()
    return Figures(
        name=name,
        requests=len(latencies),
        errors=errors,
        seconds=round(elapsed, 3),
        throughput=round(len(latencies) / elapsed, 1),
        p50_ms=round(statistics.median(latencies) * 1000, 2),
        p99_ms=round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 2),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--command", default="2D6>=7")
    parser.add_argument("--system", default="DiceBot")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare)
        return
    if args.quick:
        args.concurrency, args.requests, args.rounds = 50, 1000, 2

    target = f"/v2/game_system/{args.system}/roll?command={quote(args.command)}"
    saikoro_port, bare_port = free_port(), free_port()
    servers = {
        "saikoro": (
            saikoro_port,
            start(
                [
                    sys.executable,
                    "-m",
                    "saikoro",
                    "serve",
                    "--port",
                    str(saikoro_port),
                    "--log-level",
                    "warning",
                ],
                saikoro_port,
            ),
        ),
        "bare Starlette": (
            bare_port,
            start(
                [sys.executable, os.path.abspath(__file__), "--serve-bare", str(bare_port)],
                bare_port,
            ),
        ),
    }
    runs: dict[str, list[Figures]] = {name: [] for name in servers}
    try:
        for _ in range(args.rounds):  # alternate, so both see the same machine load
            for name, (port, _process) in servers.items():
                runs[name].append(measure(name, port, target, args.concurrency, args.requests))
    finally:
        for _port, process in servers.values():
            process.terminate()
            process.wait(timeout=10)
    # The best round of each (the least disturbed by other load on the machine).
    results = [max(figures, key=lambda f: f.throughput) for figures in runs.values()]
    saikoro, bare = results
    print(
        f"GET {target}  ({args.concurrency} concurrent keep-alive clients, {args.requests} "
        f"requests per round, best of {args.rounds} rounds, loopback, {os.cpu_count()} CPUs)"
    )
    print(f"{'server':<16}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
    for f in results:
        print(f"{f.name:<16}{f.throughput:>10.1f}{f.p50_ms:>10.2f}{f.p99_ms:>10.2f}{f.errors:>8}")
    ratio = saikoro.throughput / bare.throughput
    print(
        f"throughput ratio saikoro/bare = {ratio:.2f}; "
        f"p99 ratio = {saikoro.p99_ms / bare.p99_ms:.2f}"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"results": [asdict(r) for r in results], "throughput_ratio": round(ratio, 3)},
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
