"""Issue 21 (UnmeiD100): one room played through ``saikoro play`` (GM and player lines) and
the same through the server's table API in this process (FastAPI's TestClient, scripted dice).

Sheets (tests/table/sheets): リン (PC lv3, 運命10 → fate 50, 片手剣 1D8, 弓 1D6), ケン (PC lv2,
剣 2D6, every growth rate 0), ミア (PC lv1, chants 火球), オーク (mob, 斧 1D10, AC15 RC5, 運命4).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from saikoro.dice.randomizer import ScriptedSource
from tests.table.helpers import SHEETS, PlayedRoom, by_name, errors

UM = "UnmeiD100"


class PlayTable:
    """A room played with ``saikoro play``: the GM's lines, and a player's (``--as NAME``)."""

    def __init__(self, tmp_path: Path, sheets: tuple[str, ...] = ("rin", "orc")) -> None:
        self.room = PlayedRoom(str(tmp_path / "t.db"), UM, "r" + uuid.uuid4().hex[:6])
        self.room.play([f"/char add {SHEETS}/{name}.json" for name in sheets])

    def gm(self, lines: list[str], rands: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        return self.room.play(lines, list(rands), check=False)

    def player(
        self, name: str, lines: list[str], rands: tuple[str, ...] = ()
    ) -> list[dict[str, Any]]:
        return self.room.play(lines, list(rands), speaker=name, check=False)

    def chars(self) -> dict[str, dict[str, Any]]:
        return by_name(self.room.state())


def refused(out: list[dict[str, Any]]) -> list[str]:
    return [o["line"] for o in errors(out)]


class ApiTable:
    """The same room through the table API (``/api/rooms``), dice scripted per line."""

    def __init__(self, tmp_path: Path, sheets: tuple[str, ...] = ("rin", "orc")) -> None:
        from fastapi.testclient import TestClient

        from saikoro.server import create_app

        self.next: list[tuple[int, int]] = []
        app = create_app(str(tmp_path / "api.db"), source_factory=self._source)
        self.client = TestClient(app)
        self.client.__enter__()
        made = self.client.post(
            "/api/rooms", json={"name": "卓" + uuid.uuid4().hex[:6], "system": UM}
        )
        assert made.status_code == 201, made.text
        self.made = made.json()
        self.path = f"/api/rooms/{self.made['room']}"
        self.tokens: dict[str, str] = {}
        for name in sheets:
            text = (SHEETS / f"{name}.json").read_text("utf-8")
            if name == "orc":
                added = self.client.post(
                    f"{self.path}/characters",
                    json={"character": text, "side": "npc"},
                    headers=self._auth(self.made["gm_token"]),
                )
                assert added.status_code == 201, added.text
            else:
                joined = self.client.post(
                    f"{self.path}/join",
                    json={"invite": self.made["invite_token"], "character": text},
                )
                assert joined.status_code == 200, joined.text
                self.tokens[joined.json()["as"]] = joined.json()["token"]

    def _source(self) -> ScriptedSource:
        source, self.next = ScriptedSource(self.next), []
        return source

    @staticmethod
    def _auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def line(self, line: str, rands: tuple[str, ...] = (), who: str | None = None) -> dict:
        """One line as the GM (``who`` None) or as the player of ``who``; the outcome body."""
        self.next = [(int(v), int(s)) for v, s in (r.split("/") for r in rands)]
        token = self.made["gm_token"] if who is None else self.tokens[who]
        response = self.client.post(
            f"{self.path}/lines", json={"line": line}, headers=self._auth(token)
        )
        assert response.status_code in (200, 403, 409, 422), response.text
        return dict(response.json())

    def chars(self) -> dict[str, dict[str, Any]]:
        state = self.client.get(f"{self.path}/state", headers=self._auth(self.made["gm_token"]))
        return {c["name"]: c for c in state.json()["characters"]}

    def close(self) -> None:
        self.client.__exit__(None, None, None)
