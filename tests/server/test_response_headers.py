"""Every HTTP response says ``X-Content-Type-Options: nosniff`` (and CORS), errors included."""

from __future__ import annotations

import pytest

REQUESTS = [
    ("get", "/v2/version", None),
    ("get", "/v2/game_system", None),
    ("get", "/v2/game_system/DiceBot", None),
    ("get", "/v2/game_system/DiceBot/roll?command=1D6", None),  # the fast path
    ("get", "/v2/game_system/NoSuch/roll?command=1D6", None),  # 400
    ("post", "/v2/game_system/DiceBot/roll", {"command": "1D6"}),
    ("post", "/v2/original_table", {"table": "t\n1D6\n1:a"}),  # 500 {"ok": false}
    ("get", "/hogehoge", None),  # 404
    ("get", "/", None),
    ("get", "/openapi.json", None),
]


@pytest.mark.parametrize(("method", "path", "data"), REQUESTS)
def test_every_response_says_nosniff(client, dice, method: str, path: str, data) -> None:
    dice.next = [(3, 6)]
    response = client.request(method, path, data=data)
    assert response.headers.get("x-content-type-options") == "nosniff", response.status_code
    assert response.headers.get("access-control-allow-origin") == "*"


def test_a_preflight_says_nosniff(client) -> None:
    response = client.options(
        "/v2/game_system/DiceBot/roll", headers={"Access-Control-Request-Method": "POST"}
    )
    assert response.status_code == 204
    assert response.headers.get("x-content-type-options") == "nosniff"
