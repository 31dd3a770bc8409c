"""``saikoro serve``: the BCDice-API v2 compatible HTTP server and the shared table (uvicorn).

With ``--workers N`` uvicorn starts N processes; each builds its app with
:func:`worker_app` from the settings in ``$SAIKORO_SERVE_SETTINGS`` (JSON). Processes reach
each other's WebSocket clients through PostgreSQL LISTEN/NOTIFY, so several workers need a
``postgresql://`` database (on SQLite one process fans out in memory).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer

#: Where ``--db`` points when it is not given (the working directory).
DEFAULT_DB = "saikoro.db"
SETTINGS_ENV = "SAIKORO_SERVE_SETTINGS"
_DISCORD_TOKEN_FILE = typer.Option(
    None, "--discord-token-file", help="a file whose first line is the Discord bot token"
)

_TRUSTED_PROXY = typer.Option(
    None,
    "--trusted-proxy",
    "--forwarded-allow-ips",
    help="Address (or network) of a reverse proxy whose X-Forwarded-For/-Proto/-Host are"
    " believed; repeat or separate with commas (default: none; see docs/deploy.md)",
)


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on"),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port"),
    db: str | None = typer.Option(
        None,
        "--db",
        help=f"SQLite path or postgresql:// URL of the table's rooms (default ./{DEFAULT_DB})",
    ),
    workers: int = typer.Option(
        1, "--workers", min=1, max=64, help="Server processes (more than 1 needs PostgreSQL)"
    ),
    line_rate: float = typer.Option(
        5.0, "--line-rate", min=0, help="Table lines per second per link (0: unlimited)"
    ),
    line_burst: int = typer.Option(20, "--line-burst", min=1, help="Lines a link may send at once"),
    max_ws_per_room: int = typer.Option(
        200, "--max-ws-per-room", min=1, help="Open WebSockets per room (per process)"
    ),
    max_ws_per_link: int = typer.Option(
        8, "--max-ws-per-link", min=1, help="Open WebSockets per link (per process)"
    ),
    rooms_per_minute: float = typer.Option(
        10.0, "--rooms-per-minute", min=0, help="Rooms one client address may create (0: any)"
    ),
    max_players: int = typer.Option(
        12, "--max-players", min=0, help="Players (personal links) per room (0: any)"
    ),
    joins_per_minute: float = typer.Option(
        12.0, "--joins-per-minute", min=0, help="Joins one invite link may make per minute (0: any)"
    ),
    rooms_per_address: int = typer.Option(
        100, "--rooms-per-address", min=0, help="Rooms one client address may create (0: any)"
    ),
    room_quota_mb: float = typer.Option(
        32.0, "--room-quota-mb", min=0, help="Stored events per room, in MiB (0: no quota)"
    ),
    ws_idle_timeout: float = typer.Option(
        90.0, "--ws-idle-timeout", min=0.5, help="Close a WebSocket silent for this long (s)"
    ),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level"),
    roll_workers: int = typer.Option(
        0, "--roll-workers", min=0, help="Dice worker processes (0: one per CPU)"
    ),
    deadline: float = typer.Option(
        5.0, "--deadline", min=0.1, help="Seconds one command may run before it is abandoned (503)"
    ),
    per_address: int = typer.Option(
        64, "--per-address", min=0, help="Open connections per client address (0: no cap)"
    ),
    trusted_proxy: list[str] | None = _TRUSTED_PROXY,
    public_url: str | None = typer.Option(
        None,
        "--public-url",
        help="The origin players reach, e.g. https://table.example.org: invite and GM links"
        " start with it (default: the address the request came to)",
    ),
    discord: bool = typer.Option(
        False,
        "--discord",
        help="Also run the Discord bot in this process (token: $SAIKORO_DISCORD_TOKEN or"
        " --discord-token-file; see docs/discord.md)",
    ),
    discord_token_file: Path | None = _DISCORD_TOKEN_FILE,
) -> None:
    """Serve BCDice-API v2 (/v2/…) and the shared table (/api/rooms…, WebSocket, page at /).

    BCDice-API 互換サーバーと共有卓を起動します。Udonarium・CCFOLIA 系ツール・Discord ボットの
    BCDice-API URL に http://HOST:PORT を指定してください。卓は表示される URL から開けます。
    """
    from saikoro.errors import SaikoroError, require_extra
    from saikoro.i18n import Message

    try:
        for module in ("fastapi", "uvicorn", "multipart", "websockets"):
            require_extra(module, "server", Message("サーバー", "the server"))
    except SaikoroError as error:
        typer.echo(f"エラー / error: {error.message.both()}", err=True)
        raise typer.Exit(2) from None
    import uvicorn
    from uvicorn.config import LOG_LEVELS

    from saikoro.server.connections import uvicorn_options
    from saikoro.server.table.redact import uvicorn_log_config
    from saikoro.store.sql import redact_url

    if log_level.lower() not in LOG_LEVELS:
        typer.echo(
            f"エラー / error: ログレベル {log_level!r} はありません ({', '.join(LOG_LEVELS)}) / "
            f"unknown log level {log_level!r} (one of {', '.join(LOG_LEVELS)})",
            err=True,
        )
        raise typer.Exit(2)
    if db is None:
        db = DEFAULT_DB
        typer.echo(
            f"データベース / database: ./{DEFAULT_DB} (SQLite, 作業ディレクトリ / working directory;"
            " --db で変更 / change with --db)",
            err=True,
        )
    else:
        typer.echo(f"データベース / database: {redact_url(db)}", err=True)
    if workers > 1 and not db.startswith(("postgresql://", "postgres://", "postgresql+")):
        typer.echo(
            "エラー / error: --workers 2 以上には PostgreSQL の --db が必要です"
            " (SQLite では 1 プロセスだけが配信します) / more than one worker needs a"
            " postgresql:// --db (on SQLite one process fans out in memory)",
            err=True,
        )
        raise typer.Exit(2)
    from saikoro.cli.report import print_error
    from saikoro.server.proxy import TrustedProxies, parse_public_url

    try:
        entries = [entry for option in trusted_proxy or [] for entry in option.split(",")]
        proxies = TrustedProxies.parse(entries).texts()
        public = parse_public_url(public_url) if public_url is not None else None
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(2) from None
    discord_token = _discord_token(discord_token_file) if discord else None
    if discord_token is not None and workers > 1:
        typer.echo(
            "エラー / error: --discord は --workers 1 で使ってください (ボットは1つ) /"
            " --discord runs one bot: use it with --workers 1",
            err=True,
        )
        raise typer.Exit(2)
    _check_port_free(host, port)
    _check_database(db)
    settings: dict[str, Any] = {
        "db": db,
        "limits": {
            "line_rate": line_rate,
            "line_burst": line_burst,
            "max_ws_per_room": max_ws_per_room,
            "max_ws_per_link": max_ws_per_link,
            "rooms_per_minute": rooms_per_minute,
            "max_players": max_players,
            "joins_per_minute": joins_per_minute,
            "rooms_per_address": rooms_per_address,
            "room_quota_bytes": int(room_quota_mb * 1024 * 1024),
            "idle_timeout": ws_idle_timeout,
            "ping_interval": min(20.0, ws_idle_timeout / 3),
        },
        "pool": {"deadline": deadline, **({"workers": roll_workers} if roll_workers else {})},
        "rules": {"per_address": per_address, "trusted": proxies},
        "public_url": public,
    }
    shown = f"[{host}]" if ":" in host else host
    typer.echo(
        f"saikoro: http://{shown}:{port}/ を開いてください / open http://{shown}:{port}/"
        f"  (BCDice-API: /v2/version, table API: /api/rooms, OpenAPI: /docs)",
        err=True,
    )
    if public:
        typer.echo(
            f"saikoro: 招待・GM リンクは {public}/ で始まります / invite and GM links start with"
            f" {public}/",
            err=True,
        )
    if proxies:
        typer.echo(
            f"saikoro: X-Forwarded-* を信頼するプロキシ / trusted proxies: {', '.join(proxies)}",
            err=True,
        )
    options: dict[str, Any] = {
        **uvicorn_options(connection_rules(settings)),
        "host": host,
        "port": port,
        "log_level": log_level.lower(),
        "log_config": uvicorn_log_config(),
        "ws_max_size": 64 * 1024,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        # Events are small JSON: per-connection deflate costs CPU per client per event (a
        # context of its own for each socket) and saves little.
        "ws_per_message_deflate": False,
    }
    if workers > 1:
        os.environ[SETTINGS_ENV] = json.dumps(settings)
        # Each worker process builds its own guarded protocol from the settings (a class
        # made at run time cannot be sent to a spawned process).
        options["http"] = "saikoro.cli.serve:worker_protocol"
        uvicorn.run("saikoro.cli.serve:worker_app", factory=True, workers=workers, **options)
    else:
        app = app_from_settings(settings)
        if discord_token is not None:
            from saikoro.discord.run import companion

            app.state.table_companions = [companion(discord_token)]
        uvicorn.run(app, **options)


def _discord_token(token_file: Path | None) -> str:
    """The bot's token for ``--discord`` (never echoed); exits 2 when there is none."""
    from saikoro.cli.report import print_error
    from saikoro.errors import SaikoroError, require_extra
    from saikoro.i18n import Message

    try:
        require_extra("discord", "discord", Message("Discord ボット", "the Discord bot"))
        from saikoro.discord.run import guard_logs, read_token

        token = read_token(token_file)
    except SaikoroError as error:
        print_error(error)
        raise typer.Exit(2) from None
    guard_logs(token)
    return token


