"""Udonarium's character files: a ``.zip`` holding ``data.xml`` (plus images), or a bare ``.xml``.

The XML, as Udonarium saves a piece::

    <character location.name="table" …>
      <data name="character">
        <data name="image"><data type="image" name="imageIdentifier">…</data></data>
        <data name="common"><data name="name">名前</data><data name="size">1</data></data>
        <data name="detail">
          <data name="リソース">
            <data type="numberResource" currentValue="12" name="HP">15</data>
          </data>
          <data name="能力値"><data name="体力">3</data></data>
          <data name="情報"><data type="note" name="説明">複数行…</data></data>
        </data>
      </data>
      <chat-palette dicebot="SystemID">2D6+{体力} 【体力】判定</chat-palette>
    </character>

Sections in ``detail`` may nest; every leaf is read. saikoro's own block is a note
``<data name="saikoro"><data type="note" name="<system>">{json}</data></data>``.
Reading is bounded (zip entries, sizes, no DTDs or entities: defusedxml).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, replace
from typing import Any
from xml.etree import ElementTree

from saikoro.transfer.ccfolia import split_memo
from saikoro.transfer.labels import InvalidJson, bad_file, dump_json, load_json, shown
from saikoro.transfer.model import (
    UDONARIUM_IMAGE,
    UDONARIUM_PREFIX,
    Param,
    PortableCharacter,
    Resource,
)

MAX_XML_BYTES = 5 * 1024 * 1024
MAX_ZIP_BYTES = 50 * 1024 * 1024
MAX_ZIP_ENTRIES = 2000
#: The zip's central directory (the list of its files) is read only when this small.
MAX_ZIP_DIRECTORY_BYTES = 1024 * 1024
#: Elements and nesting of one XML file (a room file with many pieces is far below).
MAX_XML_ELEMENTS = 50_000
MAX_XML_NESTING = 64
MAX_DEPTH = 32
EXTRAS_SECTION = "saikoro"
RESOURCE_SECTION = "リソース"
PARAM_SECTION = "能力値"
INFO_SECTION = "情報"
#: Udonarium's own image for a piece without one.
NO_IMAGE = "none_icon"
#: What Ccfolia2Udonarium writes for "no image", and the section it puts CCFOLIA's params in.
CONVERTER_NO_IMAGE = "dummy"
CONVERTER_PARAMS = "パラメータ"
IMAGE_FIELD = UDONARIUM_IMAGE.removeprefix(UDONARIUM_PREFIX)
#: Compression methods read (Udonarium writes stored or deflate; others are refused,
#: so no decompressor can expand a small member without bound).
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_FEED_CHUNK = 64 * 1024


# -- reading -------------------------------------------------------------------------------

_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_EOCD = struct.Struct("<4sQ2H2L4Q")


def zip_directory_size(raw: bytes) -> tuple[int, int]:
    """(entries, bytes) of the zip's central directory, from its end record alone.

    Read before :mod:`zipfile` builds one object per entry, so a zip declaring half a
    million entries is refused without reading them. The end record is found as
    :mod:`zipfile` finds it (the last 22 bytes, else the last signature in the comment).
    """
    at = len(raw) - _EOCD.size
    if not (at >= 0 and raw[at : at + 4] == b"PK\x05\x06" and raw[-2:] == b"\0\0"):
        at = raw.rfind(b"PK\x05\x06", max(0, len(raw) - _EOCD.size - 0xFFFF))
    if at < 0 or at + _EOCD.size > len(raw):
        raise bad_file("zip として読めません (終端がありません)", "not a valid zip (no end record)")
    _sig, _disk, _start, _here, entries, size, _offset, _comment = _EOCD.unpack_from(raw, at)
    locator = at - _ZIP64_LOCATOR.size
    record = locator - _ZIP64_EOCD.size
    if (
        record >= 0
        and raw[locator : locator + 4] == b"PK\x06\x07"
        and raw[record : record + 4] == b"PK\x06\x06"
    ):
        fields = _ZIP64_EOCD.unpack_from(raw, record)
        entries, size = fields[7], fields[8]
    return entries, size


def read_xml_from_zip(raw: bytes) -> bytes:
    """``data.xml`` (or the only ``.xml``) of a Udonarium zip, size-bounded."""
    if len(raw) > MAX_ZIP_BYTES:
        raise bad_file("zip が大きすぎます (50 MB まで)", "zip too large (at most 50 MB)")
    entries, directory = zip_directory_size(raw)
    if entries > MAX_ZIP_ENTRIES or directory > MAX_ZIP_DIRECTORY_BYTES:
        raise bad_file(
            f"zip のファイル数が多すぎます ({MAX_ZIP_ENTRIES} 個まで)",
            f"too many files in the zip (at most {MAX_ZIP_ENTRIES})",
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,  # "zip file version 24.6"
        EOFError,
        struct.error,
        ValueError,
        OSError,
    ):
        raise bad_file(
            "zip として読めません (壊れているか、途中で切れているか、対応していない形式です)。"
            + _SAVE_AGAIN[0],
            "not a valid zip (it is damaged, cut short or of a kind not supported): "
            + _SAVE_AGAIN[1],
        ) from None
    with archive:
        entries_read = archive.infolist()
        if len(entries_read) > MAX_ZIP_ENTRIES:
            raise bad_file(
                f"zip のファイル数が多すぎます ({MAX_ZIP_ENTRIES} 個まで)",
                f"too many files in the zip (at most {MAX_ZIP_ENTRIES})",
            )
        check_entry_names([entry.filename for entry in entries_read])
        xmls = [e for e in entries_read if e.filename.lower().endswith(".xml") and not e.is_dir()]
        named = [e for e in xmls if e.filename.replace("\\", "/").rsplit("/", 1)[-1] == "data.xml"]
        if len(named) > 1:
            raise bad_file(
                f"zip に data.xml が {len(named)} つあります: どれを読むか決められないので"
                f"取り込みません。{_SAVE_AGAIN[0]}",
                f"the zip holds {len(named)} files named data.xml: which one to read is"
                f" unclear, so nothing is imported; {_SAVE_AGAIN[1]}",
            )
        chosen = named[0] if named else (xmls[0] if len(xmls) == 1 else None)
        if chosen is None:
            raise bad_file(
                "zip に data.xml がありません (Udonarium のキャラクターではありません)",
                "the zip has no data.xml (not a Udonarium character)",
            )
        if chosen.compress_type not in ZIP_METHODS:
            name, method = shown(chosen.filename, 80), chosen.compress_type
            raise bad_file(
                f"{name} の圧縮方式 ({method}) は読めません (読めるのは無圧縮と deflate のみ)。"
                + _SAVE_AGAIN[0],
                f"{name} is compressed with method {method}, which is not read (only stored and"
                f" deflate are): {_SAVE_AGAIN[1]}",
            )
        if chosen.flag_bits & _ENCRYPTED:
            raise bad_file(
                "zip がパスワードで暗号化されています:"
                " パスワードなしで保存した zip を使ってください",
                "the zip is password-protected: use a zip saved without a password",
            )
        if chosen.file_size > MAX_XML_BYTES:
            raise bad_file(
                "data.xml が大きすぎます (5 MB まで)", "data.xml too large (at most 5 MB)"
            )
        try:
            with archive.open(chosen) as handle:
                data = handle.read(MAX_XML_BYTES + 1)  # the header may lie: read bounded
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            RuntimeError,
            OSError,
            ValueError,
            NotImplementedError,
        ):
            name = shown(chosen.filename, 80)
            raise bad_file(
                f"zip の {name} を展開できません (zip が壊れています)。{_SAVE_AGAIN[0]}",
                f"cannot extract {name} from the zip (it is damaged): {_SAVE_AGAIN[1]}",
            ) from None
        if len(data) > MAX_XML_BYTES:
            raise bad_file(
                "data.xml が大きすぎます (5 MB まで)", "data.xml too large (at most 5 MB)"
            )
        return data


#: Image files of a zip read for faces: their suffixes (Udonarium loads a file as an image
#: by its name's), the largest one read and how many.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_IMAGES = 64


def images_in_zip(raw: bytes) -> dict[str, bytes]:
    """The image files of a Udonarium zip by identifier: Udonarium names an image by the
    SHA-256 of its bytes (its ``imageIdentifier``), and saves it as ``IDENTIFIER.png``.
    Best effort, after :func:`read_xml_from_zip` took the zip: an image that cannot be read
    (too large, another compression, damaged) is left out, never an error."""
    found: dict[str, bytes] = {}
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError):
        return found
    with archive:
        entries = [
            e
            for e in archive.infolist()[:MAX_ZIP_ENTRIES]
            if e.filename.lower().endswith(IMAGE_SUFFIXES)
            and not e.is_dir()
            and e.compress_type in ZIP_METHODS
            and not e.flag_bits & _ENCRYPTED
            and e.file_size <= MAX_IMAGE_BYTES
        ]
        for entry in entries[:MAX_IMAGES]:
            try:
                with archive.open(entry) as handle:
                    data = handle.read(MAX_IMAGE_BYTES + 1)  # the header may lie
            except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, OSError, ValueError):
                continue
            if len(data) > MAX_IMAGE_BYTES:
                continue
            found[hashlib.sha256(data).hexdigest()] = data
            stem = entry.filename.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
            found.setdefault(stem, data)  # a zip written by another tool names it so
    return found


#: What to do about a file Udonarium did not write as it is.
_SAVE_AGAIN = (
    "Udonarium でキャラクター (または部屋) を保存し直してください",
    "save the character (or room) from Udonarium again",
)
#: The zip flag of an encrypted entry.
_ENCRYPTED = 0x1


def check_entry_names(names: list[str]) -> None:
    """Refuse a zip whose entries could be mistaken for one another or point outside it:
    two entries with one name (which one is read would depend on the reader), and absolute
    or ``..`` paths (written by no Udonarium; a path-traversal attempt)."""
    seen: set[str] = set()
    for name in names:
        path = name.replace("\\", "/")
        parts = path.split("/")
        if path.startswith("/") or re.match(r"[A-Za-z]:", path) or ".." in parts:
            raise bad_file(
                f"zip の中のファイル名 {shown(name, 80)} が zip の外を指しています"
                f" (絶対パスや .. は使えません)。{_SAVE_AGAIN[0]}",
                f"the zip entry {shown(name, 80)} points outside the zip (absolute paths and"
                f" .. are not allowed): {_SAVE_AGAIN[1]}",
            )
        key = "/".join(part for part in parts if part not in ("", ".")).casefold()
        if key in seen:
            raise bad_file(
                f"zip に同じ名前のファイル {shown(name, 80)} が 2 つあります: どちらを読むか"
                f"決められないので取り込みません。{_SAVE_AGAIN[0]}",
                f"the zip holds two files named {shown(name, 80)}: which one to read is"
                f" unclear, so nothing is imported; {_SAVE_AGAIN[1]}",
            )
        seen.add(key)


def parse_udonarium(raw: bytes) -> PortableCharacter:
    """The first character of a Udonarium zip or XML file's bytes."""
    return parse_udonarium_all(raw)[0]


