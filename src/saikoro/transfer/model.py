"""The tool-neutral character both formats are read into and written from, and the import report.

Udonarium and CCFOLIA describe a piece the same way: a name, numeric resources with a
maximum (Udonarium ``numberResource``, CCFOLIA ``status``), labelled values (Udonarium
``<data name=…>``, CCFOLIA ``params``), a memo and a chat palette. saikoro's sheets map
to and from this by label (:mod:`saikoro.transfer.profiles`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from saikoro.i18n import Message

#: Note keys of the tools' own fields (``ccfolia.externalUrl``): see ``PortableCharacter.fields``.
CCFOLIA_PREFIX = "ccfolia."
UDONARIUM_PREFIX = "udonarium."
TOOL_PREFIXES = (CCFOLIA_PREFIX, UDONARIUM_PREFIX)
UDONARIUM_IMAGE = UDONARIUM_PREFIX + "imageIdentifier"


#: Sections whose name says nothing about a value: Udonarium's own (a new piece has リソース,
#: 能力値, 情報), Ccfolia2Udonarium's パラメータ, saikoro's メモ, and the piece's ``common``.
#: A value from any other section keeps its section path in its note's key (``装備/備考``).
PLAIN_SECTIONS = frozenset({"", "common", "リソース", "能力値", "情報", "パラメータ", "メモ"})


def note_key(where: str, label: str) -> str:
    """The note a labelled value from section ``where`` (``a/b``) becomes."""
    first = where.split("/", 1)[0]
    return label if first in PLAIN_SECTIONS else f"{where}/{label}"


def note_place(key: str) -> tuple[str, str] | None:
    """(section path, label) a note's key names (the inverse of :func:`note_key`), or None
    when it names no section of its own."""
    where, _, label = key.rpartition("/")
    if not where or not label or "" in where.split("/") or where.split("/", 1)[0] in PLAIN_SECTIONS:
        return None
    return where, label


def is_tool_field(key: str) -> bool:
    return key.startswith(TOOL_PREFIXES)


@dataclass(frozen=True)
class Resource:
    """A value with a maximum (HP 12/15)."""

    label: str
    value: str
    max: str


@dataclass(frozen=True)
class Param:
    """A labelled value (体力 3). ``where`` says where it was found (a Udonarium section)."""

    label: str
    value: str
    where: str = ""


@dataclass
class PortableCharacter:
    name: str
    resources: list[Resource] = field(default_factory=list)
    params: list[Param] = field(default_factory=list)
    memo: str = ""
    palette: str = ""
    initiative: int = 0
    dicebot: str = ""
    #: saikoro's own block: the sheet fields no label carries (skill cards, weapons, …).
    extras: dict[str, Any] | None = None
    extras_system: str | None = None
    #: The tool's own fields saikoro has no place for, kept as notes under these keys
    #: (``ccfolia.externalUrl``, ``udonarium.imageIdentifier``) and written back on export.
    fields: dict[str, str] = field(default_factory=dict)

    def own_fields(self, prefix: str) -> tuple[dict[str, str], dict[str, Any] | None]:
        """The fields of the tool being written (``prefix`` removed) and saikoro's block
        with the other tool's fields added to its notes (so they survive a trip through
        this tool too)."""
        own = {k[len(prefix) :]: v for k, v in self.fields.items() if k.startswith(prefix)}
        others = {k: v for k, v in self.fields.items() if not k.startswith(prefix)}
        if not others:
            return own, self.extras
        extras = dict(self.extras or {})
        extras["notes"] = {**(extras.get("notes") or {}), **others}
        return own, extras


@dataclass(frozen=True)
class ReportLine:
    """One source item and what became of it."""

    source: str  # e.g. "status HP", "param 体力", "memo"
    target: str  # e.g. "hp / max_hp", "notes.職業", "(ignored)"
    status: str  # "mapped", "ambiguous", "note", "ignored", "saikoro"


@dataclass
class ImportReport:
    system: str
    source_format: str
    name: str = ""
    lines: list[ReportLine] = field(default_factory=list)
    warnings: list[Message] = field(default_factory=list)
    #: Why the lines marked "ambiguous" are in doubt (an import needs confirmation).
    doubts: list[Message] = field(default_factory=list)

    @property
    def ambiguous(self) -> bool:
        return bool(self.doubts)

    def add(self, source: str, target: str, status: str) -> None:
        self.lines.append(ReportLine(source, target, status))

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "format": self.source_format,
            "name": self.name,
            "mapped": [
                {"from": line.source, "to": line.target, "how": line.status} for line in self.lines
            ],
            "warnings": [w.both() for w in self.warnings],
            "ambiguous": [d.both() for d in self.doubts],
        }

    def render(self, lang: str = "ja") -> str:
        """A readable table of what mapped where (Japanese by default)."""
        how = {
            "mapped": ("反映", "mapped"),
            "ambiguous": ("反映・要確認", "mapped, ambiguous"),
            "note": ("メモに保存", "kept in notes"),
            "ignored": ("無視", "ignored"),
            "saikoro": ("saikoro データ", "saikoro data"),
        }
        en = lang == "en"
        who = f" ({self.name})" if self.name else ""
        head = (
            f"Import from {self.source_format} as {self.system}{who}:"
            if en
            else f"{self.source_format} から {self.system} へ取り込み{who}:"
        )
        rows = [head]
        for line in self.lines:
            ja_how, en_how = how.get(line.status, (line.status, line.status))
            rows.append(f"  {line.source} → {line.target} [{en_how if en else ja_how}]")
        rows.extend(f"  ! {w.en if en else w.ja}" for w in self.warnings)
        rows.extend(f"  ? {d.en if en else d.ja}" for d in self.doubts)
        return "\n".join(rows)
