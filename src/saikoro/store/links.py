"""Capability links: a room's GM, invite, player and spectator links (no accounts).

A link is a random token (``secrets.token_urlsafe(32)``: 256 bits) handed out once; the
store keeps only its SHA-256, found by an indexed lookup and compared with
:func:`hmac.compare_digest`. Whoever holds the token is the link's role in its room — the
GM, someone who may join (invite), the player of one character, or a spectator. A
revoked link resolves to nothing; the GM issues a new one instead (:meth:`reissue`).

The table lives beside the event store's (same SQLAlchemy metadata, so
``SqlStore`` creates it with the others, on SQLite and PostgreSQL alike); ``SqlStore.links``
is this store of the database. It implements :class:`saikoro.table.capabilities.LinkRegistry`.
"""

from __future__ import annotations

import builtins
import hashlib
import hmac
import secrets
import uuid

from sqlalchemy import Column, Index, String, Table, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError

from saikoro.store.sql import NOTIFY_CHANNEL, REVOKED_SEQ, SqlStore, metadata, notify_payload
from saikoro.table.capabilities import LINK_ROLES, Link, LinkTaken
from saikoro.table.events import now_iso
from saikoro.table.storage import ROOM_NAME_LENGTH

#: Bytes of randomness in a token (256 bits; the issue asks for at least 128).
TOKEN_BYTES = 32

links = Table(
    "saikoro_links",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("room", String(ROOM_NAME_LENGTH), nullable=False),
    Column("role", String(16), nullable=False),
    Column("character", String(200), nullable=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", String(40), nullable=False),
    Column("revoked_at", String(40), nullable=True),
    Index("ix_saikoro_links_room", "room"),
)

#: One live personal link per character and room: two players joining as one character at
#: the same moment cannot both win (a partial unique index, SQLite and PostgreSQL).
_LIVE_PLAYER = (links.c.role == "player") & links.c.revoked_at.is_(None)
Index(
    "uq_saikoro_links_live_player",
    links.c.room,
    links.c.character,
    unique=True,
    sqlite_where=_LIVE_PLAYER,
    postgresql_where=_LIVE_PLAYER,
)

#: How many links were ever revoked (it only grows: a change means a revoke).
REVOKED_COUNT = select(func.count()).select_from(links).where(links.c.revoked_at.isnot(None))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _link(row: Row[object]) -> Link:
    m = row._mapping
    return Link(
        id=m["id"],
        room=m["room"],
        role=m["role"],
        character=m["character"],
        created_at=m["created_at"],
        revoked=m["revoked_at"] is not None,
    )


class LinkStore:
    """The links of every room, on an open :class:`SqlStore` (its engine and tables)."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.engine = store.engine

    def create(self, room: str, role: str, character: str | None = None) -> tuple[Link, str]:
        """A new link and its token (the only time the token is known)."""
        if role not in LINK_ROLES:
            raise ValueError(f"unknown link role {role!r}")
        if (role == "player") != (character is not None):
            raise ValueError("a player link names its character; no other link does")
        token = new_token()
        link = Link(uuid.uuid4().hex, room, role, character, now_iso(), False)
        with self.store._faults("リンクを保存", "save a link"):
            try:
                self._insert(link, token)
            except IntegrityError:
                raise LinkTaken(character or "") from None
        return link, token

    def _insert(self, link: Link, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(links).values(
                    id=link.id,
                    room=link.room,
                    role=link.role,
                    character=link.character,
                    token_hash=token_hash(token),
                    created_at=link.created_at,
                    revoked_at=None,
                )
            )

    def resolve(self, room: str, token: str) -> Link | None:
        """The live link of ``room`` whose token this is, else None (unknown, revoked, or
        another room's)."""
        if not token or len(token) > 200:
            return None
        wanted = token_hash(token)
        with self.store._faults("リンクを読み込", "read links"), self.engine.connect() as conn:
            row = conn.execute(select(links).where(links.c.token_hash == wanted)).first()
        if row is None:
            return None
        if not hmac.compare_digest(row._mapping["token_hash"], wanted):
            return None
        link = _link(row)
        if link.revoked or link.room != room:
            return None
        return link

    def get(self, room: str, link_id: str) -> Link | None:
        with self.store._faults("リンクを読み込", "read links"), self.engine.connect() as conn:
            row = conn.execute(
                select(links).where(links.c.id == link_id, links.c.room == room)
            ).first()
        return _link(row) if row is not None else None

    def revoke(self, room: str, link_id: str) -> bool:
        """Revoke a link of ``room``; False when there is no such live link.

        On PostgreSQL the same transaction notifies every server (whoever revokes: a
        server's route or ``saikoro room revoke``), which then forgets its resolved tokens
        of the room; on SQLite servers notice the commit itself
        (:mod:`saikoro.store.changes`)."""
        with self.store._faults("リンクを保存", "save a link"), self.engine.begin() as conn:
            moved = conn.execute(
                update(links)
                .where(links.c.id == link_id, links.c.room == room, links.c.revoked_at.is_(None))
                .values(revoked_at=now_iso())
            ).rowcount
            if moved == 1 and conn.dialect.name == "postgresql":  # sent on commit only
                conn.execute(
                    select(func.pg_notify(NOTIFY_CHANNEL, notify_payload(room, REVOKED_SEQ)))
                )
        return moved == 1

    def revoked_count(self) -> int:
        """How many links were ever revoked (it only grows: a change means a revoke)."""
        with self.store._faults("リンクを読み込", "read links"), self.engine.connect() as conn:
            return int(conn.execute(REVOKED_COUNT).scalar_one())

    def reissue(self, room: str, link_id: str) -> tuple[Link, str] | None:
        """Revoke a link and create one of the same role and character in its place."""
        old = self.get(room, link_id)
        if old is None:
            return None
        self.revoke(room, link_id)
        return self.create(room, old.role, old.character)

    def list(self, room: str, *, live_only: bool = False) -> builtins.list[Link]:
        query = select(links).where(links.c.room == room).order_by(links.c.created_at, links.c.id)
        if live_only:
            query = query.where(links.c.revoked_at.is_(None))
        with self.store._faults("リンクを読み込", "read links"), self.engine.connect() as conn:
            return [_link(row) for row in conn.execute(query).all()]

    def has_live(self, room: str, role: str, character: str | None = None) -> bool:
        return any(
            link.role == role and (character is None or link.character == character)
            for link in self.list(room, live_only=True)
        )


__all__ = [
    "LINK_ROLES",
    "TOKEN_BYTES",
    "Link",
    "LinkStore",
    "LinkTaken",
    "links",
    "new_token",
    "token_hash",
]
