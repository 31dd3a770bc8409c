"""Form-encoded POST bodies are read as UTF-8, as BCDice-API (Sinatra/Rack) reads them.

``curl -d 'command=choice[はい,いいえ]'`` sends the UTF-8 bytes unescaped; Sinatra forces
every parameter to UTF-8 whatever the ``charset`` of the content type says, so the
choice answers in Japanese. Percent-escaped UTF-8 decodes the same.
"""

from __future__ import annotations

from urllib.parse import quote_plus

import pytest

FORM = "application/x-www-form-urlencoded"
CONTENT_TYPES = (FORM, f"{FORM}; charset=UTF-8", f"{FORM}; charset=utf-8")


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("escaped", [False, True], ids=["raw", "percent"])
def test_roll_form_body_is_utf8(client, dice, content_type: str, escaped: bool) -> None:
    command = "choice[はい,いいえ]"
    value = quote_plus(command) if escaped else command
    dice.next = [(2, 2)]
    response = client.post(
        "/v2/game_system/DiceBot/roll",
        content=f"command={value}".encode(),
        headers={"Content-Type": content_type},
    )
    assert response.status_code == 200, response.text
    assert response.json()["text"] == "(choice[はい,いいえ]) ＞ いいえ"


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("escaped", [False, True], ids=["raw", "percent"])
def test_original_table_form_body_is_utf8(client, dice, content_type: str, escaped: bool) -> None:
    table = "飲み物表\n1D2\n1:水\n2:緑茶\n"
    value = quote_plus(table) if escaped else table
    dice.next = [(2, 2)]
    response = client.post(
        "/v2/original_table",
        content=f"table={value}".encode(),
        headers={"Content-Type": content_type},
    )
    assert response.status_code == 200, response.text
    assert response.json()["text"] == "飲み物表(2) ＞ 緑茶"


def test_the_last_value_wins_and_the_body_beats_the_query(client, dice) -> None:
    dice.next = [(1, 2)]
    response = client.post(
        "/v2/game_system/DiceBot/roll?command=1D6",
        content="command=1D3&command=choice[あ,い]".encode(),
        headers={"Content-Type": FORM},
    )
    assert response.json()["text"] == "(choice[あ,い]) ＞ あ"


def test_bytes_that_are_not_utf8_do_not_crash(client, dice) -> None:
    response = client.post(
        "/v2/game_system/DiceBot/roll",
        content=b"command=choice[\xff,\xfe]",
        headers={"Content-Type": FORM},
    )
    assert response.status_code in (200, 400, 500)
    assert response.json()["ok"] in (True, False)
