"""``saikoro room``: shared rooms and their links from a terminal or a script.

    saikoro room create --db PATH_OR_URL --system ID --name NAME [--base-url URL] [--json]
    saikoro room links  --db PATH_OR_URL --room NAME [--json]
    saikoro room issue  --db PATH_OR_URL --room NAME --role ROLE [--character NAME] [--base-url URL]
    saikoro room revoke --db PATH_OR_URL --room NAME LINK_ID [--reissue] [--base-url URL]

``create`` and ``issue`` print the new links (the only time their tokens are known);
``links`` lists ids, roles and characters, never tokens. Whoever can open the database
manages its rooms, so these need no token. Exit status: 1 when refused, 2 when the
database cannot be opened.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer

room_app = typer.Typer(
    name="room",
    help="Shared rooms: create one with its GM / invite / spectator links, list, revoke.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_DB = typer.Option(..., "--db", help="SQLite file path or postgresql:// URL")
_ROOM = typer.Option(..., "--room", help="room name")
_BASE_URL = typer.Option(
    None, "--base-url", help="where saikoro serve is reached (default http://127.0.0.1:8000)"
)
_JSON = typer.Option(False, "--json", help="one JSON object")


def register(app: typer.Typer) -> None:
    app.add_typer(room_app)


def _run(db: str, as_json: bool, action: Callable[[Any], int], *, create: bool = False) -> None:
    """Open the store (``create``: even a SQLite file not made yet), run ``action(store)``,
    print a refusal bilingually (never a token)."""
    from saikoro.cli.report import print_error
    from saikoro.errors import SaikoroError
    from saikoro.store import open_store

    try:
        store = open_store(db, create=create)
    except SaikoroError as error:
        print_error(error, as_json)
        raise typer.Exit(2) from None
    try:
        status = action(store)
    except SaikoroError as error:
        print_error(error, as_json)
        status = 1
    finally:
        store.close()
    raise typer.Exit(status)


def _print(body: dict[str, Any], lines: list[str], as_json: bool) -> None:
    print(json.dumps(body, ensure_ascii=False) if as_json else "\n".join(lines), flush=True)


@room_app.command("create")
def create(
    db: str = _DB,
    system: str = typer.Option(..., "--system", help="game system ID (as for saikoro play)"),
    name: str = typer.Option(..., "--name", help="the new room's name"),
    base_url: str | None = _BASE_URL,
    as_json: bool = _JSON,
) -> None:
    """Create a room; print its GM, player-invite and spectator links."""
    from saikoro.table.rooms import DEFAULT_BASE_URL, create_room

    def action(store: Any) -> int:
        made = create_room(store, name, system)
        urls = made.urls(base_url or DEFAULT_BASE_URL)
        body = {
            "room": made.room,
            "system": made.system,
            "gm_url": urls["gm_url"],
            "gm_token": made.gm_token,
            "invite_url": urls["invite_url"],
            "invite_token": made.invite_token,
            "spectator_url": urls["spectator_url"],
            "spectator_token": made.spectator_token,
        }
        _print(
            body,
            [
                f"部屋 {made.room} ({made.system}) を作りました / room created",
                f"GM:                 {urls['gm_url']}",
                f"招待 / invite:      {urls['invite_url']}",
                f"観戦 / spectator:   {urls['spectator_url']}",
                "(GM のリンクは人に渡さないでください / keep the GM link to yourself)",
            ],
            as_json,
        )
        return 0

    _run(db, as_json, action, create=True)


@room_app.command("links")
def links(db: str = _DB, room: str = _ROOM, as_json: bool = _JSON) -> None:
    """List a room's links: id, role, character, created, revoked (never tokens)."""
    from rich.cells import cell_len

    from saikoro.table.rooms import list_links

    def action(store: Any) -> int:
        found = list_links(store, room)
        names = [link.character or "-" for link in found]
        width = max([12, *(cell_len(name) for name in names)])
        rows = [  # padded by display width: a Japanese name is two columns per character
            f"{link.id}  {link.role:<9} {name}{' ' * (width - cell_len(name))} {link.created_at}"
            + ("  [取消 / revoked]" if link.revoked else "")
            for link, name in zip(found, names, strict=True)
        ]
        _print({"room": room, "links": [link.to_json() for link in found]}, rows, as_json)
        return 0

    _run(db, as_json, action)


@room_app.command("issue")
def issue(
    db: str = _DB,
    room: str = _ROOM,
    role: str = typer.Option(..., "--role", help="gm, invite, spectator or player"),
    character: str | None = typer.Option(None, "--character", help="a player link's character"),
    base_url: str | None = _BASE_URL,
    as_json: bool = _JSON,
) -> None:
    """Issue a new link of a room (for a room made by ``saikoro play``, or one more)."""
    from saikoro.table import rooms

    def action(store: Any) -> int:
        link, token = rooms.issue(store, room, role, character)
        url = rooms.room_url(
            base_url or rooms.DEFAULT_BASE_URL, room, token, invite=role == "invite"
        )
        _print(
            {"link": link.to_json(), "token": token, "url": url}, [f"{link.role}: {url}"], as_json
        )
        return 0

    _run(db, as_json, action)


@room_app.command("revoke")
def revoke(
    link_id: str = typer.Argument(..., help="the link's id (saikoro room links)"),
    db: str = _DB,
    room: str = _ROOM,
    reissue: bool = typer.Option(False, "--reissue", help="issue a new link in its place"),
    base_url: str | None = _BASE_URL,
    as_json: bool = _JSON,
) -> None:
    """Revoke a link (its token stops working at once); with --reissue print its successor."""
    from saikoro.table import rooms

    def action(store: Any) -> int:
        new = rooms.revoke(store, room, link_id, reissue=reissue)
        body: dict[str, Any] = {"revoked": link_id}
        lines = [f"リンク {link_id} を取り消しました / link {link_id} revoked"]
        if new is not None:
            link, token = new
            base = base_url or rooms.DEFAULT_BASE_URL
            url = rooms.room_url(base, room, token, invite=link.role == "invite")
            body.update(link=link.to_json(), token=token, url=url)
            lines.append(f"{link.role}: {url}")
        _print(body, lines, as_json)
        return 0

    _run(db, as_json, action)
