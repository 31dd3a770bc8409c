"""A third game system from a test folder (``thirdsystem/onedie``) works through every front
end — roll (API and CLI), the table, the server's listing and rolls, export/import, rules
coverage — with every file of it in its own folder and no edit anywhere else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import saikoro
from saikoro import systems as registry
from saikoro.dice.randomizer import ScriptedSource
from saikoro.store import open_store
from saikoro.table.session import TableSession

HERE = Path(__file__).resolve().parent
PACKAGE = "thirdsystem.onedie"


@pytest.fixture
def onedie(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Registered for this process, and for the processes it starts (SAIKORO_SYSTEMS)."""
    registry.register_package(PACKAGE)
    monkeypatch.setenv("SAIKORO_SYSTEMS", PACKAGE)
    path = os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)
    yield "OneDie"
    registry.unregister("OneDie")


def saikoro_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "saikoro", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.rule("OD-ROLL-01", via="cli")
def test_roll_through_the_api_and_the_cli(onedie: str) -> None:
    result = saikoro.roll("OD", onedie, [(5, 6)])
    assert result is not None and result.text == "(OD) ＞ ワンダイス判定 5 ＞ 成功"
    assert result.success and result.rules == ("OD-ROLL-01",)
    assert saikoro.roll("2D6", onedie, [(1, 6), (2, 6)]).text == "(2D6) ＞ 3[1,2] ＞ 3"
    out = saikoro_cli("roll", "-s", onedie, "--rands", "3/6", "OD")
    assert out.returncode == 0 and out.stdout.strip() == "(OD) ＞ ワンダイス判定 3 ＞ 失敗"
    english = saikoro_cli("roll", "-s", onedie, "--lang", "en", "--rands", "3/6", "OD")
    assert english.stdout.strip() == "(OD) ＞ one-die check 3 ＞ Failure"
    ruled = saikoro_cli("roll", "-s", onedie, "--setting", "success_at=3", "--rands", "3/6", "OD")
    assert ruled.stdout.strip().endswith("成功")
    odds = saikoro.odds("OD", onedie)
    assert float(odds.success) == pytest.approx(0.5)


@pytest.mark.rule("OD-ROLL-01", "OD-HIT-01", via="table")
def test_the_table_runs_its_tracker_sheet_and_house_rules(onedie: str, tmp_path: Path) -> None:
    sheet = tmp_path / "taro.json"
    sheet.write_text(json.dumps({"system": onedie, "name": "タロウ", "max_hp": 6}), "utf-8")
    store = open_store(str(tmp_path / "t.db"))
    try:
        s = TableSession.open(store, "r", onedie, gm=True, source=ScriptedSource([]))
        s.run(f"/char add {sheet}")
        assert s.state.characters["タロウ"].hp == 6
        s.source = ScriptedSource([(4, 6)])
        assert s.run("@タロウ /hit タロウ").text("ja") == "タロウ → タロウ ＞ ダメージ4 (HP 2)"
        assert s.state.characters["タロウ"].hp == 2
        s.source = ScriptedSource([(4, 6)])
        assert s.run("OD").text("en") == "GM: (OD) ＞ one-die check 4 ＞ Success"
        s.run("/gm setting success_at 5")  # the room's house rule reaches the typed command
        s.source = ScriptedSource([(4, 6)])
        assert s.run("OD").text("ja").endswith("失敗")
        assert "/hit 目標" in s.run("/help").text("ja")
    finally:
        store.close()


def test_the_server_lists_and_rolls_it(onedie: str) -> None:
    from fastapi.testclient import TestClient

    from saikoro.server.app import create_app

    client = TestClient(create_app(source_factory=lambda: ScriptedSource([(6, 6)])))
    listed = {s["id"]: s for s in client.get("/v2/game_system").json()["game_system"]}
    assert listed[onedie] == {"id": onedie, "name": "ワンダイス", "sort_key": "わんたいす"}
    info = client.get(f"/v2/game_system/{onedie}").json()
    assert info["ok"] and info["help_message"].startswith("OD:")
    rolled = client.get(f"/v2/game_system/{onedie}/roll", params={"command": "OD"}).json()
    assert rolled["ok"] and rolled["text"] == "(OD) ＞ ワンダイス判定 6 ＞ 成功"


