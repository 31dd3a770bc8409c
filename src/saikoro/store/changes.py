"""Noticing that another process wrote to a SQLite database, for the price of a pragma.

A server keeps rooms and resolved link tokens in memory; a ``saikoro room revoke`` run by
another process on the same SQLite file cannot tell it (no NOTIFY on SQLite). SQLite's
``PRAGMA data_version`` changes whenever a connection other than the one asking — in
this process or another — has committed to the database since it was last read; read on
a connection of its own it costs a few microseconds and no query of any table, so it can
be asked before every use of the cache (:class:`saikoro.server.table.service.TableService`).

On PostgreSQL there is nothing to ask: every revoke sends a NOTIFY in its own transaction
(:meth:`saikoro.store.links.LinkStore.revoke`), which every server listens to.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from sqlalchemy import Select
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Engine


class CommitCounter:
    """``PRAGMA data_version`` of a SQLite file, on a connection used for nothing else."""

    def __init__(self, path: str) -> None:
        self._connection = sqlite3.connect(
            path, timeout=60, isolation_level=None, check_same_thread=False
        )
        self._lock = threading.Lock()
        self._texts: dict[Select[Any], str] = {}

    def read(self) -> int | None:
        """A number that differs from the last one read when anyone else has committed
        (None when it cannot be read: then assume someone has)."""
        try:
            with self._lock:
                row = self._connection.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error:
            return None
        return int(row[0])

    def scalar(self, query: Select[Any]) -> int | None:
        """The one number ``query`` selects, read on this connection — tens of
        microseconds, not the engine's hundreds (None when it cannot be read: ask the
        store, whose errors say what is wrong)."""
        text = self._texts.get(query)
        if text is None:
            compiled = query.compile(
                dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}
            )
            text = self._texts[query] = str(compiled)
        try:
            with self._lock:
                row = self._connection.execute(text).fetchone()
        except sqlite3.Error:
            return None
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def commit_counter(engine: Engine) -> CommitCounter | None:
    """A counter for a SQLite file database; None for PostgreSQL and in-memory SQLite."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return CommitCounter(str(url.database))
