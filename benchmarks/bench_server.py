"""Server benchmark: ``/v2/game_system/{id}/roll`` under concurrent load, next to a bare
Starlette JSON endpoint served the same way in the same run.

Both servers run as uvicorn subprocesses on loopback with the same uvicorn options (the
bare one gets ``saikoro serve``'s own: its h11 protocol class aside, keep-alive, header
size, no concurrency cap) and answer the same body (a saikoro answer to the command,
fetched once). ``--concurrency`` keep-alive clients, each from its own loopback address
127.0.0.x (saikoro's limits are per address), share ``--requests`` requests per round.
Only 200 answers whose body says ``"ok": true`` count as throughput; every other answer
is counted by status next to it. The rounds alternate between the servers, and so does
who goes first in a round. Printed: the settings, every round, then per server
min/median/max over the rounds of req/s, p50/p99 latency and the server's CPU time per
answer (its process and its children, from ``/proc``), and the ratios saikoro/bare of the
medians.

Usage::

    python benchmarks/bench_server.py                      # 100 clients, 5 rounds of 4000 requests
    python benchmarks/bench_server.py --concurrency 50
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
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import quote


def uvicorn_settings() -> dict[str, object]:
    """``saikoro serve``'s uvicorn options that any ASGI server could take (its guarded
    protocol class is saikoro's own code, so it stays on saikoro's side of the ratio)."""
    from saikoro.server.connections import ConnectionRules, uvicorn_options

    options = {k: v for k, v in uvicorn_options(ConnectionRules()).items() if k != "http"}
    return {**options, "log_level": "warning", "ws_per_message_deflate": False}


# -- the bare endpoint (this file run with --serve-bare PORT BODY_FILE) ---------------------


def serve_bare(port: int, body_file: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    body = Path(body_file).read_bytes()  # saikoro's own answer, sent as is (encoded once)

    async def roll(request):  # type: ignore[no-untyped-def]
        return Response(body, media_type="application/json")

    app = Starlette(routes=[Route("/v2/game_system/{id}/roll", roll), Route("/v2/version", roll)])
    uvicorn.run(app, host="127.0.0.1", port=port, **uvicorn_settings())  # type: ignore[arg-type]


# -- measuring -----------------------------------------------------------------------------


@dataclass
class Figures:
    name: str
    requests: int
    ok: int
    errors: dict[str, int]  # by status ("conn" for a dropped connection)
    seconds: float
    throughput: float  # successful answers per second
    p50_ms: float
    p99_ms: float
    cpu_us: float  # server CPU time (its process and children) per successful answer
    load: float  # the machine's 1-minute load average when the round began


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

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port = port
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, target: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.source, 0)
            )
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


def client_address(i: int) -> str:
    """The i-th client's own loopback address (127.0.0.2 … 127.0.0.251)."""
    return f"127.0.0.{2 + i % 250}"


async def load(
    port: int, target: str, concurrency: int, total: int
) -> tuple[list[float], int, Counter[str], float]:
    latencies: list[float] = []  # of successful answers only
    ok_count = 0
    errors: Counter[str] = Counter()
    remaining = total

    async def worker(connection: KeepAliveConnection) -> None:
        nonlocal remaining, ok_count
        while remaining > 0:
            remaining -= 1
            started = time.perf_counter()
            try:
                status, body = await connection.get(target)
                ok = status == 200 and json.loads(body).get("ok") is True
                label = str(status)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                ok, label = False, "conn"
                await connection.close()
                connection.writer = None
            if ok:
                ok_count += 1
                latencies.append(time.perf_counter() - started)
            else:
                errors[label] += 1

    connections = [KeepAliveConnection(port, client_address(i)) for i in range(concurrency)]
    for connection in connections:  # warm-up: open every connection once
        await connection.get(target)
    began = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in connections))
    elapsed = time.perf_counter() - began
    for connection in connections:
        await connection.close()
    return latencies, ok_count, errors, elapsed


