"""Hostile-load benchmark: does one client's ``2D6`` stay fast while others attack?

A real ``saikoro serve`` runs as a subprocess on loopback. Then, for ``--seconds``:

- ``--hostile`` clients, each from its own loopback address (127.0.0.10, .11, …), send
  an attacker command over and over: each command of :data:`ATTACKERS` (legal commands
  with the largest answers, ≈400 kB each) and the costliest in CPU of
  :data:`CANDIDATES` (timed in this process first), one run each, after a control run
  without attackers; or the one given with ``--command``; or (``--mixed``, the CI test)
  all of them at once, attacker *i* sending command *i* mod their number;
- ``--idle`` connections are held open without sending anything (spread over other
  loopback addresses; one the server closes is opened again);
- one probe client (127.0.0.2) sends ``2D6`` every ``--interval`` seconds and records
  each answer's latency.

Printed (and written with ``--json``) for each run: the command used, the probe's
p50/p99/max latency and errors, what the hostile clients got (answers by status) and the
largest answer they read. The issue's target: 10 hostile clients and 200 idle
connections, probe p99 under 100 ms on loopback. ``tests/server/test_hostile_load.py``
runs a shorter mixed version in CI with a looser bound.

Usage::

    python benchmarks/bench_hostile.py                 # control + each attacker, 15 s each
    python benchmarks/bench_hostile.py --command 'x100 100B66' --seconds 10
    python benchmarks/bench_hostile.py --mixed --seconds 8 --idle 100 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: Legal commands with the largest answers (200, ≈400 kB of JSON each): the cost of moving
#: an answer from a worker to the client, not only of computing it.
ATTACKERS: list[tuple[str, str]] = [
    ("DiceBot", "x100 100B66"),
    ("DiceBot", "x100 100D6"),
    ("DiceBot", "x50 200D6"),
    ("DiceBot", "x100 100B6>=4"),
]

#: Candidates for the costliest command in CPU (system, command); the slowest is added to
#: the attackers (tests/dice/test_cost_bound.py holds a longer list under 0.5 s).
CANDIDATES: list[tuple[str, str]] = [
    ("DiceBot", "x100 10000U0[2]"),
    ("DiceBot", "10000U10001[2]"),
    ("DiceBot", "x100 100U6[6]"),
    ("DiceBot", "x50 200D6"),
    ("DiceBot", "x100 choice[" + "a," * 495 + "b]"),
    ("DiceBot", "x100 C(" + "9*" * 495 + "9)"),
    ("LittleWorld", "x100 C(" + "9*" * 495 + "9)"),
    ("UnmeiD100", "x100 C(" + "9*" * 495 + "9)"),
    ("DiceBot", "1D6+" * 2559 + "1"),
    ("LittleWorld", "x24 LW3>=" + "9" * 4000),
    ("LittleWorld", "x25 LWO3>=" + "9" * 3988),
    ("DiceBot", "C(" + "1-" * 5118 + "1)"),
]

PROBE_ADDRESS = "127.0.0.2"


def most_expensive(candidates: list[tuple[str, str]] = CANDIDATES) -> tuple[str, str, float]:
    """The candidate that takes longest in this process (best of 3): (system, command, s)."""
    from saikoro.server.bodies import answer
    from saikoro.server.jobs import RollJob

    timed = []
    for system, command in candidates:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            answer(RollJob("roll", system, command))
            best = min(best, time.perf_counter() - started)
        timed.append((best, system, command))
    best, system, command = max(timed)
    return system, command, best


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, extra: list[str] | None = None) -> subprocess.Popen[bytes]:
    """``saikoro serve`` on ``port``; returns once it answers."""
    import httpx

    command = [sys.executable, "-m", "saikoro", "serve", "--port", str(port)]
    command += ["--log-level", "warning", *(extra or [])]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v2/version", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not start")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Connection:
    """A minimal HTTP/1.1 keep-alive client bound to one loopback source address."""

    def __init__(self, port: int, source: str) -> None:
        self.port = port
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_reason = ""  # the error reason of the last answer ("" for a 2xx)

    async def get(self, target: str, timeout: float) -> int:
        """The status of ``GET target`` (raises OSError / TimeoutError on failure)."""
        return (await asyncio.wait_for(self._get(target), timeout))[0]

    async def get_sized(self, target: str, timeout: float) -> tuple[int, int]:
        """The status and body size of ``GET target``."""
        return await asyncio.wait_for(self._get(target), timeout)

    async def _get(self, target: str) -> tuple[int, int]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.source, 0)
            )
        assert self.reader is not None
        self.writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next(
            (
                int(v)
                for n, _, v in (x.partition(":") for x in lines)
                if n.lower() == "content-length"
            ),
            0,
        )
        body = await self.reader.readexactly(length)
        self.last_reason = ""
        if not lines[0].split()[1].startswith("2") and body.startswith(b"{"):
            self.last_reason = str(json.loads(body).get("reason", ""))
        if any(x.lower() == "connection: close" for x in lines):
            self.close()
        return int(lines[0].split()[1]), length

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Figures:
    system: str
    command: str
    command_ms_in_process: float
    hostile_clients: int
    idle_connections: int
    seconds: float
    probes: int
    probe_errors: int
    probe_p50_ms: float
    probe_p99_ms: float
    probe_max_ms: float
    hostile_answers: dict[str, int] = field(default_factory=dict)
    hostile_largest_answer_bytes: int = 0
    idle_reopened: int = 0


async def _hostile(
    port: int, address: str, target: str, until: float, seen: collections.Counter[str]
) -> None:
    connection = Connection(port, address)
    while time.monotonic() < until:
        try:
            status, size = await connection.get_sized(target, timeout=30)
            seen[f"{status} {connection.last_reason}".strip()] += 1
            seen["largest"] = max(seen["largest"], size)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
            seen[type(error).__name__] += 1
            connection.close()
            await asyncio.sleep(0.05)
    connection.close()


async def _idle(port: int, address: str, until: float, reopened: list[int]) -> None:
    """Hold one connection open without sending; open it again when the server closes it."""
    first = True
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(address, 0)
            )
        except OSError:
            await asyncio.sleep(0.2)
            continue
        reopened[0] += not first
        first = False
        with contextlib.suppress(TimeoutError, OSError):
            await asyncio.wait_for(reader.read(1024), timeout=max(0.0, until - time.monotonic()))
        writer.close()


async def _probe(port: int, interval: float, until: float) -> tuple[list[float], int]:
    connection = Connection(port, PROBE_ADDRESS)
    target = "/v2/game_system/DiceBot/roll?command=2D6"
    for _ in range(3):  # a client in session: the server has seen it before
        await connection.get(target, timeout=30)
    latencies: list[float] = []
    errors = 0
    while time.monotonic() < until:
        started = time.perf_counter()
        try:
            ok = await connection.get(target, timeout=15) == 200
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
            ok = False
            connection.close()
        latencies.append(time.perf_counter() - started)
        errors += not ok
        await asyncio.sleep(interval)
    connection.close()
    return latencies, errors


async def _attack(
    port: int, commands: list[tuple[str, str]], hostile: int, idle: int, until: float
) -> tuple[collections.Counter[str], int]:
    """The attackers (attacker *i* sends command *i* mod their number) and idle connections."""
    targets = [f"/v2/game_system/{s}/roll?command={quote(c)}" for s, c in commands]
    seen: collections.Counter[str] = collections.Counter()
    reopened = [0]
    tasks = [
        asyncio.create_task(
            _hostile(port, f"127.0.0.{10 + i}", targets[i % len(targets)], until, seen)
        )
        for i in range(hostile)
    ]
    tasks += [
        asyncio.create_task(_idle(port, f"127.0.1.{1 + i % 50}", until, reopened))
        for i in range(idle)
    ]
    await asyncio.gather(*tasks)
    return seen, reopened[0]


def _attack_process(
    port: int,
    commands: list[tuple[str, str]],
    hostile: int,
    idle: int,
    until: float,
    results: Any,
) -> None:
    seen, reopened = asyncio.run(_attack(port, commands, hostile, idle, until))
    results.put((dict(seen), reopened))


def hostile_load(
    port: int,
    commands: list[tuple[str, str]],
    hostile: int,
    idle: int,
    seconds: float,
    interval: float = 0.02,
    warmup: float = 2.0,
) -> tuple[list[float], int, collections.Counter[str], int]:
    """Run the load; the probe starts after ``warmup`` seconds of attack.

    The attackers and idle connections run in a process of their own: reading ten ≈430 kB
    answers on the probe's event loop would add the load generator's delays to the
    probe's latency, which is the server's to measure.
    """
    until = time.monotonic() + warmup + seconds  # CLOCK_MONOTONIC: the same in both processes
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    attackers = context.Process(
        target=_attack_process, args=(port, commands, hostile, idle, until, results)
    )
    attackers.start()
    try:
        time.sleep(warmup)
        latencies, errors = asyncio.run(_probe(port, interval, until))
        seen, reopened = results.get(timeout=120)
    finally:
        attackers.join(timeout=30)
        if attackers.is_alive():
            attackers.kill()
    return latencies, errors, collections.Counter(seen), reopened


def describe(commands: list[tuple[str, str]]) -> tuple[str, str]:
    def short(text: str) -> str:
        return text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"

    systems = sorted({system for system, _ in commands})
    return "/".join(systems), " | ".join(short(text) for _, text in commands)


def run(
    hostile: int,
    idle: int,
    seconds: float,
    commands: list[tuple[str, str]] | None = None,
    server_args: list[str] | None = None,
    port: int | None = None,
) -> Figures:
    """One run: ``hostile`` clients sending ``commands`` (default: the costliest in CPU;
    ``[]`` with ``hostile=0``: the control) against a server on ``port`` (started and
    stopped here when None)."""
    cost = float("nan")
    if commands is None:
        system, text, cost = most_expensive()
        commands = [(system, text)]
    process = None
    if port is None:
        port = free_port()
        process = start_server(port, server_args)
    try:
        latencies, errors, seen, reopened = hostile_load(
            port, commands or [("DiceBot", "2D6")], hostile, idle, seconds
        )
    finally:
        if process is not None:
            stop_server(process)
    ordered = sorted(latencies)
    largest = seen.pop("largest", 0)
    system, command = describe(commands) if hostile else ("-", "(control: no attackers)")
    return Figures(
        system=system,
        command=command,
        command_ms_in_process=round(cost * 1000, 1),
        hostile_clients=hostile,
        idle_connections=idle,
        seconds=seconds,
        probes=len(ordered),
        probe_errors=errors,
        probe_p50_ms=round(statistics.median(ordered) * 1000, 2),
        probe_p99_ms=round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
        probe_max_ms=round(ordered[-1] * 1000, 2),
        hostile_answers=dict(seen),
        hostile_largest_answer_bytes=largest,
        idle_reopened=reopened,
    )


def every_attacker() -> list[tuple[str, str]]:
    """:data:`ATTACKERS` and the costliest in CPU of :data:`CANDIDATES`."""
    system, text, _ = most_expensive()
    return [*ATTACKERS, (system, text)]


def report(figures: Figures) -> None:
    print(
        f"{figures.hostile_clients} clients sending {figures.system} {figures.command!r},"
        f" {figures.idle_connections} idle connections held, {figures.seconds:g} s,"
        f" {os.cpu_count()} CPUs, loopback"
    )
    print(
        f"  probe 2D6: {figures.probes} requests, p50 {figures.probe_p50_ms} ms,"
        f" p99 {figures.probe_p99_ms} ms, max {figures.probe_max_ms} ms,"
        f" errors {figures.probe_errors}"
    )
    print(
        f"  hostile answers: {figures.hostile_answers} (largest"
        f" {figures.hostile_largest_answer_bytes} bytes); idle reopened: {figures.idle_reopened}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hostile", type=int, default=10)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--system", default="DiceBot")
    parser.add_argument("--command", default=None, help="one attacker command only")
    parser.add_argument("--mixed", action="store_true", help="all attackers in one run")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.command:
        plan = [[(args.system, args.command)]]
    elif args.mixed:
        plan = [every_attacker()]
    else:
        plan = [[command] for command in every_attacker()]
    port = free_port()
    process = start_server(port)  # one server for the control and every attacker
    results = []
    try:
        for commands in [[], *plan]:
            hostile = args.hostile if commands else 0
            figures = run(hostile, args.idle, args.seconds, commands, port=port)
            report(figures)
            results.append(asdict(figures))
            time.sleep(1.0)  # the attackers' last answers drain
    finally:
        stop_server(process)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
