"""``saikoro serve``: the BCDice-API v2 compatible HTTP server (uvicorn)."""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on"),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port"),
    db: str | None = typer.Option(
        None, "--db", help="SQLite path or database URL of the table rooms (kept for the table API)"
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
    forwarded_allow_ips: str = typer.Option(
        "127.0.0.1",
        "--forwarded-allow-ips",
        help="Reverse proxies whose X-Forwarded-For is trusted (comma-separated; see docs/server.md)",
    ),
) -> None:
    """Serve BCDice-API v2 (/v2/version, /v2/game_system, /v2/game_system/{id}/roll, …).

    BCDice-API 互換サーバーを起動します。Udonarium・CCFOLIA 系ツール・Discord ボットの
    BCDice-API URL に http://HOST:PORT を指定してください。
    """
    from saikoro.errors import SaikoroError, require_extra
    from saikoro.i18n import Message

    try:
        for module in ("fastapi", "uvicorn", "multipart"):
            require_extra(module, "server", Message("サーバー", "the server"))
    except SaikoroError as error:
        typer.echo(f"エラー / error: {error.message.both()}", err=True)
        raise typer.Exit(2) from None
    import uvicorn
    from uvicorn.config import LOG_LEVELS

    from saikoro.server.app import create_app
    from saikoro.server.connections import ConnectionRules, uvicorn_options
    from saikoro.server.pool import PoolLimits

    if log_level.lower() not in LOG_LEVELS:
        typer.echo(
            f"エラー / error: ログレベル {log_level!r} はありません ({', '.join(LOG_LEVELS)}) / "
            f"unknown log level {log_level!r} (one of {', '.join(LOG_LEVELS)})",
            err=True,
        )
        raise typer.Exit(2)
    _check_port_free(host, port)
    proxies = frozenset(ip.strip() for ip in forwarded_allow_ips.split(",") if ip.strip())
    pool = PoolLimits(deadline=deadline, **({"workers": roll_workers} if roll_workers else {}))
    app = create_app(db, pool=pool)
    rules = ConnectionRules(per_address=per_address, trusted=proxies)
    typer.echo(f"saikoro BCDice-API: http://{host}:{port}/v2/version (OpenAPI: /docs)", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level.lower(),
        forwarded_allow_ips=",".join(sorted(proxies)),
        **uvicorn_options(rules),
    )


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


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