def measure(name: str, port: int, pid: int, target: str, concurrency: int, total: int) -> Figures:
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpu_before = cpu_seconds(pid)
    latencies, ok_count, errors, elapsed = asyncio.run(load(port, target, concurrency, total))
    cpu = cpu_seconds(pid) - cpu_before
    latencies.sort()
    at = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000  # noqa: E731
    return Figures(
        name=name,
        requests=ok_count + sum(errors.values()),
        ok=ok_count,
        errors=dict(errors),
        seconds=round(elapsed, 3),
        throughput=round(ok_count / elapsed, 1),
        p50_ms=round(at(0.5), 2) if latencies else float("nan"),
        p99_ms=round(at(0.99), 2) if latencies else float("nan"),
        cpu_us=round(cpu / max(1, ok_count) * 1e6, 1),
        load=round(load_before, 2),
    )


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` and its descendants (Linux ``/proc``;
    0 elsewhere): a cost per answer that the machine's other load disturbs less than
    throughput does."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else []:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += times.get(current, 0.0)
        todo.extend(children.get(current, []))
    return total


def spread(values: list[float]) -> str:
    """min / median / max."""
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve-bare", nargs=2, metavar=("PORT", "BODY"), help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--command", default="2D6")
    parser.add_argument("--system", default="DiceBot")
    # 25: the ratio of 7-round medians varied by ±0.13 from run to run (benchmarks/README.md)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(int(args.serve_bare[0]), args.serve_bare[1])
        return
    if args.quick:
        args.concurrency, args.requests, args.rounds = 50, 1000, 2

    import httpx

    target = f"/v2/game_system/{args.system}/roll?command={quote(args.command)}"
    saikoro_port, bare_port = free_port(), free_port()
    saikoro_command = [sys.executable, "-m", "saikoro", "serve", "--port", str(saikoro_port)]
    saikoro_command += ["--log-level", "warning"]
    saikoro_process = start(saikoro_command, saikoro_port)
    body_file = Path(tempfile.mkdtemp()) / "body.json"
    body_file.write_bytes(httpx.get(f"http://127.0.0.1:{saikoro_port}{target}").content)
    bare_command = [sys.executable, os.path.abspath(__file__), "--serve-bare", str(bare_port)]
    servers = {
        "saikoro": (saikoro_port, saikoro_process),
        "bare Starlette": (bare_port, start([*bare_command, str(body_file)], bare_port)),
    }
    runs: dict[str, list[Figures]] = {name: [] for name in servers}
    try:
        for i in range(args.rounds):  # alternate, so both see the same machine load; the
            order = list(servers.items())  # order too (ABBA…), so neither is always first
            for name, (port, process) in order if i % 2 == 0 else reversed(order):
                runs[name].append(
                    measure(name, port, process.pid, target, args.concurrency, args.requests)
                )
    finally:
        for _port, process in servers.values():
            process.terminate()
            process.wait(timeout=10)
    print(
        f"GET {target}  ({args.concurrency} keep-alive clients at distinct addresses "
        f"127.0.0.2-{2 + min(args.concurrency, 250) - 1}, {args.requests} requests per round, "
        f"{args.rounds} rounds alternating (saikoro first in odd rounds, bare first in even), loopback, {os.cpu_count()} CPUs)"
    )
    print(f"settings: saikoro serve defaults; bare uvicorn options {uvicorn_settings()}")
    print(f"body: {body_file.read_bytes().decode()}")
    print("rounds (load average of the machine before each; the order within a round alternates):")
    for i in range(args.rounds):
        for name in runs:
            f = runs[name][i]
            print(
                f"  {i + 1} {name:<16}{f.throughput:>9.1f} ok/s  p50 {f.p50_ms:>7.2f} ms"
                f"  p99 {f.p99_ms:>7.2f} ms  cpu {f.cpu_us:>6.1f} us/answer"
                f"  load {f.load:.2f}  errors {f.errors or 0}"
            )
    print(
        f"{'server':<16}{'ok req/s min/med/max':>26}{'p50 ms':>22}{'p99 ms':>22}"
        f"{'cpu us/answer':>22}  errors"
    )
    for name, figures in runs.items():
        errors: Counter[str] = Counter()
        for f in figures:
            errors.update(f.errors)
        print(
            f"{name:<16}{spread([f.throughput for f in figures]):>26}"
            f"{spread([f.p50_ms for f in figures]):>22}{spread([f.p99_ms for f in figures]):>22}"
            f"{spread([f.cpu_us for f in figures]):>22}  {dict(errors) or 0}"
        )
    med = {name: {k: statistics.median(getattr(f, k) for f in fs) for k in ("throughput", "p99_ms", "cpu_us")}
           for name, fs in runs.items()}  # fmt: skip
    ratio = med["saikoro"]["throughput"] / med["bare Starlette"]["throughput"]
    p99_ratio = med["saikoro"]["p99_ms"] / med["bare Starlette"]["p99_ms"]
    cpu_ratio = med["bare Starlette"]["cpu_us"] / max(1e-9, med["saikoro"]["cpu_us"])
    print(f"median ratios saikoro/bare: throughput {ratio:.2f} (target >= 0.8), "
          f"p99 {p99_ratio:.2f} (target <= 2); answers per CPU second {cpu_ratio:.2f}")  # fmt: skip
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "runs": {name: [asdict(f) for f in fs] for name, fs in runs.items()},
                    "throughput_ratio": round(ratio, 3),
                    "p99_ratio": round(p99_ratio, 3),
                    "cpu_ratio": round(cpu_ratio, 3),
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
