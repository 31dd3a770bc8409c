"""Text shown in a terminal: other people's control and bidirectional formatting characters
are shown escaped, never acted on; the stored text is unchanged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.cli.report import json_line, terminal_text
from tests.table.helpers import play

#: Every bidirectional formatting character Unicode defines (UAX #9 explicit formatting
#: characters and implicit marks).
BIDI = [
    "\u061c",  # ARABIC LETTER MARK
    "\u200e",  # LEFT-TO-RIGHT MARK
    "\u200f",  # RIGHT-TO-LEFT MARK
    "\u202a",  # LEFT-TO-RIGHT EMBEDDING
    "\u202b",  # RIGHT-TO-LEFT EMBEDDING
    "\u202c",  # POP DIRECTIONAL FORMATTING
    "\u202d",  # LEFT-TO-RIGHT OVERRIDE
    "\u202e",  # RIGHT-TO-LEFT OVERRIDE
    "\u2066",  # LEFT-TO-RIGHT ISOLATE
    "\u2067",  # RIGHT-TO-LEFT ISOLATE
    "\u2068",  # FIRST STRONG ISOLATE
    "\u2069",  # POP DIRECTIONAL ISOLATE
]


@pytest.mark.parametrize("char", BIDI)
def test_bidi_controls_are_shown_as_escapes(char: str) -> None:
    shown = terminal_text(f"成功{char}!敗失")
    assert char not in shown
    assert shown == f"成功\\u{ord(char):04x}!敗失"
    line = json_line({"text": f"a{char}b"})
    assert char not in line and json.loads(line) == {"text": f"a{char}b"}


def test_other_text_is_kept() -> None:
    """Japanese, Arabic and Hebrew letters (their own direction is not a control), line
    feeds and tabs stay; C0/C1 controls are escaped as before."""
    text = "やあ مرحبا שלום\té\n次"
    assert terminal_text(text) == text
    assert terminal_text("a\x1b[2J\x9bb") == "a\\x1b[2J\\x9bb"


def test_a_players_right_to_left_override_does_not_reverse_the_gms_log(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")
    hostile = "成功 \u202e!敗失 \u2067x\u2069 \u200f"
    out = play(db, "r", [hostile], system="LittleWorld", gm=False)
    assert out[0]["ok"]
    shown = (
        CliRunner().invoke(app, ["play", "--db", db, "--room", "r", "--gm"], input="/log\n").stdout
    )
    for char in ("\u202e", "\u2067", "\u2069", "\u200f"):
        assert char not in shown
    assert "成功 \\u202e!敗失 \\u2067x\\u2069 \\u200f" in shown
    as_json = (
        CliRunner()
        .invoke(app, ["play", "--db", db, "--room", "r", "--json"], input="/log\n")
        .stdout
    )
    assert "\u202e" not in as_json
    assert hostile in json.loads(as_json.splitlines()[0])["text"]
    with sqlite3.connect(db) as conn:  # the room keeps the text exactly
        bodies = [row[0] for row in conn.execute("SELECT body FROM saikoro_events")]
    assert any(hostile in json.loads(body)["data"].get("text", "") for body in bodies)
