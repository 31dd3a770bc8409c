"""An Udonarium room file brought to the web table (issue 23): the GM picks characters by
name or brings them all in as NPCs, and a player joins with one of them; without a choice
the refusal names the characters (and lists them for the page)."""

from __future__ import annotations

import base64
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

NAMES = ("アリス", "ボブ", "キャロル", "デイブ")


def piece(name: str) -> str:
    return (
        f'<character><data name="character"><data name="common"><data name="name">{name}'
        '</data></data><data name="detail"><data name="リソース">'
        '<data type="numberResource" currentValue="10" name="HP">10</data></data>'
        '<data name="能力値"><data name="体力">3</data><data name="技巧">2</data>'
        '<data name="理知">4</data></data></data></data>'
        '<chat-palette dicebot=""></chat-palette></character>'
    )


def room_zip() -> str:
    """A room file as Udonarium saves one (data.xml: <room> with the table and pieces)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        pieces = "".join(piece(name) for name in NAMES)
        archive.writestr("data.xml", f"<room><game-table/>{pieces}</room>")
        archive.writestr("fly_data.xml", "<fly/>")
    return base64.b64encode(buffer.getvalue()).decode()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    from saikoro.server import create_app

    with TestClient(create_app(db_url=str(tmp_path / "rooms.db"))) as client:
        yield client


@pytest.fixture
def room(web: TestClient) -> dict:
    response = web.post("/api/rooms", json={"name": "卓-udon", "system": "LittleWorld"})
    assert response.status_code == 201, response.text
    made = response.json()
    made["path"] = f"/api/rooms/{made['room']}"
    made["gm"] = {"Authorization": f"Bearer {made['gm_token']}"}
    return made


def characters(web: TestClient, room: dict) -> dict[str, str]:
    state = web.get(f"{room['path']}/state", headers=room["gm"]).json()
    return {c["name"]: c["side"] for c in state["characters"]}


def test_without_a_choice_the_refusal_names_the_characters(web: TestClient, room: dict) -> None:
    response = web.post(
        f"{room['path']}/characters", json={"character_base64": room_zip()}, headers=room["gm"]
    )
    assert response.status_code == 422
    body = response.json()
    assert body["reason"] == "several characters"
    assert body["characters"] == list(NAMES)
    assert "names" in body["messages"]["en"] and "all_npcs" in body["messages"]["en"]
    assert "キャロル" in body["messages"]["ja"]
    assert characters(web, room) == {}


def test_the_gm_brings_in_characters_by_name(web: TestClient, room: dict) -> None:
    response = web.post(
        f"{room['path']}/characters",
        json={"character_base64": room_zip(), "names": ["ボブ", "デイブ"], "side": "npc"},
        headers=room["gm"],
    )
    assert response.status_code == 201, response.text
    assert response.json()["added"] == ["ボブ", "デイブ"]
    assert characters(web, room) == {"ボブ": "npc", "デイブ": "npc"}


def test_the_gm_brings_in_all_as_npcs(web: TestClient, room: dict) -> None:
    response = web.post(
        f"{room['path']}/characters",
        json={"character_base64": room_zip(), "all_npcs": True},
        headers=room["gm"],
    )
    assert response.status_code == 201, response.text
    assert characters(web, room) == dict.fromkeys(NAMES, "npc")


def test_a_name_not_in_the_file_changes_nothing(web: TestClient, room: dict) -> None:
    response = web.post(
        f"{room['path']}/characters",
        json={"character_base64": room_zip(), "names": ["ボブ", "ゼルダ"]},
        headers=room["gm"],
    )
    assert response.status_code == 422
    assert "ゼルダ" in response.json()["messages"]["ja"]
    assert "アリス" in response.json()["messages"]["ja"]
    assert characters(web, room) == {}


def test_a_player_joins_with_one_of_them(web: TestClient, room: dict) -> None:
    refused = web.post(
        f"{room['path']}/join",
        json={"invite": room["invite_token"], "character_base64": room_zip()},
    )
    assert refused.status_code == 422 and refused.json()["characters"] == list(NAMES)
    joined = web.post(
        f"{room['path']}/join",
        json={"invite": room["invite_token"], "character_base64": room_zip(), "name": "キャロル"},
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["as"] == "キャロル"
    assert characters(web, room) == {"キャロル": "pc"}
