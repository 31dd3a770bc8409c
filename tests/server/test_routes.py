"""Every BCDice-API v2 route: exact JSON shapes, status codes and CORS headers."""

from __future__ import annotations

import re

import pytest

import saikoro
from saikoro.dice.commands.version import BCDICE_VERSION
from saikoro.server.routes_v2 import API_VERSION
from saikoro.systems import systems

SYSTEM_IDS = tuple(systems)  # every registered system, a new one included


def assert_cors(response) -> None:
    assert response.headers["access-control-allow-origin"] == "*"


def assert_json(response, status: int, body: dict) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == body
    assert_cors(response)


# -- version, admin, game systems -------------------------------------------------


def test_version(client) -> None:
    """BCDice-API 3.0.0 run with BCDice 3.16.1: a pair that exists, and only its two keys."""
    response = client.get("/v2/version")
    assert_json(response, 200, {"api": "3.0.0", "bcdice": "3.16.1"})
    assert list(response.json()) == ["api", "bcdice"]
    assert (API_VERSION, BCDICE_VERSION) == ("3.0.0", "3.16.1")
    assert_json(
        client.get("/v2/version", params={"saikoro": "1"}),
        200,
        {"api": API_VERSION, "bcdice": BCDICE_VERSION, "saikoro": saikoro.__version__},
    )


def test_admin_from_environment(client, monkeypatch) -> None:
    monkeypatch.setenv("SAIKORO_ADMIN_NAME", "サイコロ管理人")
    monkeypatch.setenv("SAIKORO_ADMIN_URL", "https://example.org/terms")
    monkeypatch.setenv("SAIKORO_ADMIN_EMAIL", "gm@example.org")
    assert_json(
        client.get("/v2/admin"),
        200,
        {"name": "サイコロ管理人", "url": "https://example.org/terms", "email": "gm@example.org"},
    )


def test_admin_unset_is_empty_strings(client, monkeypatch) -> None:
    for key in ("NAME", "URL", "EMAIL"):
        monkeypatch.delenv(f"SAIKORO_ADMIN_{key}", raising=False)
        monkeypatch.delenv(f"BCDICE_API_ADMIN_{key}", raising=False)
    assert_json(client.get("/v2/admin"), 200, {"name": "", "url": "", "email": ""})


def test_game_system_list_sorted_by_sort_key(client) -> None:
    response = client.get("/v2/game_system")
    assert response.status_code == 200
    assert_cors(response)
    body = response.json()
    assert list(body) == ["game_system"]
    entries = body["game_system"]
    assert all(list(e) == ["id", "name", "sort_key"] for e in entries)
    assert [e["sort_key"] for e in entries] == sorted(e["sort_key"] for e in entries)
    by_id = {e["id"]: e for e in entries}
    assert set(SYSTEM_IDS) <= set(by_id)
    for system_id in SYSTEM_IDS:
        system = systems[system_id]
        assert by_id[system_id] == {
            "id": system.id,
            "name": system.name,
            "sort_key": system.sort_key,
        }
    assert by_id["LittleWorld"]["name"] == "帽子世界TRPG"
    assert by_id["UnmeiD100"] == {
        "id": "UnmeiD100",
        "name": "運命判定d100",
        "sort_key": "うんめいはんていD100",
    }


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_game_system_info(client, system_id: str) -> None:
    system = systems[system_id]
    response = client.get(f"/v2/game_system/{system_id}")
    assert_json(
        response,
        200,
        {
            "ok": True,
            "id": system_id,
            "name": system.name,
            "sort_key": system.sort_key,
            "command_pattern": system.command_pattern.pattern,
            "help_message": system.help_message,
        },
    )
    body = response.json()
    assert body["help_message"] and body["command_pattern"].startswith("^S?(")


def test_unknown_game_system(client) -> None:
    body = {"ok": False, "reason": "unsupported game system"}
    assert_json(client.get("/v2/game_system/Hoge"), 400, body)
    assert_json(client.get("/v2/game_system/Hoge/roll", params={"command": "1d100<=70"}), 400, body)
    assert_json(client.post("/v2/game_system/Hoge/roll", data={"command": "1d100<=70"}), 400, body)
    # IDs are exact, as BCDice's registry.
    assert_json(client.get("/v2/game_system/littleworld"), 400, body)


