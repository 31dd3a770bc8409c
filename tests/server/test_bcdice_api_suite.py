"""BCDice-API's own tests, translated, run against a real ``saikoro serve`` for every system.

The request/response pairs of bcdice/bcdice-api 3.0.0 ``test/test_api.rb`` (APITest) and
``test/test_api_v2.rb`` (V2APITest), one test here per Ruby test, with the same
assertions; where the Ruby test names a system (``DiceBot``) it runs for each system
saikoro has. ``test_detailed`` asks Cthulhu7th's ``CC1`` for a ``tens_d10`` die, as the
Ruby test does (saikoro offers Cthulhu7th's ``CC``); ``test_detailed_rands_of_each_system``
checks the contract of ``rands`` — ``{kind, sides, value}`` records — on each system's ``1D100``.
"""

from __future__ import annotations

import httpx
import pytest

from saikoro.systems import systems

SYSTEM_IDS = sorted(systems)

DRINKS = """飲み物表
1D6
1:水
2:緑茶
3:麦茶
4:コーラ
5:オレンジジュース
6:選ばれし者の知的飲料
"""


@pytest.fixture(scope="module")
def api(live_server: str) -> httpx.Client:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        yield client


def assert_boolean(value: object) -> None:
    assert value is True or value is False


# -- test_api.rb -------------------------------------------------------------------------


def test_ping(api: httpx.Client) -> None:
    response = api.get("/")
    assert response.status_code == 200
    assert response.text


def test_not_found(api: httpx.Client) -> None:
    response = api.get("/hogehoge")
    json = response.json()
    assert response.status_code == 404
    assert json["ok"] is False
    assert json["reason"] == "not found"


# -- test_api_v2.rb ----------------------------------------------------------------------


def test_version(api: httpx.Client) -> None:
    response = api.get("/v2/version")
    json = response.json()
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "bcdice" in json
    assert "api" in json


def test_game_system_list(api: httpx.Client) -> None:
    response = api.get("/v2/game_system")
    json = response.json()
    assert response.status_code == 200
    assert json["game_system"]
    assert isinstance(json["game_system"], list)
    first = json["game_system"][0]
    assert "name" in first and "id" in first and "sort_key" in first
    assert {s["id"] for s in json["game_system"]} == set(SYSTEM_IDS)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_game_system_info(api: httpx.Client, system_id: str) -> None:
    response = api.get(f"/v2/game_system/{system_id}")
    json = response.json()
    assert response.status_code == 200
    assert json["ok"]
    assert json["id"] == system_id
    for key in ("name", "command_pattern", "sort_key", "help_message"):
        assert isinstance(json[key], str) and json[key]


def assert_roll(response: httpx.Response, system_id: str) -> None:
    json = response.json()
    assert response.status_code == 200
    assert json["ok"]
    assert json["text"]
    assert json["secret"] is False
    assert_boolean(json["success"])
    assert_boolean(json["failure"])
    if system_id == "DiceBot":  # the Ruby test's system: no criticals for a plain 1D100
        assert json["critical"] is False and json["fumble"] is False
    else:  # a system may judge 1D100 checks (運命判定d100's 01-05 / 96-00)
        assert_boolean(json["critical"])
        assert_boolean(json["fumble"])
    assert isinstance(json["rands"], list)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_diceroll(api: httpx.Client, system_id: str) -> None:
    assert_roll(api.get(f"/v2/game_system/{system_id}/roll?command=1d100<=70"), system_id)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_diceroll_with_post(api: httpx.Client, system_id: str) -> None:
    response = api.post(f"/v2/game_system/{system_id}/roll", data={"command": "1d100<=70"})
    assert_roll(response, system_id)


