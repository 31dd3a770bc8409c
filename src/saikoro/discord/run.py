"""Running the bot: its token (``SAIKORO_DISCORD_TOKEN`` or a file, never the command line,
never printed or logged), standalone (``saikoro discord``) or inside ``saikoro serve
--discord`` (sharing the server's table service, so the web table and the channel share
rooms live)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.server.table.service import TableService

#: The environment variable holding the bot's token.
TOKEN_ENV = "SAIKORO_DISCORD_TOKEN"

log = logging.getLogger("saikoro.discord")


def _no_token() -> SaikoroError:
    return SaikoroError(
        Message(
            f"Discord のボットトークンがありません: 環境変数 {TOKEN_ENV} か --token-file で渡してください",
            f"no Discord bot token: set {TOKEN_ENV} or give --token-file",
        ),
        reason="no token",
    )


def read_token(token_file: Path | None, environ: dict[str, str] | None = None) -> str:
    """The bot token from ``token_file`` (its first line) or ``$SAIKORO_DISCORD_TOKEN``.
    Errors name where it was looked for, never what it is."""
    env = os.environ if environ is None else environ
    if token_file is not None:
        try:
            text = token_file.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise SaikoroError(
                Message(
                    f"トークンファイル {token_file} を読めません ({type(error).__name__})",
                    f"cannot read the token file {token_file} ({type(error).__name__})",
                ),
                reason="no token",
            ) from None
        token = text.strip().splitlines()[0].strip() if text.strip() else ""
    else:
        token = env.get(TOKEN_ENV, "").strip()
    if not token:
        raise _no_token()
    return token


class TokenFilter(logging.Filter):
    """Replaces the token wherever a log record would show it (defence in depth: saikoro
    and discord.py do not log it)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token and self.token in message:
            record.msg = message.replace(self.token, "***")
            record.args = ()
        return True


def guard_logs(token: str) -> TokenFilter:
    """Install :class:`TokenFilter` on every handler of the root logger (and discord's)."""
    guard = TokenFilter(token)
    for name in ("", "discord", "saikoro"):
        logger = logging.getLogger(name)
        logger.addFilter(guard)
        for handler in logger.handlers:
            handler.addFilter(guard)
    return guard


def login_error(error: BaseException) -> SaikoroError:
    """What a failed start says (Discord refused the token, the network is down, …)."""
    import discord

    if isinstance(error, discord.LoginFailure):
        return SaikoroError(
            Message(
                "Discord がトークンを受け付けませんでした (開発者ポータルの Bot → Reset Token)",
                "Discord refused the token (developer portal: Bot → Reset Token)",
            ),
            reason="login",
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return SaikoroError(
            Message(
                "Message Content Intent をオンにしてください (開発者ポータルの Bot)",
                "turn on the Message Content Intent (developer portal: Bot)",
            ),
            reason="login",
        )
    return SaikoroError(
        Message(
            f"Discord に接続できません ({type(error).__name__})",
            f"cannot connect to Discord ({type(error).__name__})",
        ),
        reason="login",
    )


async def run_bot(db_url: str, token: str, **options: Any) -> None:
    """``saikoro discord``: the bot until it is stopped."""
    from saikoro.discord.bot import make_bot

    bot = make_bot(db_url, **options)
    try:
        async with bot:
            await bot.start(token)
    except SaikoroError:
        raise
    except Exception as error:
        raise login_error(error) from None


def companion(
    token: str, **options: Any
) -> Callable[[TableService], contextlib.AbstractAsyncContextManager[None]]:
    """For ``saikoro serve --discord``: while the server's table runs, the bot runs on its
    service (one process: the web table's lines reach the channel at once)."""

    @asynccontextmanager
    async def running(service: TableService) -> AsyncIterator[None]:
        from saikoro.discord.bot import make_bot

        bot = make_bot(service.db_url, service=service, **options)
        task = asyncio.get_running_loop().create_task(_start(bot, token))
        try:
            yield
        finally:
            await bot.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    return running


async def _start(bot: Any, token: str) -> None:
    try:
        await bot.start(token)
    except asyncio.CancelledError:
        raise
    except Exception as error:
        log.error("the Discord bot stopped: %s", login_error(error).message.both())


__all__ = ["TOKEN_ENV", "TokenFilter", "companion", "guard_logs", "read_token", "run_bot"]