# -- roll ----------------------------------------------------------------------------


def expected_roll(command: str, system: str, rands: list[tuple[int, int]]) -> dict:
    result = saikoro.roll(command, system, rands=rands)
    assert result is not None
    return result.to_json()


def test_roll_get_exact_body(client, dice) -> None:
    dice.next = [(3, 6), (4, 6)]
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": "2D6>=7"})
    body = expected_roll("2D6>=7", "DiceBot", [(3, 6), (4, 6)])
    assert_json(response, 200, body)
    got = response.json()
    assert list(got) == [
        "ok",
        "text",
        "secret",
        "success",
        "failure",
        "critical",
        "fumble",
        "rands",
    ]
    assert got["ok"] is True and got["success"] is True and got["failure"] is False
    assert got["secret"] is False and got["critical"] is False and got["fumble"] is False
    assert got["rands"] == [
        {"kind": "normal", "sides": 6, "value": 3},
        {"kind": "normal", "sides": 6, "value": 4},
    ]
    assert "＞" in got["text"] and got["text"].endswith("成功")
    assert dice.sources[-1].remaining == 0


def test_roll_post_form_body(client, dice) -> None:
    dice.next = [(1, 100)]
    response = client.post("/v2/game_system/DiceBot/roll", data={"command": "1d100<=70"})
    assert_json(response, 200, expected_roll("1d100<=70", "DiceBot", [(1, 100)]))
    assert response.json()["success"] is True


def test_roll_post_with_query_parameter(client, dice) -> None:
    dice.next = [(99, 100)]
    response = client.post("/v2/game_system/DiceBot/roll", params={"command": "1D100<=70"})
    assert_json(response, 200, expected_roll("1D100<=70", "DiceBot", [(99, 100)]))
    assert response.json()["failure"] is True


def test_roll_secret(client, dice) -> None:
    dice.next = [(2, 6), (5, 6)]
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": "S2D6"})
    assert response.status_code == 200
    assert response.json() == expected_roll("S2D6", "DiceBot", [(2, 6), (5, 6)])
    assert response.json()["secret"] is True


def test_roll_full_width_command(client, dice) -> None:
    dice.next = [(6, 6), (6, 6)]
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": "２Ｄ６＞＝７"})
    assert response.status_code == 200
    assert response.json()["rands"] == [
        {"kind": "normal", "sides": 6, "value": 6},
        {"kind": "normal", "sides": 6, "value": 6},
    ]


@pytest.mark.parametrize("params", [{"command": "a"}, {}, {"command": ""}])
def test_unsupported_command(client, params: dict) -> None:
    body = {"ok": False, "reason": "unsupported command"}
    assert_json(client.get("/v2/game_system/DiceBot/roll", params=params), 400, body)
    assert_json(client.post("/v2/game_system/DiceBot/roll", data=params), 400, body)


def test_a_1202_character_command_is_accepted(client, dice) -> None:
    """BCDice-API accepts it (no length limit of its own); saikoro did not (1000)."""
    command = "1D6+" * 300 + "10"
    assert len(command) == 1202
    dice.next = [(1, 6)] * 300
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": command})
    assert response.status_code == 200, response.text
    assert response.json()["text"].endswith(" ＞ 310")


def test_too_long_command_is_a_clear_400(client) -> None:
    command = "1D6+" * 2600 + "1"
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": command})
    assert_json(response, 400, {"ok": False, "reason": "input too long"})
    response = client.post(
        "/v2/game_system/DiceBot/roll", params={"saikoro": "1"}, data={"command": command}
    )
    assert response.status_code == 400
    body = response.json()
    assert body["reason"] == "input too long" and "10240" in body["message"]
    assert_cors(response)


HOSTILE = [
    "9999999999999999999D9999999999",
    "201D6",
    "200D10000",
    "200D6+200D6+200D6+200D6+200D6+200D6+200D6+200D6+200D6+200D6",
    "x100 200D6",
    "200U2[2]",
    "200R2[2]>=1",
    "(" * 400 + "1D6" + ")" * 400,
    "1D6" + "*9999999" * 100,
    "C(" + "9" * 900 + "*" + "9" * 90 + ")",
    "choice[" + "a," * 400 + "b]",
    "1D6/0",
    "D66" * 300,
    "\x00\x01\x02\u202e1D6",
]


