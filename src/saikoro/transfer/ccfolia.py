"""CCFOLIA's character clipboard JSON: ``{"kind": "character", "data": {…}}``.

``data`` has ``name``, ``initiative``, ``memo``, ``status`` (``[{label, value, max}]``,
shown as bars), ``params`` (``[{label, value}]``, text values) and ``commands`` (the chat
palette). saikoro's own block rides at the end of the memo, after the text a player
reads: a marker line (:data:`BLOCK_MARKER`, saying not to edit what follows) and one line
``[saikoro:<system>] {json}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from saikoro.i18n import Message
from saikoro.transfer.labels import (
    InvalidJson,
    bad_file,
    dump_json,
    format_value,
    json_kind,
    load_json,
    shown,
)
from saikoro.transfer.model import (
    CCFOLIA_PREFIX,
    Param,
    PortableCharacter,
    Resource,
    note_place,
)

MAX_BYTES = 5 * 1024 * 1024
_EXTRAS_LINE = re.compile(r"^\[saikoro:([A-Za-z0-9_]+)\]\s*(\{.*\})\s*$")
#: What to do about a file CCFOLIA did not write as it is.
_COPY_AGAIN = (
    "CCFOLIA でキャラクターをクリップボードにコピーし直してください",
    "copy the character to the clipboard from CCFOLIA again",
)


def _refusal(ja: str, en: str) -> Exception:
    return bad_file(
        f"CCFOLIA のキャラクターの{ja}。{_COPY_AGAIN[0]}",
        f"CCFOLIA character: {en}: {_COPY_AGAIN[1]}",
    )


def _text(value: Any, where: tuple[str, str]) -> str:
    """A value CCFOLIA shows as text; ``where`` names the field (Japanese, English)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (str, int, float)):
        return str(value)
    kind_ja, kind_en = json_kind(value)
    raise _refusal(
        f" {where[0]} が文字でも数でもありません ({kind_ja})",
        f"{where[1]} is neither text nor a number (it is {kind_en})",
    )


#: The line before saikoro's data in a memo: what follows is for saikoro, not for editing.
BLOCK_MARKER = "―――― saikoro のデータ (編集しないでください / saikoro data: do not edit) ――――"


def split_memo(memo: str) -> tuple[str, str | None, dict[str, Any] | None]:
    """The memo without saikoro's block (its marker line and data line), and the data's
    system and value. The first valid data line counts; text after it is kept."""
    lines = memo.split("\n")  # not splitlines(): the JSON may hold U+0085, U+2028…
    for n, line in enumerate(lines):
        match = _EXTRAS_LINE.match(line.strip())
        if not match:
            continue
        try:
            data = load_json(match[2])
        except InvalidJson:
            continue
        if not isinstance(data, dict):
            continue
        start = n
        if n and lines[n - 1].strip() == BLOCK_MARKER:
            start = n - 1
        kept = lines[:start] + lines[n + 1 :]
        return "\n".join(kept).strip(), match[1], data
    return memo.strip(), None, None


def extras_line(system: str, extras: dict[str, Any]) -> str:
    return f"[saikoro:{system}] " + dump_json(extras, separators=(",", ":"))


def memo_with_block(memo: str, system: str, extras: dict[str, Any] | None) -> str:
    """The text a player reads, then (after a blank line) the marked block of saikoro's data."""
    if not extras:
        return memo
    block = f"{BLOCK_MARKER}\n{extras_line(system, extras)}"
    return f"{memo}\n\n{block}" if memo else block


def parse_ccfolia(raw: bytes | str) -> PortableCharacter:
    if isinstance(raw, bytes):
        if len(raw) > MAX_BYTES:
            raise bad_file("ファイルが大きすぎます (5 MB まで)", "file too large (at most 5 MB)")
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise bad_file(
                "UTF-8 のテキストではありません: UTF-8 で保存したファイルを使ってください",
                "not UTF-8 text: use the file saved as UTF-8",
            ) from None
    if len(raw) > MAX_BYTES:
        raise bad_file("ファイルが大きすぎます (5 MB まで)", "file too large (at most 5 MB)")
    try:
        document = load_json(raw)
    except InvalidJson as error:
        raise InvalidJson(
            Message(
                f"{error.message.ja}。{_COPY_AGAIN[0]}", f"{error.message.en}: {_COPY_AGAIN[1]}"
            )
        ) from None
    if isinstance(document, dict) and "kind" in document:
        if document.get("kind") != "character":
            kind = shown(document.get("kind"))
            raise bad_file(
                f"CCFOLIA の kind が character ではありません ({kind}): キャラクター以外"
                " (部屋やアイテム) は取り込めません",
                f"CCFOLIA kind is not character ({kind}): only characters are imported,"
                " not rooms or items",
            )
        data = document.get("data")
    else:
        data = document
    if not isinstance(data, dict):
        raise bad_file(
            'CCFOLIA のキャラクター ({"kind": "character", "data": {…}}) ではありません。'
            + _COPY_AGAIN[0],
            'not a CCFOLIA character ({"kind": "character", "data": {…}}): ' + _COPY_AGAIN[1],
        )
    resources = [
        Resource(
            _text(item.get("label"), _entry_field("status", n, "label")),
            _text(item.get("value"), _entry_field("status", n, "value")),
            _text(item.get("max"), _entry_field("status", n, "max")),
        )
        for n, item in _items(data, "status")
    ]
    params = [
        Param(
            _text(item.get("label"), _entry_field("params", n, "label")),
            _text(item.get("value"), _entry_field("params", n, "value")),
        )
        for n, item in _items(data, "params")
    ]
    memo, system, extras = split_memo(_text(data.get("memo"), _field("memo")))
    try:
        initiative = int(float(_text(data.get("initiative"), _field("initiative")) or 0))
    except (ValueError, OverflowError):  # "abc", "Infinity", 1e999, NaN
        initiative = 0
    return PortableCharacter(
        name=_text(data.get("name"), _field("name")),
        resources=resources,
        params=params,
        memo=memo,
        palette=_text(data.get("commands"), _field("commands")),
        initiative=initiative,
        extras=extras,
        extras_system=system,
        fields=_unknown_fields(data),
    )


