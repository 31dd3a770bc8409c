"""``saikoro serve`` wiring: options reach uvicorn and the app (uvicorn.run is replaced)."""

from __future__ import annotations

from typing import Any

import uvicorn
from typer.testing import CliRunner

from saikoro.cli.main import app


def test_serve_passes_host_port_and_db(monkeypatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(asgi_app: Any, **options: Any) -> None:
        seen["app"], seen["options"] = asgi_app, options

    monkeypatch.setattr(uvicorn, "run", fake_run)
    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--db", "rooms.sqlite"]
    )
    assert result.exit_code == 0, result.output
    assert seen["options"]["host"] == "0.0.0.0" and seen["options"]["port"] == 8123
    assert seen["app"].state.db_url == "rooms.sqlite"
    assert seen["app"].title == "saikoro BCDice-API"


def test_serve_defaults(monkeypatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda a, **o: seen.update(app=a, **o))
    assert CliRunner().invoke(app, ["serve"]).exit_code == 0
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8000)
    assert seen["app"].state.db_url is None


def test_bad_port_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2
