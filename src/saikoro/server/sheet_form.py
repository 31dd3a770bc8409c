"""The fields of a system's character sheet as a form (the web table's quick-NPC form and
card editor), read from the sheet's pydantic model: a new system's sheet gets its form
without any code of its own.

Every top-level field of a plain kind (a whole number, a text, on/off, a choice of a
``Literal`` or an ``Enum``) is a field, and so is each field of a nested model made only of
such fields (帽子世界TRPG's ``abilities.体力``). A sheet whose values live in a mapping the
model cannot list (運命判定d100's ``abilities``: any ability the GM adds) names those paths
in its ``form_paths`` class variable, and leaves out what the table edits its own way in
``form_hidden``. ``system`` and ``notes`` are never form fields (the memo is edited as
``notes.メモ``).
"""

from __future__ import annotations

import enum
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from saikoro.sheets import SheetBase

#: Fields no form shows.
SKIPPED = frozenset({"system", "notes"})


def _plain(annotation: Any) -> tuple[str, list[Any]] | None:
    """(kind, options) of a plain field's type, or None (a list, a mapping, a model …)."""
    origin = get_origin(annotation)
    if origin is Literal:
        return "choice", list(get_args(annotation))
    if origin in (Union, types.UnionType):
        kinds = [a for a in get_args(annotation) if a is not type(None)]
        return _plain(kinds[0]) if len(kinds) == 1 else None
    if get_origin(annotation) is not None and hasattr(annotation, "__metadata__"):
        return _plain(get_args(annotation)[0])  # Annotated[int, …]
    if isinstance(annotation, type):
        if issubclass(annotation, bool):
            return "bool", []
        if issubclass(annotation, enum.Enum):
            return "choice", [member.value for member in annotation]
        if issubclass(annotation, int):
            return "int", []
        if issubclass(annotation, str):
            return "text", []
    return None


def _default(info: FieldInfo) -> Any:
    if info.default is not PydanticUndefined:
        value = info.default
    elif info.default_factory is not None:
        return None
    else:
        return None
    return value.value if isinstance(value, enum.Enum) else value


def _field(path: str, info: FieldInfo, kind: str, options: list[Any]) -> dict[str, Any]:
    return {
        "path": path,
        "kind": kind,
        "options": options,
        "required": info.is_required(),
        "default": _default(info),
    }


def form_fields(cls: type[SheetBase]) -> list[dict[str, Any]]:
    """The form of sheet model ``cls``: ``[{"path", "kind", "options", "required",
    "default"}]`` in the model's order (``name`` first), ``kind`` one of ``int``, ``text``,
    ``bool``, ``choice``."""
    out: list[dict[str, Any]] = []
    for name, info in cls.model_fields.items():
        if name in SKIPPED or name in cls.form_hidden:
            continue
        plain = _plain(info.annotation)
        if plain is not None:
            out.append(_field(name, info, *plain))
            continue
        nested = info.annotation
        if isinstance(nested, type) and issubclass(nested, BaseModel):
            parts = [(n, i, _plain(i.annotation)) for n, i in nested.model_fields.items()]
            if all(p is not None for _, _, p in parts):
                for sub, sub_info, sub_plain in parts:
                    assert sub_plain is not None
                    field = _field(f"{name}.{sub}", sub_info, *sub_plain)
                    field["required"] = field["required"] and info.is_required()
                    out.append(field)
    for path, kind in cls.form_paths.items():
        out.append({"path": path, "kind": kind, "options": [], "required": True, "default": None})
    name_first = sorted(out, key=lambda f: f["path"] != "name")
    return name_first


__all__ = ["form_fields"]
