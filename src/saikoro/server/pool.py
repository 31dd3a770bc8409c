"""Where dice work runs: a pool of worker processes with a hard deadline and fair turns.

Rolls never run on the event loop. :class:`RollPool` keeps worker processes (started
by a fork server that has imported the engine and every system, so a new worker is
ready in milliseconds) and gives each job to an idle one:

- **Hard deadline**: a job still running after ``deadline`` seconds is abandoned — its
  worker is killed and replaced — and the client gets ``503 timeout``.
- **Per-client limits**: at most ``per_client_running`` jobs of one client address run
  at once and ``per_client_waiting`` more wait (beyond: ``429 too many requests``); a
  job waiting longer than ``queue_timeout`` gets ``503 busy``.
- **Cheap work first**: each client's recent cost per job is followed (an exponential
  average of the CPU time its jobs took in the worker; an abandoned job counts its
  whole deadline). Waiting jobs are served cheapest client first; clients whose jobs
  are cheap may also use the ``light_workers`` kept for them, while clients whose jobs
  are expensive share the other ``workers`` only. So one client's expensive commands
  delay another's ``2D6`` by at most one cheap job, not by a queue of expensive ones.
  A client not seen before starts at the boundary (``heavy_seconds``): it may use the
  light workers but waits behind clients known to be cheap. A job that runs longer than
  ``light_budget`` on a light worker is abandoned there (the worker is replaced), its
  client becomes heavy, and the job starts again on a heavy worker; so a new client's
  first expensive command holds a light worker for at most that long.
- **Priorities**: heavy workers run at a lower CPU priority (``nice``) than the event
  loop and the light workers, so expensive work yields the CPU to cheap work.

:class:`InlineRoller` runs jobs in-process instead (tests with scripted dice, tools);
its deadline is only checked between dice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from saikoro.dice.randomizer import DiceSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.bodies import answer, encode, error_answer, error_status_and_body
from saikoro.server.jobs import RollJob

log = logging.getLogger("saikoro.server")

Reply = tuple[int, bytes]

#: CPU priority of the workers every client may use (lower than the event loop's and the
#: light workers'), so that expensive work yields the CPU to cheap work.
HEAVY_NICENESS = 10


@dataclass(frozen=True)
class PoolLimits:
    """The pool's sizes and bounds (``saikoro serve`` options; see docs/server.md)."""

    workers: int = max(1, os.cpu_count() or 1)  # for every client
    light_workers: int = 2  # kept for clients whose jobs are cheap
    light_budget: float = 0.05  # seconds a job may run on a light worker before it moves
    deadline: float = 5.0  # seconds one job may run
    per_client_running: int = 2
    per_client_waiting: int = 64  # a bot behind one address may send many at once
    queue_timeout: float = 10.0  # seconds a job may wait for a worker
    heavy_seconds: float = 0.02  # a client whose jobs average more is "heavy"


class RollTimeoutError(SaikoroError):
    reason = "timeout"

    def __init__(self, seconds: float) -> None:
        super().__init__(
            Message(
                f"{seconds:g} 秒以内に処理が終わりませんでした",
                f"the command did not finish within {seconds:g} s",
            )
        )


class BusyError(SaikoroError):
    reason = "busy"

    def __init__(self) -> None:
        super().__init__(
            Message(
                "サーバーが混み合っています。少し待ってから送ってください",
                "the server is busy; try again shortly",
            )
        )


class TooManyRequestsError(SaikoroError):
    reason = "too many requests"

    def __init__(self) -> None:
        super().__init__(
            Message(
                "このアドレスから同時に送られたリクエストが多すぎます",
                "too many requests at once from this address",
            )
        )


def error_reply(error: SaikoroError | None, extras: bool) -> Reply:
    """The reply for ``error`` (None: an internal error)."""
    if error is None:
        status, body = error_answer("internal error", None, extras)
    else:
        status, body = error_status_and_body(error, extras)
    return status, encode(body)


class DeadlineSource:
    """Wraps a dice source; a die asked for after the deadline ends the command (503)."""

    def __init__(self, source: DiceSource | None, seconds: float) -> None:
        from saikoro.dice.randomizer import RandomSource

        self.source = source if source is not None else RandomSource()
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.yields_faces = getattr(self.source, "yields_faces", False)

    def roll(self, sides: int) -> int:
        if time.monotonic() > self.deadline:
            raise RollTimeoutError(self.seconds)
        return self.source.roll(sides)


