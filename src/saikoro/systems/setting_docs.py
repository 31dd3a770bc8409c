"""What each house-rule setting means, in both languages, from the system's settings model.

A settings model (``LittleWorldSettings``, ``UnmeiSettings``) documents each field with its
``description`` (English, naming the rule) and ``json_schema_extra={"ja": …}`` (Japanese);
``/gm setting``, the web page and the docs read them from here (or from the model's JSON
schema), so the meaning is written once.
"""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel

from saikoro.i18n import Message


def setting_meaning(cls: type[BaseModel], key: str) -> Message:
    """One line on what ``key`` changes (Japanese falls back to the English description)."""
    field = cls.model_fields[key]
    english = " ".join((field.description or "").split())
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    japanese = str(extra.get("ja") or english)
    return Message(japanese, english)


def setting_default(cls: type[BaseModel], key: str) -> Any:
    """The field's default as a value (``default_factory`` called)."""
    return cls.model_fields[key].get_default(call_default_factory=True)


def find_setting(cls: type[BaseModel], typed: str) -> str | None:
    """The setting ``typed`` names, case-insensitively; None when there is none."""
    wanted = typed.lower()
    return next((key for key in cls.model_fields if key.lower() == wanted), None)


def close_settings(cls: type[BaseModel], typed: str) -> list[str]:
    """Settings spelled like ``typed`` (a suggestion for a typo)."""
    return difflib.get_close_matches(typed.lower(), list(cls.model_fields), n=3, cutoff=0.6)
