"""The roll worker process: runs jobs sent over a socket, answers ``(status, JSON bytes)``.

Importing this module loads the dice engine, every game system, the table core and the
encounter simulator, so that the fork server (which imports it once) hands each new worker
a warm interpreter (a "simulate" job's few seconds of fighting are not spent importing).
"""

from __future__ import annotations

import os
import signal
import socket
import time

import saikoro.simulate
import saikoro.table.state
from saikoro.dice import engine, randomizer
from saikoro.server import frames, simulate_route
from saikoro.server.bodies import answer, encode
from saikoro.systems import systems

#: The first message of a worker: it is ready for jobs (its deadline clock may start).
READY = "ready"

engine.common_command_modules()
_WARM = (saikoro.simulate.simulate, saikoro.table.state.RoomState, simulate_route.simulate_body)
for _system in systems.sorted_by_sort_key():
    _ = _system.command_pattern


def serve_jobs(sock: socket.socket, niceness: int = 0) -> None:
    """Answer jobs until the socket closes (the pool kills a worker whose job runs too long).

    Each reply is ``(status, JSON body, CPU seconds the job took, failure or None)``.
    ``niceness`` lowers the worker's CPU priority (the pool's workers for expensive
    clients yield the CPU to the event loop and to the workers of cheap ones).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    # A forked worker must not share its parent's dice: a fresh seed from the OS.
    randomizer._PROCESS_RNG.seed(int.from_bytes(os.urandom(32), "big"))
    sock.setblocking(True)
    frames.write(sock, READY)
    while True:
        try:
            job, source = frames.read(sock)
        except (EOFError, OSError):
            return
        started = time.process_time()
        failure = None
        try:
            status, body = answer(job, source)
        except Exception as error:  # a bug: BCDice-API's generic 500, logged by the pool
            status, body, failure = 500, encode({"ok": False}), repr(error)
        try:
            frames.write(sock, (status, body, time.process_time() - started, failure))
        except OSError:  # the pool closed its end (it is shutting down)
            return
