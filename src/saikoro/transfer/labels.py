"""Label matching and value conversion shared by both formats.

Labels are compared after NFKC (full-width → half-width), with brackets such as
【体力】 or [HP] removed, spaces dropped and ASCII case folded: ``【ＨＰ】`` = ``hp``.
"""

from __future__ import annotations

import errno
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


def in_file(error: TransferError, name: str) -> TransferError:
    """``error`` naming the file it is about (the readers do not know the file's name)."""
    message = error.message
    return TransferError(
        Message(f"{name}: {message.ja}", f"{name}: {message.en}"), reason=error.reason
    )


_OS_PROBLEMS = {
    errno.ENOENT: ("ありません", "it does not exist"),
    errno.EACCES: ("読む権限がありません", "permission denied"),
    errno.EPERM: ("読む権限がありません", "permission denied"),
    errno.EISDIR: ("フォルダです (ファイルを指定してください)", "it is a folder (give a file)"),
}


def cannot_read(name: str, error: OSError) -> TransferError:
    """The refusal for a file the system would not let be read (no Python wording)."""
    ja, en = _OS_PROBLEMS.get(error.errno or 0, (error.strerror or "?", error.strerror or "?"))
    return bad_file(f"{name} を読めません: {ja}", f"cannot read {name}: {en}")


def shown(value: object, limit: int = 40) -> str:
    """A value from a file as its JSON text, cut at ``limit`` characters (for messages)."""
    text = dump_json(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_kind(value: object) -> tuple[str, str]:
    """What a JSON value is, in Japanese and English (for messages)."""
    if isinstance(value, dict):
        return "オブジェクト {…}", "an object {…}"
    if isinstance(value, list):
        return "一覧 […]", "a list […]"
    if isinstance(value, str):
        return "文字", "text"
    if isinstance(value, bool) or value is None:
        return dump_json(value), dump_json(value)
    return "数", "a number"


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
        value = json.loads(text, parse_int=_json_int)
    except RecursionError:
        raise too_deep from None
    except _NumberTooLong as error:
        line, column = _line_column(text, max(0, text.find(error.digits)))
        digits = len(error.digits.lstrip("-"))
        raise bad_file(
            f"JSON の {line} 行 {column} 文字目の数が長すぎます"
            f" ({digits} 桁; {MAX_JSON_INT_DIGITS} 桁まで)。その数を短くしてください",
            f"the number at line {line}, column {column} of the JSON is too long"
            f" ({digits} digits; at most {MAX_JSON_INT_DIGITS}): shorten that number",
        ) from None
    except json.JSONDecodeError as error:
        what_ja, what_en = _JSON_PROBLEMS.get(error.msg, _JSON_MALFORMED)
        raise InvalidJson(
            Message(
                f"JSON として読めません ({error.lineno} 行 {error.colno} 文字目: {what_ja})",
                f"not valid JSON (line {error.lineno}, column {error.colno}: {what_en})",
            )
        ) from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise too_deep
    return value


#: Longest integer read from JSON (Python's own bound on converting digits to a number).
MAX_JSON_INT_DIGITS = 4300


class _NumberTooLong(Exception):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise _NumberTooLong(digits)
    return int(digits)


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text`` (as the JSON reader counts)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - text.rfind("\n", 0, offset)


_JSON_MALFORMED = ("書式が正しくありません", "malformed")
#: The JSON reader's problems, in the user's words.
_JSON_PROBLEMS: dict[str, tuple[str, str]] = {
    "Expecting value": (
        "値がないか、JSON ではない文字があります",
        "a value is missing or not JSON",
    ),
    "Expecting ',' delimiter": ("「,」が足りません", "a ',' is missing"),
    "Expecting ':' delimiter": ("「:」が足りません", "a ':' is missing"),
    "Expecting property name enclosed in double quotes": (
        'キーは "…" で囲んでください',
        'a key must be in double quotes "…"',
    ),
    "Unterminated string starting at": ('文字列が " で閉じていません', 'a string has no closing "'),
    "Invalid control character at": (
        "文字列の中に改行などの制御文字があります",
        "a string holds a line break or another control character",
    ),
    "Invalid \\escape": ("\\ の使い方が正しくありません", "an invalid \\ escape"),
    "Invalid \\uXXXX escape": (
        "\\u の後が 16 進 4 桁ではありません",
        "\\u is not followed by 4 hex digits",
    ),
    "Extra data": ("JSON の後に余分な文字があります", "more text after the JSON"),
}


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
