"""Regressions of issue 10: English table output, the renamed confusion label, and a room's
house rules reaching typed commands (and ``saikoro roll --setting`` for a single roll)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from saikoro.dice.randomizer import ScriptedSource
from saikoro.store import open_store
from saikoro.table.session import TableSession

from .helpers import SHEETS, PlayedRoom

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def room(tmp_path):
    store = open_store(str(tmp_path / "t.db"))

    def make(system, sheets=(), *lines):
        session = TableSession.open(store, system, system, gm=True, source=ScriptedSource([]))
        for name in sheets:
            session.run(f"/char add {SHEETS / name}")
        for line in lines:
            session.run(line)
        return session

    yield make
    store.close()


def run(session, line, rands):
    session.source = ScriptedSource(rands)
    return session.run(line)


def english_words(text: str) -> list[str]:
    """Japanese left in an English line (names of characters and abilities aside)."""
    return [w for w in JAPANESE.findall(text) if w not in "アリスゴブリン体力技巧理知"]


@pytest.mark.rule("LW-CHECK-03")
def test_littleworld_typed_check_in_english_at_the_table(room) -> None:
    """The system words of a typed LW command are English in an English room (they stayed
    Japanese: the system ID string was passed where the system was expected)."""
    out = run(room("LittleWorld"), "LW3>=4", [(6, 6), (6, 6)])
    assert out.text("en") == "GM: (LW3>=4) ＞ 12[6,6]+3 ＞ 15 ＞ Critical (difficulty: easy)"
    assert "クリティカル(難易度:易しい)" in out.text("ja")


@pytest.mark.rule("UM-MELEE-01")
def test_unmeid100_typed_attack_in_english_at_the_table(room) -> None:
    out = run(room("UnmeiD100"), "MA30,20,12", [(3, 100)])
    english = out.text("en")
    assert english.startswith("GM: (MA30,20,12) ＞ melee attack (1D100<=30) AC20 Critical<=12")
    assert not JAPANESE.search(english), english
    assert "クリティカルヒット" in out.text("ja")


@pytest.mark.rule("LW-COMBAT-05")
def test_littleworld_tracker_attack_in_english(room) -> None:
    s = room("LittleWorld", ["alice.json", "goblin.json"])
    out = run(s, "@アリス /attack ゴブリン 体力 不意打ち", [(2, 6), (3, 6)])
    assert not english_words(out.text("en")), out.text("en")


@pytest.mark.rule("LW-COND-05", "LW-COMBAT-11")
def test_a_renamed_confusion_label_is_followed_by_the_tracker(room) -> None:
    """``/gm setting confusion_label 錯乱``: 錯乱 is now the confusion (no defence); 混乱 is
    just a label. The tracker fixed the label when it loaded."""
    s = room("LittleWorld", ["alice.json", "goblin.json"], "/gm setting confusion_label 錯乱")
    s.run("/cond add ゴブリン 錯乱")
    assert s.state.characters["ゴブリン"].condition("錯乱").rules == ["LW-COND-05"]
    out = run(s, "@アリス /attack ゴブリン 体力", [(2, 6), (3, 6)])
    assert "＞ 防御不能 ＞ ダメージ8" in out.text("ja")


@pytest.mark.rule("LW-COND-05")
def test_the_old_confusion_label_is_a_plain_label_after_renaming(room) -> None:
    s = room("LittleWorld", ["alice.json", "goblin.json"], "/gm setting confusion_label 錯乱")
    s.run("/cond add ゴブリン 混乱")
    assert s.state.characters["ゴブリン"].condition("混乱").rules == []
    out = run(s, "@アリス /attack ゴブリン 体力", [(2, 6), (3, 6), (1, 6), (1, 6)])
    assert "防御不能" not in out.text("ja")


@pytest.mark.rule("LW-CHECK-03", via="table")
def test_house_rules_reach_typed_commands(tmp_path) -> None:
    """``/gm setting critical_sixes 3`` then ``LW3>=4`` with 6,6: no critical (it was one:
    the room's settings reached /attack but not typed commands)."""
    gm = PlayedRoom(str(tmp_path / "t.db"), "LittleWorld")
    sixes = ["6/6", "6/6"]
    assert "クリティカル" in gm.play(["LW3>=4"], sixes)[0]["text"]
    gm.play(["/gm setting critical_sixes 3"])
    out = gm.play(["LW3>=4"], sixes)
    assert out[0]["text"] == "GM: (LW3>=4) ＞ 12[6,6]+3 ＞ 15 ＞ 成功(難易度:易しい)"
    attack = gm.play(["LWA3-2"], [*sixes, "3/6", "4/6"])
    assert "クリティカル" not in attack[0]["text"]
    generic = gm.play(["2D6>=4"], sixes)  # LW-CHECK-03 on generic sums too
    assert "クリティカル" not in generic[0]["text"]
    gm.play(["/gm setting critical_sixes default"])
    assert "クリティカル" in gm.play(["LW3>=4"], sixes)[0]["text"]


@pytest.mark.rule("LW-CHECK-03", via="cli")
def test_roll_setting_gives_a_single_roll_the_house_rules() -> None:
    def roll(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "saikoro", "roll", "-s", "LittleWorld", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    plain = roll("--rands", "6/6,6/6", "LW3>=4")
    assert plain.stdout.strip().endswith("クリティカル(難易度:易しい)")
    ruled = roll("--setting", "critical_sixes=3", "--rands", "6/6,6/6", "LW3>=4")
    assert ruled.returncode == 0
    assert ruled.stdout.strip() == "(LW3>=4) ＞ 12[6,6]+3 ＞ 15 ＞ 成功(難易度:易しい)"
    bad = roll("--setting", "critical_sixes=0", "--rands", "6/6,6/6", "LW3>=4")
    assert bad.returncode == 1
    assert "critical_sixes" in bad.stderr and "1 以上" in bad.stderr and "at least 1" in bad.stderr


@pytest.mark.rule("UM-MELEE-01", "UM-DMG-01")
def test_unmeid100_tracker_attack_in_english(room) -> None:
    """The tracker's attack text is made in English by the code that makes it (the MA
    command's own pieces), not translated from the Japanese line."""
    s = room("UnmeiD100", ["ken.json", "orc.json"])
    out = run(s, "@ケン /melee オーク", [(30, 100), (3, 6), (4, 6)])
    english = out.text("en")
    assert "ケン → オーク ＞ melee attack (1D100<=60) AC15 Critical<=" in english
    assert "＞ 30 ＞ hit" in english
    assert not [w for w in JAPANESE.findall(english) if w not in "ケンオーク剣"], english


@pytest.mark.parametrize("system", ["LittleWorld", "UnmeiD100"])
def test_every_help_example_makes_its_own_english(system: str) -> None:
    """Each example command of the system's help gives ``text_en`` from the command itself."""
    from odds.test_help_examples import help_examples

    from saikoro.api import roll
    from saikoro.dice.randomizer import SeededSource

    commands = help_examples(system)
    assert len(commands) >= 5
    for command in commands:
        result = roll(command, system, source=SeededSource(1))
        assert result is not None and result.text_en, command