def connection_rules(settings: dict[str, Any]) -> Any:
    from saikoro.server.connections import ConnectionRules
    from saikoro.server.proxy import TrustedProxies

    rules = settings["rules"]
    return ConnectionRules(
        per_address=rules["per_address"], trusted=TrustedProxies.parse(rules["trusted"])
    )


def app_from_settings(settings: dict[str, Any]) -> Any:
    from saikoro.server.app import create_app
    from saikoro.server.pool import PoolLimits
    from saikoro.server.proxy import TrustedProxies
    from saikoro.server.table.limits import TableLimits

    return create_app(
        settings["db"],
        pool=PoolLimits(**settings["pool"]),
        table_limits=TableLimits(**settings["limits"]),
        trusted_proxies=TrustedProxies.parse(settings["rules"]["trusted"]),
        public_url=settings.get("public_url"),
    )


def worker_app() -> Any:
    """The app of one ``--workers`` process (uvicorn calls this factory in each)."""
    return app_from_settings(json.loads(os.environ[SETTINGS_ENV]))


def __getattr__(name: str) -> Any:
    """``worker_protocol``: the guarded HTTP protocol of a ``--workers`` process, built from
    ``$SAIKORO_SERVE_SETTINGS`` when uvicorn imports it there."""
    if name == "worker_protocol":
        from saikoro.server.connections import guarded_protocol

        protocol = guarded_protocol(connection_rules(json.loads(os.environ[SETTINGS_ENV])))
        globals()["worker_protocol"] = protocol
        return protocol
    raise AttributeError(name)


def _check_port_free(host: str, port: int) -> None:
    """Say clearly (in both languages) when the address cannot be listened on."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(infos[0][4])
    except (OSError, UnicodeError) as error:  # UnicodeError: a name IDNA cannot encode
        why = getattr(error, "strerror", None) or error
        typer.echo(
            f"エラー / error: {host}:{port} で待ち受けできません (使用中か権限がありません) / "
            f"cannot listen on {host}:{port} (in use or not allowed): {why}",
            err=True,
        )
        raise typer.Exit(1) from None


def _check_database(db: str) -> None:
    """Open the database once before uvicorn starts: one that cannot be opened (no server
    there, a missing folder, a file that is not a database, no PostgreSQL driver…) gets
    ``saikoro play``'s bilingual message and exit status 2, not a traceback from the
    app's start-up."""
    from saikoro.cli.report import print_error
    from saikoro.errors import SaikoroError
    from saikoro.store import open_store

    try:
        open_store(db).close()
    except SaikoroError as error:  # the URL is shown without its passwords
        print_error(error)
        raise typer.Exit(2) from None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
