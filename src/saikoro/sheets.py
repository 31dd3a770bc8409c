"""Character sheets shared by every system: the common base, file I/O, readable validation errors.

Each game system defines its own pydantic sheet (its manifest's ``sheet``, in
``saikoro/systems/<id>/``) that subclasses :class:`SheetBase` with ``system`` fixed to its ID. Files are JSON
(``.json``) or YAML (``.yaml``/``.yml``); :func:`load_sheet` picks the class from
the file's ``system`` field.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

#: The sheet note a character's memo is kept in (CCFOLIA's memo, Udonarium's note).
MEMO_NOTE = "メモ"
#: The sheet note a character's own chat palette lines are kept in (an imported piece's
#: palette; lines a player adds on the page). Notes named "チャットパレット (2)" … too.
PALETTE_NOTE = "チャットパレット"

#: The largest sheet file read (a real sheet is a few KiB; YAML parses at about 1 MB/s).
MAX_SHEET_BYTES = 1024 * 1024


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

    #: Form fields (dotted path → ``int``/``text``) that :mod:`saikoro.server.sheet_form` cannot
    #: read from the model: values in a mapping of any keys (運命判定d100's abilities).
    form_paths: ClassVar[dict[str, str]] = {}
    #: Fields (or nested models) the form leaves out: what the table edits its own way.
    form_hidden: ClassVar[tuple[str, ...]] = ()

    #: The rule named in a message for pydantic's own errors (a missing field, a wrong
    #: type, …), by top-level field; ``default_rule`` for the other fields ("" = none).
    field_rules: ClassVar[dict[str, str]] = {}
    default_rule: ClassVar[str] = ""

    def references(self) -> dict[str, int]:
        """Values a chat line can refer to as ``{ラベル}`` (CCFOLIA/Udonarium convention)."""
        return {"HP": self.hp, "MHP": self.max_hp, "最大HP": self.max_hp}


def sheet_systems() -> list[str]:
    """IDs of the game systems that have a character sheet (their manifest's ``sheet``)."""
    from saikoro.systems import with_part

    return with_part("sheet")


def sheet_class(system: str) -> type[SheetBase]:
    """The sheet model of a system (from its manifest); SheetError when it has none."""
    from saikoro.systems import manifest

    try:
        cls = manifest(system).sheet_class()
    except KeyError:
        cls = None
    if cls is None:
        known = ", ".join(sheet_systems())
        raise SheetError(
            Message(
                f"シートのゲームシステム {system!r} はありません ({known})",
                f"no sheet for game system {system!r} ({known})",
            )
        )
    return cls


#: pydantic's own error types → (Japanese, English) message templates; ``{name}`` is a
#: value of the error's ctx (``{expected}``, ``{min_length}``, ``{ge}``, …). A system's own
#: validators give their text in ctx ``ja``/``en`` (and ``rule``) instead.
PYDANTIC_MESSAGES: dict[str, tuple[str, str]] = {
    "missing": ("必須の項目がありません", "this field is required"),
    "extra_forbidden": (
        "この項目はシートにありません (綴りを確認してください)",
        "unknown field (check the spelling)",
    ),
    "literal_error": ("{expected} のどれかを書いてください", "must be one of {expected}"),
    "enum": ("{expected} のどれかを書いてください", "must be one of {expected}"),
    "string_type": ("文字列で書いてください", "must be a text"),
    "string_unicode": ("正しい Unicode の文字列にしてください", "must be valid Unicode text"),
    "string_too_short": ("空にはできません", "cannot be empty"),
    "string_too_long": ("{max_length} 文字までです", "at most {max_length} characters"),
    "string_pattern_mismatch": ("形式が違います ({pattern})", "does not match {pattern}"),
    "int_type": ("整数で書いてください", "must be a whole number"),
    "int_parsing": ("整数で書いてください", "must be a whole number"),
    "int_from_float": ("整数で書いてください (小数は不可)", "must be a whole number (no fraction)"),
    "int_parsing_size": ("整数が大きすぎます", "the number is too large"),
    "float_type": ("数で書いてください", "must be a number"),
    "float_parsing": ("数で書いてください", "must be a number"),
    "bool_type": ("true か false で書いてください", "must be true or false"),
    "bool_parsing": ("true か false で書いてください", "must be true or false"),
    "list_type": ("リスト(配列)で書いてください", "must be a list"),
    "tuple_type": ("リスト(配列)で書いてください", "must be a list"),
    "set_type": ("リスト(配列)で書いてください", "must be a list"),
    "dict_type": ("項目の並び(辞書)で書いてください", "must be a mapping of fields"),
    "model_type": ("項目の並び(辞書)で書いてください", "must be a mapping of fields"),
    "model_attributes_type": ("項目の並び(辞書)で書いてください", "must be a mapping of fields"),
    "none_required": ("null にしてください", "must be null"),
    "greater_than": ("{gt} より大きくしてください", "must be greater than {gt}"),
    "greater_than_equal": ("{ge} 以上にしてください", "must be at least {ge}"),
    "less_than": ("{lt} より小さくしてください", "must be less than {lt}"),
    "less_than_equal": ("{le} 以下にしてください", "must be at most {le}"),
    "too_short": ("{min_length} 個以上必要です", "needs at least {min_length} items"),
    "too_long": ("{max_length} 個までです", "at most {max_length} items"),
}


def _pydantic_message(item: Any) -> tuple[str, str]:
    """Japanese and English text for one of pydantic's own errors."""
    kind = str(item.get("type", ""))
    ctx = {k: str(v) for k, v in (item.get("ctx") or {}).items()}
    templates = PYDANTIC_MESSAGES.get(kind)
    if templates is None:
        return f"値が正しくありません ({kind})", str(item.get("msg", kind))
    ja_ctx = dict(ctx)
    if "expected" in ja_ctx:  # "'PC', 'mob' or 'named'" → "'PC'、'mob'、'named'"
        ja_ctx["expected"] = ja_ctx["expected"].replace(" or ", "、").replace(", ", "、")
    try:
        return templates[0].format(**ja_ctx), templates[1].format(**ctx)
    except (KeyError, IndexError, ValueError):  # a pydantic version with other ctx names
        return f"値が正しくありません ({kind})", str(item.get("msg", kind))


def sheet_error(kind: str, ja: str, en: str, rule: str | None = None) -> PydanticCustomError:
    """A system validator's error with its own text (ctx ``ja``, ``en``, ``rule``), as
    :func:`describe_validation_error` reads it."""
    ctx: dict[str, Any] = {"ja": ja, "en": en}
    if rule is not None:
        ctx["rule"] = rule
    # The message template must not contain braces (pydantic formats it with ctx).
    return PydanticCustomError(kind, en.replace("{", "(").replace("}", ")"), ctx)


def describe_validation_error(
    error: ValidationError, field_rules: dict[str, str] | None = None, default_rule: str = ""
) -> list[Message]:
    """One bilingual line per invalid field, naming the field (``abilities.体力``).

    A system's own validators carry their text (ctx ``ja``, ``en``, ``rule``); pydantic's
    own errors ("Field required", a literal, a type) are translated from
    :data:`PYDANTIC_MESSAGES`, and named with the rule of their top-level field
    (``field_rules``, else ``default_rule``) when the sheet class gives one.
    """
    problems = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "(sheet)"
        ctx = item.get("ctx") or {}
        if "ja" in ctx:
            ja, en, rule = str(ctx["ja"]), str(ctx.get("en") or item["msg"]), ctx.get("rule")
        else:
            ja, en = _pydantic_message(item)
            top = str(item["loc"][0]) if item["loc"] else ""
            rule = (field_rules or {}).get(top, default_rule)
        suffix = f" [{rule}]" if rule else ""
        problems.append(Message(f"{field}: {ja}{suffix}", f"{field}: {en}{suffix}"))
    return problems


#: Text that is no character at all (prose, a lone word or number, a list).
NOT_A_CHARACTER = Message(
    "キャラクターとして読めませんでした: CCFOLIA の「キャラクターをコピー」の JSON、"
    "ユドナリウムの zip/xml か saikoro のシート (項目: 値 の並び) を貼り付けてください",
    'this is not a character: paste CCFOLIA\'s "copy character" JSON, an Udonarium '
    "zip/xml or a saikoro sheet (fields with values)",
)


def sheet_from_data(data: Any, system: str | None = None) -> SheetBase:
    """Validate a dict as the sheet of ``system`` (or of its own ``system`` field).

    A sheet naming another system than ``system`` is refused with one message.
    """
    if not isinstance(data, dict):
        raise SheetError(NOT_A_CHARACTER)
    own = data.get("system")
    if system is not None and isinstance(own, str) and own != system:
        raise SheetError(
            Message(
                f"このシートは {own} 用です (この卓のゲームシステムは {system})",
                f"this sheet is for {own}, the room plays {system}",
            )
        )
    system = system or own
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
            describe_validation_error(error, cls.field_rules, cls.default_rule),
        ) from None