class InlineRoller:
    """Runs jobs in the calling process (the event loop): for tests and tools only."""

    def __init__(self, source_factory: Callable[[], DiceSource] | None, deadline: float) -> None:
        self.source_factory = source_factory
        self.deadline = deadline

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def run(self, client: str, job: RollJob) -> Reply:
        source = self.source_factory() if self.source_factory is not None else None
        return answer(job, DeadlineSource(source, self.deadline))


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, lane: str) -> None:
        from saikoro.server.worker import serve_jobs

        self.lane = lane
        self.conn, child = context.Pipe()
        niceness = HEAVY_NICENESS if lane == "heavy" else 0
        self.process = context.Process(
            target=serve_jobs, args=(child, niceness), daemon=True, name=f"saikoro-roll-{lane}"
        )
        self.process.start()
        child.close()

    async def _receive(self, timeout: float) -> Any:
        """The worker's next message; None when none came in time or the worker died."""
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        try:
            fd = self.conn.fileno()
        except OSError:  # killed and closed meanwhile (the pool is closing)
            return None

        def mark_readable() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, mark_readable)
        try:
            await asyncio.wait_for(readable, timeout)
        except TimeoutError:
            return None
        finally:
            loop.remove_reader(fd)
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            return None

    async def ready(self, timeout: float) -> bool:
        """Wait until the new worker has started (imports done): True when it has."""
        from saikoro.server.worker import READY

        message = await self._receive(timeout)
        return bool(message == READY)

    async def call(self, payload: Any, timeout: float) -> tuple[Any, ...] | None:
        """Send a job and wait for its reply; None when it timed out or the worker died."""
        try:
            self.conn.send(payload)
        except OSError:  # the worker died while idle
            return None
        reply: tuple[Any, ...] | None = await self._receive(timeout)
        return reply

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(timeout=2)
        with contextlib.suppress(Exception):
            self.conn.close()


@dataclass
class _Client:
    cost: float  # exponential average of this client's job CPU times (seconds)
    running: int = 0
    waiting: int = 0
    seen: float = field(default_factory=time.monotonic)


@dataclass
class _Waiter:
    client: str
    future: asyncio.Future[_Worker]
    order: int


