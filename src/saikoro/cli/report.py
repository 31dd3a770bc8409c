"""How the sub-commands print a :class:`~saikoro.errors.SaikoroError`."""

from __future__ import annotations

import json
import sys

from saikoro.errors import SaikoroError


def print_error(error: SaikoroError, as_json: bool = False) -> None:
    """``{"ok": false, "reason", "message"}`` on stdout, else a bilingual line on stderr."""
    if as_json:
        body = {"ok": False, "reason": error.reason, "message": error.message.both()}
        print(json.dumps(body, ensure_ascii=False))
    else:
        print(f"エラー / error: {error.message.both()}", file=sys.stderr, flush=True)
