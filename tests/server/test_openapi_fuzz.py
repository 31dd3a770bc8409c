"""Schemathesis drives the app from its own OpenAPI document: no 500s, documented shapes."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
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
def test_api_fuzz(case) -> None:
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
    assert response.headers.get("access-control-allow-origin") == ["*"]
