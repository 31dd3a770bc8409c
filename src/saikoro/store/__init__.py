"""Persistence of rooms: an append-only event log with snapshots (SQLAlchemy 2).

``open_store(url_or_path)`` gives a :class:`~saikoro.store.sql.SqlStore`: a SQLite file by
default, PostgreSQL for a ``postgresql://`` URL (driver psycopg 3). Its rooms' capability
links (:class:`~saikoro.store.links.LinkStore`) live in the same database.
"""

from __future__ import annotations

from saikoro.store import discord_links as _discord_links  # noqa: F401  (its tables join sql.metadata)
from saikoro.store import images as _images  # noqa: F401  (its table joins sql.metadata)
from saikoro.store.links import Link, LinkStore  # its table joins sql.metadata
from saikoro.store.sql import SqlStore, StorageUnavailableError, StoreError, open_store
from saikoro.table.storage import RoomRecord, VersionConflict

__all__ = [
    "Link",
    "LinkStore",
    "RoomRecord",
    "SqlStore",
    "StorageUnavailableError",
    "StoreError",
    "VersionConflict",
    "open_store",
]
