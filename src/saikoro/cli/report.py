"""How the sub-commands print a :class:`~saikoro.errors.SaikoroError`, and text made safe
for a terminal."""

from __future__ import annotations

import json
import re
import sys

from saikoro.errors import SaikoroError

#: Control characters a terminal acts on (ESC starts ANSI/OSC sequences, CR overwrites the
#: line, C1 such as U+009B is CSI on some terminals); line feeds and tabs are kept.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_text(text: str) -> str:
    """``text`` with every control character shown as ``\\xNN`` (other people's chat must
    not clear the screen or set the window title). Stored data is left as it is."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match[0]):02x}", text)


def json_line(body: object) -> str:
    """JSON for a terminal or a pipe: C0 controls are escaped by JSON itself, C1 here."""
    text = json.dumps(body, ensure_ascii=False)
    return re.sub("[\x80-\x9f]", lambda match: f"\\u{ord(match[0]):04x}", text)


def print_error(error: SaikoroError, as_json: bool = False) -> None:
    """``{"ok": false, "reason", "message"}`` on stdout, else a bilingual line on stderr."""
    if as_json:
        body = {"ok": False, "reason": error.reason, "message": error.message.both()}
        print(json_line(body))
    else:
        print(f"エラー / error: {terminal_text(error.message.both())}", file=sys.stderr, flush=True)
