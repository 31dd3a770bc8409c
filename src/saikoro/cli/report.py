"""How the sub-commands print a :class:`~saikoro.errors.SaikoroError`, and text made safe
for a terminal."""

from __future__ import annotations

import json
import re
import sys

from saikoro.errors import SaikoroError

#: Bidirectional formatting characters (U+202E right-to-left override and the other
#: embeddings, overrides and isolates, the LRM/RLM/ALM marks): one in a player's chat would
#: reorder the rest of the line, and the lines after it, in the other people's terminals.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: Control characters a terminal acts on (ESC starts ANSI/OSC sequences, CR overwrites the
#: line, C1 such as U+009B is CSI on some terminals) and the bidi controls; line feeds and
#: tabs are kept.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """``text`` with every control character shown as ``\\xNN`` and every bidirectional
    formatting character as ``\\uNNNN`` (other people's chat must not clear the screen, set
    the window title or reverse the text shown). Stored data is left as it is."""
    return _UNSAFE.sub(_escape, text)


def json_line(body: object) -> str:
    """JSON for a terminal or a pipe: C0 controls are escaped by JSON itself, C1 controls
    and bidirectional formatting characters here (``\\uNNNN``, the same JSON value)."""
    text = json.dumps(body, ensure_ascii=False)
    return re.sub(f"[\x80-\x9f{BIDI_CONTROLS}]", lambda match: f"\\u{ord(match[0]):04x}", text)


def print_error(error: SaikoroError, as_json: bool = False) -> None:
    """``{"ok": false, "reason", "message"}`` on stdout, else a bilingual line on stderr."""
    if as_json:
        body = {"ok": False, "reason": error.reason, "message": error.message.both()}
        print(json_line(body))
    else:
        print(f"エラー / error: {terminal_text(error.message.both())}", file=sys.stderr, flush=True)
