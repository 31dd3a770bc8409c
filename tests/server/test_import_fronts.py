"""One outcome on every front end for files players bring (issue 23).

A CCFOLIA file without HP is refused, naming HP and how to add it, by ``saikoro import``
and by the web table (join and the GM's add) alike — never a PC at a silent HP 0 — and
CCFOLIA JSON pasted with other text around it gets the CLI's useful message on the web.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from saikoro.cli.main import app as cli

HP_LESS = {
    "kind": "character",
    "data": {
        "name": "ノエル",
        "memo": "帽子屋の見習い",
        "status": [{"label": "MP", "value": 3, "max": 5}],
        "params": [
            {"label": "体力", "value": "3"},
            {"label": "技巧", "value": "2"},
            {"label": "理知", "value": "4"},
        ],
    },
}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    from saikoro.server import create_app

    with TestClient(create_app(db_url=str(tmp_path / "rooms.db"))) as client:
        yield client


def new_room(web: TestClient) -> dict:
    response = web.post("/api/rooms", json={"name": "卓-import", "system": "LittleWorld"})
    assert response.status_code == 201, response.text
    return response.json()


def cli_refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "piece.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "ccfolia", str(path), "-s", "LittleWorld"])
    assert result.exit_code == 1, result.output
    return result.stderr


def web_refusals(web: TestClient, text: str) -> list[dict]:
    room = new_room(web)
    path = f"/api/rooms/{room['room']}"
    joined = web.post(f"{path}/join", json={"invite": room["invite_token"], "character": text})
    added = web.post(
        f"{path}/characters",
        json={"character": text},
        headers={"Authorization": f"Bearer {room['gm_token']}"},
    )
    assert joined.status_code == added.status_code == 422, (joined.text, added.text)
    state = web.get(f"{path}/state", headers={"Authorization": f"Bearer {room['gm_token']}"})
    assert state.json()["characters"] == {} or state.json()["characters"] == []
    return [joined.json()["messages"], added.json()["messages"]]


def test_an_hp_less_ccfolia_file_is_refused_alike_by_cli_and_web(
    tmp_path: Path, web: TestClient
) -> None:
    text = json.dumps(HP_LESS, ensure_ascii=False)
    said = cli_refusal(tmp_path, text)
    assert "HP" in said and "ステータス" in said and "status" in said
    for messages in web_refusals(web, text):
        assert messages["ja"] in said and messages["en"] in said
        assert "HP" in messages["ja"] and "HP" in messages["en"]


def test_ccfolia_with_text_around_it_gets_the_clis_message_on_the_web(
    tmp_path: Path, web: TestClient
) -> None:
    piece = json.loads(json.dumps(HP_LESS))
    piece["data"]["status"] = [{"label": "HP", "value": 9, "max": 9}]
    text = "コピーしました:\n" + json.dumps(piece, ensure_ascii=False) + "\nよろしく"
    said = cli_refusal(tmp_path, text)
    assert "CCFOLIA" in said
    for messages in web_refusals(web, text):
        assert "mapping" not in messages["en"]
        assert messages["en"].split(": ", 1)[-1] in said, (messages, said)
        assert "CCFOLIA" in messages["ja"]