def parse_udonarium_all(raw: bytes) -> list[PortableCharacter]:
    """Every character of a Udonarium zip or XML file (a room file holds several)."""
    xml = read_xml_from_zip(raw) if raw[:4] == b"PK\x03\x04" else raw
    if len(xml) > MAX_XML_BYTES:
        raise bad_file("XML が大きすぎます (5 MB まで)", "XML too large (at most 5 MB)")
    root = _parse_xml(xml)
    pieces = [root] if root.tag == "character" else list(root.iter("character"))
    if not pieces:
        raise bad_file(
            "<character> がありません (Udonarium のキャラクターではありません)",
            "no <character> element (not a Udonarium character)",
        )
    return [_read_character(piece) for piece in pieces]


def _read_character(character: Any) -> PortableCharacter:
    top = _child(character, "character")
    if top is None:
        raise bad_file(
            '<data name="character"> がありません', 'no <data name="character"> in <character>'
        )
    result = PortableCharacter(name="")
    image = _child(top, "image")
    identifier = _child(image, "imageIdentifier") if image is not None else None
    no_image = ("", NO_IMAGE, CONVERTER_NO_IMAGE)
    if identifier is not None and (identifier.text or "").strip() not in no_image:
        result.fields[UDONARIUM_IMAGE] = (identifier.text or "").strip()
    common = _child(top, "common")
    if common is not None:
        for leaf in common:
            name = leaf.get("name", "")
            text = leaf.text or ""
            if name == "name":
                result.name = text
            elif name != "size":
                result.params.append(Param(name, text, where="common"))
    detail = _child(top, "detail")
    if detail is not None:
        _read_section(detail, [], result)
    palette = character.find("chat-palette")
    if palette is not None:
        result.palette = palette.text or ""
        result.dicebot = palette.get("dicebot", "")
    return result


