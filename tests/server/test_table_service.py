"""The table service in one process: cached room sessions stay bounded and correct."""

from __future__ import annotations

from pathlib import Path

import pytest

from saikoro.server.table import service as service_module
from saikoro.server.table.service import TableService
from saikoro.table.actors import Actor
from saikoro.table.rooms import create_room


def test_room_sessions_are_a_bounded_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "MAX_CACHED_SESSIONS", 2)
    service = TableService(str(tmp_path / "rooms.db"))
    try:
        rooms = [
            service.room(create_room(service.store, f"卓{i}", "DiceBot").room) for i in range(3)
        ]
        for room in rooms:
            service.run_line(room, Actor.gm(), f"{room.name} です")
        assert list(service._sessions) == ["卓1", "卓2"]  # 卓0 was the least recently used
        result = service.run_line(rooms[0], Actor.gm(), "また 卓0")  # re-read from the store
        assert result.version == service.store.version(rooms[0]) == 3
        assert [e.data["text"] for _s, e in service.events_after(rooms[0], 1)] == [
            "卓0 です",
            "また 卓0",
        ]
        assert list(service._sessions) == ["卓2", "卓0"]
    finally:
        service.store.close()
