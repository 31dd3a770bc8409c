"""Character import/export for Udonarium (zip/XML) and CCFOLIA (clipboard JSON).

- :func:`import_bytes` — a file's bytes → ``(sheet, report)`` for a chosen system.
- :func:`export_ccfolia` / :func:`export_udonarium` — a sheet → the tool's format.
- :func:`load_character_file` — any character file (saikoro sheet, Udonarium, CCFOLIA)
  → a sheet; the hook ``/char add`` uses.

Mapping is by label (:mod:`saikoro.transfer.profiles`); unknown labels become notes.
"""

from __future__ import annotations

from pathlib import Path

from saikoro.i18n import Message
from saikoro.sheets import SheetBase, SheetError, load_sheet
from saikoro.transfer.labels import TransferError, bad_file
from saikoro.transfer.model import ImportReport, PortableCharacter

FORMATS = ("ccfolia", "udonarium")
MAX_FILE_BYTES = 50 * 1024 * 1024

__all__ = [
    "FORMATS",
    "ImportReport",
    "TransferError",
    "detect_format",
    "export_ccfolia",
    "export_udonarium",
    "export_udonarium_xml",
    "import_bytes",
    "load_character_file",
    "parse_character",
    "register_with_table",
]


def parse_character(raw: bytes, source_format: str) -> PortableCharacter:
    if source_format == "ccfolia":
        from saikoro.transfer.ccfolia import parse_ccfolia

        return parse_ccfolia(raw)
    if source_format == "udonarium":
        from saikoro.transfer.udonarium import parse_udonarium

        return parse_udonarium(raw)
    raise bad_file(
        f"形式 {source_format!r} はありません ({', '.join(FORMATS)})",
        f"unknown format {source_format!r} ({', '.join(FORMATS)})",
    )


def import_bytes(
    raw: bytes, source_format: str, system: str | None = None
) -> tuple[SheetBase, ImportReport]:
    """A Udonarium or CCFOLIA character's bytes → a sheet of ``system`` and the report.

    ``system`` may be omitted for a file saikoro exported (it names its system) and for a
    Udonarium piece whose chat palette's ``dicebot`` is a saikoro system.
    """
    from saikoro.sheets import sheet_systems
    from saikoro.transfer.mapping import import_character

    character = parse_character(raw, source_format)
    known = sheet_systems()
    palette_system = character.dicebot if character.dicebot in known else None
    system = system or character.extras_system or palette_system
    if not system:
        choices = " / ".join(known)
        raise TransferError(
            Message(
                f"ゲームシステムを指定してください (--system {choices})",
                f"choose the game system (--system {choices})",
            )
        )
    return import_character(character, system, source_format)


def export_ccfolia(sheet: SheetBase) -> str:
    from saikoro.transfer.ccfolia import render_ccfolia
    from saikoro.transfer.mapping import export_sheet

    return render_ccfolia(export_sheet(sheet))


def export_udonarium(sheet: SheetBase) -> bytes:
    """A Udonarium character zip (``data.xml`` inside)."""
    from saikoro.transfer.mapping import export_sheet
    from saikoro.transfer.udonarium import render_udonarium_zip

    return render_udonarium_zip(export_sheet(sheet))


def export_udonarium_xml(sheet: SheetBase) -> bytes:
    from saikoro.transfer.mapping import export_sheet
    from saikoro.transfer.udonarium import render_udonarium_xml

    return render_udonarium_xml(export_sheet(sheet))


def detect_format(name: str, raw: bytes) -> str | None:
    """``udonarium``, ``ccfolia`` or None (a saikoro sheet) from a file's name and bytes."""
    if raw[:4] == b"PK\x03\x04":
        return "udonarium"
    head = raw[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return "udonarium"
    if head.startswith(b"{") and b'"kind"' in raw[:MAX_FILE_BYTES] and b'"character"' in raw:
        return "ccfolia"
    return None


def load_character_file(path: str | Path, system: str | None = None) -> SheetBase:
    """A sheet from any character file: saikoro JSON/YAML, Udonarium zip/XML, CCFOLIA JSON.

    For ``/char add``: the room's ``system`` is used for tool files (a saikoro sheet
    names its own system).
    """
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise bad_file(f"{path} が大きすぎます", f"{path} is too large")
        raw = path.read_bytes()
    except OSError as error:
        raise SheetError(
            Message(f"{path} を読めません: {error}", f"cannot read {path}: {error}")
        ) from None
    source_format = detect_format(path.name, raw)
    if source_format is None:
        return load_sheet(path, system)
    sheet, _report = import_bytes(raw, source_format, system)
    return sheet


def register_with_table() -> None:
    """Let ``/char add`` read Udonarium and CCFOLIA files: the table's front ends (``saikoro
    play``, the server's table) call this once; the table itself never imports this package."""
    from saikoro.table.dispatch import register_sheet_importer

    for suffix in (".zip", ".xml", ".json"):
        register_sheet_importer(suffix, load_character_file)
