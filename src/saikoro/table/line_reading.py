"""Lines as a Japanese GM types them: a Japanese IME's full-width forms read as half-width.

``＠ギン　２Ｄ６＋｛体力｝＞＝８``, ``／char list`` and ``@ギン ：ＨＰ－１`` are read like
``@ギン 2D6+{体力}>=8``, ``/char list`` and ``@ギン :HP-1`` (UM-TABLE-01). Only the line's
structure is changed — the leading ＠, ／ and ：, the ideographic space, and the words of
a slash command or a status edit (full-width letters, digits and operators, through
:func:`saikoro.dice.normalize.to_half_width`). Character names are kept as typed (a name
may be written in full-width letters), and a chat line is logged as typed; a dice line is
read half-width by the dice engine itself (``{…}`` references included, see dispatch).
"""

from __future__ import annotations

import re
from collections.abc import Container

from saikoro.dice.normalize import to_half_width

#: The characters that start a line's structure: ＠ (speaker), ／ (command), ： (status edit).
_LEADERS = {"＠": "@", "／": "/", "：": ":"}


def _lead(text: str) -> str:
    return _LEADERS.get(text[:1], text[:1]) + text[1:] if text else text


def _words(text: str, names: Container[str]) -> str:
    """Each word half-width, except a character's name as typed and the free text of
    ``/gm note`` and of a whisper."""
    words = text.split()
    read = [w if w in names else to_half_width(w) for w in words]
    if [w.lower() for w in read[:2]] == ["/gm", "note"]:
        read[2:] = words[2:]
    if read[:1] and read[0].lower() in ("/whisper", "/w"):  # a whisper's text as typed
        read[2:] = words[2:]
    return " ".join(read)


#: ``@NAME:HP-1`` — a speaker, a colon and a status edit with no space between them.
_GLUED = re.compile(r"^[@＠](?P<name>[^\s:：]+)(?P<edit>[:：].*)$", re.DOTALL)
#: A status edit's form (``:HP-1``, ``:禁忌値=10``), read half-width.
_EDIT_FORM = re.compile(r"^:\s*[^\s+\-=:]+\s*(?:[+\-]\s*\d+|=\s*-?\d+)\s*$")


def split_glued_edit(line: str, names: Container[str]) -> str:
    """``@ギン:HP-1`` / ``＠ギン：ＨＰ－１`` (no space after the name, as an IME leaves it) read
    as ``@ギン :HP-1`` — only when the rest is a status edit, so a chat line with a colon
    (``@ギン:こんにちは``) stays as typed; a NAME of no character is then refused as any
    unknown ``@NAME`` is."""
    match = _GLUED.match(line)
    if match is None:
        return line
    name, edit = match.group("name"), to_half_width(match.group("edit"))
    if not _EDIT_FORM.match(edit):
        return line
    if name not in names and to_half_width(name) in names:
        name = to_half_width(name)
    return f"@{name} {edit}"


def read_structure(line: str, names: Container[str]) -> str:
    """``line`` with its structure characters half-width (see the module docstring)."""
    line = split_glued_edit(line.replace("\u3000", " ").strip(), names)
    if line.isascii():
        return line
    text = _lead(line.replace("\u3000", " ").strip())
    prefix = ""
    if text.startswith("@"):
        head, _, rest = text.partition(" ")
        if head[1:] not in names and to_half_width(head[1:]) in names:
            head = "@" + to_half_width(head[1:])
        prefix, text = head + " ", _lead(rest.strip())
    if text.startswith("/"):
        text = _words(text, names)
    elif text.startswith(":"):
        text = to_half_width(text)
    return (prefix + text).strip()