def test_detailed(api: httpx.Client) -> None:
    response = api.get("/v2/game_system/Cthulhu7th/roll?command=CC1")
    json = response.json()
    assert response.status_code == 200
    assert json["ok"]
    assert [r for r in json["rands"] if r["kind"] == "tens_d10"]


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_detailed_rands_of_each_system(api: httpx.Client, system_id: str) -> None:
    response = api.get(f"/v2/game_system/{system_id}/roll", params={"command": "1D100"})
    json = response.json()
    assert response.status_code == 200
    assert json["ok"]
    assert json["rands"] == [{"kind": "normal", "sides": 100, "value": json["rands"][0]["value"]}]


def test_unexpected_game_system(api: httpx.Client) -> None:
    response = api.get("/v2/game_system/Hoge/roll?command=1d100<=70")
    json = response.json()
    assert response.status_code == 400
    assert json["ok"] is False
    assert json["reason"] == "unsupported game system"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_unexpected_command(api: httpx.Client, system_id: str) -> None:
    response = api.get(f"/v2/game_system/{system_id}/roll?command=a")
    json = response.json()
    assert response.status_code == 400
    assert json["ok"] is False
    assert json["reason"] == "unsupported command"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_no_command(api: httpx.Client, system_id: str) -> None:
    response = api.get(f"/v2/game_system/{system_id}/roll")
    json = response.json()
    assert response.status_code == 400
    assert json["ok"] is False
    assert json["reason"] == "unsupported command"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_blank_command(api: httpx.Client, system_id: str) -> None:
    response = api.get(f"/v2/game_system/{system_id}/roll?command=")
    json = response.json()
    assert response.status_code == 400
    assert json["ok"] is False
    assert json["reason"] == "unsupported command"


def test_original_table(api: httpx.Client) -> None:
    response = api.post("/v2/original_table", data={"table": DRINKS})
    json = response.json()
    assert response.status_code == 200
    assert json["ok"] is True
    assert isinstance(json["text"], str)
    assert json["text"].startswith("飲み物表(")
    assert isinstance(json["rands"], list)


# -- what BCDice-API's controller does beyond its tests (lib/bcdice_api/controller) ------


def test_version_keys_are_exactly_bcdice_apis(api: httpx.Client) -> None:
    assert api.get("/v2/version").json() == {"api": "3.0.0", "bcdice": "3.16.1"}


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_bcdice_version_command(api: httpx.Client, system_id: str) -> None:
    json = api.get(f"/v2/game_system/{system_id}/roll", params={"command": "BCDiceVersion"}).json()
    assert json["text"] == "BCDice 3.16.1" and json["rands"] == []


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_roll_bodies_have_only_bcdice_apis_keys(api: httpx.Client, system_id: str) -> None:
    json = api.get(f"/v2/game_system/{system_id}/roll", params={"command": "201D6"}).json()
    assert list(json) == [
        "ok",
        "text",
        "secret",
        "success",
        "failure",
        "critical",
        "fumble",
        "rands",
    ]
    extras = api.get(
        f"/v2/game_system/{system_id}/roll", params={"command": "201D6", "saikoro": "1"}
    ).json()
    assert extras["warnings"] and "rules" in extras  # saikoro's extras, asked for


def test_an_invalid_original_table_is_500_ok_false(api: httpx.Client) -> None:
    response = api.post("/v2/original_table", data={"table": "表\n1D6\n1:a"})
    assert response.status_code == 500 and response.json() == {"ok": False}
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_original_table_in_the_query(api: httpx.Client) -> None:
    response = api.post("/v2/original_table", params={"table": DRINKS})
    assert response.status_code == 200 and response.json()["text"].startswith("飲み物表(")


@pytest.mark.parametrize("path", ["/v2/version/", "/v2/game_system/", "/v2/game_system/DiceBot/"])
def test_a_trailing_slash_is_404_json_not_a_redirect(api: httpx.Client, path: str) -> None:
    response = api.get(path, follow_redirects=False)
    assert response.status_code == 404 and response.json() == {"ok": False, "reason": "not found"}


def test_head_requests_answer_200(api: httpx.Client) -> None:
    for path in ("/", "/v2/version", "/v2/game_system/DiceBot/roll?command=2D6"):
        assert api.head(path).status_code == 200, path
