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
  whole deadline), and so is each command's last cost. A waiting job's turn comes at
  its arrival plus ``cost_delay`` times its client's average (the default 5: a client
  whose jobs average 2 ms waits 10 ms longer than a fresh one, one whose jobs hit a 5 s
  deadline 25 s), so cheap work goes first and no client is starved by a stream of
  cheaper jobs; cheap jobs may also use the ``light_workers`` kept for them, while a job
  predicted expensive — its client's jobs are, the same command was, or it looks so
  (:func:`saikoro.server.jobs.looks_expensive`: long, or repetitions × its largest
  number over 1000, as ``x100 100B66``) — runs on the other ``workers`` only. So one
  client's expensive commands delay another's ``2D6`` by at most one cheap job, not by
  a queue of expensive ones. A job that was not predicted expensive and runs longer
  than ``light_budget`` on a light worker is not abandoned: that worker is *demoted*
  (its CPU priority lowered as a heavy worker's; a new light worker takes its place,
  at most ``light_workers`` such extra processes at once), the job finishes there and
  the worker then ends. The CPU time the job took then counts for its client and its
  command as any job's: a cheap ``2D6`` that overran only because the machine was busy
  does not make its client expensive.
- **Never blocking the event loop**: a worker's answer (``x100 100B66`` answers
  ≈430 kB) is read and a job sent through the loop's non-blocking socket calls
  (:mod:`saikoro.server.frames`); workers are started, and killed ones reaped, in
  threads.
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
import socket
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from saikoro.dice.randomizer import DiceSource, RandomSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server import frames
from saikoro.server.bodies import answer, encode, error_answer, error_status_and_body
from saikoro.server.jobs import RollJob, looks_expensive

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
    light_budget: float = 0.05  # seconds a job runs on a light worker before it is demoted
    deadline: float = 5.0  # seconds one job may run
    per_client_running: int = 2
    per_client_waiting: int = 64  # a bot behind one address may send many at once
    queue_timeout: float = 10.0  # seconds a job may wait for a worker
    heavy_seconds: float = 0.02  # a client whose jobs average more is "heavy"
    cost_delay: float = 5.0  # seconds of a job's turn per second of its client's average cost
    #: A command whose last measured cost (on a worker) was at most this runs on the event
    #: loop, without the worker round trip (0: never); ``inline_dice`` bounds such a run:
    #: a die asked for past that many ends the attempt, and the command goes to a worker.
    inline_seconds: float = 0.002
    inline_dice: int = 200
    #: Only commands this short run on the loop (parsing them costs little anywhere).
    inline_text: int = 100


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


_LOOP_SOURCE: DiceSource = RandomSource()  # stateless: serves every run on the loop


class _Overran(Exception):
    """An inline run went past its budget (never a SaikoroError: no answer catches it)."""


