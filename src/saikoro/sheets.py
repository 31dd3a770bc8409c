"""Character sheets shared by every system: the common base, file I/O, readable validation errors.

Each game system defines its own pydantic sheet (``saikoro.systems.<id>.sheet``)
that subclasses :class:`SheetBase` with ``system`` fixed to its ID. Files are JSON
(``.json``) or YAML (``.yaml``/``.yml``); :func:`load_sheet` picks the class from
the file's ``system`` field.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

#: system ID → "module:class" of its sheet model.
SHEET_CLASSES: dict[str, str] = {
    "LittleWorld": "saikoro.systems.littleworld.sheet:LittleWorldSheet",
    "UnmeiD100": "saikoro.systems.unmeid100.sheet:UnmeiSheet",
}


class SheetError(SaikoroError):
    """A sheet file that cannot be read or does not validate; ``problems`` lists each field."""

    reason = "invalid sheet"

    def __init__(self, message: Message, problems: list[Message] | None = None) -> None:
        self.problems = problems or []
        if self.problems:
            message = Message(
                message.ja + "\n" + "\n".join(f"  - {p.ja}" for p in self.problems),
                message.en + "\n" + "\n".join(f"  - {p.en}" for p in self.problems),
            )
        super().__init__(message)


class SheetBase(BaseModel):
    """What every sheet has: the system, a name, HP, and free notes (never dropped)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    system: str
    name: str = Field(min_length=1)
    hp: int = 0
    max_hp: int = Field(default=0, ge=0)
    notes: dict[str, str] = Field(default_factory=dict)

    def references(self) -> dict[str, int]:
        """Values a chat line can refer to as ``{ラベル}`` (CCFOLIA/Udonarium convention)."""
        return {"HP": self.hp, "MHP": self.max_hp, "最大HP": self.max_hp}


def sheet_class(system: str) -> type[SheetBase]:
    location = SHEET_CLASSES.get(system)
    if location is None:
        raise SheetError(
            Message(
                f"シートのゲームシステム {system!r} はありません ({', '.join(SHEET_CLASSES)})",
                f"no sheet for game system {system!r} ({', '.join(SHEET_CLASSES)})",
            )
        )
    module, _, name = location.partition(":")
    return getattr(importlib.import_module(module), name)


def describe_validation_error(error: ValidationError) -> list[Message]:
    """One bilingual line per invalid field, naming the field (``abilities.体力``)."""
    problems = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "(sheet)"
        ctx = item.get("ctx") or {}
        rule = ctx.get("rule")
        ja = ctx.get("ja")
        en = ctx.get("en") or item["msg"]
        suffix = f" [{rule}]" if rule else ""
        problems.append(Message(f"{field}: {ja or item['msg']}{suffix}", f"{field}: {en}{suffix}"))
    return problems


def sheet_from_data(data: Any, system: str | None = None) -> SheetBase:
    """Validate a dict as the sheet of ``system`` (or of its own ``system`` field)."""
    if not isinstance(data, dict):
        raise SheetError(Message("シートの中身が辞書ではありません", "a sheet must be a mapping"))
    system = system or data.get("system")
    if not isinstance(system, str):
        raise SheetError(
            Message("シートに system (ゲームシステムID) がありません", "the sheet has no 'system'")
        )
    cls = sheet_class(system)
    try:
        return cls.model_validate({**data, "system": system})
    except ValidationError as error:
        raise SheetError(
            Message("シートの内容が正しくありません:", "the sheet is not valid:"),
            describe_validation_error(error),
        ) from None


def parse_sheet_text(text: str, suffix: str = ".json", system: str | None = None) -> SheetBase:
    try:
        if suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
    except Exception as error:  # json.JSONDecodeError or yaml.YAMLError
        message = Message(f"シートを読めません: {error}", f"cannot parse sheet: {error}")
        raise SheetError(message) from None
    return sheet_from_data(data, system)


def load_sheet(path: str | Path, system: str | None = None) -> SheetBase:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        message = Message(f"{path} を読めません: {error}", f"cannot read {path}: {error}")
        raise SheetError(message) from None
    return parse_sheet_text(text, path.suffix, system)


def dump_sheet_text(sheet: SheetBase, suffix: str = ".json") -> str:
    data = sheet.model_dump(mode="json")
    if suffix.lower() in (".yaml", ".yml"):
        import yaml

        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def save_sheet(sheet: SheetBase, path: str | Path) -> None:
    """Write atomically (a temporary file renamed over the target): no half-written sheets."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump_sheet_text(sheet, path.suffix), encoding="utf-8")
    tmp.replace(path)
