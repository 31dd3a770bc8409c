"""The log mirrored both ways with a real ``saikoro serve`` on the same database, a long
answer split, a restart that loses nothing, ``serve --discord`` sharing the service, the
intents and permissions asked for, and the token kept out of every output and log."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import discord
import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.discord.bot import PERMISSIONS, SaikoroBot, default_intents, invite_url
from saikoro.discord.text import MESSAGE_LIMIT, split_message
from saikoro.store import open_store
from saikoro.table.actors import Actor
from saikoro.table.session import TableSession

from .harness import run, start, stop
from .scene import ROOM, bind, create_room, seat_everyone

TOKEN = "MTIzNDU2Nzg5MDEy.Gabcde.fake-bot-token-never-shown"


def test_a_5000_character_answer_is_split(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")

    async def scenario() -> None:
        h = await start(db)
        try:
            h.dice.push(*[(3, 6)] * 1200)
            await h.say(1, "x100 12D6>=40")
            pieces = h.channel_texts()
            assert len(pieces) >= 3
            assert all(len(p) <= MESSAGE_LIMIT for p in pieces)
            text = "\n".join(pieces)
            assert len(text) >= 5000
            assert text.count("＞ 36 ＞ 失敗") == 100
        finally:
            await stop(h)

    run(scenario)


def test_split_message_keeps_every_character() -> None:
    text = "\n".join(f"#{i} " + "あ" * (i % 50) for i in range(400)) + "\n" + "x" * 4500
    pieces = split_message(text)
    assert all(0 < len(p) <= MESSAGE_LIMIT for p in pieces)
    assert "".join(pieces).replace("\n", "") == text.replace("\n", "")


def _mirror(db: str, folder: Path, room: str) -> None:
    """A line said on the web table (a real ``saikoro serve`` on ``db``, another process)
    reaches the channel, a Discord line reaches the API's events: in order, each once."""
    from tests.server.table_live import Link, start_server

    created = create_room(db, room=room)
    server = start_server(db, folder)

    async def scenario() -> None:
        h = await start(db)
        try:
            await seat_everyone(h, db, folder, room)
            seen = len(h.channel_texts())
            gm = Link(server.base, room, created.gm_token)
            await asyncio.to_thread(gm.say, "ウェブから: 始めます")
            await h.caught_up()
            h.dice.push((3, 6), (4, 6))
            await h.say(1, "2D6>=7 ディスコードから")
            await h.caught_up()
            await asyncio.to_thread(gm.say, "ウェブから: 次へ")
            await h.caught_up()
            assert h.channel_texts()[seen:] == [
                "GM: ウェブから: 始めます",
                "アリス: ディスコードから (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
                "GM: ウェブから: 次へ",
            ]
            events = (await asyncio.to_thread(gm.events))["events"]
            texts = [e["text"]["ja"] for e in events if e.get("text")]
            roll = "アリス: ディスコードから (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"
            assert texts.count(roll) == 1, texts
            order = [t for t in texts if "から" in t]
            assert order == ["GM: ウェブから: 始めます", roll, "GM: ウェブから: 次へ"]
        finally:
            await stop(h)

    try:
        run(scenario)
    finally:
        server.stop()


def test_lines_mirrored_with_the_web_table_in_order_each_once(tmp_path: Path) -> None:
    _mirror(str(tmp_path / "t.db"), tmp_path, ROOM)


@pytest.mark.postgres
def test_mirrored_across_processes_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    """The bot and ``saikoro serve`` as separate processes on PostgreSQL: they meet through
    LISTEN/NOTIFY (and the store), the bot's bindings in PostgreSQL tables."""
    import uuid

    _mirror(postgres_url, tmp_path, f"discord-{uuid.uuid4().hex[:8]}")


