"""Which ASGI server for ``saikoro serve``? The measurements behind the choice (docs/server.md).

The same app (``create_app`` with the roll pool) is served on loopback by each server
that is installed — uvicorn with saikoro's connection rules (what ``saikoro serve``
runs), plain uvicorn, Hypercorn and Granian (``pip install hypercorn granian``; they
are not dependencies) — each with its own timeout settings at 10 s where it has one.
For each: ``2D6`` throughput and p50/p99 with ``--concurrency`` keep-alive clients, then
how long a connection that sent half its headers, half its body, or nothing is held
before the server closes it, and what it answers (``--hold`` seconds at most).

Usage::

    python benchmarks/bench_asgi_servers.py                # ~2 minutes
    python benchmarks/bench_asgi_servers.py --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench_hostile import free_port, stop_server  # this folder (run as a script)

HERE = Path(__file__).resolve().parent
TIMEOUT = 10  # seconds, for every server's own header / read / keep-alive timeouts


def make_app():  # type: ignore[no-untyped-def]
    """The app every server serves (``bench_asgi_servers:make_app``)."""
    from saikoro.server import create_app
    from saikoro.server.pool import PoolLimits

    return create_app(pool=PoolLimits())


def serve_uvicorn(port: int, guarded: bool) -> None:
    import uvicorn

    from saikoro.server.connections import ConnectionRules, uvicorn_options

    options = (
        uvicorn_options(ConnectionRules(header_timeout=TIMEOUT, body_timeout=TIMEOUT))
        if guarded
        else {"timeout_keep_alive": TIMEOUT}
    )
    uvicorn.run(make_app(), host="127.0.0.1", port=port, log_level="warning", **options)


def serve_hypercorn(port: int) -> None:
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.keep_alive_timeout = TIMEOUT
    config.read_timeout = TIMEOUT
    asyncio.run(serve(make_app(), config))  # type: ignore[arg-type]


def commands(port: int) -> dict[str, list[str] | None]:
    python = sys.executable
    this = str(Path(__file__).resolve())
    hypercorn = importlib.util.find_spec("hypercorn") is not None
    granian = importlib.util.find_spec("granian") is not None
    return {
        "uvicorn + saikoro rules": [python, this, "--serve", "guarded", str(port)],
        "uvicorn (plain)": [python, this, "--serve", "plain", str(port)],
        # In this process: Hypercorn's own CLI runs the app in a daemonic process, where the
        # roll pool cannot start its worker processes.
        "hypercorn": [python, this, "--serve", "hypercorn", str(port)] if hypercorn else None,
        "granian": [
            python, "-m", "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1",
            "--port", str(port), "--http", "1", "--http1-header-read-timeout", str(TIMEOUT * 1000),
            "--log-level", "warning", "bench_asgi_servers:make_app",
        ]
        if granian
        else None,
    }  # fmt: skip


@dataclass
class Figures:
    server: str
    throughput: float
    p50_ms: float
    p99_ms: float
    errors: int
    half_headers: str
    half_body: str
    silent: str


def wait_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /v2/version HTTP/1.1\r\nHost: x\r\n\r\n")
                if sock.recv(100).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("did not start")


async def throughput(port: int, concurrency: int, total: int) -> tuple[list[float], int, float]:
    target = b"GET /v2/game_system/DiceBot/roll?command=2D6 HTTP/1.1\r\nHost: x\r\n\r\n"
    latencies: list[float] = []
    errors = 0
    remaining = total

    async def client() -> None:
        nonlocal remaining, errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while remaining > 0:
            remaining -= 1
            started = time.perf_counter()
            writer.write(target)
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(
                next(
                    line.split(b":")[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
            )
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            errors += not head.startswith(b"HTTP/1.1 200")
        writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies, errors, time.perf_counter() - began


def held(port: int, data: bytes, hold: float) -> str:
    """How long the server holds a connection that sent ``data``, and its first answer line."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(hold)
        sock.sendall(data)
        started = time.monotonic()
        try:
            answer = sock.recv(4096)
        except TimeoutError:
            return f"held > {hold:g} s"
        except OSError as error:
            return f"reset after {time.monotonic() - started:.1f} s ({error.__class__.__name__})"
    waited = time.monotonic() - started
    first = answer.split(b"\r\n", 1)[0].decode("latin-1") or "closed, no answer"
    body = answer.partition(b"\r\n\r\n")[2][:60].decode("utf-8", "replace")
    return f"{waited:.1f} s: {first} {body}".strip()


def measure(name: str, command: list[str], port: int, args: argparse.Namespace) -> Figures:
    process = subprocess.Popen(
        command, cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_up(port, process)
        asyncio.run(throughput(port, 10, 200))  # warm-up
        latencies, errors, seconds = asyncio.run(throughput(port, args.concurrency, args.requests))
        latencies.sort()
        half_headers = held(port, b"GET /v2/version HTTP/1.1\r\nHost: x\r\n", args.hold)
        half_body = held(
            port,
            b"POST /v2/game_system/DiceBot/roll HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ncommand=",
            args.hold,
        )
        silent = held(port, b"", args.hold)
    finally:
        stop_server(process)
    return Figures(
        server=name,
        throughput=round(len(latencies) / seconds, 1),
        p50_ms=round(statistics.median(latencies) * 1000, 2),
        p99_ms=round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
        errors=errors,
        half_headers=half_headers,
        half_body=half_body,
        silent=silent,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", nargs=2, metavar=("KIND", "PORT"), help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--hold", type=float, default=20.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.serve:
        kind, port = args.serve[0], int(args.serve[1])
        if kind == "hypercorn":
            serve_hypercorn(port)
        else:
            serve_uvicorn(port, guarded=kind == "guarded")
        return
    sys.path.insert(0, str(HERE))
    results = []
    for name, command in commands(0).items():
        if command is None:
            print(f"{name}: not installed")
            continue
        port = free_port()
        command = commands(port)[name] or []
        figures = measure(name, command, port, args)
        results.append(figures)
        print(
            f"{name}: {figures.throughput} req/s, p50 {figures.p50_ms} ms, p99 {figures.p99_ms} ms,"
            f" errors {figures.errors}\n  half headers: {figures.half_headers}\n"
            f"  half body: {figures.half_body}\n  silent: {figures.silent}",
            flush=True,
        )
    print(
        f"({args.concurrency} keep-alive clients, {args.requests} requests, {os.cpu_count()} CPUs)"
    )
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2))


if __name__ == "__main__":
    main()