#: How many validated sheets :func:`table_sheet` keeps (a few rooms' characters).
_TABLE_SHEETS = 512


class _Known:
    """A stored sheet dict, its validated sheet and (once asked) its references."""

    __slots__ = ("data", "references", "sheet")

    def __init__(self, data: dict[str, Any], sheet: SheetBase) -> None:
        self.data = data
        self.sheet = sheet
        self.references: dict[str, int] | None = None


_by_content: dict[str, _Known] = {}
#: The same by the stored dict itself (kept alive in the entry, so its id is not reused).
_by_identity: dict[int, _Known] = {}


def _known(data: dict[str, Any]) -> _Known:
    known = _by_identity.get(id(data))
    if known is not None and known.data is data:
        return known
    key = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    known = _by_content.get(key)
    if known is None:
        if len(_by_content) >= _TABLE_SHEETS:
            _by_content.clear()
        known = _by_content[key] = _Known(data, sheet_from_data(data))
    if len(_by_identity) >= _TABLE_SHEETS:
        _by_identity.clear()
    _by_identity[id(data)] = _Known(data, known.sheet) if known.data is not data else known
    return _by_identity[id(data)]


def table_sheet(data: dict[str, Any]) -> SheetBase:
    """:func:`sheet_from_data` of a table character's stored sheet, cached by its content:
    the trackers read a character's sheet on every line (validating it each time was the
    table's hot path). The sheet returned is shared: read it, never change it (nor the
    dict: a table never edits a stored sheet in place)."""
    return _known(data).sheet


