"""``GET /api/rooms/{room}/palette``: the speaker's chat palette, each line resolved and with
its chance of success from saikoro's odds, for the GM and the character's own player only."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tests.server.table_live import Server, create_room, sheet, start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = Path(tmp_path_factory.mktemp("palette"))
    running = start_server(str(folder / "rooms.db"), folder, "--log-level", "warning")
    yield running
    running.stop()


def test_palette_lines_resolved_with_their_chance(server: Server) -> None:
    room = create_room(server.base, "LittleWorld")
    alice = room.join(sheet("alice"))
    name = alice.state()["you"]["characters"][0]
    values = next(c for c in alice.state()["characters"] if c["name"] == name)["values"]
    response = alice.http.get(f"{alice.path}/palette", params={"name": name})
    assert response.status_code == 200, response.text
    items = {item["line"]: item for item in response.json()["items"]}
    check = items["LW{体力}>=10 【体力】判定 目標値10"]
    assert check["command"] == f"LW{values['体力']}>=10"
    assert check["label"] == "【体力】判定 目標値10"
    # 2D6 + 体力 ≥ 10 (1D6 for an ability of 1): counted here, not by the odds code
    dice = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    wanted = Fraction(sum(a + b + values["体力"] >= 10 for a, b in dice), 36)
    assert values["体力"] > 1 and check["chance"] == pytest.approx(float(wanted))
    assert items["LW{体力} 【体力】判定"]["chance"] is None  # no target: no success to count
    assert not any(line.startswith("//") for line in items)


def test_only_the_gm_and_the_owner_see_a_palette(server: Server) -> None:
    room = create_room(server.base, "UnmeiD100")
    room.add_character((Path("examples") / "unmeid100" / "mob_goblin.json").read_text("utf-8"))
    player = room.join((Path("examples") / "unmeid100" / "pc_lina.yaml").read_text("utf-8"))
    path = f"{room.gm.path}/palette"
    gm_view = room.gm.http.get(path, params={"name": "ゴブリン"})
    assert gm_view.status_code == 200
    assert any(i["command"] == "FATE5" and i["chance"] == 0.25 for i in gm_view.json()["items"])
    assert player.http.get(path, params={"name": "ゴブリン"}).status_code == 403
    assert room.spectator.http.get(path, params={"name": "リナ"}).status_code == 403
    assert room.gm.http.get(path, params={"name": "いない"}).status_code == 404
    stranger = room.gm.http.get(
        path, params={"name": "リナ"}, headers={"Authorization": "Bearer x"}
    )
    assert stranger.status_code == 401