@pytest.mark.parametrize("command", HOSTILE)
def test_hostile_commands_answer_fast(command: str) -> None:
    from fastapi.testclient import TestClient

    from saikoro.server import create_app

    with TestClient(create_app()) as client:
        response = client.get("/v2/game_system/DiceBot/roll", params={"command": command})
    # Not 503: answered within the pool's deadline (the work each costs is bounded by
    # tests/dice/test_hostile.py, counted rather than timed).
    assert response.status_code in (200, 400, 500), response.text
    assert response.json()["ok"] is (response.status_code == 200)
    if response.status_code == 500:  # where BCDice fails: BCDice-API's generic answer
        assert response.json() == {"ok": False}
    assert_cors(response)


def test_time_bound_gives_503(dice, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each die takes 1/16 s of an injected clock (the roller's deadline reads it): the
    0.2 s bound stops the command after its fourth die, not after 100."""
    import types

    from fastapi.testclient import TestClient

    from saikoro.server import create_app
    from saikoro.server import pool as pool_module

    now = [1000.0]
    monkeypatch.setattr(pool_module, "time", types.SimpleNamespace(monotonic=lambda: now[0]))

    class SlowSource:
        rolled = 0

        def roll(self, sides: int) -> int:
            SlowSource.rolled += 1
            now[0] += 1 / 16
            return 1

    app = create_app(source_factory=SlowSource, roll_timeout=0.2)
    with TestClient(app) as client:
        response = client.get("/v2/game_system/DiceBot/roll", params={"command": "100D6"})
    assert SlowSource.rolled == 4  # stopped at the bound, not after 100 dice
    assert response.status_code == 503
    assert response.json()["reason"] == "timeout"
    assert_cors(response)


# -- original table --------------------------------------------------------------------

DRINKS = (
    "飲み物表\n1D6\n1:水\n2:緑茶\n3:麦茶\n4:コーラ\n5:オレンジジュース\n6:選ばれし者の知的飲料\n"
)


def test_original_table(client, dice) -> None:
    dice.next = [(6, 6)]
    assert_json(
        client.post("/v2/original_table", data={"table": DRINKS}),
        200,
        {
            "ok": True,
            "text": "飲み物表(6) ＞ 選ばれし者の知的飲料",
            "rands": [{"kind": "normal", "sides": 6, "value": 6}],
        },
    )


def test_original_table_in_the_query(client, dice) -> None:
    """Sinatra's params merge query and body: BCDice-API reads the table from either."""
    dice.next = [(1, 6)]
    response = client.post("/v2/original_table", params={"table": DRINKS})
    assert_json(
        response,
        200,
        {
            "ok": True,
            "text": "飲み物表(1) ＞ 水",
            "rands": [{"kind": "normal", "sides": 6, "value": 1}],
        },
    )


def test_original_table_invalid(client, dice) -> None:
    """BCDice-API answers 500 {"ok": false} (clients read it as "unsupported table")."""
    gap = DRINKS.replace("3:麦茶\n", "")
    assert_json(client.post("/v2/original_table", data={"table": gap}), 500, {"ok": False})
    assert_json(client.post("/v2/original_table", data={}), 500, {"ok": False})
    explained = client.post("/v2/original_table", params={"saikoro": "1"}, data={"table": gap})
    assert explained.status_code == 400
    assert explained.json()["reason"] == "invalid table" and explained.json()["message"]
    assert_cors(explained)


@pytest.mark.parametrize("where", ["dice line", "row"])
def test_original_table_with_a_4301_digit_number(client, where: str) -> None:
    """Python refuses int(text) past 4300 digits: this was an internal error (500 with no body)."""
    huge = "9" * 4301
    table = f"表\n{huge}D6\n1:a" if where == "dice line" else f"表\n1D2\n1:a\n{huge}:b"
    response = client.post("/v2/original_table", data={"table": table})
    assert_json(response, 500, {"ok": False})  # an invalid table, as BCDice-API
    explained = client.post("/v2/original_table", params={"saikoro": "1"}, data={"table": table})
    assert explained.status_code == 400 and explained.json()["reason"] == "invalid table"


# -- errors for everything else ---------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/v1/names"),
        ("get", "/v2/"),
        ("get", "/v2/version/"),  # a trailing slash: 404 as BCDice-API, not a redirect
        ("get", "/v2/game_system/"),
        ("get", "/v2/game_system/DiceBot/"),
        ("get", "/v2/game_system/DiceBot/roll/"),
        ("post", "/v2/original_table/"),
        ("get", "/v2"),
        ("get", "/v2/game_system/DiceBot/roll/extra"),
        ("get", "/v2/original_table"),  # POST only, as BCDice-API
        ("post", "/v2/version"),
        ("delete", "/v2/game_system/DiceBot/roll"),
    ],
)
def test_not_found(client, method: str, path: str) -> None:
    response = client.request(method.upper(), path, follow_redirects=False)
    assert_json(response, 404, {"ok": False, "reason": "not found"})


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_root_answers_200_for_health_checks(client, method: str) -> None:
    """BCDice-API answers GET / (test_api.rb's test_ping); health checks use HEAD too."""
    response = client.request(method, "/")
    assert response.status_code == 200
    assert_cors(response)
    if method == "GET":
        assert response.text


