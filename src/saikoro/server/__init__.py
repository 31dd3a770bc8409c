"""A BCDice-API v2 compatible HTTP server (FastAPI): ``create_app(db_url=None)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from saikoro.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from saikoro.server.app import create_app

        return create_app
    raise AttributeError(name)
