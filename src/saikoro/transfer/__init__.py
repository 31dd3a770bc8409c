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
from saikoro.sheets import SheetBase, load_sheet
from saikoro.transfer.labels import TransferError, bad_file, cannot_read, in_file
from saikoro.transfer.model import ImportReport, PortableCharacter

FORMATS = ("ccfolia", "udonarium")
MAX_FILE_BYTES = 50 * 1024 * 1024

__all__ = [
    "FORMATS",
    "AmbiguousImport",
    "ImportReport",
    "TransferError",
    "detect_format",
    "export_ccfolia",
    "export_udonarium",
    "export_udonarium_xml",
    "import_all",
    "import_bytes",
    "load_character_file",
    "parse_character",
    "parse_characters",
    "register_with_table",
    "udonarium_faces",
]


def parse_characters(raw: bytes, source_format: str) -> list[PortableCharacter]:
    """Every character in a file (a Udonarium room file holds several; CCFOLIA one)."""
    if source_format == "ccfolia":
        from saikoro.transfer.ccfolia import parse_ccfolia

        return [parse_ccfolia(raw)]
    if source_format == "udonarium":
        from saikoro.transfer.udonarium import parse_udonarium_all

        return parse_udonarium_all(raw)
    raise bad_file(
        f"形式 {source_format!r} はありません ({', '.join(FORMATS)})",
        f"unknown format {source_format!r} ({', '.join(FORMATS)})",
    )


def parse_character(raw: bytes, source_format: str) -> PortableCharacter:
    return parse_characters(raw, source_format)[0]


class AmbiguousImport(TransferError):
    """Some labels matched a sheet field only doubtfully; the report says which."""

    reason = "ambiguous import"

    def __init__(self, report: ImportReport) -> None:
        doubts_ja = "; ".join(d.ja for d in report.doubts)
        doubts_en = "; ".join(d.en for d in report.doubts)
        super().__init__(
            Message(
                f"{report.name or '?'}: 曖昧な対応があります ({doubts_ja})。"
                "確認のうえ --accept-ambiguous を付けて取り込んでください",
                f"{report.name or '?'}: ambiguous matches ({doubts_en});"
                " check them, then import with --accept-ambiguous",
            )
        )
        self.report = report


def import_all(
    raw: bytes,
    source_format: str,
    system: str | None = None,
    *,
    name: str | None = None,
    accept_ambiguous: bool = False,
    file_name: str | None = None,
) -> list[tuple[SheetBase, ImportReport]]:
    """Every character of a file (or the one called ``name``) → sheets and reports.

    Raises :class:`AmbiguousImport` when a label matched only doubtfully (another game's
    file, a loose label such as 生命力, one field given twice with different values),
    unless ``accept_ambiguous``. A file that cannot be read is a :class:`TransferError`
    naming ``file_name`` when given.
    """
    try:
        characters = parse_characters(raw, source_format)
    except TransferError as error:
        raise (in_file(error, file_name) if file_name else error) from None
    if name is not None:
        chosen = [c for c in characters if c.name == name]
        if not chosen:
            names = [c.name or "?" for c in characters]
            raise TransferError(
                Message(
                    f"{name!r} という名前のキャラクターはありません (あるのは: {'、'.join(names)})",
                    f"no character named {name!r} (the file has: {', '.join(names)})",
                )
            )
        characters = chosen
    results = [_import_one(character, source_format, system) for character in characters]
    if not accept_ambiguous:
        for _sheet, report in results:
            if report.ambiguous:
                raise AmbiguousImport(report)
    return results


def _import_one(
    character: PortableCharacter, source_format: str, system: str | None
) -> tuple[SheetBase, ImportReport]:
    from saikoro.sheets import sheet_systems
    from saikoro.transfer.mapping import import_character

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


def import_bytes(
    raw: bytes,
    source_format: str,
    system: str | None = None,
    *,
    name: str | None = None,
    accept_ambiguous: bool = False,
) -> tuple[SheetBase, ImportReport]:
    """A Udonarium or CCFOLIA character's bytes → a sheet of ``system`` and the report.

    ``system`` may be omitted for a file saikoro exported (it names its system) and for a
    Udonarium piece whose chat palette's ``dicebot`` is a saikoro system. A file with
    several characters needs ``name`` (or :func:`import_all`).
    """
    results = import_all(raw, source_format, system, name=name, accept_ambiguous=accept_ambiguous)
    if len(results) > 1:
        names = [sheet.name for sheet, _ in results]
        raise TransferError(
            Message(
                f"このファイルには {len(names)} 人のキャラクターがいます ({'、'.join(names)}):"
                " 1 人を名前で選ぶか (--name)、全員を取り込んでください",
                f"the file holds {len(names)} characters ({', '.join(names)}):"
                " choose one by name (--name) or import them all",
            )
        )
    return results[0]


