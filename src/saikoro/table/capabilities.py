"""What a capability link is, as the table sees it, and what a store of links provides.

A link (the GM's, an invite, a player's personal link bound to a character, a spectator's)
is known by its id; its token is handed out once and never kept (the store holds only its
hash). ``saikoro.store.links.LinkStore`` is the SQL implementation, reached as
``SqlStore.links``; the table's services (:mod:`saikoro.table.rooms`) use this interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

LinkRole = Literal["gm", "invite", "player", "spectator"]
LINK_ROLES: tuple[LinkRole, ...] = ("gm", "invite", "player", "spectator")


@dataclass(frozen=True)
class Link:
    """A link as anyone may see it: never its token."""

    id: str
    room: str
    role: str
    character: str | None
    created_at: str
    revoked: bool

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "room": self.room,
            "role": self.role,
            "character": self.character,
            "created_at": self.created_at,
            "revoked": self.revoked,
        }


class LinkTaken(SaikoroError):
    """The character already has a live personal link in the room (one player per character;
    the GM can revoke that link)."""

    reason = "conflict"

    def __init__(self, character: str) -> None:
        super().__init__(
            Message(
                f"{character} はもう別のプレイヤーのキャラクターです (GM がリンクを取り消せます)",
                f"{character} is already another player's character (the GM can revoke that link)",
            )
        )


class LinkRegistry(Protocol):
    """The links of every room (tokens only as hashes)."""

    def create(self, room: str, role: str, character: str | None = None) -> tuple[Link, str]:
        """A new link and its token (the only time the token is known)."""
        ...

    def resolve(self, room: str, token: str) -> Link | None:
        """The live link of ``room`` with this token, else None."""
        ...

    def get(self, room: str, link_id: str) -> Link | None: ...

    def revoke(self, room: str, link_id: str) -> bool: ...

    def reissue(self, room: str, link_id: str) -> tuple[Link, str] | None: ...

    def list(self, room: str, *, live_only: bool = False) -> list[Link]: ...

    def has_live(self, room: str, role: str, character: str | None = None) -> bool: ...


__all__ = ["LINK_ROLES", "Link", "LinkRegistry", "LinkRole", "LinkTaken"]
