"""``saikoro import`` / ``saikoro export`` on real files and stdin."""

from __future__ import annotations

import io
import json
import os
import stat
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from saikoro.cli.main import app
from saikoro.sheets import dump_sheet_text, load_sheet

runner = CliRunner()


def run(*args: str, stdin: bytes | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=stdin)


def test_import_ccfolia_to_yaml_file(tmp_path: Path, ccfolia_unmei_json: bytes) -> None:
    source = tmp_path / "garudo.json"
    source.write_bytes(ccfolia_unmei_json)
    out = tmp_path / "garudo.yaml"
    result = run("import", "ccfolia", str(source), "--system", "UnmeiD100", "-o", str(out))
    assert result.exit_code == 0, result.output
    sheet = load_sheet(out)
    assert sheet.name == "ガルド" and sheet.skills.combat == 65
    assert "戦闘スキル → skills.combat [反映]" in result.stderr


def test_import_udonarium_from_stdin_prints_json(udonarium_lw_zip: bytes) -> None:
    result = run("import", "udonarium", "-", "--system", "LittleWorld", stdin=udonarium_lw_zip)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["system"] == "LittleWorld" and data["abilities"] == {
        "体力": 3,
        "技巧": 5,
        "理知": 2,
    }
    assert (
        "[mapped]"
        in run(
            "import", "udonarium", "-", "-s", "LittleWorld", "--lang", "en", stdin=udonarium_lw_zip
        ).stderr
    )


def test_export_then_import_through_the_cli(tmp_path: Path, lw_sheet) -> None:
    sheet_path = tmp_path / "alice.json"
    sheet_path.write_text(dump_sheet_text(lw_sheet), encoding="utf-8")

    exported = run("export", "ccfolia", str(sheet_path))
    assert exported.exit_code == 0, exported.output
    assert json.loads(exported.stdout)["kind"] == "character"
    back = run("import", "ccfolia", "-", "-s", "LittleWorld", stdin=exported.stdout.encode())
    assert json.loads(back.stdout) == lw_sheet.model_dump(mode="json")

    zip_path = tmp_path / "alice.zip"
    result = run("export", "udonarium", str(sheet_path), "-o", str(zip_path))
    assert result.exit_code == 0, result.output
    assert zipfile.ZipFile(io.BytesIO(zip_path.read_bytes())).namelist() == ["data.xml"]
    out = tmp_path / "alice-back.json"
    result = run("import", "udonarium", str(zip_path), "-s", "LittleWorld", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert load_sheet(out) == lw_sheet


def test_errors_exit_1_without_traceback(tmp_path: Path) -> None:
    missing = run("import", "ccfolia", str(tmp_path / "nope.json"), "-s", "LittleWorld")
    assert missing.exit_code == 1 and "エラー / error" in missing.stderr
    assert "Traceback" not in missing.output
    bad = run("import", "udonarium", "-", "-s", "LittleWorld", stdin=b"garbage")
    assert bad.exit_code == 1 and "XML" in bad.stderr
    bad_sheet = tmp_path / "bad.json"
    bad_sheet.write_text('{"system": "LittleWorld", "name": "x"}', encoding="utf-8")
    result = run("export", "ccfolia", str(bad_sheet))
    assert result.exit_code == 1 and "abilities" in result.stderr


def test_char_add_reads_tool_files(
    tmp_path: Path, udonarium_lw_zip: bytes, ccfolia_unmei_json: bytes
) -> None:
    """The hook ``/char add`` uses: any character file → a sheet of the room's system."""
    from saikoro.transfer import load_character_file

    (tmp_path / "mina.zip").write_bytes(udonarium_lw_zip)
    (tmp_path / "garudo.json").write_bytes(ccfolia_unmei_json)
    assert load_character_file(tmp_path / "mina.zip", "LittleWorld").abilities.技巧 == 5
    assert load_character_file(tmp_path / "garudo.json", "UnmeiD100").ac == 35
    plain = tmp_path / "plain.json"
    plain.write_text(
        json.dumps(
            {
                "system": "LittleWorld",
                "name": "素",
                "max_hp": 5,
                "abilities": {"体力": 1, "技巧": 2, "理知": 3},
            }
        ),
        encoding="utf-8",
    )
    assert load_character_file(plain).name == "素"


def test_table_dispatcher_hook(
    tmp_path: Path, udonarium_lw_zip: bytes, ccfolia_unmei_json: bytes
) -> None:
    """A front end registers ``saikoro.transfer``'s readers with the table (``/char add``)."""
    import saikoro.transfer
    from saikoro.table import dispatch

    saikoro.transfer.register_with_table()  # what saikoro play does before opening a room
    assert {".zip", ".xml", ".json"} <= set(dispatch.SHEET_IMPORTERS)
    (tmp_path / "mina.zip").write_bytes(udonarium_lw_zip)
    (tmp_path / "garudo.json").write_bytes(ccfolia_unmei_json)
    assert (
        dispatch.load_character_file(tmp_path / "mina.zip", "LittleWorld").name
        == "ミナ・クロックワーク"
    )
    assert dispatch.load_character_file(tmp_path / "garudo.json", "UnmeiD100").name == "ガルド"


def test_char_add_ccfolia_json_first_thing_in_a_fresh_process(
    tmp_path: Path, ccfolia_unmei_json: bytes
) -> None:
    """A CCFOLIA clipboard .json given to ``/char add`` before anything imported saikoro.transfer."""
    import subprocess
    import sys

    (tmp_path / "garudo.json").write_bytes(ccfolia_unmei_json)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "saikoro",
            "play",
            "--db",
            str(tmp_path / "t.db"),
            "--room",
            "r",
            "--system",
            "UnmeiD100",
            "--gm",
            "--json",
        ],
        input=f"/char add {tmp_path / 'garudo.json'}\n/state\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "ガルド" in done.stdout


@pytest.mark.parametrize("target", ["missing/dir/out.json", "a_dir", "a_dir.json", "fifo.json"])
def test_import_to_a_path_it_cannot_write_says_so(
    tmp_path: Path, ccfolia_unmei_json: bytes, target: str
) -> None:
    """Tracebacks before; and the atomic rename replaced a device or pipe by a plain file
    (as root, ``-o /dev/null`` would have replaced /dev/null)."""
    (tmp_path / "a_dir").mkdir()
    (tmp_path / "a_dir.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    source = tmp_path / "garudo.json"
    source.write_bytes(ccfolia_unmei_json)
    out = tmp_path / target
    result = run("import", "ccfolia", str(source), "--system", "UnmeiD100", "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.exception.__class__ is SystemExit
    assert "書き出せません" in result.stderr and "cannot write" in result.stderr
    assert stat.S_ISFIFO((tmp_path / "fifo.json").stat().st_mode)
    assert not list(tmp_path.glob("**/*.tmp"))