class _BoundedTreeBuilder(ElementTree.TreeBuilder):
    """A tree builder that refuses a document past :data:`MAX_XML_ELEMENTS` elements or
    :data:`MAX_XML_NESTING` levels while it is being parsed (memory stays bounded)."""

    def __init__(self) -> None:
        super().__init__()
        self.elements = 0
        self.depth = 0

    def start(self, tag: Any, attrs: Any) -> Any:
        self.elements += 1
        self.depth += 1
        if self.elements > MAX_XML_ELEMENTS:
            raise bad_file(
                f"XML の要素が多すぎます ({MAX_XML_ELEMENTS} 個まで)",
                f"too many XML elements (at most {MAX_XML_ELEMENTS})",
            )
        if self.depth > MAX_XML_NESTING:
            raise bad_file(
                f"XML の入れ子が深すぎます ({MAX_XML_NESTING} 段まで)",
                f"XML nested too deeply (at most {MAX_XML_NESTING} levels)",
            )
        return super().start(tag, attrs)

    def end(self, tag: Any) -> Any:
        self.depth -= 1
        return super().end(tag)


def _parse_xml(xml: bytes) -> Any:
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    parser = SafeET.XMLParser(target=_BoundedTreeBuilder())
    try:
        for start in range(0, len(xml), _FEED_CHUNK):
            parser.feed(xml[start : start + _FEED_CHUNK])
        return parser.close()
    except ElementTree.ParseError as error:
        raise _xml_error(error) from None
    except DefusedXmlException:  # billion laughs, external entities (XXE), DTD tricks
        raise bad_file(
            "XML に実体宣言 (<!ENTITY …>) や外部参照があるため、安全のため読みません"
            f" (Udonarium はこれを書きません)。{_SAVE_AGAIN[0]}",
            "the XML declares entities (<!ENTITY …>) or external references: refused for"
            f" safety (Udonarium never writes them); {_SAVE_AGAIN[1]}",
        ) from None
    except ValueError:
        raise bad_file(
            f"XML として読めません (書式が正しくありません)。{_SAVE_AGAIN[0]}",
            f"not valid XML (malformed): {_SAVE_AGAIN[1]}",
        ) from None
    except LookupError:  # an encoding Python does not know
        declared = _DECLARED_ENCODING.search(xml[:1024])
        name = shown(declared[1].decode("ascii", "replace"), 40) if declared else "?"
        raise bad_file(
            f"XML の文字コード {name} は読めません: UTF-8 で保存したファイルを使ってください",
            f"unknown XML encoding {name}: use the file saved as UTF-8",
        ) from None