def table_sheet_references(data: dict[str, Any]) -> dict[str, int]:
    """``table_sheet(data).references()``, computed once per sheet (a new dict each call)."""
    known = _known(data)
    if known.references is None:
        known.references = dict(known.sheet.references())
    return dict(known.references)


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
        if path.stat().st_size > MAX_SHEET_BYTES:  # parsing a large YAML takes seconds per MB
            raise SheetError(
                Message(
                    f"{path} が大きすぎます ({MAX_SHEET_BYTES // 1024} KiB まで)",
                    f"{path} is too large (at most {MAX_SHEET_BYTES // 1024} KiB)",
                )
            )
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
    """Write atomically (a temporary file renamed over the target): no half-written sheets.

    Only a regular file (or a new one) is written: the rename would replace a device or a
    pipe by a plain file. A path that cannot be written raises :class:`SheetError`.
    """
    path = Path(path)

    def cannot(ja: str, en: str) -> SheetError:
        return SheetError(Message(f"{path} に書き出せません: {ja}", f"cannot write {path}: {en}"))

    if path.exists() and not path.is_file():
        raise cannot("普通のファイルではありません", "not a regular file")
    if not path.name:
        raise cannot("ファイル名がありません", "no file name")
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(dump_sheet_text(sheet, path.suffix), encoding="utf-8")
        tmp.replace(path)
    except OSError as error:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        reason = error.strerror or str(error)
        raise cannot(reason, reason) from None