class _InlineBudget:
    """A dice source for a run on the event loop: a die asked for past ``dice`` ends it.

    Counted in dice, not time. What a short command (``inline_text``) costs apart from its
    dice is the same at every run — the worker measured it before it came here — so only
    its dice can make a run cost more than that; counting them is free and sure. A clock
    was neither: a wall clock also counted the moments the operating system gave the CPU
    to another process (on a busy machine that once sent ``2D6`` to the workers for good,
    an overrun never running inline again), and the thread's CPU clock is a system call
    that cost more than the whole ``2D6`` on a loaded machine.
    """

    def __init__(self, source: DiceSource | None, dice: int) -> None:
        self.source = source if source is not None else _LOOP_SOURCE
        self.left = dice
        self.yields_faces = getattr(self.source, "yields_faces", False)

    def roll(self, sides: int) -> int:
        if self.left <= 0:
            raise _Overran()
        self.left -= 1
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
    """One worker process and the pool's end of its socket (non-blocking, read by the loop)."""

    def __init__(self, context: Any, lane: str) -> None:
        """Start the process (blocking for a few ms: the pool calls this in a thread)."""
        from saikoro.server.worker import serve_jobs

        self.lane = lane  # "light", "heavy", or "demoted" (a light worker whose job ran long)
        self.sock, child = socket.socketpair()
        niceness = HEAVY_NICENESS if lane == "heavy" else 0
        self.process = context.Process(
            target=serve_jobs, args=(child, niceness), daemon=True, name=f"saikoro-roll-{lane}"
        )
        try:
            self.process.start()
        finally:
            child.close()
        self.sock.setblocking(False)
        self._reply: asyncio.Future[Any] | None = None  # the message being read

    async def receive(self, timeout: float) -> Any:
        """The worker's next message; :data:`LATE` when none came within ``timeout`` (the
        message keeps arriving: ask again), None when the worker died."""
        if self._reply is None:
            self._reply = asyncio.ensure_future(frames.read_async(self.sock))
        done, _ = await asyncio.wait({self._reply}, timeout=max(0.0, timeout))
        if not done:
            return LATE
        reply, self._reply = self._reply, None
        try:
            return reply.result()
        except (EOFError, OSError):
            return None

    async def ready(self, timeout: float) -> bool:
        """Wait until the new worker has started (imports done): True when it has."""
        from saikoro.server.worker import READY

        message = await self.receive(timeout)
        return bool(message == READY)

    async def send(self, payload: Any) -> bool:
        """Send a job (never blocks the loop); False when the worker has died."""
        try:
            await frames.write_async(self.sock, payload)
        except OSError:
            return False
        return True

    async def call(self, payload: Any, timeout: float) -> tuple[Any, ...] | None:
        """Send a job and wait for its reply; None when it timed out or the worker died."""
        if not await self.send(payload):
            return None
        reply = await self.receive(timeout)
        return None if reply is LATE else reply

    def demote(self) -> None:
        """Lower the CPU priority of a light worker whose job runs long (as a heavy one's)."""
        self.lane = "demoted"
        with contextlib.suppress(OSError, AttributeError, TypeError):
            os.setpriority(os.PRIO_PROCESS, self.process.pid, HEAVY_NICENESS)

    def kill(self) -> None:
        """Kill the process and close the socket without waiting (the pool reaps it later)."""
        if self._reply is not None:
            self._reply.cancel()
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.sock.close()

    def reap(self) -> None:
        """Wait for the killed process to end (blocking: the pool calls this in a thread)."""
        with contextlib.suppress(Exception):
            self.process.join(timeout=5)


#: :meth:`_Worker.receive`: no message yet.
LATE = object()


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
    turn: tuple[float, int]  # when it is served: arrival plus its client's cost delay; order
    heavy: bool  # predicted expensive: heavy workers only