class RollPool:
    """Worker processes, per-client limits and cheap-first turns (see the module's doc)."""

    COST_WEIGHT = 0.3  # weight of the newest job in a client's average
    FORGET_AFTER = 300.0  # seconds after which an idle client's record may be dropped
    STARTUP_SECONDS = 60.0  # a worker not ready by then is killed and started again

    def __init__(self, limits: PoolLimits | None = None, source_factory: Any = None) -> None:
        self.limits = limits or PoolLimits()
        self.source_factory = source_factory  # picklable sources only (scripted dice)
        self._context: Any
        if "forkserver" in multiprocessing.get_all_start_methods():
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(["saikoro.server.worker"])
        else:  # no fork server (macOS has one; Windows does not): each worker imports itself
            self._context = multiprocessing.get_context("spawn")
        self._idle: dict[str, list[_Worker]] = {"heavy": [], "light": []}
        self._workers: set[_Worker] = set()
        self._waiting: list[_Waiter] = []
        self._clients: dict[str, _Client] = {}
        self._order = itertools.count()
        self._starting: set[asyncio.Task[None]] = set()
        self._closed = False

    # -- life -------------------------------------------------------------------
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        lanes = ["heavy"] * self.limits.workers + ["light"] * self.limits.light_workers
        workers = await loop.run_in_executor(None, lambda: [self._spawn(lane) for lane in lanes])
        await asyncio.gather(*(self._enlist(worker) for worker in workers))

    async def close(self) -> None:
        self._closed = True
        for task in list(self._starting):
            task.cancel()
        for worker in list(self._workers):
            worker.kill()
        self._workers.clear()
        for waiter in self._waiting:
            if not waiter.future.done():
                waiter.future.cancel()
        self._waiting.clear()

    def _spawn(self, lane: str) -> _Worker:
        worker = _Worker(self._context, lane)
        self._workers.add(worker)
        return worker

    async def _enlist(self, worker: _Worker) -> None:
        """Make ``worker`` idle once it is ready (or start another in its place)."""
        while not await worker.ready(self.STARTUP_SECONDS):
            log.error("a roll worker did not start; starting another")
            worker.kill()
            self._workers.discard(worker)
            if self._closed:
                return
            worker = self._spawn(worker.lane)
        if self._closed:
            worker.kill()
            return
        self._idle[worker.lane].append(worker)
        self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` (its job is abandoned) and start another for its lane."""
        worker.kill()
        self._workers.discard(worker)
        if not self._closed:
            task = asyncio.get_running_loop().create_task(self._enlist(self._spawn(worker.lane)))
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)

    @property
    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    # -- turns ------------------------------------------------------------------
    def _heavy(self, client: _Client) -> bool:
        return client.cost > self.limits.heavy_seconds

    def _dispatch(self) -> None:
        """Give idle workers to waiting jobs: the cheapest client first, then in arrival order."""
        if not self._waiting:
            return
        clients = self._clients
        waiting = sorted(
            self._waiting,
            key=lambda w: (self._heavy(clients[w.client]), clients[w.client].cost, w.order),
        )
        for waiter in waiting:
            if not (self._idle["heavy"] or self._idle["light"]):
                return
            client = self._clients[waiter.client]
            if client.running >= self.limits.per_client_running or waiter.future.done():
                continue
            lanes = ("heavy",) if self._heavy(client) else ("light", "heavy")
            lane = next((lane for lane in lanes if self._idle[lane]), None)
            if lane is None:
                continue
            self._waiting.remove(waiter)
            client.waiting -= 1
            client.running += 1
            waiter.future.set_result(self._idle[lane].pop())

    def _forget_idle_clients(self, now: float) -> None:
        if len(self._clients) < 4096:
            return
        for key, client in list(self._clients.items()):
            if not (client.running or client.waiting) and now - client.seen > self.FORGET_AFTER:
                del self._clients[key]

    async def _turn(self, key: str, client: _Client) -> _Worker | None:
        """Wait for a worker; None when none came within the queue timeout."""
        waiter = _Waiter(key, asyncio.get_running_loop().create_future(), next(self._order))
        client.waiting += 1
        self._waiting.append(waiter)
        self._dispatch()
        try:
            await asyncio.wait({waiter.future}, timeout=self.limits.queue_timeout)
        except BaseException:  # the request was cancelled
            if waiter.future.done() and not waiter.future.cancelled():
                self._give_back(client, waiter.future.result())
            else:
                self._leave_queue(waiter, client)
            raise
        if not waiter.future.done():
            self._leave_queue(waiter, client)
            return None
        return waiter.future.result()

    def _leave_queue(self, waiter: _Waiter, client: _Client) -> None:
        waiter.future.cancel()
        self._waiting.remove(waiter)
        client.waiting -= 1

    def _give_back(self, client: _Client, worker: _Worker) -> None:
        client.running -= 1
        self._idle[worker.lane].append(worker)
        self._dispatch()

    # -- work -------------------------------------------------------------------
    async def _attempt(
        self, client: _Client, worker: _Worker, payload: Any, budget: float
    ) -> tuple[tuple[Any, ...] | None, float]:
        """Run one try on ``worker``: its reply (None: over ``budget`` or died) and seconds."""
        started = time.monotonic()
        reply = None
        try:
            reply = await worker.call(payload, budget)
        finally:
            elapsed = time.monotonic() - started
            cpu = reply[2] if reply is not None else elapsed
            client.cost += self.COST_WEIGHT * (cpu - client.cost)
            if reply is None:  # abandoned, died, or the request was cancelled
                client.running -= 1
                self._replace(worker)
            else:
                self._give_back(client, worker)
        return reply, elapsed

    async def run(self, key: str, job: RollJob) -> Reply:
        """Run ``job`` for the client ``key`` (its address): ``(status, JSON body)``."""
        now = time.monotonic()
        self._forget_idle_clients(now)
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = _Client(cost=self.limits.heavy_seconds)
        client.seen = now
        if client.running + client.waiting >= (
            self.limits.per_client_running + self.limits.per_client_waiting
        ):
            return error_reply(TooManyRequestsError(), job.extras)
        source = self.source_factory() if self.source_factory is not None else None
        spent = 0.0  # seconds this job has run so far (a light worker's try counts)
        while True:
            worker = await self._turn(key, client)
            if worker is None:
                return error_reply(BusyError(), job.extras)
            budget = self.limits.deadline - spent
            tried_light = worker.lane == "light" and budget > self.limits.light_budget
            if tried_light:
                budget = self.limits.light_budget
            reply, elapsed = await self._attempt(client, worker, (job, source), budget)
            spent += elapsed
            if reply is not None:
                break
            if elapsed < budget:
                log.error("roll worker died running %r", job)
                return error_reply(None, job.extras)
            if not tried_light:
                return error_reply(RollTimeoutError(self.limits.deadline), job.extras)
            # Too long for a light worker: the client is heavy now; its job starts again
            # on a heavy worker (no dice of the abandoned try were shown to anyone).
            client.cost = max(client.cost, 2 * self.limits.heavy_seconds)
        status, body, _, failure = reply
        if failure is not None:
            log.error("roll worker failed on %r: %s", job, failure)
        return status, body
