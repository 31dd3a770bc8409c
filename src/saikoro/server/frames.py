"""Messages between the roll pool and its workers: length-prefixed pickles over a socket.

The worker side reads and writes blocking; the pool's side reads and writes through the
event loop (``loop.sock_*``), so a large answer (``x100 100B66`` is ≈430 kB) that a
worker at a low CPU priority writes slowly never blocks the loop while it arrives.
Both ends are processes of the same server: the pickles never come from a client.
"""

from __future__ import annotations

import asyncio
import pickle
import socket
import struct
from typing import Any

_HEADER = struct.Struct("!Q")


def pack(message: Any) -> bytes:
    """``message`` as one frame: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = sock.recv_into(view[got:])
        if count == 0:
            raise EOFError("the other end closed the socket")
        got += count
    return bytes(buffer)


def read(sock: socket.socket) -> Any:
    """The next message (blocking; the worker's side). Raises EOFError when closed."""
    (size,) = _HEADER.unpack(_read_exactly(sock, _HEADER.size))
    return pickle.loads(_read_exactly(sock, size))


def write(sock: socket.socket, message: Any) -> None:
    """Send one message (blocking; the worker's side)."""
    sock.sendall(pack(message))


async def _read_exactly_async(sock: socket.socket, size: int) -> bytearray:
    loop = asyncio.get_running_loop()
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = await loop.sock_recv_into(sock, view[got:])
        if count == 0:
            raise EOFError("the other end closed the socket")
        got += count
    return buffer


async def read_async(sock: socket.socket) -> Any:
    """The next message, read through the event loop (``sock`` is non-blocking)."""
    (size,) = _HEADER.unpack(await _read_exactly_async(sock, _HEADER.size))
    return pickle.loads(await _read_exactly_async(sock, size))


async def write_async(sock: socket.socket, message: Any) -> None:
    """Send one message through the event loop (``sock`` is non-blocking)."""
    await asyncio.get_running_loop().sock_sendall(sock, pack(message))
