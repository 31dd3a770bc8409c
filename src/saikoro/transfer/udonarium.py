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

import io
import json
import re
import zipfile
from typing import Any
from xml.etree import ElementTree

from saikoro.transfer.labels import bad_file, dump_json
from saikoro.transfer.model import Param, PortableCharacter, Resource

MAX_XML_BYTES = 5 * 1024 * 1024
MAX_ZIP_BYTES = 50 * 1024 * 1024
MAX_ZIP_ENTRIES = 2000
MAX_DEPTH = 32
EXTRAS_SECTION = "saikoro"
RESOURCE_SECTION = "リソース"
PARAM_SECTION = "能力値"
INFO_SECTION = "情報"


# -- reading -------------------------------------------------------------------------------


def read_xml_from_zip(raw: bytes) -> bytes:
    """``data.xml`` (or the only ``.xml``) of a Udonarium zip, size-bounded."""
    if len(raw) > MAX_ZIP_BYTES:
        raise bad_file("zip が大きすぎます (50 MB まで)", "zip too large (at most 50 MB)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile as error:
        raise bad_file(f"zip として読めません: {error}", f"not a valid zip: {error}") from None
    with archive:
        entries = archive.infolist()
        if len(entries) > MAX_ZIP_ENTRIES:
            raise bad_file("zip のファイル数が多すぎます", "too many files in the zip")
        xmls = [e for e in entries if e.filename.lower().endswith(".xml") and not e.is_dir()]
        chosen = next((e for e in xmls if e.filename.rsplit("/", 1)[-1] == "data.xml"), None)
        chosen = chosen or (xmls[0] if len(xmls) == 1 else None)
        if chosen is None:
            raise bad_file(
                "zip に data.xml がありません (Udonarium のキャラクターではありません)",
                "the zip has no data.xml (not a Udonarium character)",
            )
        if chosen.file_size > MAX_XML_BYTES:
            raise bad_file(
                "data.xml が大きすぎます (5 MB まで)", "data.xml too large (at most 5 MB)"
            )
        try:
            with archive.open(chosen) as handle:
                data = handle.read(MAX_XML_BYTES + 1)  # the header may lie: read bounded
        except (zipfile.BadZipFile, RuntimeError, OSError, NotImplementedError) as error:
            raise bad_file(
                f"zip を展開できません: {error}", f"cannot extract the zip: {error}"
            ) from None
        if len(data) > MAX_XML_BYTES:
            raise bad_file(
                "data.xml が大きすぎます (5 MB まで)", "data.xml too large (at most 5 MB)"
            )
        return data


def parse_udonarium(raw: bytes) -> PortableCharacter:
    """A character from a Udonarium zip or XML file's bytes."""
    xml = read_xml_from_zip(raw) if raw[:4] == b"PK\x03\x04" else raw
    if len(xml) > MAX_XML_BYTES:
        raise bad_file("XML が大きすぎます (5 MB まで)", "XML too large (at most 5 MB)")
    root = _parse_xml(xml)
    character = root if root.tag == "character" else root.find(".//character")
    if character is None:
        raise bad_file(
            "<character> がありません (Udonarium のキャラクターではありません)",
            "no <character> element (not a Udonarium character)",
        )
    top = _child(character, "character")
    if top is None:
        raise bad_file(
            '<data name="character"> がありません', 'no <data name="character"> in <character>'
        )
    result = PortableCharacter(name="")
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


def _parse_xml(xml: bytes) -> Any:
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    try:
        return SafeET.fromstring(xml)
    except (ElementTree.ParseError, DefusedXmlException, ValueError) as error:
        raise bad_file(f"XML として読めません: {error}", f"not valid XML: {error}") from None


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
        if path == [EXTRAS_SECTION] and kind == "note" and result.extras is None:
            try:
                extras = json.loads(text)
            except ValueError:
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
    _data(image, "imageIdentifier", "", type="image")
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
    for where, params in groups.items():
        section = _data(detail, where)
        for param in params:
            if "\n" in param.value:
                _data(section, param.label, param.value, type="note")
            else:
                _data(section, param.label, param.value)
    if character.memo:
        _data(_data(detail, INFO_SECTION), "メモ", character.memo, type="note")
    if character.extras:
        section = _data(detail, EXTRAS_SECTION)
        block = dump_json(character.extras, separators=(",", ":"))
        if _XML_FORBIDDEN.search(block):  # keep it exact: escape everything non-ASCII
            block = json.dumps(character.extras, separators=(",", ":"))
        _data(section, character.extras_system or "", block, type="note")
    palette = ElementTree.SubElement(root, "chat-palette", {"dicebot": character.dicebot})
    palette.text = xml_text(character.palette)
    ElementTree.indent(root, space="  ")
    body: bytes = ElementTree.tostring(root, "utf-8")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + body


def render_udonarium_zip(character: PortableCharacter) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.xml", render_udonarium_xml(character))
    return buffer.getvalue()
