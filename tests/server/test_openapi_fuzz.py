"""Schemathesis drives the app from its own OpenAPI document: no crashes, documented shapes.

A 500 is allowed only as BCDice-API's own answer where BCDice fails (``{"ok": false}``,
e.g. an invalid original table) and never with a logged crash behind it.
"""

from __future__ import annotations

import logging

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import response_schema_conformance

from saikoro.server import create_app

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_fuzz(case, caplog: pytest.LogCaptureFixture) -> None:
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="saikoro.server"):
        response = case.call()
    assert not caplog.records, [record.getMessage() for record in caplog.records]
    if response.status_code == 500:
        assert response.json() == {"ok": False}
    case.validate_response(response, checks=[response_schema_conformance])
    assert response.headers.get("access-control-allow-origin") == ["*"]