#: The keys saikoro reads (``initiative`` is derived from the abilities on export).
READ_KEYS = frozenset({"name", "memo", "commands", "status", "params", "initiative"})
#: What saikoro writes for the keys it does not read; an equal value carries nothing.
WRITTEN_DEFAULTS: dict[str, Any] = {
    "externalUrl": "",
    "iconUrl": None,
    "secret": False,
    "invisible": False,
    "hideStatus": False,
}
#: Keys kept as plain text in notes (readable); other values are kept as JSON (exact).
TEXT_KEYS = frozenset({"externalUrl", "iconUrl", "playerName", "color", "owner"})


def _unknown_fields(data: dict[str, Any]) -> dict[str, str]:
    """Every key saikoro neither reads nor writes as is, as ``ccfolia.<key>`` → text."""
    kept = {}
    for key, value in data.items():
        if not isinstance(key, str) or key in READ_KEYS or value in (None, "", [], {}):
            continue
        if key in WRITTEN_DEFAULTS and value == WRITTEN_DEFAULTS[key]:
            continue
        if key in TEXT_KEYS and isinstance(value, str):
            kept[CCFOLIA_PREFIX + key] = value
        else:
            kept[CCFOLIA_PREFIX + key] = dump_json(value)
    return kept


def _field_value(key: str, text: str) -> Any:
    """A kept field's value for CCFOLIA (the inverse of :func:`_unknown_fields`)."""
    if key in TEXT_KEYS:
        return text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text  # a note edited by hand: its text


def _field(key: str) -> tuple[str, str]:
    """A top-level field's name for messages (Japanese, English)."""
    return key, f"the {key}"


def _entry_field(section: str, n: int, key: str) -> tuple[str, str]:
    """The name of ``key`` of entry ``n`` (from 1) of ``status`` or ``params``, for messages."""
    return f"{section} の {n} 番目の {key}", f"the {key} of {section} item {n}"


def _items(data: dict[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    """The entries of ``status`` or ``params``, numbered from 1 (for messages)."""
    items = data.get(key) or []
    if not isinstance(items, list):
        kind_ja, kind_en = json_kind(items)
        raise _refusal(
            f' {key} が一覧 ([{{"label": …, "value": …}}, …]) ではありません ({kind_ja})',
            f'{key} is not a list ([{{"label": …, "value": …}}, …]); it is {kind_en}',
        )
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict):
            kind_ja, kind_en = json_kind(item)
            raise _refusal(
                f' {key} の {n} 番目が {{"label": …, "value": …}} の形ではありません ({kind_ja})',
                f'{key} item {n} is not a {{"label": …, "value": …}} entry (it is {kind_en})',
            )
    return list(enumerate(items, 1))


def _number(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def _param_label(param: Param) -> str:
    """CCFOLIA's params are flat: a note from a section of its own keeps its path (装備/備考)."""
    key = f"{param.where}/{param.label}"
    return key if param.where and note_place(key) is not None else param.label


def render_ccfolia(character: PortableCharacter) -> str:
    """CCFOLIA clipboard JSON (paste it onto a CCFOLIA room)."""
    own, extras = character.own_fields(CCFOLIA_PREFIX)
    data: dict[str, Any] = {
        "name": character.name,
        "initiative": character.initiative,
        "externalUrl": "",
        "iconUrl": None,
        "memo": memo_with_block(character.memo, character.extras_system or "", extras),
        "commands": character.palette,
        "status": [
            {"label": r.label, "value": _number(r.value), "max": _number(r.max)}
            for r in character.resources
        ],
        "params": [
            {"label": _param_label(p), "value": format_value(p.value)} for p in character.params
        ],
        "secret": False,
        "invisible": False,
        "hideStatus": False,
    }
    for key, text in own.items():
        if key not in READ_KEYS:
            data[key] = _field_value(key, text)
    return dump_json({"kind": "character", "data": data}, indent=2)