def test_a_restart_posts_what_it_missed_and_nothing_twice(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    create_room(db)

    async def first() -> int:
        h = await start(db)
        try:
            await seat_everyone(h, db, tmp_path)
            await h.say(0, "一つ目")  # chat by the GM is not a table line: ignored
            await h.say(0, "@GM 一つ目")
            await h.caught_up()
            assert h.channel_texts()[-1] == "GM: 一つ目"
            return h.channel.id
        finally:
            await stop(h)

    old_channel = run(first)
    store = open_store(db)
    try:  # the bot is down: a line typed in saikoro play / the web table meanwhile
        TableSession.open(store, ROOM, actor=Actor.gm()).run("休憩中の一言")
    finally:
        store.close()

    async def second() -> None:
        h = await start(db, rebind=(old_channel,))
        try:
            await h.caught_up()
            assert h.channel_texts() == ["GM: 休憩中の一言"]
        finally:
            await stop(h)

    run(second)


def test_serve_discord_shares_the_servers_table(tmp_path: Path) -> None:
    """``saikoro serve --discord``: the bot runs on the app's table service (the lifespan's
    companion), so a line posted to the API reaches the channel without any polling."""
    import httpx

    from saikoro.server.app import create_app

    db = str(tmp_path / "t.db")
    created = create_room(db)
    app_ = create_app(db)
    holder: dict[str, object] = {}

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def companion(service):  # what saikoro.discord.run.companion does, offline
        holder["h"] = await start(db, service=service)
        try:
            yield
        finally:
            await stop(holder["h"])  # type: ignore[arg-type]

    app_.state.table_companions = [companion]

    async def scenario() -> None:
        async with app_.router.lifespan_context(app_):
            h = holder["h"]
            bind(db, h.channel.id, h.member(0).id)  # type: ignore[attr-defined]
            await h.say(0, "@GM 同じプロセス")  # type: ignore[attr-defined]
            transport = httpx.ASGITransport(app=app_)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                answer = await client.post(
                    f"/api/rooms/{ROOM.replace('/', '%2F')}/lines",
                    json={"line": "APIから"},
                    headers={"Authorization": f"Bearer {created.gm_token}"},
                )
                assert answer.status_code == 200, answer.text
            await h.caught_up()  # type: ignore[attr-defined]
            assert h.channel_texts()[-2:] == ["GM: 同じプロセス", "GM: APIから"]  # type: ignore[attr-defined]
            assert h.bot.service is app_.state.table  # type: ignore[attr-defined]

    asyncio.run(scenario())


def test_the_fewest_intents_and_permissions() -> None:
    intents = default_intents()
    assert intents.message_content and intents.guild_messages and intents.guilds
    assert not intents.members and not intents.presences and not intents.dm_messages
    assert {name for name, on in intents if on} == {"guilds", "guild_messages", "message_content"}
    assert {name for name, on in PERMISSIONS if on} == {
        "read_messages",  # discord.py's name of View Channel
        "send_messages",
        "attach_files",
        "read_message_history",
    }
    assert invite_url(42) == (
        "https://discord.com/oauth2/authorize?client_id=42"
        f"&scope=bot+applications.commands&permissions={PERMISSIONS.value}"
    )
    bot = SaikoroBot("x.db")
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}


def _refused_login(seen: list[str]):
    async def start_(self: SaikoroBot, token: str, *, reconnect: bool = True) -> None:
        seen.append(token)
        logging.getLogger("discord.client").info("logging in using static token")
        raise discord.LoginFailure("Improper token has been passed.")

    return start_


@pytest.mark.parametrize("how", ["env", "file"])
def test_the_token_is_absent_from_all_output_and_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    seen: list[str] = []
    monkeypatch.setattr(SaikoroBot, "start", _refused_login(seen))
    caplog.set_level(logging.DEBUG)
    args = ["discord", "--db", str(tmp_path / "t.db"), "--no-sync"]
    env = {}
    if how == "env":
        env["SAIKORO_DISCORD_TOKEN"] = TOKEN
    else:
        (tmp_path / "token").write_text(TOKEN + "\n", "utf-8")
        args += ["--token-file", str(tmp_path / "token")]
        monkeypatch.delenv("SAIKORO_DISCORD_TOKEN", raising=False)
    result = CliRunner().invoke(app, args, env=env)
    assert seen == [TOKEN]  # the bot got it …
    assert result.exit_code == 1
    assert "Discord がトークンを受け付けませんでした" in result.output
    assert TOKEN not in result.output  # … and nothing showed it
    assert TOKEN not in caplog.text
    assert all(TOKEN not in r.getMessage() for r in caplog.records)


def test_the_token_is_never_an_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SAIKORO_DISCORD_TOKEN", raising=False)
    result = CliRunner().invoke(app, ["discord", "--db", str(tmp_path / "t.db"), "--token", TOKEN])
    assert result.exit_code == 2
    assert TOKEN not in result.output
    result = CliRunner().invoke(app, ["discord", "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 2
    assert "SAIKORO_DISCORD_TOKEN" in result.output
    result = CliRunner().invoke(app, ["serve", "--discord", "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 2 and "SAIKORO_DISCORD_TOKEN" in result.output


def test_a_refused_post_is_posted_later_once(tmp_path: Path) -> None:
    """Discord unreachable for a moment (a gateway drop, a 5xx): the channel's cursor stays
    where it was and the follower posts from there when it retries — nothing lost, nothing
    twice."""
    db = str(tmp_path / "t.db")
    create_room(db)

    async def scenario() -> None:
        h = await start(db)
        try:
            await seat_everyone(h, db, tmp_path)
            http = h.bot.http
            working = http.send_message
            failures = [1]

            async def flaky(channel_id: int, *, params: object) -> object:
                channel = sys._getframe(1).f_locals.get("channel")  # noqa: F841 (dpytest)
                if failures:
                    failures.pop()
                    raise discord.DiscordServerError(_FakeResponse(), "down")
                return await working(channel_id, params=params)

            http.send_message = flaky  # type: ignore[method-assign]
            await h.say(0, "@GM 届くか")  # its first post is refused
            await h.caught_up()  # a later try (a wake-up, or the retry) posts it
            assert not failures
            assert h.channel_texts().count("GM: 届くか") == 1
        finally:
            await stop(h)

    run(scenario)


class _FakeResponse:
    status = 503
    reason = "Service Unavailable"