_DECLARED_ENCODING = re.compile(rb"encoding\s*=\s*[\"']([^\"']*)")
_XML_MALFORMED = ("書式が正しくありません", "malformed")
#: The XML reader's (expat's) problems, in the user's words.
_XML_PROBLEMS: dict[str, tuple[str, str]] = {
    "no element found": ("空か、途中で終わっています", "it is empty or ends too early"),
    "syntax error": ("XML ではありません", "it is not XML"),
    "not well-formed (invalid token)": (
        "使えない文字か記号があります",
        "a character or symbol that XML does not allow",
    ),
    "unclosed token": ("タグが閉じていません", "a tag is not closed"),
    "mismatched tag": (
        "開始タグと終了タグが合っていません",
        "a closing tag does not match its opening tag",
    ),
    "junk after document element": (
        "最後の要素の後に余分な文字があります",
        "more text after the last element",
    ),
    "undefined entity": (
        "定義されていない文字参照 (&名前;) があります",
        "an undefined entity reference (&name;)",
    ),
    "duplicate attribute": ("同じ属性が 2 回あります", "an attribute is given twice"),
    "reference to invalid character number": (
        "使えない文字参照 (&#…;) があります",
        "a character reference (&#…;) to a character XML does not allow",
    ),
    "partial character": (
        "文字が途中で切れています (文字コードが宣言と合っていません)",
        "a character is cut short (the bytes do not match the declared encoding)",
    ),
    "encoding specified in XML declaration is incorrect": (
        "XML 宣言の文字コードが中身と合っていません",
        "the encoding in the XML declaration does not match the bytes",
    ),
    "unclosed CDATA section": ("CDATA が閉じていません", "a CDATA section is not closed"),
    "XML or text declaration not at start of entity": (
        "XML 宣言 (<?xml …?>) がファイルの先頭にありません",
        "the XML declaration (<?xml …?>) is not at the start of the file",
    ),
    "XML declaration not well-formed": (
        "XML 宣言 (<?xml …?>) の書き方が正しくありません",
        "the XML declaration (<?xml …?>) is malformed",
    ),
}


