"""The Discord front end: discord.py objects around :class:`~saikoro.discord.table.DiscordTable`.

* Bare dice in any channel the bot reads (BCDice's answer; chat is ignored), secret rolls
  to the roller's DMs and the bound room's GM.
* A bound channel follows its room's event log like a WebSocket client: each event once,
  in seq order, from the seq it had posted (``last_seq``, kept in the store), so lines
  said on the web table appear here and a restarted bot posts what it missed. A line typed
  in Discord is carried out by the table core and *its* events are the answer (a reply).
* Slash commands for what Discord's ``/`` takes (the tracker's verbs, bringing a
  character, binding a new room) and buttons on the one tracker message, which is edited in
  place at most once per ``edit_interval`` (the clock and the sleep are injectable).

Echoed text never pings anybody: the bot's default allowed mentions are none, and every
send passes them explicitly; only "your turn" mentions the actor's own player.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from saikoro.dice.randomizer import DiceSource
from saikoro.discord.table import (
    UNBOUND_SYSTEM,
    DiscordTable,
    DiscordUser,
    error_text,
    note,
)
from saikoro.discord.text import MAX_PIECES, render_tracker, split_message
from saikoro.errors import SaikoroError
from saikoro.server.table.service import TableService
from saikoro.store.discord_links import ChannelBinding
from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.dispatch import tracker_for
from saikoro.table.events import Event
from saikoro.table.state import RoomState
from saikoro.table.view import view_event

log = logging.getLogger("saikoro.discord")

#: Nobody is mentioned by what the bot echoes (player text, results, the log).
NO_MENTIONS = discord.AllowedMentions.none()
#: The tracker's verbs offered as slash commands (a system without one refuses it clearly).
VERBS = (
    "attack",
    "melee",
    "shoot",
    "aim",
    "chant",
    "cast",
    "defend",
    "move",
    "fate",
    "pass",
    "next",
    "undo",
)
#: Verbs whose button asks for a target first.
TARGETED = frozenset({"attack", "melee", "shoot"})
#: How the log reads to the channel: everyone in it may read it.
AUDIENCE = Actor.spectator(label="discord")
#: Events after which the tracker message is redrawn.
TRACKER_KINDS = frozenset(
    {
        ev.STATUS_SET,
        ev.CONDITION_ADDED,
        ev.CONDITION_REMOVED,
        ev.CHARACTER_ADDED,
        ev.CHARACTER_REMOVED,
        ev.SHEET_SET,
        ev.COMBAT_STARTED,
        ev.ROUND_STARTED,
        ev.TURN_STARTED,
        ev.TURN_ENDED,
        ev.COMBAT_SET,
        ev.COMBAT_ENDED,
        ev.UNDONE,
    }
)
#: Seconds before posting again after Discord refused or could not be reached.
RETRY_SECONDS = 5.0

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def default_intents() -> discord.Intents:
    """The fewest the bot needs: guilds (channels, slash commands), guild messages and
    their content (a bare ``2D6`` is a message's text). No members or presences."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    return intents


#: The invite's permissions: view channels, send messages, attach files (long answers),
#: read message history (replies to a message).
PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, attach_files=True, read_message_history=True
)


def invite_url(application_id: int | str) -> str:
    return (
        "https://discord.com/oauth2/authorize?client_id="
        f"{application_id}&scope=bot+applications.commands&permissions={PERMISSIONS.value}"
    )


def discord_user(user: discord.abc.User | discord.Member) -> DiscordUser:
    roles = frozenset(r.id for r in getattr(user, "roles", ()) or ())
    return DiscordUser(user.id, roles, getattr(user, "display_name", "") or user.name)


@dataclass
class Origin:
    """Where a line came from, so its events answer it there: a message (a reply), or an
    interaction (its response); the user to tell a secret roll's result."""

    user_id: int
    message: discord.Message | None = None
    interaction: discord.Interaction | None = None


