"""The rooms' images (characters' faces), stored beside their logs.

An image is kept once per room under its SHA-256 (``saikoro_images``: room id, digest,
content type, bytes); the log says which one a character shows (``icon_set`` events,
:mod:`saikoro.table.faces`). Images are never rewritten: a face changed back and forth
reuses the stored bytes, and an older line of the HTML log still finds the face it had.
They count toward the room's storage quota (:meth:`SqlStore.room_bytes`).

The table lives beside the event store's (same SQLAlchemy metadata: ``SqlStore`` creates
it with the others, on SQLite and PostgreSQL alike); ``SqlStore.images`` is this store.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Column, Integer, LargeBinary, String, Table, func, insert, select
from sqlalchemy.exc import IntegrityError

from saikoro.store.sql import SqlStore, metadata
from saikoro.table.storage import RoomRecord

images = Table(
    "saikoro_images",
    metadata,
    Column("room_id", Integer, primary_key=True),
    Column("digest", String(64), primary_key=True),
    Column("content_type", String(40), nullable=False),
    Column("data", LargeBinary, nullable=False),
)


@dataclass(frozen=True)
class StoredImage:
    digest: str
    content_type: str
    data: bytes


class ImageStore:
    """The images of the rooms of one database."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    def put(self, room: RoomRecord, image: StoredImage) -> None:
        """Keep ``image`` for ``room`` (already there: nothing to do)."""
        row = {
            "room_id": room.id,
            "digest": image.digest,
            "content_type": image.content_type,
            "data": image.data,
        }
        if self.get(room, image.digest) is not None:
            return
        with self.store._faults("画像を保存", "store an image"):
            try:
                with self.store.engine.begin() as conn:
                    conn.execute(insert(images).values(**row))
            except IntegrityError:
                pass  # stored meanwhile by another request: the same bytes

    def get(self, room: RoomRecord, digest: str) -> StoredImage | None:
        query = select(images.c.content_type, images.c.data).where(
            images.c.room_id == room.id, images.c.digest == digest
        )
        with self.store._faults("画像を読み込", "read an image"), self.store.engine.connect() as c:
            row = c.execute(query).first()
        if row is None:
            return None
        return StoredImage(digest, str(row.content_type), bytes(row.data))

    def room_bytes(self, room: RoomRecord) -> int:
        """Bytes of the room's stored images."""
        query = select(func.coalesce(func.sum(func.length(images.c.data)), 0)).where(
            images.c.room_id == room.id
        )
        with self.store._faults("読み込み", "read"), self.store.engine.connect() as c:
            return int(c.execute(query).scalar_one())


__all__ = ["ImageStore", "StoredImage", "images"]
