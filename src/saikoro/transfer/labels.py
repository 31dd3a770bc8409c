"""Label matching and value conversion shared by both formats.

Labels are compared after NFKC (full-width → half-width), with brackets such as
【体力】 or [HP] removed, spaces dropped and ASCII case folded: ``【ＨＰ】`` = ``hp``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

_BRACKETS = re.compile(r"[【】\[\]「」『』〔〕<>＜＞()（）{}｛｝]")
_SPACES = re.compile(r"\s+")


class TransferError(SaikoroError):
    """A file that cannot be read as a Udonarium or CCFOLIA character."""

    reason = "invalid character file"


def norm_label(label: str) -> str:
    text = unicodedata.normalize("NFKC", label)
    text = _SPACES.sub("", _BRACKETS.sub("", text))
    return text.casefold()


UNPORTABLE = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def portable(text: str) -> bool:
    """Text both tools keep exactly on one line (no line breaks, no XML-forbidden characters)."""
    return UNPORTABLE.search(text) is None


_TRUE = {"1", "true", "yes", "y", "on", "はい", "有", "あり", "○", "◯", "✓", "済"}
_FALSE = {"0", "false", "no", "n", "off", "いいえ", "無", "なし", "×", "-", ""}


def parse_int(text: str) -> int:
    """An integer from a tool's text field: ``"12"``, ``"１２"``, ``" 12 "``, ``"12.0"``."""
    cleaned = unicodedata.normalize("NFKC", str(text)).strip().replace(",", "")
    try:
        return int(cleaned)
    except ValueError:
        number = float(cleaned)  # raises ValueError for non-numbers
        if not number.is_integer():
            raise ValueError(text) from None
        return int(number)


def parse_bool(text: str) -> bool:
    cleaned = unicodedata.normalize("NFKC", str(text)).strip().casefold()
    if cleaned in _TRUE:
        return True
    if cleaned in _FALSE:
        return False
    raise ValueError(text)


def format_value(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if value is None:
        return ""
    return str(value)


def dump_json(value: object, **options: Any) -> str:
    """JSON with Japanese kept readable; all-ASCII escapes when the text is not valid UTF-8
    (a lone surrogate), so writing it can never fail."""
    text = json.dumps(value, ensure_ascii=False, **options)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, **options)
    return text


def bad_file(ja: str, en: str) -> TransferError:
    return TransferError(Message(ja, en))
