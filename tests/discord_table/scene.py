"""A bound LittleWorld room played from Discord: the GM (member 0), two players (アリス by
CCFOLIA JSON, ボブ by an Udonarium zip: members 1 and 2) and a reader with no character
(member 3); the GM brings ゴブリン as a saikoro sheet."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.store import open_store
from saikoro.table import rooms
from saikoro.transfer import export_ccfolia, export_udonarium, load_character_file

from .harness import Harness, attachment

SHEETS = Path(__file__).resolve().parents[1] / "table" / "sheets"
ROOM = "卓/1"


def create_room(db: str, system: str = "LittleWorld", room: str = ROOM) -> rooms.CreatedRoom:
    store = open_store(db)
    try:
        return rooms.create_room(store, room, system)
    finally:
        store.close()


def bind(db: str, channel: int, gm: int, room: str = ROOM) -> str:
    result = CliRunner().invoke(
        app,
        ["discord", "bind", "--db", db, "--room", room, "--channel", str(channel), "--gm", str(gm)],
    )
    assert result.exit_code == 0, result.output
    return result.output


async def seat_everyone(h: Harness, db: str, folder: Path, room: str = ROOM) -> None:
    bind(db, h.channel.id, h.member(0).id, room)
    alice = folder / "alice-ccfolia.json"
    alice.write_text(export_ccfolia(load_character_file(SHEETS / "alice.json")), "utf-8")
    bob = folder / "bob.zip"
    bob.write_bytes(export_udonarium(load_character_file(SHEETS / "bob.json")))
    goblin = folder / "goblin.json"
    goblin.write_text((SHEETS / "goblin.json").read_text("utf-8"), "utf-8")
    for member, path in ((1, alice), (2, bob), (0, goblin)):
        file = attachment(str(path), path.name)
        await h.slash(member, "char", {"file": file["id"]}, attachments={"file": file})
    await h.caught_up()