class RollPool:
    """Worker processes, per-client limits and cheap-first turns (see the module's doc)."""

    COST_WEIGHT = 0.3  # weight of the newest job in a client's average
    FORGET_AFTER = 300.0  # seconds after which an idle client's record may be dropped
    STARTUP_SECONDS = 60.0  # a worker not ready by then is killed and started again
    KNOWN_COMMANDS = 4096  # commands whose last cost is remembered (the oldest are dropped)

    def __init__(
        self,
        limits: PoolLimits | None = None,
        source_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits or PoolLimits()
        self.source_factory = source_factory  # picklable sources only (scripted dice)
        self.clock = clock  # orders the turns (tests inject one); deadlines use the loop's
        self._context: Any
        if "forkserver" in multiprocessing.get_all_start_methods():
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(["saikoro.server.worker"])
        else:  # no fork server (macOS has one; Windows does not): each worker imports itself
            self._context = multiprocessing.get_context("spawn")
        self._idle: dict[str, list[_Worker]] = {"heavy": [], "light": []}
        self._workers: set[_Worker] = set()
        self._starting: Counter[str] = Counter()  # workers being started, by lane
        self._waiting: list[_Waiter] = []
        self._clients: dict[str, _Client] = {}
        self._known: OrderedDict[int, float] = OrderedDict()  # a command's hash → its cost
        self._overran: OrderedDict[int, None] = OrderedDict()  # commands too slow to inline
        self._order = itertools.count()
        self._tasks: set[asyncio.Future[Any]] = set()
        # Starting a process talks to the fork server: one at a time, never on the loop.
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="saikoro-spawn")
        self._closed = False

    # -- life -------------------------------------------------------------------
    async def start(self) -> None:
        await self._fill()
        while sum(self._starting.values()) and not self._closed:  # the first workers are ready
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        workers = list(self._workers)
        for worker in workers:
            worker.kill()
        self._workers.clear()
        self._idle = {"heavy": [], "light": []}
        for waiter in self._waiting:
            if not waiter.future.done():
                waiter.future.cancel()
        self._waiting.clear()
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, w.reap) for w in workers))
        self._spawner.shutdown(wait=False, cancel_futures=True)

    def _background(
        self, work: Coroutine[Any, Any, None] | asyncio.Future[None]
    ) -> asyncio.Future[None]:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _missing(self, lane: str) -> int:
        """How many workers ``lane`` lacks (the demoted ones count against the total only)."""
        target = self.limits.workers if lane == "heavy" else self.limits.light_workers
        have = sum(w.lane == lane for w in self._workers) + self._starting[lane]
        # At most light_workers demoted workers are replaced while they finish.
        room = self.limits.workers + 2 * self.limits.light_workers
        room -= len(self._workers) + sum(self._starting.values())
        return max(0, min(target - have, room))

    async def _fill(self) -> None:
        """Start the workers the lanes lack (in a thread), each made idle once it is ready."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        for lane in ("light", "heavy"):
            for _ in range(self._missing(lane)):
                self._starting[lane] += 1
                self._background(self._start_one(loop, lane))

    async def _start_one(self, loop: asyncio.AbstractEventLoop, lane: str) -> None:
        worker: _Worker | None = None
        try:
            worker = await loop.run_in_executor(self._spawner, _Worker, self._context, lane)
            self._workers.add(worker)
            ready = await worker.ready(self.STARTUP_SECONDS)
        except Exception:
            log.exception("a roll worker could not be started")
            ready = False
        finally:
            self._starting[lane] -= 1
        if self._closed or not ready:
            if worker is not None:
                self._discard(worker)
            if not self._closed:
                log.error("a roll worker did not start; starting another")
                await asyncio.sleep(0.5)
                self._background(self._fill())
            return
        assert worker is not None
        self._idle[lane].append(worker)
        self._dispatch()

    def _discard(self, worker: _Worker) -> None:
        """Kill ``worker`` now, reap it in a thread, and start what its lane lacks."""
        worker.kill()
        self._workers.discard(worker)
        for idle in self._idle.values():
            if worker in idle:
                idle.remove(worker)
        if not self._closed:
            self._background(asyncio.get_running_loop().run_in_executor(None, worker.reap))
            self._background(self._fill())

    @property
    def worker_pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    # -- turns ------------------------------------------------------------------
    def _heavy(self, client: _Client) -> bool:
        return client.cost > self.limits.heavy_seconds

    def _command_key(self, job: RollJob) -> int:
        return hash(job)

    def _predicted_heavy(self, client: _Client, job: RollJob) -> bool:
        """Expensive, as far as the pool knows: the client's recent jobs or this command's."""
        known = self._known.get(self._command_key(job))
        if known is not None:
            return self._heavy(client) or known > self.limits.heavy_seconds
        return self._heavy(client) or looks_expensive(job)

    def _remember(self, job: RollJob, cost: float) -> None:
        key = self._command_key(job)
        self._known[key] = cost
        self._known.move_to_end(key)
        while len(self._known) > self.KNOWN_COMMANDS:
            self._known.popitem(last=False)

    def _dispatch(self) -> None:
        """Give idle workers to waiting jobs in the order of their turns."""
        for waiter in sorted(self._waiting, key=lambda w: w.turn):
            if not (self._idle["heavy"] or self._idle["light"]):
                return
            client = self._clients[waiter.client]
            if client.running >= self.limits.per_client_running or waiter.future.done():
                continue
            lanes = ("heavy",) if waiter.heavy else ("light", "heavy")
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

    async def _turn(self, key: str, client: _Client, heavy: bool) -> _Worker | None:
        """Wait for a worker; None when none came within the queue timeout."""
        loop = asyncio.get_running_loop()
        turn = self.clock() + self.limits.cost_delay * client.cost, next(self._order)
        waiter = _Waiter(key, loop.create_future(), turn, heavy)
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
        if worker.lane == "demoted":  # done: its lane has a replacement (or gets one now)
            self._discard(worker)
        elif worker in self._workers:
            self._idle[worker.lane].append(worker)
        self._dispatch()

    # -- cheap work on the loop ---------------------------------------------------
    def _runs_inline(self, client: _Client, job: RollJob) -> bool:
        """Cheap as the cost model knows it: this command ran within ``inline_seconds``
        last time, and the client is not a heavy one."""
        if job.kind == "simulate":
            return False  # fights take their own dice: an inline budget could not stop them
        if len(job.text or "") > self.limits.inline_text:
            return False  # a long text may be cheap on a worker only because it parsed it before
        key = self._command_key(job)
        known = self._known.get(key)
        limit = self.limits.inline_seconds
        if known is None or known > limit or limit <= 0 or self._heavy(client):
            return False
        return key not in self._overran

    def _inline(self, client: _Client, job: RollJob) -> Reply | None:
        """Run ``job`` here; None when it overran ``inline_dice`` (a worker takes it).

        No clock is read: the run costs what the worker measured for the command (its dice
        bounded by ``inline_dice``), and that is what the client's average counts."""
        source = self.source_factory() if self.source_factory is not None else None
        try:
            reply = answer(job, _InlineBudget(source, self.limits.inline_dice))
        except _Overran:  # never on the loop again (its cost on a worker is CPU time only)
            self._overran[self._command_key(job)] = None
            while len(self._overran) > self.KNOWN_COMMANDS:
                self._overran.popitem(last=False)
            return None
        cost = self._known.get(self._command_key(job), 0.0)
        client.cost += self.COST_WEIGHT * (cost - client.cost)
        return reply

    # -- work -------------------------------------------------------------------
    async def _attempt(self, client: _Client, worker: _Worker, job: RollJob, payload: Any) -> Any:
        """Run the job on ``worker``: its reply, :data:`LATE` past the deadline, None if it died.

        A job still running after ``light_budget`` on a light worker is not abandoned: the
        worker is demoted (lower CPU priority, a new light worker takes its place) and the
        job finishes there.
        """
        started = time.monotonic()
        reply: Any = None
        try:
            if await worker.send(payload):
                deadline = self.limits.deadline
                if worker.lane == "light" and deadline > self.limits.light_budget:
                    reply = await worker.receive(self.limits.light_budget)
                    if reply is LATE:  # the client's and command's costs follow its CPU time
                        worker.demote()
                        self._background(self._fill())
                        reply = await worker.receive(started + deadline - time.monotonic())
                else:
                    reply = await worker.receive(deadline)
        finally:
            elapsed = time.monotonic() - started
            finished = isinstance(reply, tuple)
            cost = reply[2] if finished else elapsed
            client.cost += self.COST_WEIGHT * (cost - client.cost)
            if finished:
                self._remember(job, cost)
                self._give_back(client, worker)
            else:  # abandoned, died, or the request was cancelled
                client.running -= 1
                self._remember(job, max(cost, self.limits.deadline))
                self._discard(worker)
                self._dispatch()
        return reply

    async def run(self, key: str, job: RollJob) -> Reply:
        """Run ``job`` for the client ``key`` (its address): ``(status, JSON body)``."""
        now = self.clock()
        self._forget_idle_clients(now)
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = _Client(cost=self.limits.heavy_seconds, seen=now)
        client.seen = now
        if client.running + client.waiting >= (
            self.limits.per_client_running + self.limits.per_client_waiting
        ):
            return error_reply(TooManyRequestsError(), job.extras)
        if self._runs_inline(client, job):
            # Synchronous and bounded by ``inline_dice``; the request's task then ends,
            # so everyone else on the loop gets their turn right after.
            reply = self._inline(client, job)
            if reply is not None:
                return reply
        worker = await self._turn(key, client, self._predicted_heavy(client, job))
        if worker is None:
            return error_reply(BusyError(), job.extras)
        source = self.source_factory() if self.source_factory is not None else None
        reply = await self._attempt(client, worker, job, (job, source))
        if reply is LATE:
            return error_reply(RollTimeoutError(self.limits.deadline), job.extras)
        if reply is None:
            log.error("roll worker died running %r", job)
            return error_reply(None, job.extras)
        status, body, _, failure = reply
        if failure is not None:
            log.error("roll worker failed on %r: %s", job, failure)
        return status, body
