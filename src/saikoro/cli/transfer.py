"""``saikoro import`` / ``saikoro export``: Udonarium and CCFOLIA characters ⇄ saikoro sheets."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from saikoro.cli.report import print_error
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

import_app = typer.Typer(
    name="import",
    help="Udonarium / CCFOLIA のキャラクターを saikoro のシートに取り込む (import a character).",
    no_args_is_help=True,
)
export_app = typer.Typer(
    name="export",
    help="saikoro のシートを Udonarium / CCFOLIA 形式で書き出す (export a sheet).",
    no_args_is_help=True,
)

FILE_HELP = "character file ('-' = stdin)"
SYSTEM_HELP = (
    "game system ID of the sheet"
    " (optional for saikoro exports and a Udonarium palette dicebot of those)"
)
OUT_HELP = "sheet file to write (.json/.yaml); stdout (JSON) when omitted"


def _fail(error: SaikoroError) -> typer.Exit:
    print_error(error)
    return typer.Exit(1)


def _read_input(name: str) -> bytes:
    from saikoro.transfer import MAX_FILE_BYTES
    from saikoro.transfer.labels import TransferError

    try:
        if name == "-":
            raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        elif Path(name).stat().st_size > MAX_FILE_BYTES:
            raw = None
        else:
            raw = Path(name).read_bytes()
    except OSError as error:
        raise TransferError(
            Message(f"{name} を読めません: {error}", f"cannot read {name}: {error}")
        ) from None
    if raw is None or len(raw) > MAX_FILE_BYTES:
        raise TransferError(Message(f"{name} が大きすぎます", f"{name} is too large"))
    return raw


def _run_import(
    source_format: str, file: str, system: str | None, out: str | None, lang: str | None
) -> None:
    from saikoro.sheets import dump_sheet_text, save_sheet
    from saikoro.transfer import import_bytes

    try:
        sheet, report = import_bytes(_read_input(file), source_format, system)
        if out and out != "-":
            save_sheet(sheet, out)
        else:
            sys.stdout.write(dump_sheet_text(sheet, ".json"))
    except SaikoroError as error:
        raise _fail(error) from None
    from saikoro.i18n import current_lang

    print(report.render(lang or current_lang()), file=sys.stderr)
    if out and out != "-":
        print(f"→ {out}", file=sys.stderr)


@import_app.command("ccfolia")
def import_ccfolia(
    file: str = typer.Argument(..., help=FILE_HELP),
    system: Optional[str] = typer.Option(None, "--system", "-s", help=SYSTEM_HELP),  # noqa: UP045
    out: Optional[str] = typer.Option(None, "-o", "--output", help=OUT_HELP),  # noqa: UP045
    lang: str | None = typer.Option(
        None, "--lang", help="ja or en (the report; default: $SAIKORO_LANG, else ja)"
    ),
) -> None:
    """CCFOLIA のクリップボード JSON ({"kind": "character", …}) を取り込む。"""
    _run_import("ccfolia", file, system, out, lang)


@import_app.command("udonarium")
def import_udonarium(
    file: str = typer.Argument(..., help=FILE_HELP + ": a .zip with data.xml, or the .xml"),
    system: Optional[str] = typer.Option(None, "--system", "-s", help=SYSTEM_HELP),  # noqa: UP045
    out: Optional[str] = typer.Option(None, "-o", "--output", help=OUT_HELP),  # noqa: UP045
    lang: str | None = typer.Option(
        None, "--lang", help="ja or en (the report; default: $SAIKORO_LANG, else ja)"
    ),
) -> None:
    """Udonarium のキャラクター (zip または data.xml) を取り込む。"""
    _run_import("udonarium", file, system, out, lang)


def _load(sheet_path: str):  # type: ignore[no-untyped-def]
    from saikoro.sheets import load_sheet

    return load_sheet(sheet_path)


@export_app.command("ccfolia")
def export_ccfolia_command(
    sheet: str = typer.Argument(..., help="saikoro sheet (.json/.yaml)"),
    out: Optional[str] = typer.Option(None, "-o", "--output", help="file; stdout when omitted"),  # noqa: UP045
) -> None:
    """CCFOLIA のクリップボード JSON を出力 (CCFOLIA の部屋に貼り付け)。"""
    from saikoro.transfer import export_ccfolia

    try:
        text = export_ccfolia(_load(sheet)) + "\n"
        if out and out != "-":
            Path(out).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    except SaikoroError as error:
        raise _fail(error) from None
    except OSError as error:
        raise _fail(_write_error(out, error)) from None


def _write_error(out: str | None, error: OSError) -> SaikoroError:
    return SaikoroError(
        Message(
            f"{out or '標準出力'} に書き出せません: {error.strerror or error}",
            f"cannot write {out or 'standard output'}: {error.strerror or error}",
        )
    )


@export_app.command("udonarium")
def export_udonarium_command(
    sheet: str = typer.Argument(..., help="saikoro sheet (.json/.yaml)"),
    out: str = typer.Option(
        ...,
        "-o",
        "--output",
        help="FILE.zip (Udonarium character), FILE.xml (bare data.xml), '-' = stdout zip",
    ),
) -> None:
    """Udonarium のキャラクター zip (data.xml 入り) を書き出す (Udonarium にドロップ)。"""
    from saikoro.transfer import export_udonarium, export_udonarium_xml

    try:
        loaded = _load(sheet)
        data = (
            export_udonarium_xml(loaded)
            if out.lower().endswith(".xml")
            else export_udonarium(loaded)
        )
        if out == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            Path(out).write_bytes(data)
            print(f"→ {out}", file=sys.stderr)
    except SaikoroError as error:
        raise _fail(error) from None
    except OSError as error:
        raise _fail(_write_error(out, error)) from None


def register(app: typer.Typer) -> None:
    app.add_typer(import_app, name="import")
    app.add_typer(export_app, name="export")