async def send_text(send: Callable[..., Awaitable[Any]], text: str, **kwargs: Any) -> list[Any]:
    """``text`` through ``send`` in pieces of at most 2000 characters, or, when it would
    take more than a few messages, as one attached file. The sent messages."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    pieces = split_message(text)
    if len(pieces) > MAX_PIECES:
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename="saikoro.txt")
        head = note("長い結果は添付ファイルにあります", "the long answer is attached")
        return [await send(head, file=file, **kwargs)]
    sent = []
    for i, piece in enumerate(pieces):
        if i > 0:
            kwargs.pop("reference", None)
        sent.append(await send(piece, **kwargs))
    return sent


async def respond(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """The interaction's response; nobody is mentioned."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    await interaction.response.send_message(text, **kwargs)


class TrackerBoard:
    """The channel's one tracker message, redrawn in place at most once per interval."""

    def __init__(self, play: ChannelPlay, clock: Clock, sleep: Sleep, interval: float) -> None:
        self.play = play
        self.clock = clock
        self.sleep = sleep
        self.interval = interval
        self.message_id = play.binding.tracker_message_id
        self.message: discord.Message | None = None
        self.last_draw: float | None = None
        self.dirty = False
        self.task: asyncio.Task[None] | None = None
        self.draws = 0
        #: When each draw happened (the injected clock): at least ``interval`` apart.
        self.drawn_at: list[float] = []

    def request(self) -> None:
        self.dirty = True
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._flush())

    async def idle(self) -> None:
        """Wait until no redraw is pending (tests)."""
        while self.task is not None and not self.task.done():
            await asyncio.shield(self.task)

    async def _flush(self) -> None:
        while self.dirty:
            if self.last_draw is not None:
                wait = self.last_draw + self.interval - self.clock()
                if wait > 0:
                    await self.sleep(wait)
            self.dirty = False
            try:
                await self.draw()
            except discord.HTTPException as error:
                log.warning("cannot draw the tracker (%s)", type(error).__name__)
            self.last_draw = self.clock()

    async def draw(self) -> None:
        play = self.play
        state = await asyncio.to_thread(play.bot.service.state, play.record)
        if state.combat is None and self.message_id is None:
            return
        content = render_tracker(state)
        view = verb_view(state) if state.combat is not None else None
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        kwargs["view"] = view
        if self.message_id is not None and self.message is None:
            with contextlib.suppress(discord.HTTPException):
                self.message = await play.channel.fetch_message(self.message_id)
        if self.message is not None:
            try:
                self.message = await self.message.edit(**kwargs)
            except discord.NotFound:
                self.message = None
        if self.message is None:
            self.message = await play.channel.send(**kwargs)
        self.draws += 1
        self.drawn_at.append(self.clock())
        ended = state.combat is None
        self.message_id = None if ended else self.message.id
        if ended:
            self.message = None
        await asyncio.to_thread(
            play.bot.table.bindings.set_tracker_message, play.binding.channel_id, self.message_id
        )