@pytest.mark.parametrize("path", ["/v2/version", "/v2/game_system", "/v2/game_system/DiceBot"])
def test_head_of_the_v2_routes(client, path: str) -> None:
    response = client.head(path)
    assert response.status_code == 200 and not response.content
    assert_cors(response)


def test_front_page_is_html(client) -> None:
    """``/`` is the table's page (a small fallback page until the web table is installed)."""
    response = client.get("/")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")


def test_request_too_large(client) -> None:
    response = client.post("/v2/original_table", data={"table": "x" * (1024 * 1024)})
    assert response.status_code == 413
    assert response.json()["reason"] == "request too large"
    assert_cors(response)


def test_preflight(client) -> None:
    response = client.options(
        "/v2/game_system/DiceBot/roll",
        headers={"Origin": "https://udonarium.app", "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 204
    assert_cors(response)
    assert "POST" in response.headers["access-control-allow-methods"]


def test_openapi_documents_every_route(client) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert set(paths) == {
        "/v2/version",
        "/v2/admin",
        "/v2/game_system",
        "/v2/game_system/{id}",
        "/v2/game_system/{id}/roll",
        "/v2/original_table",
    }
    assert set(paths["/v2/game_system/{id}/roll"]) == {"get", "post"}
    roll = paths["/v2/game_system/{id}/roll"]["get"]
    assert {p["name"] for p in roll["parameters"]} == {"id", "command"}
    assert "400" in roll["responses"]


@pytest.mark.parametrize(
    ("system_id", "command", "rands"),
    [
        ("DiceBot", "2D6>=7", [(6, 6), (6, 6)]),
        ("DiceBot", "S1D100<=50", [(50, 100)]),
        ("DiceBot", "a", []),
        ("DiceBot", "", []),
        ("Hoge", "1D6", []),
        ("DiceBot", "1D6+" * 300 + "1", []),
        ("LittleWorld", "LWA3-2", [(6, 6), (6, 6)]),
        ("UnmeiD100", "MA60,30,12", [(12, 100)]),
    ],
)
def test_get_fast_path_answers_as_the_post_route(client, dice, system_id, command, rands) -> None:
    """GET is served by the fast path, POST by FastAPI: same status, body and headers."""
    dice.next = list(rands)
    got = client.get(f"/v2/game_system/{system_id}/roll", params={"command": command})
    dice.next = list(rands)
    posted = client.post(f"/v2/game_system/{system_id}/roll", data={"command": command})
    assert (got.status_code, got.json()) == (posted.status_code, posted.json())
    assert got.headers["content-type"] == posted.headers["content-type"] == "application/json"
    assert_cors(got)


def test_roll_post_multipart_form(client, dice) -> None:
    """Sinatra (BCDice-API) also reads multipart forms; so does saikoro."""
    dice.next = [(4, 6)]
    response = client.post(
        "/v2/game_system/DiceBot/roll",
        data={"command": "1D6"},
        files={"attachment": ("note.txt", b"ignored", "text/plain")},
    )
    assert response.headers["content-type"] == "application/json"
    assert_json(response, 200, expected_roll("1D6", "DiceBot", [(4, 6)]))


def test_chunked_request_too_large(client) -> None:
    """A body without Content-Length is counted while it streams."""

    def chunks():  # type: ignore[no-untyped-def]
        yield b"table="
        for _ in range(1100):
            yield b"x" * 1000

    response = client.post(
        "/v2/original_table",
        content=chunks(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 413
    assert response.json()["reason"] == "request too large"
    assert_cors(response)


def test_dicebot_help_is_bcdice_3_16_1s(client) -> None:
    """Clients show the help as BCDice-API gives it; saikoro's was an older BCDice text."""
    help_message = client.get("/v2/game_system/DiceBot").json()["help_message"]
    lines = help_message.split("\n")
    assert lines[0] == "3D6+1>=9 ：3d6+1で目標値9以上かの判定"
    assert "S3d6 ： 各コマンドの先頭に「S」を付けると他人結果の見えないシークレットロール" in lines
    assert "D66 ： D66ダイス。順序はゲームに依存。D66N：そのまま、D66A：昇順、D66D：降順" in lines
    assert help_message.endswith(
        "\n\n詳細は下記URLのコマンドガイドを参照\nhttps://docs.bcdice.org/\n"
    )
    assert len(lines) == 16


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@pytest.mark.parametrize("command", ["BCDiceVersion", "bcdiceversion 確認"])
def test_bcdice_version_command_in_every_system(client, system_id: str, command: str) -> None:
    response = client.get(f"/v2/game_system/{system_id}/roll", params={"command": command})
    assert_json(
        response,
        200,
        {
            "ok": True,
            "text": "BCDice 3.16.1",
            "secret": False,
            "success": False,
            "failure": False,
            "critical": False,
            "fumble": False,
            "rands": [],
        },
    )
    pattern = client.get(f"/v2/game_system/{system_id}").json()["command_pattern"]
    assert re.match(pattern, command, re.IGNORECASE)


def test_roll_bodies_carry_saikoros_extras_only_when_asked(client, dice) -> None:
    dice.next = []
    plain = client.get("/v2/game_system/DiceBot/roll", params={"command": "201D6"}).json()
    assert "warnings" not in plain and "rules" not in plain
    asked = client.get(
        "/v2/game_system/DiceBot/roll", params={"command": "201D6", "saikoro": "1"}
    ).json()
    assert asked["warnings"] == [
        "一度に振れるダイスは 200 個までです / at most 200 dice can be rolled at once"
    ]
    assert asked["rules"] == []


def test_bcdice_failures_are_500_ok_false_and_explained_on_request(client) -> None:
    response = client.get("/v2/game_system/DiceBot/roll", params={"command": "x100 10000U0[2]"})
    assert_json(response, 500, {"ok": False})
    explained = client.get(
        "/v2/game_system/DiceBot/roll", params={"command": "x100 10000U0[2]", "saikoro": "1"}
    )
    assert explained.status_code == 400
    assert explained.json()["reason"] == "too many dice" and explained.json()["message"]


def test_an_app_that_answers_nothing_gets_a_json_500_not_uvicorns_text() -> None:
    import asyncio

    from saikoro.server.middleware import ServerMiddleware

    async def silent(scope, receive, send) -> None:  # type: ignore[no-untyped-def]
        return None

    sent: list[dict] = []

    async def send(message) -> None:  # type: ignore[no-untyped-def]
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"", "headers": []}
    asyncio.run(ServerMiddleware(silent, 1024)(scope, None, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 500
    assert (b"access-control-allow-origin", b"*") in sent[0]["headers"]
    assert sent[1]["body"] == b'{"ok":false}'


@pytest.mark.parametrize("body", [b'{"name": "x", ', b"[1,2", b"not json"])
def test_a_malformed_json_body_is_a_json_400_on_the_table_api(client, body: bytes) -> None:
    """Not JSON at all: 400 with BCDice-API's error shape (it was 422, the table API's answer
    for a JSON body that fails the route's schema, which stays: docs/table-api.md)."""
    response = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["ok"] is False and response.json()["reason"] == "bad request"
    assert " / " in response.json()["message"]
    assert_cors(response)
    wrong_shape = client.post("/api/rooms", json={"name": "x"})
    assert wrong_shape.status_code == 422 and wrong_shape.json()["reason"] == "bad request"
