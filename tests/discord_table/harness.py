"""The Discord bot over a simulated backend, never the network.

dpytest (0.7) stands in for Discord's gateway and REST API: its ``FakeHttp`` and
``FakeState`` are discord.py's own ``HTTPClient`` / ``ConnectionState`` with the requests
answered locally, so the bot's real discord.py objects (messages, members, channels, DMs,
edits) run unchanged. dpytest has no interactions, so slash commands and buttons are
dispatched here as Discord would send them (``INTERACTION_CREATE`` payloads through the
state's own ``parse_interaction_create``) and their responses go to a recording webhook
adapter (discord.py's ``AsyncWebhookAdapter`` with ``request`` answered locally).

dpytest needs the members intent to keep its members in discord.py's cache; the bot
itself asks for fewer (``default_intents``), which ``test_intents`` checks.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.ext.test as dpytest
from discord.ext.test import factories
from discord.webhook import async_ as webhook_async

from saikoro.dice.randomizer import ScriptedSource
from saikoro.discord.bot import SaikoroBot, default_intents, make_bot

_ids = itertools.count(9_000_000_000_000_000)


@dataclass
class Sent:
    channel_id: int
    content: str | None
    allowed_mentions: dict[str, Any] | None
    files: list[str]
    dm: bool
    message_id: int = 0


@dataclass
class Edit:
    message_id: int
    content: str | None
    components: list[Any]


@dataclass
class Response:
    """A recorded interaction response or follow-up."""

    kind: str  # "response" | "followup" | "edit"
    content: str | None
    ephemeral: bool
    allowed_mentions: dict[str, Any] | None
    components: list[Any]


class Dice:
    """Scripted dice for every line (``push`` the faces before the line rolls them)."""

    def __init__(self) -> None:
        self.faces: list[tuple[int, int]] = []

    def push(self, *faces: tuple[int, int]) -> None:
        self.faces.extend(faces)

    def source(self) -> ScriptedSource:
        return _Shared(self)


class _Shared(ScriptedSource):
    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def roll(self, sides: int) -> int:
        value, want = self.dice.faces.pop(0)
        assert want == sides, f"scripted a d{want}, rolled a d{sides}"
        return value


class FakeClock:
    """The tracker's clock: time passes only when the bot sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


class RecordingAdapter(webhook_async.AsyncWebhookAdapter):
    """Interaction responses recorded, never sent."""

    def __init__(self, harness: Harness) -> None:
        super().__init__()
        self.harness = harness

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        payload = kwargs.get("payload") or {}
        if kwargs.get("multipart"):
            import json

            for part in kwargs["multipart"]:
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
        path = route.path
        inner = payload.get("data", payload) if "/callback" in path else payload
        kind = (
            "response"
            if "/callback" in path
            else ("edit" if route.method == "PATCH" else "followup")
        )
        flags = int(inner.get("flags") or 0)
        self.harness.responses.append(
            Response(
                kind,
                inner.get("content"),
                bool(flags & 64),
                inner.get("allowed_mentions"),
                inner.get("components") or [],
            )
        )
        if "/callback" in path:
            return {"interaction": {"id": str(next(_ids)), "type": payload.get("type", 4)}}
        return _message_payload(self.harness, inner)


def _message_payload(harness: Harness, inner: dict[str, Any]) -> dict[str, Any]:
    user = harness.bot.user
    assert user is not None
    return {
        "id": str(next(_ids)),
        "channel_id": str(harness.channel.id),
        "author": {
            "id": str(user.id),
            "username": user.name,
            "discriminator": "0000",
            "avatar": None,
        },
        "content": inner.get("content") or "",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
    }