class ChannelPlay:
    """One bound channel: its follower of the room's log and its tracker board."""

    def __init__(self, bot: SaikoroBot, binding: ChannelBinding, channel: Any) -> None:
        self.bot = bot
        self.binding = binding
        self.channel = channel
        self.record = bot.service.room(binding.room)
        self.cursor = binding.last_seq
        self.revealed: set[str] = set()
        self.lock = asyncio.Lock()
        self.board = TrackerBoard(self, bot.clock, bot.sleep, bot.edit_interval)
        self.task: asyncio.Task[None] | None = None
        self.posted_seq = asyncio.Condition()

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _follow(self) -> None:
        service = self.bot.service
        self.revealed = await asyncio.to_thread(service.revealed, self.record)
        subscription = await service.hub.subscribe(self.record, after=self.cursor)
        try:
            await self.advance()
            while True:
                await subscription.next_batch()  # a wake-up: the store is read below
                await self.advance()
        finally:
            subscription.close()

    async def advance(self, origins: dict[str, Origin] | None = None) -> None:
        async with self.lock:
            await self.advance_locked(origins or {})

    async def wait_posted(self, seq: int) -> None:
        """Wait until the channel shows the log up to ``seq`` (tests, shutdown)."""
        async with self.posted_seq:
            await self.posted_seq.wait_for(lambda: self.cursor >= seq)

    async def advance_locked(self, origins: dict[str, Origin]) -> None:
        """Post every event after the cursor, a line's events in one message."""
        service = self.bot.service
        numbered = await asyncio.to_thread(service.events_after, self.record, self.cursor)
        groups: list[list[tuple[int, Event]]] = []
        for seq, event in numbered:
            if groups and groups[-1][0][1].command_id == event.command_id:
                groups[-1].append((seq, event))
            else:
                groups.append([(seq, event)])
        for group in groups:
            try:
                await self._post(group, origins)
            except discord.HTTPException as error:
                log.warning("cannot post to a bound channel (%s); retrying", type(error).__name__)
                asyncio.get_running_loop().create_task(self._retry_later())
                break
            self.cursor = group[-1][0]
            await asyncio.to_thread(
                self.bot.table.bindings.posted, self.binding.channel_id, self.cursor
            )
            async with self.posted_seq:
                self.posted_seq.notify_all()

    async def _retry_later(self) -> None:
        await self.bot.sleep(RETRY_SECONDS)
        await self.advance()

    async def _post(self, group: list[tuple[int, Event]], origins: dict[str, Origin]) -> None:
        events = [event for _seq, event in group]
        origin = origins.get(events[0].command_id)
        for event in events:
            if event.kind == ev.REVEALED and event.data:
                self.revealed.add(str(event.data.get("command_id")))
        public: list[str] = []
        secrets: list[str] = []
        for event in events:
            shown = view_event(event, AUDIENCE, self.revealed)
            if shown is None:  # a whisper: never in the channel
                continue
            if shown.text is not None and event.kind != ev.ROOM_CREATED:
                public.append(shown.text.ja)
            if event.secret and shown is not event and event.text is not None:
                secrets.append(event.text.ja)
        if public:
            text = "\n".join(public)
            if origin is not None and origin.interaction is not None:
                interaction = origin.interaction
                if not interaction.response.is_done():
                    await send_text(interaction.response.send_message, text)
                else:
                    await send_text(interaction.followup.send, text)
            elif origin is not None and origin.message is not None:
                await send_text(self.channel.send, text, reference=origin.message)
            else:
                await send_text(self.channel.send, text)
        if secrets:
            await self._tell_secret("\n".join(secrets), origin)
        for event in events:
            if event.kind == ev.TURN_STARTED and event.data.get("name"):
                await self._your_turn(str(event.data["name"]))
        if any(event.kind in TRACKER_KINDS for event in events):
            self.board.request()

    async def _tell_secret(self, text: str, origin: Origin | None) -> None:
        """A secret roll's result: to its roller (ephemeral, else a DM) and to the GM."""
        told: set[int] = set()
        secret = f"🔒 [{self.binding.room}] {text}"
        if origin is not None:
            if origin.interaction is not None:
                await send_text(
                    lambda *a, **k: origin.interaction.followup.send(*a, ephemeral=True, **k),  # type: ignore[union-attr]
                    secret,
                )
            else:
                await self.bot.direct_message(origin.user_id, secret)
            told.add(origin.user_id)
        if self.binding.gm_user_id not in told:
            await self.bot.direct_message(self.binding.gm_user_id, secret)

    async def _your_turn(self, name: str) -> None:
        users = await asyncio.to_thread(self.bot.table.players_of, self.binding.room, name)
        if not users:
            return
        mentions = " ".join(f"<@{user}>" for user in users)
        await self.channel.send(
            f"{mentions} {name} の手番です / {name}'s turn",
            allowed_mentions=discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(user) for user in users],
            ),
        )


# -- buttons ----------------------------------------------------------------------------


def verb_view(state: RoomState) -> discord.ui.View:
    """The current actor's action buttons (the tracker's verbs, /next, /undo)."""
    view = discord.ui.View(timeout=None)
    tracker = tracker_for(state.system)
    verbs = [v for v in tracker.verbs if v not in tracker.actorless_verbs]
    for verb in [*verbs, "next", "undo"][:25]:
        view.add_item(VerbButton(verb))
    return view


class VerbButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"saikoro:verb:(?P<verb>[a-z]+)"
):
    """A verb's button on the tracker message; survives restarts (its id names the verb)."""

    def __init__(self, verb: str) -> None:
        style = (
            discord.ButtonStyle.secondary
            if verb in ("next", "undo")
            else discord.ButtonStyle.primary
        )
        super().__init__(
            discord.ui.Button(label=f"/{verb}", style=style, custom_id=f"saikoro:verb:{verb}")
        )
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> VerbButton:
        return cls(match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SaikoroBot)
        await bot.press_verb(interaction, self.verb)