def export_ccfolia(sheet: SheetBase) -> str:
    from saikoro.transfer.ccfolia import render_ccfolia
    from saikoro.transfer.mapping import export_sheet

    return render_ccfolia(export_sheet(sheet))


def export_udonarium(
    sheet: SheetBase, image: bytes | None = None, image_type: str = "image/png"
) -> bytes:
    """A Udonarium character zip (``data.xml`` inside); with ``image`` (its bytes, of
    ``image_type``), the character's face beside it, named as Udonarium names images."""
    from saikoro.transfer.mapping import export_sheet
    from saikoro.transfer.udonarium import FaceFile, render_udonarium_zip

    face = FaceFile(image, image_type) if image is not None else None
    return render_udonarium_zip(export_sheet(sheet), face)


def udonarium_faces(raw: bytes, system: str | None = None) -> dict[str, bytes]:
    """The faces in a Udonarium zip: each character's name (as imported) → the bytes of
    the image its ``imageIdentifier`` names, for those whose image the zip holds (a bare
    XML, or a zip without images: none). The bytes are as in the zip: decode them before
    keeping them (the server does, with Pillow)."""
    from saikoro.transfer.model import UDONARIUM_IMAGE
    from saikoro.transfer.udonarium import images_in_zip

    if raw[:4] != b"PK\x03\x04":
        return {}
    images = images_in_zip(raw)
    if not images:
        return {}
    faces: dict[str, bytes] = {}
    for sheet, _report in import_all(raw, "udonarium", system, accept_ambiguous=True):
        identifier = sheet.notes.get(UDONARIUM_IMAGE, "")
        if identifier in images:
            faces[sheet.name] = images[identifier]
    return faces


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
    if b'"kind"' in raw[:MAX_FILE_BYTES] and b'"character"' in raw:
        # CCFOLIA's JSON, also with other text pasted around it: then the CCFOLIA reader
        # says what is wrong (the CLI's message), not "a sheet must be a mapping".
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
        raise cannot_read(str(path), error) from None
    source_format = detect_format(path.name, raw)
    if source_format is None:
        return load_sheet(path, system)
    command = f"saikoro import {source_format} {path.name}"
    try:
        results = import_all(raw, source_format, system, file_name=path.name)
    except AmbiguousImport as error:
        raise TransferError(
            Message(
                f"{error.message.ja} — 先に `{command} --accept-ambiguous -o シート.json`"
                " で確かめてから /char add シート.json",
                f"{error.message.en} — check it with `{command} --accept-ambiguous"
                " -o sheet.json` first, then /char add sheet.json",
            )
        ) from None
    if len(results) > 1:
        names = [sheet.name for sheet, _ in results]
        raise TransferError(
            Message(
                f"{path.name} には {len(names)} 人のキャラクターがいます ({'、'.join(names)}):"
                f" `{command} -o フォルダ` で分けてから /char add フォルダ/名前.json",
                f"{path.name} holds {len(names)} characters ({', '.join(names)}):"
                f" split it with `{command} -o DIR`, then /char add DIR/NAME.json",
            )
        )
    return results[0][0]


def read_tool_characters(raw: bytes, system: str | None = None) -> list[SheetBase] | None:
    """Every character of CCFOLIA or Udonarium bytes (a room file holds several) → sheets of
    ``system``; None when the bytes are neither (a saikoro sheet, say). For characters sent
    in a request (a shared room: the caller chooses among several)."""
    source_format = detect_format("", raw)
    if source_format is None:
        return None
    return [sheet for sheet, _report in import_all(raw, source_format, system)]


def register_with_table() -> None:
    """Let ``/char add`` read Udonarium and CCFOLIA files, and a shared room take them sent
    as bytes (joining): the table's front ends (``saikoro play``, the server's table) call
    this once; the table itself never imports this package."""
    from saikoro.table.dispatch import register_character_reader, register_sheet_importer

    for suffix in (".zip", ".xml", ".json"):
        register_sheet_importer(suffix, load_character_file)
    register_character_reader(read_tool_characters)
