"""``saikoro import`` / ``saikoro export``: Udonarium and CCFOLIA characters ⇄ saikoro sheets."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from saikoro.cli.report import print_error, terminal_text
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
    from saikoro.transfer.labels import TransferError, cannot_read

    try:
        if name == "-":
            raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        elif Path(name).stat().st_size > MAX_FILE_BYTES:
            raw = None
        else:
            raw = Path(name).read_bytes()
    except OSError as error:
        raise cannot_read(name, error) from None
    if raw is None or len(raw) > MAX_FILE_BYTES:
        raise TransferError(Message(f"{name} が大きすぎます", f"{name} is too large"))
    return raw


NAME_HELP = "import only the character with this name (a room file holds several)"
ACCEPT_HELP = (
    "import even when a label matched doubtfully (a file for another game, a loose label"
    " such as 生命力, a value given twice); the report marks those lines"
)


def _run_import(
    source_format: str,
    file: str,
    system: str | None,
    out: str | None,
    lang: str | None,
    name: str | None = None,
    accept_ambiguous: bool = False,
) -> None:
    from saikoro.i18n import current_lang
    from saikoro.sheets import dump_sheet_text, save_sheet
    from saikoro.transfer import AmbiguousImport, import_all

    lang = lang or current_lang()
    try:
        results = import_all(
            _read_input(file),
            source_format,
            system,
            name=name,
            accept_ambiguous=accept_ambiguous,
            file_name="stdin" if file == "-" else file,
        )
        sheets = [sheet for sheet, _ in results]
        if len(sheets) > 1 and out and out != "-":
            written = _save_each(sheets, Path(out))
        elif out and out != "-":
            save_sheet(sheets[0], out)
            written = [out]
        else:
            written = []
            if len(sheets) == 1:
                sys.stdout.write(dump_sheet_text(sheets[0], ".json"))
            else:
                texts = [dump_sheet_text(sheet, ".json").rstrip() for sheet in sheets]
                sys.stdout.write("[\n" + ",\n".join(texts) + "\n]\n")
    except AmbiguousImport as error:
        print(terminal_text(error.report.render(lang)), file=sys.stderr)
        raise _fail(error) from None
    except SaikoroError as error:
        raise _fail(error) from None
    for _sheet, report in results:
        print(terminal_text(report.render(lang)), file=sys.stderr)
    if len(sheets) > 1:
        names = [sheet.name for sheet in sheets]
        print(
            terminal_text(
                f"{len(names)} characters imported: {', '.join(names)}"
                if lang == "en"
                else f"{len(names)} 人のキャラクターを取り込みました: {'、'.join(names)}"
            ),
            file=sys.stderr,
        )
    for path in written:
        print(terminal_text(f"→ {path}"), file=sys.stderr)


_UNSAFE_FILE_CHARS = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')


def _save_each(sheets: list[Any], directory: Path) -> list[str]:
    """Several sheets into ``directory`` (created), one ``<name>.json`` each."""
    from saikoro.sheets import save_sheet

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _write_error(str(directory), error) from None
    written: list[str] = []
    taken: set[str] = set()
    for sheet in sheets:
        stem = _UNSAFE_FILE_CHARS.sub("_", sheet.name).strip(" .") or "character"
        stem = stem[:100]
        candidate, n = stem, 2
        while candidate in taken:
            candidate, n = f"{stem}-{n}", n + 1
        taken.add(candidate)
        path = directory / f"{candidate}.json"
        save_sheet(sheet, path)
        written.append(str(path))
    return written


@import_app.command("ccfolia")
def import_ccfolia(
    file: str = typer.Argument(..., help=FILE_HELP),
    system: Optional[str] = typer.Option(None, "--system", "-s", help=SYSTEM_HELP),  # noqa: UP045
    out: Optional[str] = typer.Option(None, "-o", "--output", help=OUT_HELP),  # noqa: UP045
    lang: str | None = typer.Option(
        None, "--lang", help="ja or en (the report; default: $SAIKORO_LANG, else ja)"
    ),
    accept_ambiguous: bool = typer.Option(False, "--accept-ambiguous", help=ACCEPT_HELP),
) -> None:
    """CCFOLIA のクリップボード JSON ({"kind": "character", …}) を取り込む。"""
    _run_import("ccfolia", file, system, out, lang, accept_ambiguous=accept_ambiguous)


@import_app.command("udonarium")
def import_udonarium(
    file: str = typer.Argument(..., help=FILE_HELP + ": a .zip with data.xml, or the .xml"),
    system: Optional[str] = typer.Option(None, "--system", "-s", help=SYSTEM_HELP),  # noqa: UP045
    out: str | None = typer.Option(
        None,
        "-o",
        "--output",
        help=OUT_HELP + "; for a file with several characters, a directory (NAME.json each)",
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="ja or en (the report; default: $SAIKORO_LANG, else ja)"
    ),
    name: str | None = typer.Option(None, "--name", help=NAME_HELP),
    accept_ambiguous: bool = typer.Option(False, "--accept-ambiguous", help=ACCEPT_HELP),
) -> None:
    """Udonarium のキャラクター (zip または data.xml、部屋データ) を取り込む。"""
    _run_import("udonarium", file, system, out, lang, name, accept_ambiguous)


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
