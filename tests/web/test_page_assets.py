"""The web table's page is served from the installed package, with nothing from elsewhere."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from fastapi.testclient import TestClient

from saikoro.server.app import create_app
from saikoro.systems import manifests

WEB = files("saikoro") / "web"
ASSETS = sorted(p.name for p in WEB.iterdir() if p.name.endswith((".html", ".js", ".css", ".svg")))


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_the_page_is_served_at_the_root_with_a_same_origin_policy(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<main id="room"' in response.text
    assert (
        "Hello. This is BCDice-API" in response.text
    )  # as BCDice-API's front page (health checks)
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy


@pytest.mark.parametrize("name", [n for n in ASSETS if n != "index.html"])
def test_every_asset_is_served_with_its_type(client: TestClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert response.content == WEB.joinpath(name).read_bytes()
    suffix = name.rsplit(".", 1)[1]
    assert {"js": "javascript", "css": "css", "svg": "svg", "html": "html"}[suffix] in (
        response.headers["content-type"]
    )


@pytest.mark.parametrize(
    "path",
    [
        "/static/..%2Fserver%2Fapp.py",
        "/static/__init__.py",
        "/static/.hidden.js",
        "/static/nope.js",
    ],
)
def test_nothing_else_is_served(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_page_names_only_its_own_files() -> None:
    """No CDN, font or image from elsewhere: no absolute URL in any file of the page, and every
    file the page loads or imports exists."""
    for name in ASSETS:
        text = re.sub(r'xmlns="[^"]*"', "", WEB.joinpath(name).read_text("utf-8"))  # a name only
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), name
        for ref in re.findall(r"(?:src|href)=\"/static/([^\"]+)\"", text):
            assert ref in ASSETS, (name, ref)
        for ref in re.findall(r"from '\./([^']+)'", text):
            assert ref in ASSETS, (name, ref)


@pytest.mark.parametrize("system", [m.id for m in manifests()])
def test_each_system_says_what_its_page_shows(client: TestClient, system: str) -> None:
    """``webtable.json`` of a system's folder: every button's ``{field}`` is a field of its
    group, every field is defined (``target``: another character) — or ``{}`` without one."""
    response = client.get(f"/api/systems/{system}/webtable")
    assert response.status_code == 200
    page = response.json()
    for group in page.get("actions", []):
        for name in group.get("fields", []):
            assert name == "target" or name in page["fields"], (system, name)
        for button in group["buttons"]:
            assert set(re.findall(r"\{(\w+)\}", button["line"])) <= set(group.get("fields", []))
            assert button["line"].startswith("/") and {"ja", "en"} <= set(button["label"])


def test_an_unknown_system_has_no_page_data(client: TestClient) -> None:
    assert client.get("/api/systems/NoSuchSystem/webtable").status_code == 404


def test_the_input_line_takes_as_many_characters_as_the_api(client: TestClient) -> None:
    from saikoro.dice.normalize import MAX_INPUT_LENGTH

    line = re.search(r'<input id="line"[^>]*>', client.get("/").text)
    assert line is not None and f'maxlength="{MAX_INPUT_LENGTH}"' in line.group(0)
