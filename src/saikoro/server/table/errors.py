"""The table API's refusals: an HTTP status, a machine ``reason`` and a bilingual message.

Every refusal is a JSON body ``{"ok": false, "reason": …, "message": "日本語 / English",
"messages": {"ja": …, "en": …}}`` (each language alone, for a page showing one).
A token is never part of a message (``message`` names the room at most).
"""

from __future__ import annotations

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

#: ``SaikoroError.reason`` (from the table core) → HTTP status. Anything else is 422.
STATUS_BY_REASON: dict[str, int] = {
    "unauthorized": 401,
    "forbidden": 403,
    "not gm": 403,
    "no such room": 404,
    "no such link": 404,
    "room exists": 409,
    "conflict": 409,
    "duplicate": 409,
    "reserved name": 409,
    "busy": 409,
    "rate limited": 429,
    "too many connections": 429,
    "no database": 503,
}


class TableApiError(SaikoroError):
    """A refusal of the table API with its HTTP status."""

    def __init__(
        self, status: int, reason: str, message: Message, retry_after: int | None = None
    ) -> None:
        super().__init__(message, reason=reason)
        self.status = status
        self.retry_after = retry_after


def status_for(error: SaikoroError) -> int:
    if isinstance(error, TableApiError):
        return error.status
    return STATUS_BY_REASON.get(error.reason, 422)


def refusal_body(error: SaikoroError) -> dict[str, object]:
    body: dict[str, object] = {
        "ok": False,
        "reason": error.reason,
        "message": error.message.both(),
        "messages": {"ja": error.message.ja, "en": error.message.en},
    }
    names = getattr(error, "names", None)  # a file of several characters: the choices
    if error.reason == "several characters" and isinstance(names, list):
        body["characters"] = names
    return body


def unauthorized() -> TableApiError:
    return TableApiError(
        401,
        "unauthorized",
        Message(
            "リンクのトークンがないか、無効です (取り消されたリンクかもしれません)",
            "missing or invalid link token (the link may have been revoked)",
        ),
    )


def no_such_room(room: str) -> TableApiError:
    return TableApiError(
        404, "no such room", Message(f"部屋 {room!r} はありません", f"no room named {room!r}")
    )


def rate_limited(retry_after: float) -> TableApiError:
    seconds = max(1, round(retry_after + 0.5))
    return TableApiError(
        429,
        "rate limited",
        Message(
            f"速すぎます。{seconds} 秒ほど待ってください",
            f"too many requests; wait about {seconds} s",
        ),
        retry_after=seconds,
    )


def too_many_connections(which: str) -> TableApiError:
    ja = "この部屋" if which == "room" else "このリンク"
    en = "this room" if which == "room" else "this link"
    return TableApiError(
        429,
        "too many connections",
        Message(f"{ja}の接続数が上限です", f"too many open connections for {en}"),
    )


def no_database() -> TableApiError:
    return TableApiError(
        503,
        "no database",
        Message(
            "このサーバーには卓のデータベースがありません (--db)",
            "this server has no table database (--db)",
        ),
    )
