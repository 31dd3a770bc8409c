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
        if not number.is_integer():  # also infinities and NaN
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


class InvalidJson(TransferError):
    """Text that is not JSON at all (as opposed to JSON past saikoro's bounds)."""


#: Values (containers + items) and nesting of one JSON text; a character has far fewer.
MAX_JSON_VALUES = 200_000
MAX_JSON_DEPTH = 64
#: A JSON string; an unterminated one runs to the end of the text, so that every start
#: is scanned once (linear even for ``"\"\"\"…`` without a closing quote).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)


def load_json(text: str) -> Any:
    """JSON text → value, bounded before parsing: at most :data:`MAX_JSON_VALUES` values
    (counted on the text without its strings, so memory stays near the text's size) and
    :data:`MAX_JSON_DEPTH` levels. :class:`InvalidJson` when it is not JSON."""
    skeleton = _JSON_STRING.sub("", text)
    values = skeleton.count(",") + skeleton.count("[") + skeleton.count("{")
    if values > MAX_JSON_VALUES:
        raise bad_file(
            f"JSON の値が多すぎます ({MAX_JSON_VALUES} 個まで)",
            f"too many JSON values (at most {MAX_JSON_VALUES})",
        )
    too_deep = bad_file(
        f"JSON の入れ子が深すぎます ({MAX_JSON_DEPTH} 段まで)",
        f"JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)",
    )
    try:
        value = json.loads(text)
    except RecursionError:
        raise too_deep from None
    except ValueError as error:
        raise InvalidJson(
            Message(f"JSON として読めません: {error}", f"not valid JSON: {error}")
        ) from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise too_deep
    return value


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (iterative: no recursion limit);
    stops counting past :data:`MAX_JSON_DEPTH`."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest
