"""What the Discord bot keeps of its own: which channel plays which room, who is its GM,
and which Discord user holds which of the room's player links.

Everything else (characters, HP, the tracker, the log) is the room's event log; a Discord
player is a holder of an ordinary personal link (:mod:`saikoro.store.links`), so revoking
that link on the web revokes the Discord user too. The tables live beside the event
store's (same metadata: SQLite and PostgreSQL alike). ``last_seq`` is how far the bot has
posted the room's log into the channel, so a restarted bot posts what it missed and
nothing twice; ``tracker_message`` is the one message it edits in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import BigInteger, Column, Integer, String, Table, delete, insert, select, update
from sqlalchemy.engine import Row

from saikoro.store.sql import SqlStore, metadata
from saikoro.table.events import now_iso
from saikoro.table.storage import ROOM_NAME_LENGTH

channels = Table(
    "saikoro_discord_channels",
    metadata,
    Column("channel_id", BigInteger, primary_key=True, autoincrement=False),
    Column("room", String(ROOM_NAME_LENGTH), nullable=False),
    Column("gm_user_id", BigInteger, nullable=False),
    Column("gm_role_id", BigInteger, nullable=True),
    Column("last_seq", Integer, nullable=False, default=0),
    Column("tracker_message_id", BigInteger, nullable=True),
    Column("created_at", String(40), nullable=False),
)

players = Table(
    "saikoro_discord_players",
    metadata,
    Column("room", String(ROOM_NAME_LENGTH), primary_key=True),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("link_id", String(32), primary_key=True),
)


@dataclass(frozen=True)
class ChannelBinding:
    channel_id: int
    room: str
    gm_user_id: int
    gm_role_id: int | None
    last_seq: int
    tracker_message_id: int | None


def _binding(row: Row[object]) -> ChannelBinding:
    m = row._mapping
    return ChannelBinding(
        channel_id=int(m["channel_id"]),
        room=m["room"],
        gm_user_id=int(m["gm_user_id"]),
        gm_role_id=None if m["gm_role_id"] is None else int(m["gm_role_id"]),
        last_seq=int(m["last_seq"] or 0),
        tracker_message_id=None
        if m["tracker_message_id"] is None
        else int(m["tracker_message_id"]),
    )


class DiscordLinks:
    """The bot's bindings in ``store``'s database (synchronous; call from a thread)."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.engine = store.engine

    def bind(
        self,
        channel_id: int,
        room: str,
        gm_user_id: int,
        gm_role_id: int | None = None,
        last_seq: int = 0,
    ) -> ChannelBinding:
        """Bind ``channel_id`` to ``room`` (a channel plays one room; binding it again
        moves it, and the bot starts posting the new room from ``last_seq``)."""
        with self.engine.begin() as conn:
            conn.execute(delete(channels).where(channels.c.channel_id == channel_id))
            conn.execute(
                insert(channels).values(
                    channel_id=channel_id,
                    room=room,
                    gm_user_id=gm_user_id,
                    gm_role_id=gm_role_id,
                    last_seq=last_seq,
                    tracker_message_id=None,
                    created_at=now_iso(),
                )
            )
        found = self.get(channel_id)
        assert found is not None
        return found

    def unbind(self, channel_id: int) -> bool:
        with self.engine.begin() as conn:
            return bool(
                conn.execute(delete(channels).where(channels.c.channel_id == channel_id)).rowcount
            )

    def get(self, channel_id: int) -> ChannelBinding | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(channels).where(channels.c.channel_id == channel_id)).first()
        return None if row is None else _binding(row)

    def all(self) -> list[ChannelBinding]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(channels).order_by(channels.c.channel_id)).all()
        return [_binding(row) for row in rows]

    def set_gm_role(self, channel_id: int, role_id: int | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(channels)
                .where(channels.c.channel_id == channel_id)
                .values(gm_role_id=role_id)
            )

    def posted(self, channel_id: int, seq: int) -> None:
        """The channel shows the room's log up to ``seq`` (never moves back)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(channels)
                .where(channels.c.channel_id == channel_id, channels.c.last_seq < seq)
                .values(last_seq=seq)
            )

    def set_tracker_message(self, channel_id: int, message_id: int | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(channels)
                .where(channels.c.channel_id == channel_id)
                .values(tracker_message_id=message_id)
            )

    # -- players ---------------------------------------------------------------------
    def add_player(self, room: str, user_id: int, link_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(players).values(room=room, user_id=user_id, link_id=link_id))

    def player_links(self, room: str, user_id: int) -> list[str]:
        """The ids of the links ``user_id`` holds in ``room`` (live or not: ask the links)."""
        query = select(players.c.link_id).where(
            players.c.room == room, players.c.user_id == user_id
        )
        with self.engine.connect() as conn:
            return [row.link_id for row in conn.execute(query)]

    def room_players(self, room: str) -> list[tuple[int, str]]:
        """``(user id, link id)`` of every Discord player of ``room``."""
        query = select(players.c.user_id, players.c.link_id).where(players.c.room == room)
        with self.engine.connect() as conn:
            return [(int(row.user_id), row.link_id) for row in conn.execute(query)]


__all__ = ["ChannelBinding", "DiscordLinks", "channels", "players"]
