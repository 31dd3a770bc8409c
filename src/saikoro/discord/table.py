"""The Discord table's core, without Discord: who a Discord user is at a bound room's
table, which messages are dice or table lines, and carrying them out.

Everything goes through the same pieces as the web table: the server's
:class:`~saikoro.server.table.service.TableService` (one session per room, the store's
version check, the pubsub wake-ups), the room's links (a Discord player holds an ordinary
personal link, made through the room's invite exactly as the page joins) and the table
core's roles. The calls here are synchronous (the store is): the bot runs them in a thread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from saikoro.dice.engine import evaluate
from saikoro.dice.normalize import to_half_width
from saikoro.dice.randomizer import DiceSource, Randomizer, RandomSource
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.table.service import LineResult, TableService
from saikoro.store.discord_links import ChannelBinding, DiscordLinks
from saikoro.store.links import Link
from saikoro.systems import systems
from saikoro.systems.hints import resolve_system_id
from saikoro.table import rooms
from saikoro.table.actors import Actor
from saikoro.table.emit import fail

#: The system of a channel no room is bound to (BCDice's generic dice bot).
UNBOUND_SYSTEM = "DiceBot"
#: First characters of a table line that is not a dice command (half-width).
TABLE_MARKS = (":", "@", "/")
#: A ``{ラベル}`` reference to the speaker's values.
_REFERENCE = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class DiscordUser:
    """Who wrote a message or pressed a button: their id and the ids of their roles."""

    id: int
    role_ids: frozenset[int] = frozenset()
    name: str = ""


class _Probe:
    """Dice that always show 1: enough to ask the engine whether a text is a command."""

    def roll(self, sides: int) -> int:
        return 1


class DiscordTable:
    def __init__(
        self, service: TableService, source_factory: Callable[[], DiceSource] | None = None
    ) -> None:
        self.service = service
        self.bindings = DiscordLinks(service.store)
        self.source_factory = source_factory or service.source_factory

    def _source(self) -> DiceSource:
        return self.source_factory() if self.source_factory is not None else RandomSource()

    # -- bindings ----------------------------------------------------------------------
    def bind(
        self, channel_id: int, room: str, gm_user_id: int, gm_role_id: int | None = None
    ) -> ChannelBinding:
        """Bind a channel to an existing room; the bot posts the room's log from now on."""
        record = self.service.store.get_room(room)
        if record is None:
            raise fail(f"部屋 {room!r} はありません", f"no room {room!r}", "no such room")
        return self.bindings.bind(
            channel_id, record.name, gm_user_id, gm_role_id, self.service.store.version(record)
        )

    def create_and_bind(
        self, channel_id: int, room: str, system: str, gm_user_id: int
    ) -> tuple[ChannelBinding, rooms.CreatedRoom]:
        """A new room (with its web links) played in ``channel_id``, ``gm_user_id`` its GM."""
        created = rooms.create_room(self.service.store, room, resolve_system_id(system))
        return self.bind(channel_id, created.room, gm_user_id), created

    # -- who is who --------------------------------------------------------------------
    def player_links(self, binding: ChannelBinding, user_id: int) -> list[Link]:
        links = self.service.links
        found = (
            links.get(binding.room, i) for i in self.bindings.player_links(binding.room, user_id)
        )
        return [link for link in found if link is not None and not link.revoked]

    def actor(self, binding: ChannelBinding, user: DiscordUser) -> Actor:
        """The GM (the bound GM, or a member of the GM role), a player of the characters
        their live links hold, else a spectator."""
        if user.id == binding.gm_user_id or (
            binding.gm_role_id is not None and binding.gm_role_id in user.role_ids
        ):
            return Actor.gm()
        names = sorted(
            link.character for link in self.player_links(binding, user.id) if link.character
        )
        if names:
            return Actor.player(*names)
        return Actor.spectator(label=user.name)

    def players_of(self, room: str, character: str) -> list[int]:
        """The Discord users holding a live link of ``character`` in ``room``."""
        out = []
        for user_id, link_id in self.bindings.room_players(room):
            link = self.service.links.get(room, link_id)
            if link is not None and not link.revoked and link.character == character:
                out.append(user_id)
        return out

    # -- characters --------------------------------------------------------------------
    def bring_character(
        self, binding: ChannelBinding, user: DiscordUser, character: str | bytes
    ) -> str:
        """A player brings a character (a file's content, or the name of a PC in the room
        nobody holds) — through the room's invite, as the page joins; the GM brings an NPC
        (or a PC for a player). The character's name."""
        store = self.service.store
        if self.actor(binding, user).is_gm:
            gm = Link("discord", binding.room, "gm", None, "", False)
            return "、".join(rooms.add_character(store, binding.room, gm, character))
        invite, token = store.links.create(binding.room, "invite")
        try:
            link, _token, name = rooms.join(store, binding.room, token, character)
        finally:
            store.links.revoke(binding.room, invite.id)
        self.bindings.add_player(binding.room, user.id, link.id)
        return name

    # -- lines -------------------------------------------------------------------------
    def system_of(self, binding: ChannelBinding | None) -> str:
        if binding is None:
            return UNBOUND_SYSTEM
        record = self.service.store.get_room(binding.room)
        return record.system if record is not None else UNBOUND_SYSTEM

    def is_dice(self, text: str, system: str) -> bool:
        """Is ``text`` a dice command of ``system`` (BCDice's reading, dice not rolled)?"""
        try:
            return evaluate(text, systems.get_system(system), Randomizer(_Probe())) is not None
        except SaikoroError:
            return True  # a command with a bad part: its answer says what is wrong

    def is_table_line(self, text: str, system: str) -> bool:
        """A line for the table: a dice command (``{体力}`` filled in by the table), a
        status edit, ``@NAME …`` or a table command. Other messages are chat: ignored."""
        half = to_half_width(text.strip())
        if not half:
            return False
        if half.startswith(TABLE_MARKS):
            return True
        probe = _REFERENCE.sub("1", half)  # {体力}: the table fills it in
        return self.is_dice(probe, system)

    def roll(self, text: str, system: str) -> RollResult | None:
        """A stateless roll (no room bound, or a reader with no character): BCDice's answer."""
        return evaluate(text, systems.get_system(system), Randomizer(self._source()))

    def run_line(self, binding: ChannelBinding, actor: Actor, line: str) -> LineResult:
        record = self.service.room(binding.room)
        return self.service.run_line(record, actor, line)


def error_text(error: SaikoroError) -> str:
    """A refusal as the bot answers it: both languages."""
    return f"⚠ {error.message.both()}"


def note(ja: str, en: str) -> str:
    return Message(ja, en).both()


__all__ = ["UNBOUND_SYSTEM", "DiscordTable", "DiscordUser", "error_text", "note"]
