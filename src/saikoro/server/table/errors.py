"""The table API's refusals: an HTTP status, a machine ``reason`` and a bilingual message.

Every refusal is a JSON body ``{"ok": false, "reason": …, "message": "日本語 / English",
"messages": {"ja": …, "en": …}}`` (each language alone, for a page showing one).
A token is never part of a message (``message`` names the room at most).
"""

from __future__ import annotations

import logging

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

log = logging.getLogger("saikoro.server")

#: Seconds a client is asked to wait (``Retry-After``) when the storage is unavailable.
STORAGE_RETRY_AFTER = 30

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
    "too many rooms": 429,
    "room full": 409,
    "quota exceeded": 507,
    "event too large": 413,
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


def public_error(error: SaikoroError) -> SaikoroError:
    """What a client is told of ``error``. A database's refusal is the server's problem,
    not the caller's: an outage (full disk, read-only file, database down) is ``503
    storage unavailable`` with ``Retry-After``, a damaged record ``500 store error``; the
    message names no path, host or URL — those go to the server's log (its passwords
    already hidden by the store)."""
    from saikoro.store.sql import StorageUnavailableError, StoreError

    if not isinstance(error, StoreError):
        return error
    log.error("storage: %s", error.message.en)
    if isinstance(error, StorageUnavailableError):
        return TableApiError(
            503,
            "storage unavailable",
            Message(
                "サーバーが卓のデータを保存・読み込みできない状態です (サーバー側の問題です)。"
                f"何も書き込まれていません。{STORAGE_RETRY_AFTER} 秒ほどしてからもう一度送ってください",
                "the server cannot store or read the table's data right now (a problem on "
                f"the server's side); nothing was written. Try again in about "
                f"{STORAGE_RETRY_AFTER} s",
            ),
            retry_after=STORAGE_RETRY_AFTER,
        )
    return TableApiError(
        500,
        "store error",
        Message(
            "サーバーの卓のデータが読み込めません (サーバー側の問題です。管理者はサーバーのログを見てください)",
            "the server cannot read the table's data (a problem on the server's side; its "
            "administrator finds the cause in the server's log)",
        ),
    )


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
    if isinstance(error, TableApiError) and error.retry_after:
        body["retry_after"] = error.retry_after  # seconds (HTTP also sends Retry-After)
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


def room_full(most: int) -> TableApiError:
    return TableApiError(
        409,
        "room full",
        Message(
            f"この部屋の参加者は上限 ({most} 人) に達しています。GM は saikoro serve の "
            "--max-players で上限を上げられます",
            f"this room has its most players ({most}); the GM can raise it with saikoro "
            "serve's --max-players",
        ),
    )


def too_many_rooms(most: int) -> TableApiError:
    return TableApiError(
        429,
        "too many rooms",
        Message(
            f"このアドレスから作れる部屋は {most} 部屋までです (--rooms-per-address)",
            f"at most {most} rooms may be created from this address (--rooms-per-address)",
        ),
    )


def quota_exceeded(used: int, quota: int) -> TableApiError:
    mib = f"{quota / (1024 * 1024):.3g}"
    return TableApiError(
        507,
        "quota exceeded",
        Message(
            f"この部屋の記録は容量の上限 ({mib} MiB) に達しました。何も書き込まれていません。"
            "GM は saikoro serve の --room-quota-mb で上限を上げるか、新しい部屋を作れます",
            f"this room's record has reached its storage quota ({mib} MiB); nothing was "
            "written. The GM can raise it with saikoro serve's --room-quota-mb or open a "
            "new room",
        ),
    )
