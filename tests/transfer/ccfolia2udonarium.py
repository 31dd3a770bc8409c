"""Shunshun94's Ccfolia2Udonarium converter, reimplemented from its documented behaviour.

Source: https://github.com/Shunshun94/shared , ``other/io/github/shunshun94/trpg/
Ccfolia2Udonarium/`` (``builder.js`` at commit 710ce4314a1c, the page at
https://shunshun94.github.io/shared/other/io/github/shunshun94/trpg/Ccfolia2Udonarium/).
What it does with a pasted CCFOLIA clipboard text (read from its source; no code copied):

- the piece's ``data`` (``{"kind": …, "data": {…}}``) becomes ``<character location.name=
  "table" location.x="0" location.y="0" posZ="0" rotate="0" roll="0">`` holding
  ``<data name="character">`` with an ``image`` section (``imageIdentifier`` "dummy"), a
  ``common`` section (``name``, "おなまえ" when empty; ``size`` 1) and a ``detail`` section;
- ``detail``: every ``status`` as a ``numberResource`` in section ``リソース``
  (``currentValue`` = value, text = max); every ``params`` entry as ``<data name=label>``
  in section ``パラメータ``, plus ``initiative`` there when it is not 0; a non-empty
  ``externalUrl`` as a note ``URL`` directly in ``detail``; a non-empty ``memo`` as the
  note ``説明`` in section ``情報``;
- ``commands`` as the ``<chat-palette>`` text (no ``dicebot`` attribute);
- the result is the element's HTML serialization (``outerHTML``, no XML declaration),
  with ``currentvalue``/``posz`` put back to ``currentValue``/``posZ``.

JavaScript's conversions are kept: an attribute of ``undefined`` is the text "undefined",
a ``textContent`` of null/undefined is empty, numbers print as JavaScript prints them.
"""

from __future__ import annotations

import json
from typing import Any


def _js(value: Any) -> str:
    """``String(value)`` as JavaScript writes it."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _text(value: Any) -> str:
    """What ``element.textContent = value`` leaves (null/undefined: nothing)."""
    return "" if value is None else _js(value)


def _escape_text(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("\xa0", "&nbsp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
    )


def _escape_attr(text: str) -> str:
    return text.replace("&", "&amp;").replace("\xa0", "&nbsp;").replace('"', "&quot;")


_MISSING = object()


def _data(attrs: list[tuple[str, Any]], inner: str = "") -> str:
    shown = "".join(
        f' {key}="{_escape_attr("undefined" if value is _MISSING else _js(value))}"'
        for key, value in attrs
    )
    return f"<data{shown}>{inner}</data>"


def _truthy(value: Any) -> bool:
    return value not in (None, "", 0, False, _MISSING) and value == value  # NaN is falsy


def convert(clipboard_text: str) -> str:
    """The XML the converter downloads for ``clipboard_text``."""
    data = json.loads(clipboard_text)["data"]
    image = _data(
        [("name", "image")], _data([("type", "image"), ("name", "imageIdentifier")], "dummy")
    )
    common = _data(
        [("name", "common")],
        _data([("name", "name")], _escape_text(_text(data.get("name") or "おなまえ")))
        + _data([("name", "size")], "1"),
    )
    detail = ""
    status = data.get("status") or []
    if status:
        detail += _data(
            [("name", "リソース")],
            "".join(
                _data(
                    [
                        ("type", "numberResource"),
                        ("currentValue", s.get("value", _MISSING)),
                        ("name", s.get("label", _MISSING)),
                    ],
                    _escape_text(_text(s.get("max"))),
                )
                for s in status
            ),
        )
    params = data.get("params") or []
    initiative = data.get("initiative")
    if params or _truthy(initiative):
        inner = "".join(
            _data([("name", p.get("label", _MISSING))], _escape_text(_text(p.get("value"))))
            for p in params
        )
        if _truthy(initiative):
            inner += _data([("name", "initiative")], _escape_text(_text(initiative)))
        detail += _data([("name", "パラメータ")], inner)
    if _truthy(data.get("externalUrl")):
        detail += _data(
            [("type", "note"), ("name", "URL")], _escape_text(_text(data["externalUrl"]))
        )
    if _truthy(data.get("memo")):
        detail += _data(
            [("name", "情報")],
            _data([("type", "note"), ("name", "説明")], _escape_text(_text(data["memo"]))),
        )
    character = _data([("name", "character")], image + common + _data([("name", "detail")], detail))
    palette = f"<chat-palette>{_escape_text(_text(data.get('commands') or ''))}</chat-palette>"
    return (
        '<character location.name="table" location.x="0" location.y="0" posZ="0" rotate="0"'
        f' roll="0">{character}{palette}</character>'
    )