def _xml_error(error: ElementTree.ParseError) -> Exception:
    """A bilingual refusal for the XML reader's ``error``, where it is and what is wrong."""
    from xml.parsers.expat import errors

    what_ja, what_en = _XML_PROBLEMS.get(errors.messages.get(error.code, ""), _XML_MALFORMED)
    line, column = error.position
    return bad_file(
        f"XML として読めません ({line} 行 {column + 1} 文字目: {what_ja})。{_SAVE_AGAIN[0]}",
        f"not valid XML (line {line}, column {column + 1}: {what_en}): {_SAVE_AGAIN[1]}",
    )


def _child(element: Any, name: str) -> Any:
    for child in element:
        if child.tag == "data" and child.get("name") == name:
            return child
    return None


def _read_section(section: Any, path: list[str], result: PortableCharacter) -> None:
    if len(path) > MAX_DEPTH:
        raise bad_file(
            f"detail の入れ子が深すぎます ({MAX_DEPTH} 段まで)",
            f"detail sections are nested too deeply (at most {MAX_DEPTH})",
        )
    for item in section:
        if item.tag != "data":
            continue
        name = item.get("name", "")
        kind = item.get("type", "")
        if len(item) and not kind:
            _read_section(item, [*path, name], result)
            continue
        text = item.text or ""
        if kind == "note" and result.extras is None and path != [EXTRAS_SECTION]:
            # saikoro's block in a note (CCFOLIA's memo, moved into 情報/説明 by the
            # Ccfolia2Udonarium converter): the note's other text is the memo.
            memo, system, extras = split_memo(text)
            if extras is not None:
                result.extras, result.extras_system = extras, system
                result.memo = memo
                continue
        if path == [CONVERTER_PARAMS] and name == "initiative" and not kind:
            with contextlib.suppress(ValueError):  # the converter's copy of CCFOLIA's
                result.initiative = int(text.strip())
                continue
        if path == [EXTRAS_SECTION] and kind == "note" and result.extras is None:
            try:
                extras = load_json(text)
            except InvalidJson:
                extras = None
            if isinstance(extras, dict):
                result.extras, result.extras_system = extras, name
                continue
        if kind == "numberResource":
            result.resources.append(Resource(name, item.get("currentValue", text), text))
        elif kind in ("image", "url") and not text.strip():
            continue
        else:
            result.params.append(Param(name, text, where="/".join(path)))