@pytest.mark.parametrize("tool", ["ccfolia", "udonarium"])
def test_export_and_import_keep_the_sheet(onedie: str, tool: str) -> None:
    from saikoro.sheets import sheet_from_data
    from saikoro.transfer import export_ccfolia, export_udonarium, import_bytes

    sheet = sheet_from_data({"system": onedie, "name": "タロウ", "hp": 3, "max_hp": 6})
    raw = export_ccfolia(sheet).encode() if tool == "ccfolia" else export_udonarium(sheet)
    # A Udonarium piece names its system (the palette's dicebot); a CCFOLIA piece only in
    # saikoro's block, which a sheet with nothing but labelled values does not need.
    back, _report = import_bytes(raw, tool, onedie if tool == "ccfolia" else None)
    assert back == sheet
    if tool == "ccfolia":
        assert "OD ワンダイス判定" in json.loads(raw)["data"]["commands"]


def test_rules_coverage_reads_its_own_spec(onedie: str) -> None:
    from saikoro.rules_coverage import coverage, systems_with_rules

    assert onedie in systems_with_rules()
    report = coverage(system=onedie)
    rows = {r.rule.id: r for r in report.rules}
    assert set(rows) == {"OD-ROLL-01", "OD-HIT-01", "OD-TABLE-01"}
    assert rows["OD-ROLL-01"].covered and rows["OD-HIT-01"].covered
    assert not rows["OD-TABLE-01"].needs_test  # "GM decides" in its own reference
    assert not report.uncovered()


def test_every_file_of_it_is_in_its_folder() -> None:
    """Nothing outside its folder (and this test) names the system."""
    root = HERE.parents[1]
    named = subprocess.run(
        ["git", "grep", "-l", "OneDie", "--", "src", "tests", "docs", "examples"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    outside = [p for p in named if not p.startswith("tests/thirdsystem/")]
    assert outside == [] or all(p.startswith("docs/") for p in outside), outside


@pytest.mark.rule("OD-ROLL-01", "OD-HIT-01", via="cli")
def test_the_front_ends_as_a_user_runs_them(onedie: str, tmp_path: Path) -> None:
    """The same through the programs a user runs: `saikoro play`, `saikoro export` →
    `saikoro import`, and a real `saikoro serve` whose table takes a room of it."""
    import httpx

    from tests.server.table_live import create_room, start_server

    sheet = tmp_path / "taro.json"
    sheet.write_text(json.dumps({"system": onedie, "name": "タロウ", "max_hp": 6}), "utf-8")
    db = str(tmp_path / "t.db")
    played = subprocess.run(
        [sys.executable, "-m", "saikoro", "play", "--db", db, "--room", "r", "--system", onedie,
         "--gm", "--rands", "4/6,4/6"],
        input=f"/char add {sheet}\n@タロウ /hit タロウ\n/gm setting success_at 5\nOD\n",
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "タロウ → タロウ ＞ ダメージ4 (HP 2)" in played.stdout
    assert played.stdout.rstrip().endswith("失敗")  # the room's house rule reached `OD`
    exported = saikoro_cli("export", "ccfolia", str(sheet))
    assert exported.returncode == 0, exported.stderr
    clip = tmp_path / "clip.json"
    clip.write_text(exported.stdout, "utf-8")
    back = tmp_path / "back.yaml"
    imported = saikoro_cli("import", "ccfolia", str(clip), "--system", onedie, "-o", str(back))
    assert imported.returncode == 0, imported.stderr
    assert "タロウ" in back.read_text("utf-8")
    server = start_server(str(tmp_path / "rooms.db"), tmp_path)
    try:
        listed = httpx.get(f"{server.base}/v2/game_system").json()["game_system"]
        assert onedie in {s["id"] for s in listed}
        room = create_room(server.base, system=onedie)
        room.add_character(sheet.read_text("utf-8"))
        said = room.gm.say("@タロウ OD")
        assert "ワンダイス判定" in said["text"]
        assert room.gm.state()["characters"][0]["name"] == "タロウ"
    finally:
        server.stop()
