"""``saikoro room create|links|issue|revoke`` and ``saikoro play --token``: every refusal of
issue 11's "Why" through ``saikoro play`` with scripted dice (refused with a bilingual
message, nothing changed), revoked links refused, ``--gm`` on a room with a GM link needs
its token, and no token or database password in any error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.store import open_store
from saikoro.table.rooms import issue, join
from saikoro.table.session import TableSession

SHEETS = Path(__file__).parents[1] / "table" / "sheets"


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(
        app, list(args), input=input, env={"SAIKORO_LANG": "ja", **(env or {})}
    )


def create(db: str, name: str = "卓", system: str = "LittleWorld") -> dict[str, Any]:
    result = cli("room", "create", "--db", db, "--system", system, "--name", name, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def play(db: str, lines: list[str], *extra: str, room: str = "卓", rands: str | None = None):
    args = ["play", "--db", db, "--room", room, "--json", *extra]
    if rands is not None:
        args += ["--rands", rands]
    result = cli(*args, input="\n".join(lines) + "\n")
    outputs = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    return result, outputs


def version(db: str, room: str = "卓") -> int:
    store = open_store(db)
    try:
        record = store.get_room(room)
        assert record is not None
        return record.version
    finally:
        store.close()


@pytest.fixture
def shared(tmp_path):
    """A LittleWorld room with the GM's goblin and two players' characters (アリス, ボブ)."""
    db = str(tmp_path / "t.db")
    made = create(db)
    result, out = play(
        db,
        [f"/char add {SHEETS / 'goblin.json'}", f"/char add {SHEETS / 'bob.json'}"],
        "--token",
        made["gm_token"],
    )
    assert result.exit_code == 0 and all(o["ok"] for o in out), out
    store = open_store(db)
    try:
        alice = (SHEETS / "alice.json").read_text(encoding="utf-8")
        _, alice_token, _ = join(store, "卓", made["invite_token"], alice)
        _, bob_token, _ = join(store, "卓", made["invite_token"], "ボブ")
    finally:
        store.close()
    return db, made, alice_token, bob_token


def test_room_create_prints_the_links(tmp_path):
    db = str(tmp_path / "t.db")
    result = cli(
        "room", "create", "--db", db, "--system", "UnmeiD100", "--name", "r 1",
        "--base-url", "https://play.example:8443",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("部屋 r 1 (UnmeiD100)")
    assert any(
        x.startswith("GM:") and "https://play.example:8443/#room=r%201&token=" in x for x in lines
    )
    assert any("&invite=" in x for x in lines) and any(x.startswith("観戦") for x in lines)
    again = cli("room", "create", "--db", db, "--system", "UnmeiD100", "--name", "r 1")
    assert again.exit_code == 1 and "already exists" in again.output


def test_room_links_issue_and_revoke(tmp_path):
    db = str(tmp_path / "t.db")
    made = create(db)
    listed = json.loads(cli("room", "links", "--db", db, "--room", "卓", "--json").stdout)
    assert {link["role"] for link in listed["links"]} == {"gm", "invite", "spectator"}
    text = cli("room", "links", "--db", db, "--room", "卓").stdout
    assert made["gm_token"] not in text and made["invite_token"] not in text
    spectator = next(link for link in listed["links"] if link["role"] == "spectator")
    revoked = cli("room", "revoke", spectator["id"], "--db", db, "--room", "卓")
    assert revoked.exit_code == 0 and "revoked" in revoked.stdout
    result, out = play(db, ["/state"], "--token", made["spectator_token"])
    assert result.exit_code == 2 and out[0]["reason"] == "unauthorized"
    assert made["spectator_token"] not in result.output
    again = cli("room", "revoke", spectator["id"], "--db", db, "--room", "卓")
    assert again.exit_code == 1
    gm = next(link for link in listed["links"] if link["role"] == "gm")
    new = json.loads(
        cli("room", "revoke", gm["id"], "--db", db, "--room", "卓", "--reissue", "--json").stdout
    )
    assert new["link"]["role"] == "gm" and new["url"].endswith(new["token"])
    assert play(db, ["/state"], "--gm", "--token", made["gm_token"])[0].exit_code == 2
    assert play(db, ["/gm note ok"], "--gm", "--token", new["token"])[0].exit_code == 0
    issued = json.loads(
        cli("room", "issue", "--db", db, "--room", "卓", "--role", "spectator", "--json").stdout
    )
    assert play(db, ["/char list"], "--token", issued["token"])[0].exit_code == 0
    bad = cli("room", "issue", "--db", db, "--room", "卓", "--role", "king")
    assert bad.exit_code == 1 and "gm / invite" in bad.output
    missing = cli("room", "links", "--db", db, "--room", "どこ")
    assert missing.exit_code == 1


def test_room_links_of_a_database_not_there_make_no_file(tmp_path):
    db = tmp_path / "typo.db"
    for args in (["links"], ["issue", "--role", "invite"], ["revoke", "x"]):
        result = cli("room", *args, "--db", str(db), "--room", "卓")
        assert result.exit_code == 2 and "no database" in result.output
        assert "はありません" in result.output and "Traceback" not in result.output
        assert not db.exists()


#: Every refusal in issue 11's "Why", for the player of アリス (lines as typed).
PLAYER_REFUSALS = [
    "@ボブ :HP-3",
    "@ゴブリン :HP-3",
    "/char remove ボブ",
    "/char remove ゴブリン",
    "/combat start",
    "@ゴブリン /undo",
    "/undo",  # the GM's line
    "@ＧＭ こんばんは",
    "@GM こんばんは",
    "/gm note 私がGM",
    "/cond add ボブ 毒 2",
]


@pytest.mark.parametrize("line", PLAYER_REFUSALS)
def test_play_refuses_a_player(shared, line):
    db, made, alice_token, _ = shared
    play(db, ["@ゴブリン :HP-1"], "--token", made["gm_token"])  # the newest line is the GM's
    before = version(db)
    result, out = play(db, [line], "--token", alice_token)
    assert result.exit_code == 1
    assert out[0]["ok"] is False and out[0]["reason"] == "forbidden"
    assert out[0]["ja"] and out[0]["en"] and out[0]["ja"] != out[0]["en"]
    assert version(db) == before  # nothing changed
    assert alice_token not in result.output


def test_play_refuses_ending_combat_and_picking_the_turn(tmp_path):
    db = str(tmp_path / "u.db")
    made = create(db, system="UnmeiD100")
    gm = ("--token", made["gm_token"])
    _, out = play(
        db,
        [f"/char add {SHEETS / 'ken.json'}", f"/char add {SHEETS / 'mia.json'}", "/combat start"],
        *gm,
        rands="5/10,3/10",
    )
    assert all(o["ok"] for o in out), out
    store = open_store(db)
    try:
        state = TableSession.open(store, "卓").state
        current = state.combat.current
        other = next(n for n in state.combat.order if n != current)
        _, current_token = issue(store, "卓", "player", current)
        _, other_token = issue(store, "卓", "player", other)
    finally:
        store.close()
    before = version(db)
    for token, line in (
        (current_token, f"/next {other}"),
        (current_token, "/combat end"),
        (other_token, "/next"),  # not their turn
    ):
        result, out = play(db, [line], "--token", token)
        assert result.exit_code == 1 and out[0]["reason"] == "forbidden", (line, out)
    assert version(db) == before
    result, out = play(db, ["/next"], "--token", current_token)  # ends their own turn
    assert result.exit_code == 0 and out[0]["ok"], out


def test_play_lets_a_player_play_their_character(shared):
    db, _, alice_token, _ = shared
    result, out = play(
        db,
        ["2D6+{体力}", ":HP-2", "/undo", "S2D6", "/reveal", "/log 3"],
        "--token",
        alice_token,
        rands="3/6,4/6,6/6,5/6",
    )
    assert result.exit_code == 0, out
    assert out[0]["text"].startswith("アリス: (2D6+3)")
    assert "11" in out[3]["text"]  # the roller sees their own secret roll
    assert "シークレットダイス公開" in out[4]["text"] and "11" in out[4]["text"]


def test_secret_roll_through_play_seen_by_roller_and_gm_until_revealed(shared):
    db, made, alice_token, bob_token = shared
    play(db, ["S2D6"], "--token", alice_token, rands="6/6,5/6")
    for token, sees in (
        (alice_token, True), (made["gm_token"], True), (bob_token, False), (made["spectator_token"], False),
    ):  # fmt: skip
        _, out = play(db, ["/log 1"], "--token", token)
        assert ("11[6,5]" in out[0]["text"]) is sees, (token == bob_token, out)
    result, out = play(db, ["/reveal"], "--token", bob_token)
    assert result.exit_code == 1 and out[0]["reason"] == "nothing to reveal"
    play(db, ["/reveal"], "--token", made["gm_token"])
    for token in (bob_token, made["spectator_token"]):
        _, out = play(db, ["/log 2"], "--token", token)
        assert "11[6,5]" in out[0]["text"]


def test_spectator_reads_only(shared):
    db, made, _, _ = shared
    before = version(db)
    result, out = play(
        db, ["こんばんは", "/char list", ":HP-1", "/state"], "--token", made["spectator_token"]
    )
    assert [o["ok"] for o in out] == [False, True, False, True]
    assert out[0]["reason"] == "forbidden" and result.exit_code == 1
    assert version(db) == before


def test_gm_flag_on_a_room_with_a_gm_link_needs_its_token(shared):
    db, made, alice_token, _ = shared
    result, out = play(db, ["/combat start"], "--gm")
    assert result.exit_code == 2 and out[0]["reason"] == "forbidden" and "--token" in out[0]["en"]
    result, out = play(db, ["/combat start"], "--gm", "--token", alice_token)
    assert result.exit_code == 2 and alice_token not in result.output
    result, out = play(db, ["/gm note ok"], "--gm", "--token", made["gm_token"])
    assert result.exit_code == 0 and out[0]["ok"]
    result, out = play(db, ["2D6"], "--as", "ボブ", "--token", alice_token)
    assert result.exit_code == 2 and out[0]["reason"] == "forbidden"
    # SAIKORO_TOKEN works like --token
    env_result = cli(
        "play", "--db", db, "--room", "卓", "--json", input="/gm note env\n",
        env={"SAIKORO_TOKEN": made["gm_token"]},
    )  # fmt: skip
    assert env_result.exit_code == 0, env_result.output


def test_play_without_links_keeps_gm_and_as_roles(tmp_path):
    db = str(tmp_path / "plain.db")
    result, out = play(
        db, [f"/char add {SHEETS / 'alice.json'}", f"/char add {SHEETS / 'bob.json'}"],
        "--gm", "--system", "LittleWorld", room="plain",
    )  # fmt: skip
    assert result.exit_code == 0
    result, out = play(
        db, ["@ボブ :HP-3", "/combat start", "@ＧＭ やあ", ":HP-1"], "--as", "アリス", room="plain"
    )
    assert [o["ok"] for o in out] == [False, False, False, True]
    assert {o.get("reason") for o in out[:3]} == {"forbidden"}


def test_no_password_in_database_errors():
    result, _ = play("postgresql://saikoro:hunter2secret@127.0.0.1:1/none", ["/state"])
    assert result.exit_code == 2
    assert "hunter2secret" not in result.output and "***" in result.output
    room = cli("room", "links", "--db", "postgresql://u:hunter2secret@127.0.0.1:1/x", "--room", "r")
    assert room.exit_code == 2 and "hunter2secret" not in room.output


def _sheet_file(folder: Path, name: str) -> str:
    path = folder / f"sheet-{len(list(folder.glob('sheet-*')))}.json"
    body = {"system": "LittleWorld", "name": name, "max_hp": 10}
    body["abilities"] = {"体力": 2, "技巧": 2, "理知": 2}
    path.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["ボブ", "ＢＯＢ", "GM", "ＧＭ", "gm"])
def test_play_refuses_a_character_named_like_another_or_the_gm(tmp_path, name):
    """One character per name after the dice's normalisation, and GM is nobody's name."""
    db = str(tmp_path / "t.db")
    made = create(db)
    gm = ("--token", made["gm_token"])
    result, out = play(db, [f"/char add {_sheet_file(tmp_path, 'Bob')}"], *gm)
    assert result.exit_code == 0 and out[0]["ok"], out
    if name == "ボブ":  # a different name: welcome
        result, out = play(db, [f"/char add {_sheet_file(tmp_path, name)}"], *gm)
        assert result.exit_code == 0, out
        return
    before = version(db)
    result, out = play(db, [f"/char add {_sheet_file(tmp_path, name)}"], *gm)
    assert result.exit_code == 1
    assert out[0]["reason"] in ("duplicate", "reserved name")
    assert out[0]["ja"] and out[0]["en"] and out[0]["ja"] != out[0]["en"]
    assert version(db) == before


def test_play_a_gm_line_spoken_as_a_players_character_stays_the_gms(shared):
    """The GM's trap damage `@アリス :HP-3` is not undone by アリス's player, and the GM's
    secret roll as アリス is neither shown to nor revealable by her player."""
    db, made, alice_token, _ = shared
    gm = ("--token", made["gm_token"])
    assert play(db, ["@アリス :HP-3"], *gm)[0].exit_code == 0
    before = version(db)
    result, out = play(db, ["/undo"], "--token", alice_token)
    assert result.exit_code == 1 and out[0]["reason"] == "forbidden", out
    assert version(db) == before
    result, out = play(db, ["@アリス S2D6 罠"], *gm, rands="6/6,5/6")
    assert result.exit_code == 0 and "11" in out[0]["text"]
    result, out = play(db, ["/log 1", "/reveal"], "--token", alice_token)
    assert "シークレットダイス" in out[0]["text"] and "11" not in out[0]["text"]
    assert out[1]["ok"] is False
    result, out = play(db, ["/reveal", "/log 2"], *gm)
    assert result.exit_code == 0 and "11" in out[1]["text"]


def test_play_without_a_token_is_refused_on_a_shared_room(shared):
    """A room with links is played through them: `--as ゴブリン` without a token would edit the
    GM's NPC freely."""
    db, _, _, _ = shared
    before = version(db)
    for extra in (("--as", "ゴブリン"), ("--as", "アリス"), ()):
        result, out = play(db, ["@ゴブリン :HP-5"], *extra)
        assert result.exit_code == 2 and out[0]["reason"] == "forbidden", (extra, out)
        assert "--token" in out[0]["ja"] and "--token" in out[0]["en"]
    assert version(db) == before


def test_a_link_issued_for_a_name_in_another_case_owns_the_character(shared):
    """`room issue --character ぼぶ`-style spellings are read as the room's character."""
    db, made, _, _ = shared
    gm = ("--token", made["gm_token"])
    assert play(db, [f"/char add {_sheet_file(Path(db).parent, 'Gin')}"], *gm)[0].exit_code == 0
    issued = cli("room", "issue", "--db", db, "--room", "卓", "--role", "player",
                 "--character", "gin", "--json")  # fmt: skip
    assert issued.exit_code == 0, issued.output
    token = json.loads(issued.stdout)["token"]
    result, out = play(db, [":HP-1"], "--token", token)
    assert result.exit_code == 0 and "Gin" in out[0]["text"], out
