"""The Discord table: play a room from a Discord channel (the ``[discord]`` extra).

``make_bot(db_url, ...)`` builds the bot (:mod:`saikoro.discord.bot`); ``saikoro discord``
runs it (:mod:`saikoro.discord.run`). The bot holds no rules: it maps Discord users to the
room's actors and sends lines into the same table core as the web page.
"""

from __future__ import annotations

from typing import Any


def make_bot(db_url: str, **options: Any) -> Any:
    """The bot on the rooms of ``db_url``: a ``discord.ext.commands.Bot`` (see
    :func:`saikoro.discord.bot.make_bot` for the options)."""
    from saikoro.errors import require_extra
    from saikoro.i18n import Message

    require_extra("discord", "discord", Message("Discord ボット", "the Discord bot"))
    from saikoro.discord.bot import make_bot as build

    return build(db_url, **options)


__all__ = ["make_bot"]
