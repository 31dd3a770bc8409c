"""``saikoro discord``: the Discord table (the ``[discord]`` extra).

    saikoro discord [--db PATH_OR_URL] [--token-file FILE]
    saikoro discord bind --db PATH_OR_URL --room NAME --channel ID --gm DISCORD_USER_ID [--gm-role ID]

The token comes from ``$SAIKORO_DISCORD_TOKEN`` or ``--token-file`` (never the command
line, where other users of the machine could read it); it is never printed or logged.
"""

from __future__ import annotations

from pathlib import Path

import typer

from saikoro.cli.serve import DEFAULT_DB

discord_app = typer.Typer(
    name="discord",
    help=(
        "Play rooms from Discord channels: a bot that connects out to Discord (no port to "
        "open). Discord のチャンネルで部屋を遊ぶボット (ポート開放不要)。\n\n"
        "Bare dice (2D6>=7, S1D100<=50, x3 2D6, choice[…]) are answered in any channel it "
        "reads; a channel bound to a room (saikoro discord bind, or /newroom in Discord) "
        "plays that room: /char brings a character (CCFOLIA JSON, Udonarium zip, saikoro "
        "sheet, or a PC's name), table lines (:HP-3, @NAME …, 2D6+{体力}>=8, /combat start) "
        "run through the same table core as the web table, and the room's log is mirrored "
        "both ways. The token: $SAIKORO_DISCORD_TOKEN or --token-file. Tested offline only "
        "(discord.py objects over a simulated backend, see docs/discord.md)."
    ),
    invoke_without_command=True,
    add_completion=False,
    rich_markup_mode=None,
)


_TOKEN_FILE = typer.Option(
    None,
    "--token-file",
    help="a file whose first line is the bot token (else $SAIKORO_DISCORD_TOKEN)",
)


def register(app: typer.Typer) -> None:
    app.add_typer(discord_app)


def _require_discord() -> None:
    from saikoro.errors import SaikoroError, require_extra
    from saikoro.i18n import Message

    try:
        require_extra("discord", "discord", Message("Discord ボット", "the Discord bot"))
    except SaikoroError as error:
        typer.echo(f"エラー / error: {error.message.both()}", err=True)
        raise typer.Exit(2) from None


@discord_app.callback()
def run(
    ctx: typer.Context,
    db: str = typer.Option(
        DEFAULT_DB,
        "--db",
        help=f"SQLite path or postgresql:// URL of the rooms (default ./{DEFAULT_DB})",
    ),
    token_file: Path | None = _TOKEN_FILE,
    sync: bool = typer.Option(
        True, "--sync/--no-sync", help="register the slash commands with Discord at start"
    ),
) -> None:
    """Run the bot until Ctrl+C (with no sub-command)."""
    if ctx.invoked_subcommand is not None:
        return
    import asyncio
    import logging

    from saikoro.cli.report import print_error
    from saikoro.discord.run import guard_logs, read_token, run_bot
    from saikoro.errors import SaikoroError
    from saikoro.store.sql import redact_url

    _require_discord()
    try:
        token = read_token(token_file)
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(2) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    guard_logs(token)
    typer.echo(f"データベース / database: {redact_url(db)}", err=True)
    typer.echo("Discord に接続します / connecting to Discord (Ctrl+C で終了 / to stop)", err=True)
    try:
        asyncio.run(run_bot(db, token, sync_commands=sync))
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        raise typer.Exit(0) from None


@discord_app.command("bind")
def bind(
    db: str = typer.Option(..., "--db", help="SQLite file path or postgresql:// URL"),
    room: str = typer.Option(..., "--room", help="the room to play in the channel"),
    channel: int = typer.Option(..., "--channel", help="the Discord channel's ID"),
    gm: int = typer.Option(..., "--gm", help="the GM's Discord user ID"),
    gm_role: int | None = typer.Option(
        None, "--gm-role", help="members of this Discord role act as GM too (its ID)"
    ),
) -> None:
    """Bind a Discord channel to a room (the bot posts the room's log there from now on).

    チャンネルを部屋に結び付けます。ID は Discord の開発者モードで右クリック →「ID をコピー」。
    """
    from saikoro.cli.report import print_error
    from saikoro.errors import SaikoroError
    from saikoro.store import open_store

    try:
        store = open_store(db)
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(2) from None
    try:
        from saikoro.store.discord_links import DiscordLinks

        record = store.get_room(room)
        if record is None:
            from saikoro.table.emit import fail

            raise fail(f"部屋 {room!r} はありません", f"no room {room!r}", "no such room")
        DiscordLinks(store).bind(channel, record.name, gm, gm_role, store.version(record))
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(1) from None
    finally:
        store.close()
    typer.echo(
        f"チャンネル {channel} で部屋 {record.name} ({record.system}) を遊びます (GM: {gm}) / "
        f"channel {channel} plays room {record.name} ({record.system}), GM {gm}"
    )
