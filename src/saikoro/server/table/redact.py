"""Keep secrets out of the server's log: link tokens and database passwords.

uvicorn logs every request line with its query string (``GET /api/rooms/x/ws?token=…``);
:class:`RedactSecrets`, a logging filter on uvicorn's handlers, rewrites each record with
``token=…`` replaced by ``token=[redacted]``, a ``Bearer …`` value hidden, and the passwords
of a database URL hidden (before the ``@`` and as query parameters).
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

from saikoro.store.sql import hide_url_secrets

_TOKEN = re.compile(r"(?i)(\btoken=)[^&\s\"'#]+")
_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+")


def redact(text: str) -> str:
    text = _TOKEN.sub(r"\1[redacted]", text)
    text = _BEARER.sub(r"\1[redacted]", text)
    return hide_url_secrets(text)


class RedactSecrets(logging.Filter):
    """Redacts the message and each string argument (uvicorn's access formatter reads the
    arguments as a tuple, so their shape is kept)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactSecrets` on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_secrets"] = {"()": f"{__name__}.RedactSecrets"}
    for handler in config.get("handlers", {}).values():
        handler.setdefault("filters", []).append("redact_secrets")
    return config