def target_choices(system: str, verb: str, names: list[str]) -> list[str]:
    """What a targeted verb's menu offers: each target, or, where the system's web-table
    action for the verb has more fields with options (帽子世界TRPG's attack ability), each
    target with each option (``ゴブリン 体力``), so one pick sends a whole line."""
    from saikoro.server.web_routes import webtable_data

    data = webtable_data(system)
    for action in data.get("actions", []):
        for button in action.get("buttons", []):
            words = str(button.get("line", "")).split()
            if words[:2] != [f"/{verb}", "{target}"]:
                continue
            choices = names
            for word in words[2:]:
                field = data.get("fields", {}).get(word.strip("{}"), {})
                options = [str(o) for o in field.get("options", [])]
                if options:
                    choices = [f"{c} {o}" for c in choices for o in options]
            return choices
    return names


class TargetSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"saikoro:target:(?P<verb>[a-z]+)"
):
    """Whom a targeted verb (attack, melee, shoot) aims at (with the verb's other fields)."""

    def __init__(self, verb: str, choices: list[str] | None = None) -> None:
        options = [
            discord.SelectOption(label=choice[:100], value=choice[:100])
            for choice in (choices or [])[:25]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"saikoro:target:{verb}",
                placeholder="対象 / target",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TargetSelect:
        return cls(match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SaikoroBot)
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or []
        target = str(values[0]) if values else ""
        await bot.interaction_line(interaction, f"/{self.verb} {target}".strip(), acting=True)


# -- the bot ----------------------------------------------------------------------------


class SaikoroBot(commands.Bot):
    def __init__(
        self,
        db_url: str,
        *,
        service: TableService | None = None,
        source_factory: Callable[[], DiceSource] | None = None,
        intents: discord.Intents | None = None,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        edit_interval: float = 1.0,
        sync_commands: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or default_intents(),
            allowed_mentions=NO_MENTIONS,
            help_command=None,
            **options,
        )
        self.db_url = db_url
        self._given_service = service
        self._source_factory = source_factory
        self.clock: Clock = clock or time.monotonic
        self.sleep: Sleep = sleep or asyncio.sleep
        self.edit_interval = edit_interval
        self.sync_commands = sync_commands
        self.plays: dict[int, ChannelPlay] = {}
        self._service: TableService | None = service
        self._table: DiscordTable | None = None

    # -- start and stop ------------------------------------------------------------------
    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the bot has not started (setup_hook)")
        return self._service

    @property
    def table(self) -> DiscordTable:
        if self._table is None:
            raise RuntimeError("the bot has not started (setup_hook)")
        return self._table

    async def setup_hook(self) -> None:
        from saikoro.transfer import register_with_table

        register_with_table()  # characters as CCFOLIA JSON / Udonarium zip
        if self._service is None:
            self._service = TableService(self.db_url, source_factory=self._source_factory)
            await self._service.start()
        self._table = DiscordTable(self._service, self._source_factory)
        self.add_dynamic_items(VerbButton, TargetSelect)
        add_commands(self)
        if self.sync_commands:
            await self.tree.sync()

    async def on_ready(self) -> None:
        await self.resume_all()

    async def on_resumed(self) -> None:
        for play in list(self.plays.values()):
            await play.advance()

    async def resume_all(self) -> None:
        """Follow every bound channel from where it was left (a restart loses nothing)."""
        for binding in await asyncio.to_thread(self.table.bindings.all):
            await self.play_for(binding)

    async def play_for(self, binding: ChannelBinding) -> ChannelPlay | None:
        play = self.plays.get(binding.channel_id)
        if play is not None and play.binding.room == binding.room:
            return play
        if play is not None:
            await play.stop()
        channel = self.get_channel(binding.channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(binding.channel_id)
            except discord.HTTPException:
                log.warning("a bound channel cannot be reached (%s)", binding.channel_id)
                return None
        try:
            play = ChannelPlay(self, binding, channel)
        except SaikoroError:
            log.warning("channel %s is bound to a room that is gone", binding.channel_id)
            return None
        self.plays[binding.channel_id] = play
        play.start()
        return play

    async def play_of(self, channel_id: int) -> ChannelPlay | None:
        """The bound channel's play (a binding made by ``saikoro discord bind`` while the bot
        runs is found at the channel's next message)."""
        play = self.plays.get(channel_id)
        if play is not None:
            return play
        binding = await asyncio.to_thread(self.table.bindings.get, channel_id)
        return None if binding is None else await self.play_for(binding)

    async def close(self) -> None:
        for play in list(self.plays.values()):
            await play.stop()
        self.plays.clear()
        if self._given_service is None and self._service is not None:
            await self._service.stop()
            self._service = None
        await super().close()

    async def direct_message(self, user_id: int, text: str) -> None:
        try:
            user = self.get_user(user_id) or await self.fetch_user(user_id)
            await send_text(user.send, text)
        except discord.HTTPException as error:
            log.warning("cannot send a direct message (%s)", type(error).__name__)

    # -- messages ------------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.content.strip():
            return
        user = discord_user(message.author)
        play = await self.play_of(message.channel.id)
        if play is None:
            await self.bare_dice(message, UNBOUND_SYSTEM, None)
            return
        actor = await asyncio.to_thread(self.table.actor, play.binding, user)
        system = play.record.system
        if actor.is_spectator:
            await self.bare_dice(message, system, play)
            return
        if not await asyncio.to_thread(self.table.is_table_line, message.content, system):
            return  # chat
        await self.run_in(play, actor, message.content, Origin(user.id, message=message))

    async def bare_dice(
        self, message: discord.Message, system: str, play: ChannelPlay | None
    ) -> None:
        """BCDice's answer to a dice command (nothing is logged); other text is ignored."""
        try:
            result = await asyncio.to_thread(self.table.roll, message.content, system)
        except SaikoroError as error:
            await send_text(message.channel.send, error_text(error), reference=message)
            return
        if result is None:
            return
        name = getattr(message.author, "display_name", "") or message.author.name
        if result.secret:
            secret = f"🔒 {name}: {result.text}"
            await self.direct_message(message.author.id, secret)
            if play is not None and play.binding.gm_user_id != message.author.id:
                await self.direct_message(play.binding.gm_user_id, secret)
            await send_text(message.channel.send, f"{name}: シークレットダイス", reference=message)
            return
        await send_text(message.channel.send, f"{name}: {result.text}", reference=message)

    async def run_in(self, play: ChannelPlay, actor: Actor, line: str, origin: Origin) -> bool:
        """Carry out a table line; its events answer it where it came from."""
        async with play.lock:
            await play.advance_locked({})  # anything older goes first
            try:
                result = await asyncio.to_thread(self.table.run_line, play.binding, actor, line)
            except SaikoroError as error:
                await self._refuse(origin, error_text(error))
                return False
            outcome = result.outcome
            if outcome.events:
                await self.service.pubsub.publish(play.record.name, result.version)
            await play.advance_locked({outcome.command_id: origin})
        shown = {e.text.ja for e in outcome.events if e.text is not None}
        extra = [
            m.ja for m in outcome.lines if m.ja not in shown and "シークレットダイス" not in m.ja
        ]
        if extra:
            await self._answer(origin, "\n".join(extra))
        elif origin.interaction is not None and not origin.interaction.response.is_done():
            await respond(
                origin.interaction,
                note("受け付けました", "done"),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
        return True

    async def _refuse(self, origin: Origin, text: str) -> None:
        if origin.interaction is not None:
            await self._answer(origin, text, ephemeral=True)
        elif origin.message is not None:
            await send_text(origin.message.channel.send, text, reference=origin.message)

    async def _answer(self, origin: Origin, text: str, *, ephemeral: bool = False) -> None:
        interaction = origin.interaction
        if interaction is not None:
            send: Callable[..., Awaitable[Any]] = (
                interaction.followup.send
                if interaction.response.is_done()
                else interaction.response.send_message
            )
            await send_text(lambda *a, **k: send(*a, ephemeral=ephemeral, **k), text)
        elif origin.message is not None:
            await send_text(origin.message.channel.send, text, reference=origin.message)

    # -- interactions --------------------------------------------------------------------
    async def interaction_play(self, interaction: discord.Interaction) -> ChannelPlay | None:
        play = await self.play_of(interaction.channel_id or 0)
        if play is None:
            await respond(
                interaction,
                note(
                    "このチャンネルは部屋に結び付けられていません (/newroom か saikoro discord bind)",
                    "this channel plays no room (/newroom or saikoro discord bind)",
                ),
                ephemeral=True,
            )
        return play

    async def interaction_line(
        self, interaction: discord.Interaction, line: str, *, acting: bool = False
    ) -> None:
        """A table line from a slash command or a button, as the user who used it. With
        ``acting``, a player's line speaks as the current actor when it is theirs."""
        play = await self.interaction_play(interaction)
        if play is None:
            return
        actor = await asyncio.to_thread(
            self.table.actor, play.binding, discord_user(interaction.user)
        )
        if acting:
            state = await asyncio.to_thread(self.service.state, play.record)
            current = state.combat.current if state.combat else None
            if current and not line.startswith("/next") and actor.owns(current):
                line = f"@{current} {line}"
        await self.run_in(play, actor, line, Origin(interaction.user.id, interaction=interaction))

    async def press_verb(self, interaction: discord.Interaction, verb: str) -> None:
        if verb in TARGETED:
            play = await self.interaction_play(interaction)
            if play is None:
                return
            state = await asyncio.to_thread(self.service.state, play.record)
            current = state.combat.current if state.combat else None
            names = [n for n in state.characters if n != current]
            view = discord.ui.View(timeout=300)
            view.add_item(TargetSelect(verb, target_choices(play.record.system, verb, names)))
            await respond(
                interaction,
                note(f"/{verb}: 対象を選んでください", f"/{verb}: pick the target"),
                view=view,
                ephemeral=True,
            )
            return
        await self.interaction_line(interaction, f"/{verb}", acting=True)

    async def target_names(self, interaction: discord.Interaction, current: str) -> list[str]:
        play = await self.play_of(interaction.channel_id or 0)
        if play is None:
            return []
        state = await asyncio.to_thread(self.service.state, play.record)
        return [n for n in state.characters if current.casefold() in n.casefold()][:25]

    async def bring(self, interaction: discord.Interaction, content: str | bytes) -> None:
        play = await self.interaction_play(interaction)
        if play is None:
            return
        user = discord_user(interaction.user)
        try:
            name = await asyncio.to_thread(self.table.bring_character, play.binding, user, content)
        except SaikoroError as error:
            await respond(interaction, error_text(error), ephemeral=True)
            return
        await self.service.publish_latest(play.record.name)
        await respond(
            interaction,
            note(f"{name} が卓に加わりました", f"{name} joined the table"),
            ephemeral=True,
        )
        await play.advance()


def add_commands(bot: SaikoroBot) -> None:
    """The slash commands: the tracker's verbs, /line, /char, /newroom, /gmrole, /tracker."""
    tree = bot.tree

    async def targets(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = await bot.target_names(interaction, current)
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]

    for verb in VERBS:
        tree.add_command(_verb_command(bot, verb, targets))

    @tree.command(name="line", description="卓の1行 (ダイス・:HP-3・@名前…) / a table line")
    @app_commands.describe(text="2D6+{体力}>=8, :HP-3, S1D100<=50, /combat start …")
    async def line(interaction: discord.Interaction, text: str) -> None:
        await bot.interaction_line(interaction, text)

    @tree.command(name="char", description="キャラクターを連れてくる / bring a character")
    @app_commands.describe(
        file="CCFOLIA の JSON・ユドナリウムの zip・saikoro のシート / a character file",
        name="部屋にいるPCの名前 / the name of a PC in the room",
    )
    async def char(
        interaction: discord.Interaction,
        file: discord.Attachment | None = None,
        name: str | None = None,
    ) -> None:
        if file is not None:
            from saikoro.table.rooms import MAX_CHARACTER_BYTES

            if file.size > MAX_CHARACTER_BYTES:
                await respond(
                    interaction,
                    note("ファイルが大きすぎます (8 MiB まで)", "the file is too large (8 MiB)"),
                    ephemeral=True,
                )
                return
            content: str | bytes = await file.read()
        elif name:
            content = name
        else:
            await respond(
                interaction,
                note("file か name を指定してください", "give a file or a name"),
                ephemeral=True,
            )
            return
        await bot.bring(interaction, content)

    @tree.command(
        name="newroom", description="新しい部屋を作りこのチャンネルで遊ぶ (GM) / a new room here"
    )
    @app_commands.describe(name="部屋名 / room name", system="ゲームシステムの ID / game system ID")
    @app_commands.default_permissions(manage_channels=True)
    async def newroom(interaction: discord.Interaction, name: str, system: str) -> None:
        try:
            binding, created = await asyncio.to_thread(
                bot.table.create_and_bind,
                interaction.channel_id or 0,
                name,
                system,
                interaction.user.id,
            )
        except SaikoroError as error:
            await respond(interaction, error_text(error), ephemeral=True)
            return
        await bot.play_for(binding)
        await respond(
            interaction,
            note(
                f"部屋 {created.room} ({created.system}) をこのチャンネルで始めました。あなたが GM です",
                f"room {created.room} ({created.system}) now plays here; you are its GM",
            ),
            ephemeral=True,
        )

    @newroom.autocomplete("system")
    async def system_ids(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        from saikoro.systems import systems

        known = [i for i in systems if current.casefold() in i.casefold()]
        return [app_commands.Choice(name=i, value=i) for i in known[:25]]

    @tree.command(name="gmrole", description="このロールの人も GM として扱う (GM) / a GM role")
    async def gmrole(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        play = await bot.interaction_play(interaction)
        if play is None:
            return
        if interaction.user.id != play.binding.gm_user_id:
            await respond(
                interaction,
                note("GM だけが決められます", "only the GM decides this"),
                ephemeral=True,
            )
            return
        role_id = role.id if role is not None else None
        await asyncio.to_thread(bot.table.bindings.set_gm_role, play.binding.channel_id, role_id)
        moved = await asyncio.to_thread(bot.table.bindings.get, play.binding.channel_id)
        play.binding = moved or play.binding
        await respond(
            interaction, note("GM ロールを設定しました", "the GM role is set"), ephemeral=True
        )

    @tree.command(name="tracker", description="戦闘トラッカーを表示し直す / show the tracker again")
    async def tracker(interaction: discord.Interaction) -> None:
        play = await bot.interaction_play(interaction)
        if play is None:
            return
        play.board.message = None
        play.board.message_id = None
        await respond(interaction, note("表示します", "showing it"), ephemeral=True)
        play.board.request()


def _verb_command(
    bot: SaikoroBot,
    verb: str,
    targets: Callable[
        [discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]
    ],
) -> app_commands.Command[Any, ..., None]:
    async def run(
        interaction: discord.Interaction, target: str | None = None, extra: str | None = None
    ) -> None:
        words = [f"/{verb}", target or "", extra or ""]
        await bot.interaction_line(interaction, " ".join(w for w in words if w), acting=True)

    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=verb,
        description=f"/{verb} (卓のコマンド / the tracker's verb)",
        callback=run,
    )
    command.autocomplete("target")(targets)
    return command


def make_bot(
    db_url: str,
    *,
    service: TableService | None = None,
    source_factory: Callable[[], DiceSource] | None = None,
    intents: discord.Intents | None = None,
    clock: Clock | None = None,
    sleep: Sleep | None = None,
    edit_interval: float = 1.0,
    sync_commands: bool = True,
    **options: Any,
) -> SaikoroBot:
    """The Discord bot on the rooms of ``db_url`` (a SQLite path or ``postgresql://`` URL).

    ``service``: share a running server's table service (``saikoro serve --discord``);
    ``source_factory``: the dice (tests script them); ``clock``/``sleep``: the tracker's
    coalescing (tests inject them); ``sync_commands``: register the slash commands with
    Discord at start (tests, offline, say False). Nothing connects until ``bot.start(token)``.
    """
    return SaikoroBot(
        db_url,
        service=service,
        source_factory=source_factory,
        intents=intents,
        clock=clock,
        sleep=sleep,
        edit_interval=edit_interval,
        sync_commands=sync_commands,
        **options,
    )


__all__ = [
    "NO_MENTIONS",
    "PERMISSIONS",
    "VERBS",
    "ChannelPlay",
    "Origin",
    "SaikoroBot",
    "TrackerBoard",
    "default_intents",
    "invite_url",
    "make_bot",
    "send_text",
]
