"""Keep secrets out of the server's log: capability parameters, tokens, database passwords.

uvicorn logs every request line with its query string (``GET /api/rooms/x/ws?token=…``,
a page opened as ``/?room=…&invite=…``); :class:`RedactSecrets`, a logging filter on
uvicorn's handlers and saikoro's own logger, rewrites each record with the value of every
capability parameter (:data:`CAPABILITY_PARAMS`, and any parameter whose name contains one
of them, as ``invite_token``) replaced by ``[redacted]``, a ``Bearer …`` value hidden, and
the passwords of a database URL hidden (before the ``@`` and as query parameters).
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

from saikoro.store.sql import hide_url_secrets

#: The URL parameters that carry a capability (whoever holds the value may act): the one
#: list every redaction reads. A new kind of link adds its parameter here.
CAPABILITY_PARAMS: tuple[str, ...] = ("token", "invite")

_CAPABILITY = re.compile(
    r"(?i)((?<![\w.-])[\w.-]*(?:" + "|".join(CAPABILITY_PARAMS) + r")[\w.-]*=)[^&\s\"'#;]+"
)
_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+")


def redact(text: str) -> str:
    text = _CAPABILITY.sub(r"\1[redacted]", text)
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
    # saikoro's own records (a storage outage's detail, a worker's failure) go to the
    # server's error stream through the same filter.
    config.setdefault("loggers", {})["saikoro"] = {
        "handlers": ["default"],
        "level": "INFO",
        "propagate": False,
    }
    return config