# -- writing -------------------------------------------------------------------------------


_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """Text XML 1.0 can carry (what it cannot is dropped; saikoro's block keeps the exact value)."""
    return _XML_FORBIDDEN.sub("", text)


def _data(parent: Any, name: str, text: str | None = None, **attrs: str) -> Any:
    element = ElementTree.SubElement(parent, "data")
    for key, value in attrs.items():
        element.set(key, xml_text(value))
    element.set("name", xml_text(name))
    if text is not None:
        element.text = xml_text(text)
    return element


def _section(detail: Any, where: str, made: dict[str, Any]) -> Any:
    """The section ``a/b`` of ``detail`` (nested, each made once)."""
    parent, path = detail, ""
    for part in where.split("/"):
        path = f"{path}/{part}"
        if path not in made:
            made[path] = _data(parent, part)
        parent = made[path]
    return parent


def render_udonarium_xml(character: PortableCharacter) -> bytes:
    root = ElementTree.Element(
        "character",
        {
            "location.name": "table",
            "location.x": "0",
            "location.y": "0",
            "posZ": "0",
            "rotate": "0",
            "roll": "0",
        },
    )
    top = _data(root, "character")
    image = _data(top, "image")
    own, extras = character.own_fields(UDONARIUM_PREFIX)
    identifier = own.get(IMAGE_FIELD, "").strip() or NO_IMAGE
    _data(image, "imageIdentifier", identifier, type="image")
    common = _data(top, "common")
    _data(common, "name", character.name)
    _data(common, "size", "1")
    detail = _data(top, "detail")
    if character.resources:
        section = _data(detail, RESOURCE_SECTION)
        for resource in character.resources:
            _data(
                section,
                resource.label,
                resource.max,
                type="numberResource",
                currentValue=resource.value,
            )
    groups: dict[str, list[Param]] = {}
    for param in character.params:
        groups.setdefault(param.where or PARAM_SECTION, []).append(param)
    made: dict[str, Any] = {}
    for where, params in groups.items():
        section = _section(detail, where, made)
        for param in params:
            if "\n" in param.value:
                _data(section, param.label, param.value, type="note")
            else:
                _data(section, param.label, param.value)
    if character.memo:
        _data(_data(detail, INFO_SECTION), "メモ", character.memo, type="note")
    if extras:
        section = _data(detail, EXTRAS_SECTION)
        block = dump_json(extras, separators=(",", ":"))
        if _XML_FORBIDDEN.search(block):  # keep it exact: escape everything non-ASCII
            block = json.dumps(extras, separators=(",", ":"))
        _data(section, character.extras_system or "", block, type="note")
    palette = ElementTree.SubElement(root, "chat-palette", {"dicebot": character.dicebot})
    palette.text = xml_text(character.palette)
    ElementTree.indent(root, space="  ")
    body: bytes = ElementTree.tostring(root, "utf-8")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + body


def render_udonarium_zip(character: PortableCharacter, image: FaceFile | None = None) -> bytes:
    """The character's zip; with ``image``, its face beside ``data.xml`` as Udonarium saves
    one: ``SHA256.png`` (of its bytes), named by the character's ``imageIdentifier``."""
    if image is not None:
        character = replace(
            character, fields={**character.fields, UDONARIUM_IMAGE: image.identifier}
        )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.xml", render_udonarium_xml(character))
        if image is not None:
            archive.writestr(image.file_name, image.data, zipfile.ZIP_STORED)
    return buffer.getvalue()


@dataclass(frozen=True)
class FaceFile:
    """An image written into a Udonarium zip: its bytes and their type (``image/png``)."""

    data: bytes
    content_type: str

    @property
    def identifier(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def file_name(self) -> str:
        suffix = {"image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}
        return f"{self.identifier}.{suffix.get(self.content_type, 'png')}"