@dataclass
class Harness:
    bot: SaikoroBot
    dice: Dice
    clock: FakeClock
    sent: list[Sent] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)
    service_tasks: set[Any] = field(default_factory=set)

    @property
    def config(self) -> Any:
        return dpytest.get_config()

    @property
    def channel(self) -> discord.TextChannel:
        return self.config.channels[0]

    @property
    def guild(self) -> discord.Guild:
        return self.config.guilds[0]

    def member(self, index: int) -> discord.Member:
        return self.config.members[index]

    def channel_texts(self) -> list[str]:
        return [s.content or "" for s in self.sent if not s.dm and s.channel_id == self.channel.id]

    def dms_to(self, member: discord.Member) -> list[str]:
        out = []
        for s in self.sent:
            channel = self.bot.get_channel(s.channel_id)
            if (
                s.dm
                and isinstance(channel, discord.DMChannel)
                and channel.recipient is not None
                and channel.recipient.id == member.id
            ):
                out.append(s.content or "")
        return out

    async def say(self, member: int, content: str, attachments: list[str] | None = None) -> None:
        """``member`` writes ``content`` in the channel; wait until the bot has answered."""
        await dpytest.message(content, channel=0, member=member, attachments=attachments)
        await self.settle()

    async def settle(self) -> None:
        """Wait until every task the bot started has finished (the followers of the bound
        channels and the feed's poller wait for wake-ups forever: they are left alone)."""
        keep = self._background()
        for _round in range(1000):
            current = asyncio.current_task()
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not current and t not in keep and not t.done()
            ]
            if not pending:
                await asyncio.sleep(0)
                pending = [
                    t
                    for t in asyncio.all_tasks()
                    if t is not current and t not in keep and not t.done()
                ]
                if not pending:
                    return
            await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            keep = self._background()

    def _background(self) -> set[Any]:
        """The tasks that run for the bot's whole life: the followers and whatever the
        table service started (its feed's poller, its watchers)."""
        views = {
            t
            for t in asyncio.all_tasks()
            if "timeout_task_impl" in getattr(t.get_coro(), "__qualname__", "")
        }  # a view's timeout waits its minutes: not the bot's work
        return {play.task for play in self.bot.plays.values()} | self.service_tasks | views

    async def caught_up(self) -> None:
        """Every bound channel shows its room's log to the end."""
        for play in list(self.bot.plays.values()):
            end = await asyncio.to_thread(self.bot.service.store.version, play.record)
            await asyncio.wait_for(play.wait_posted(end), timeout=60)
        await self.settle()

    # -- interactions --------------------------------------------------------------------
    def _interaction(self, member: int, kind: int, data: dict[str, Any]) -> dict[str, Any]:
        who = self.member(member)
        return {
            "id": str(next(_ids)),
            "application_id": str(self.bot.user.id if self.bot.user else 1),
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "channel_id": str(self.channel.id),
            "channel": {
                "id": str(self.channel.id),
                "type": 0,
                "guild_id": str(self.guild.id),
                "name": self.channel.name,
                "position": 0,
                "permissions": "2147483647",
            },
            "guild_id": str(self.guild.id),
            "member": {**factories.dict_from_member(who), "permissions": "2147483647"},
            "data": data,
            "app_permissions": "2147483647",
            "attachment_size_limit": 8 * 1024 * 1024,
            "locale": "ja",
            "guild_locale": "ja",
            "entitlements": [],
            "authorizing_integration_owners": {},
        }

    async def slash(
        self,
        member: int,
        name: str,
        options: dict[str, Any] | None = None,
        attachments: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        """``member`` uses the slash command ``/name`` with ``options``."""
        opts = []
        for key, value in (options or {}).items():
            kind = 11 if attachments and key in attachments else 3
            opts.append({"name": key, "type": kind, "value": value})
        data: dict[str, Any] = {"id": str(next(_ids)), "name": name, "type": 1, "options": opts}
        if attachments:
            data["resolved"] = {"attachments": {a["id"]: a for a in attachments.values()}}
        self.bot._connection.parse_interaction_create(self._interaction(member, 2, data))  # type: ignore[arg-type]
        await self.settle()

    async def press(self, member: int, custom_id: str, values: list[str] | None = None) -> None:
        """``member`` presses a button (or picks ``values`` in a select menu)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values else 2}
        if values is not None:
            data["values"] = values
        payload = self._interaction(member, 3, data)
        # the message the component is on (discord.py finds the item in its components)
        if values is None:
            item: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        else:
            options = [{"label": v, "value": v} for v in values]
            item = {"type": 3, "custom_id": custom_id, "options": options}
        message = _message_payload(self, {"content": ""})
        message["components"] = [{"type": 1, "components": [item]}]
        message["flags"] = 0
        payload["message"] = message
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()


def attachment(path: str, filename: str) -> dict[str, Any]:
    """An attachment as an interaction's ``resolved`` names it (dpytest reads its URL as a
    local path, so the bot's ``Attachment.read()`` gets the file's bytes)."""
    import os

    return {
        "id": str(next(_ids)),
        "filename": filename,
        "size": os.path.getsize(path),
        "url": path,
        "proxy_url": path,
    }


async def start(
    db: str,
    *,
    members: int = 4,
    service: Any = None,
    test_intents: bool = True,
    rebind: tuple[int, ...] = (),
) -> Harness:
    """The bot on ``db`` with ``members`` guild members (0: the GM by convention)."""
    dice = Dice()
    clock = FakeClock()
    intents = default_intents()
    if test_intents:
        intents.members = True  # dpytest's member cache (see the module's docstring)
    bot = make_bot(
        db,
        service=service,
        source_factory=dice.source,
        intents=intents,
        clock=clock,
        sleep=clock.sleep,
        sync_commands=False,
    )
    harness = Harness(bot, dice, clock)
    await bot._async_setup_hook()
    dpytest.configure(bot, members=[f"user{i}" for i in range(members)])
    bot._connection._command_tree = bot.tree  # dpytest's state replaced the bot's
    await bot.setup_hook()
    harness.service_tasks = {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}
    _record(harness)
    for old in rebind:  # the same channel, as a restarted bot finds it again (new ids here)
        _rebind(bot, old, harness.channel.id)
    webhook_async.async_context.set(RecordingAdapter(harness))
    await bot.resume_all()
    await harness.settle()
    return harness


def _rebind(bot: SaikoroBot, old: int, new: int) -> None:
    from sqlalchemy import update

    from saikoro.store.discord_links import channels

    with bot.service.store.engine.begin() as conn:
        conn.execute(update(channels).where(channels.c.channel_id == old).values(channel_id=new))


def _record(harness: Harness) -> None:
    http = harness.bot.http
    original_send = http.send_message
    original_edit = http.edit_message

    async def send_message(channel_id: int, *, params: Any) -> Any:
        # dpytest reads the caller's ``channel`` local (frame inspection): keep it here
        channel = sys._getframe(1).f_locals.get("channel")
        payload = params.payload or {}
        if params.multipart:
            import json

            for part in params.multipart:
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
        files = [f.filename for f in (params.files or [])]
        entry = Sent(
            int(channel_id),
            payload.get("content"),
            payload.get("allowed_mentions"),
            files,
            isinstance(channel, discord.DMChannel),
        )
        harness.sent.append(entry)
        answer = await original_send(channel_id, params=params)
        entry.message_id = int(answer["id"])
        return answer

    async def edit_message(channel_id: int, message_id: int, **fields: Any) -> Any:
        self = sys._getframe(1).f_locals.get("self")  # noqa: F841  (dpytest reads it)
        params = fields.get("params")
        payload = (params.payload if params is not None else fields) or {}
        harness.edits.append(
            Edit(int(message_id), payload.get("content"), payload.get("components") or [])
        )
        return await original_edit(channel_id, message_id, **fields)

    http.send_message = send_message  # type: ignore[method-assign]
    http.edit_message = edit_message  # type: ignore[method-assign]


async def stop(harness: Harness) -> None:
    from discord.ext.test import websocket

    websocket.FakeWebSocket.open = property(lambda self: False)  # type: ignore[assignment,method-assign]
    await harness.bot.close()
    await dpytest.empty_queue()


def run(scenario: Callable[[], Any]) -> Any:
    return asyncio.run(scenario())


__all__ = ["Dice", "FakeClock", "Harness", "attachment", "run", "start", "stop"]
