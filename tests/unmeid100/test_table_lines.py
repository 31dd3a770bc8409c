"""Issue 13: lines as a Japanese GM types them (UM-TABLE-01) and better refusals
(UM-TABLE-02), through ``saikoro play`` and ``saikoro roll`` with scripted dice."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from tests.table.helpers import SHEETS, play
from tests.unmeid100.table_helpers import chars, refused, run, text


def roll(*args: str):
    result = CliRunner().invoke(app, ["roll", *args])
    return result.exit_code, result.output


@pytest.mark.rule("UM-TABLE-01", "UM-CHECK-01", via="table")
def test_full_width_lines_read_like_their_half_width_forms(tmp_path):
    out = run(
        tmp_path,
        [
            "＠ケン　１Ｄ１００＜＝｛戦闘｝",  # @ケン 1D100<={戦闘}: 5 ≤ 60
            "＠ケン ２Ｄ６＋｛体格｝＞＝８",  # @ケン 2D6+{体格}>=8: [3,4] + 10
            "／char list",
            "@ケン ：ＨＰ－１",
            "＠ケン　：ＨＰ＋１",
            "/ｍｏｖｅ　３",  # a slash command's words, half-width
            "@ケン こんにちは！ＯＫ",  # chat stays as typed
        ],
        ["5/100", "3/6", "4/6"],
        sheets=("ken",),
        speaker=None,
    )
    assert refused(out) == ["/ｍｏｖｅ　３"]  # read as /move 3: who moves? (no speaker)
    assert out[0]["text"] == "ケン: (1D100<=60) ＞ 5 ＞ 成功"
    assert out[1]["text"] == "ケン: (2D6+10>=8) ＞ 7[3,4]+10 ＞ 17 ＞ 成功"
    assert out[2]["text"].startswith("ケン [pc] HP 20/20")
    assert out[3]["text"] == "GM: ケン HP 20 → 19"
    assert "行動するキャラクターがいません" in text(out, "/ｍｏｖｅ　３")["ja"]
    assert text(out, "@ケン こんにちは！ＯＫ")["text"] == "ケン: こんにちは！ＯＫ"
    assert chars(out)["ケン"]["hp"] == 20


@pytest.mark.rule("UM-TABLE-01", via="table")
def test_a_line_that_looks_like_a_command_but_cannot_be_read_is_refused(tmp_path):
    out = run(
        tmp_path,
        [
            "@ケン 2D6+{体格",
            "@ケン ２Ｄ６＋｛体格",
            "@ケン 2D6+",
            "@ケン 2D6 で攻撃",
            "@ケン 3Dプリンター",
        ],
        ["1/6", "2/6"],
        sheets=("ken",),
    )
    assert refused(out) == ["@ケン 2D6+{体格", "@ケン ２Ｄ６＋｛体格", "@ケン 2D6+"]
    assert "括弧が閉じていません" in out[0]["ja"]
    assert "(2D6) ＞ 3[1,2] ＞ 3" in out[3]["text"]  # a command with a comment rolls
    assert out[4]["text"] == "ケン: 3Dプリンター"  # chat


@pytest.mark.rule("UM-TABLE-02", "UM-FATE-01", "UM-MELEE-01", via="table")
def test_refusals_say_what_was_meant_at_the_table(tmp_path):
    out = run(
        tmp_path,
        ["LWA3-2", "MA60,30", "FATE", "@ケン /attack オーク", "@ケソ 2D6", "@ケン FATE10"],
        ["3/100"],
        sheets=("ken", "orc"),
    )
    assert refused(out) == ["LWA3-2", "MA60,30", "FATE", "@ケン /attack オーク", "@ケソ 2D6"]
    assert "LittleWorld のコマンドです (この部屋のシステムは UnmeiD100)" in out[0]["ja"]
    assert "MA戦闘スキル,相手のAC,敏捷度 (例: MA60,30,12)" in out[1]["ja"]
    assert "FATE運命 (例: FATE12" in out[2]["ja"]
    assert "/melee 目標" in out[3]["ja"] and "/melee TARGET" in out[3]["en"]
    assert "@ケソ: そのキャラクターはいません (いるのは: ケン、オーク)" in out[4]["ja"]
    assert "運命判定 (1D100<=50) ＞ 3 ＞ 成功" in out[5]["text"]


@pytest.mark.rule("UM-TABLE-02", via="cli")
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["LWA3-2"], "LWA3-2 は LittleWorld のコマンドです (使っているシステムは DiceBot)"),
        (["-s", "UnmeiD100", "LWA3-2"], "--system LittleWorld で振ってください"),
        (["-s", "UnmeiD100", "MA60,30"], "MA戦闘スキル,相手のAC,敏捷度"),
        (["-s", "UnmeiD100", "FATE"], "FATE運命"),
        (["-s", "UnmeiD10", "FATE12"], "もしかして UnmeiD100?"),
        (["-s", "littleworlds", "LW3"], "もしかして LittleWorld?"),
    ],
)
def test_refusals_say_what_was_meant_by_saikoro_roll(args, said):
    status, output = roll(*args)
    assert status == 1 and said in output, output


@pytest.mark.rule("UM-TABLE-02", "UM-FATE-01", via="cli")
def test_system_ids_are_matched_case_insensitively():
    assert roll("-s", "unmeid100", "--rands", "3/100", "FATE12") == (
        0,
        "(FATE12) ＞ 運命判定 (1D100<=60) ＞ 3 ＞ 成功\n",
    )


@pytest.mark.rule("UM-TABLE-02", via="table")
def test_play_refuses_an_unknown_as_at_start_up_and_reads_the_system_id_in_any_case(tmp_path):
    db = str(tmp_path / "p.db")
    made = play(db, "r", [f"/char add {SHEETS}/ken.json"], system="unmeid100")
    assert made[0]["ok"]
    result = CliRunner().invoke(
        app, ["play", "--db", db, "--room", "r", "--as", "ケソ", "--json"], input="2D6\n"
    )
    assert result.exit_code == 2
    assert "--as ケソ: この部屋にそのキャラクターはいません (いるのは: ケン" in result.stdout
    again = play(db, "r", ["@ケン 1D100<=50"], ["10/100"], speaker="ケン")
    assert again[0]["text"] == "ケン: (1D100<=50) ＞ 10 ＞ 成功"
