"""Lines at the table: input that is not UTF-8, leaving, who speaks, undo's message, no attack
on oneself, edits of sheet values, and attack texts shared with the dice commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.dice.engine import evaluate
from saikoro.dice.randomizer import Randomizer, ScriptedSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.systems import get_system
from saikoro.table.session import TableSession

from .helpers import SHEETS, PlayedRoom

GIN = Path(__file__).resolve().parents[2] / "examples" / "littleworld" / "pc_gin_fighter.yaml"


@pytest.fixture
def table(tmp_path):
    store = open_store(str(tmp_path / "t.db"))

    def make(system, sheets=(), *, speaker=None, gm=True, rands=()):
        session = TableSession.open(
            store, "t", system, speaker=speaker, gm=gm, source=ScriptedSource(list(rands))
        )
        for sheet in sheets:
            session.run(f"/char add {sheet if Path(sheet).is_absolute() else SHEETS / sheet}")
        return session

    yield make
    store.close()


def refused(session, line):
    """Run a line that must be refused: nothing changes, the reason is bilingual."""
    session.refresh()
    before = session.state.model_copy(deep=True)
    with pytest.raises(SaikoroError) as caught:
        session.run(line)
    message = caught.value.message
    assert message.ja and message.en and message.ja != message.en
    session.refresh()
    assert session.state == before
    return caught.value


# -- 1. input that is not UTF-8 -------------------------------------------------------------


def _invoke(db, lines: bytes, *extra):
    from saikoro.cli.main import app

    args = ["play", "--db", db, "--room", "r", "--json", *extra]
    return CliRunner().invoke(app, args, input=lines, env={"SAIKORO_LANG": "ja"})


def test_a_line_that_is_not_utf8_is_refused_and_the_run_goes_on(tmp_path):
    db = str(tmp_path / "u.db")
    sjis = "こんにちは".encode("shift_jis")
    result = _invoke(db, sjis + b"\n" + "やあ\n".encode(), "--system", "DiceBot", "--gm")
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.exit_code == 1
    assert [o["ok"] for o in out] == [False, True]
    assert out[0]["reason"] == "not utf-8"
    assert "UTF-8" in out[0]["ja"] and "not UTF-8 text" in out[0]["en"]
    assert "内部エラー" not in out[0]["ja"]
    assert out[1]["text"] == "GM: やあ"
    store = open_store(db)
    events = list(store.iter_events(store.get_room("r")))
    assert [e.kind for e in events] == ["room_created", "chat"]  # nothing stored for the bad one
    store.close()


def test_shift_jis_on_a_real_stdin(tmp_path):
    db = str(tmp_path / "s.db")
    args = ["play", "--db", db, "--room", "y", "--system", "DiceBot", "--gm"]
    proc = subprocess.run(
        [sys.executable, "-m", "saikoro", *args],
        input="こんにちは\n".encode("shift_jis") + "こんにちは\n".encode(),
        capture_output=True,
        env={**os.environ, "SAIKORO_LANG": "ja"},
        timeout=60,
    )
    stdout = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr.decode()
    assert "not UTF-8 text" in stdout and "内部エラー" not in stdout
    assert "GM: こんにちは" in stdout
    assert b"Traceback" not in proc.stderr


# -- 4. leaving --------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["/quit", "/exit", "/QUIT"])
def test_quit_and_exit_end_the_run_like_the_end_of_input(tmp_path, word):
    result = _invoke(
        str(tmp_path / "q.db"), f"一\n{word}\n二\n".encode(), "--system", "DiceBot", "--gm"
    )
    out = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.exit_code == 0
    assert [o["text"] for o in out] == ["GM: 一"]


def test_help_says_how_to_leave(table):
    text = table("DiceBot").run("/help")
    assert "/quit" in text.text("ja") and "Ctrl-D" in text.text("ja")
    assert "/exit" in text.text("en") and "leave" in text.text("en")


# -- 5. a player without a character ---------------------------------------------------------


def test_a_player_without_a_character_is_shown_as_a_player_and_has_no_gm_powers(table):
    gm = table("LittleWorld", ["alice.json"])
    player = table("LittleWorld", gm=False, rands=[(6, 6), (6, 6)])
    out = player.run("こんばんは")
    assert out.text("ja") == "プレイヤー: こんばんは"
    assert out.text("en") == "player: こんばんは"
    assert not any(e.gm for e in out.events)
    secret = player.run("S2D6")
    assert secret.text("ja") == "プレイヤー: シークレットダイス"
    assert "12" not in secret.text("ja", gm=False)
    assert "#" in player.run("/log 1").text("ja")
    assert "プレイヤー: シークレットダイス" in player.run("/log 1").text("ja")
    assert "GM" not in player.run("/log 2").text("ja")
    refused(player, "/gm note 私がGM")
    refused(player, "@GM 私がGM")
    refused(player, "/gm set アリス hp 1")
    gm.run("@アリス :HP-1")
    error = refused(player, "/undo")  # the GM's line is not theirs
    assert error.reason == "forbidden"
    assert gm.run("/log 1").text("ja").startswith("#")


# -- 6. undo names the line ------------------------------------------------------------------


def test_undo_names_the_line_it_took_back_in_both_languages(table):
    gm = table("LittleWorld", ["alice.json", "goblin.json"])
    gm.run("@アリス :HP-1")
    out = gm.run("/undo")
    assert out.text("ja") == "取り消し: @アリス :HP-1"
    assert out.text("en") == "undone: @アリス :HP-1"
    alice = table("LittleWorld", speaker="アリス", gm=False)
    alice.run(":HP-2")
    assert alice.run("/undo").text("ja") == "取り消し: @アリス :HP-2"
    assert gm.run("/undo").text("en").startswith("undone: /char add ")


# -- 2. no attack on oneself -------------------------------------------------------------------


@pytest.mark.rule("LW-COMBAT-05")
def test_a_littleworld_character_cannot_attack_itself(table):
    gm = table("LittleWorld", ["alice.json", "goblin.json"])
    gm.run("/combat start")
    assert gm.state.combat.current == "アリス"
    error = refused(gm, "@アリス /attack アリス 体力")
    assert "自分" in error.message.ja and "themselves" in error.message.en
    refused(gm, "/attack アリス 技巧")  # the GM, for the current actor


@pytest.mark.rule("UM-MELEE-01", "UM-RANGED-01", "UM-MAGIC-03")
def test_an_unmeid100_character_cannot_attack_itself(table):
    gm = table("UnmeiD100", ["ken.json", "mia.json", "orc.json"])
    gm.run("/combat start")
    gm.run("/next ミア")
    refused(gm, "@ミア /melee ミア")
    refused(gm, "@ミア /shoot ミア")
    gm.run("@ミア /chant 火球")  # 火球 is hostile
    gm.run("/next")
    while gm.state.combat.current != "ミア":
        gm.run("/next")
    error = refused(gm, "@ミア /cast ミア")
    assert "自分" in error.message.ja and "themselves" in error.message.en


# -- 3. edits of abilities and sheet values ---------------------------------------------------


def _roll_text(session, line):
    return session.run(line).text("ja")


@pytest.mark.rule("LW-ABIL-04", via="table")
def test_littleworld_ability_edits_show_the_old_value_and_change_the_value_used(tmp_path):
    # ギン: 体力 4 on the sheet, a modifier of -1 → {体力} 3
    gm = PlayedRoom(str(tmp_path / "t.db"), "LittleWorld")
    gm.play([f"/char add {GIN}", f"/char add {SHEETS / 'goblin.json'}"])
    assert gm.play(["@ギン :体力=4"])[0]["text"] == "GM: ギン 体力 3 → 4"
    assert gm.play(["@ギン LW{体力}"], ["1/6", "2/6"])[0]["text"].startswith("ギン: (LW4)")
    assert gm.play(["/gm set ギン 体力 0"])[0]["text"].startswith("ギン: 体力 4 → 0")
    rolled = gm.play(["@ギン LW{体力}"], ["1/6"])[0]["text"]
    assert rolled.startswith("ギン: (LW0) ＞ 1D6(苦手行動)")
    assert gm.play(["@ギン :基本体力+2"])[0]["text"] == "GM: ギン 基本体力 1 → 3"
    assert gm.play(["@ギン :技巧-1"])[0]["text"] == "GM: ギン 技巧 3 → 2"
    # the tracker uses it: ギン 技巧 2 now acts after ゴブリン 技巧 4
    gm.play(["/combat start"])
    assert gm.state()["combat"]["order"] == ["ゴブリン", "ギン"]
    # an attack with 体力 uses 体力 2 (base 3, modifier -1)
    out = gm.play(["@ゴブリン /pass", "@ギン /attack ゴブリン 体力"], ["1/6", "2/6", "1/6", "2/6"])
    assert "攻撃値 3[1,2]+2=5" in out[1]["text"]
    assert gm.play(["/undo"])[0]["text"] == "取り消し: @ギン /attack ゴブリン 体力"


@pytest.mark.rule("UM-FATE-01")
def test_unmeid100_sheet_value_edits_show_the_old_value_and_change_the_value_used(table):
    # リナ: 戦闘 35, AC 25, 運命 11, 敏捷度 14
    lina = Path(GIN).parents[1] / "unmeid100" / "pc_lina.yaml"
    gm = table("UnmeiD100", [str(lina), "orc.json"])
    assert gm.run("@リナ :戦闘=10").text("ja") == "GM: リナ 戦闘 35 → 10"
    assert gm.run("@リナ :アーマークラス-5").text("ja") == "GM: リナ アーマークラス 25 → 20"
    assert gm.run("@リナ :運命=3").text("ja") == "GM: リナ 運命 11 → 3"
    assert gm.run("/gm set リナ 敏捷度 0").text("ja").startswith("リナ: 敏捷度 14 → 0")
    gm.source = ScriptedSource([(50, 100)] * 5)
    for ref, value in (("戦闘", 10), ("戦闘スキル", 10), ("AC", 20), ("運命判定", 15)):
        assert _roll_text(gm, f"@リナ 1D100<={{{ref}}}").startswith(f"リナ: (1D100<={value})")
    refused(gm, "@リナ :運命判定=3")
    # the tracker uses them: 戦闘 10 for the attack, 敏捷度 0 for the order
    gm.run("/combat start")
    assert gm.state.combat.order[-1] == "リナ"
    gm.source = ScriptedSource([(9, 100)])
    while gm.state.combat.current != "リナ":
        gm.run("/next")
    assert "(1D100<=10)" in gm.run("@リナ /melee オーク").text("ja")


# -- 7. the table's attack texts are the dice commands' ---------------------------------------


def _after(text, marker):
    return text.split("\n")[0].split(marker, 1)[1]


@pytest.mark.rule("LW-COMBAT-05")
def test_littleworld_attack_text_is_the_lwa_commands(table):
    dice = [(6, 6), (3, 6), (2, 6), (2, 6)]
    gm = table("LittleWorld", ["alice.json", "goblin.json"], rands=[])
    gm.run("/combat start")
    gm.source = ScriptedSource(list(dice))
    out = gm.run("@アリス /attack ゴブリン 体力")  # アリス 体力3, ゴブリン 体力3
    command = evaluate("LWA3-3", get_system("LittleWorld"), Randomizer(ScriptedSource(dice)))
    assert _after(out.text("ja"), "→ ゴブリン ＞ ") == _after(command.text, "(LWA3-3) ＞ ")
    assert "攻撃値 9[6,3]+3=12" in out.text("ja")
    assert "attack 9[6,3]+3=12" in out.text("en")
    assert "damage 5" in out.text("en")


@pytest.mark.rule("UM-MELEE-01", "UM-RANGED-01")
def test_unmeid100_attack_texts_are_the_ma_and_ra_commands(table):
    gm = table("UnmeiD100", ["ken.json", "orc.json"])
    gm.run("/combat start")
    while gm.state.combat.current != "ケン":
        gm.run("/next")
    ken = gm.state.characters["ケン"].sheet
    orc = gm.state.characters["オーク"].sheet
    gm.source = ScriptedSource([(40, 100), (3, 6), (4, 6)])  # 剣 2D6
    out = gm.run("@ケン /melee オーク")
    ma = f"MA{ken['skills']['combat']},{orc['ac']},{ken['abilities']['敏捷度']['value']}"
    command = evaluate(ma, get_system("UnmeiD100"), Randomizer(ScriptedSource([(40, 100)])))
    assert _after(out.text("ja"), "→ オーク ＞ ") == _after(command.text, f"({ma}) ＞ ")
    assert "melee attack (1D100<=" in out.text("en")
