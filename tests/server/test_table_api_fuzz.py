"""Schemathesis drives the table API of a real ``saikoro serve`` from its OpenAPI document,
as the GM of a room: no 500s, the documented shapes, and every refusal a JSON body."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from .table_live import Room, Server, create_room, sheet, start_server


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Room]]:
    folder = Path(tmp_path_factory.mktemp("table-fuzz"))
    server = start_server(
        str(folder / "rooms.db"), folder, "--log-level", "warning", "--line-rate", "0",
        "--rooms-per-minute", "0",
    )  # fmt: skip
    try:
        room = create_room(server.base, name="fuzz")
        room.join(sheet("alice"))
        yield server, room
    finally:
        server.stop()


def test_table_api_fuzz(fuzzed: tuple[Server, Room]) -> None:
    server, room = fuzzed
    schema = schemathesis.openapi.from_url(f"{server.base}/openapi.json")
    operations = [
        result.ok() for result in schema.include(path_regex=r"^/api/rooms").get_all_operations()
    ]
    assert len(operations) >= 10
    headers = {"Authorization": f"Bearer {room.gm.token}"}

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=15,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def call(case) -> None:  # type: ignore[no-untyped-def]
            if "room" in (case.path_parameters or {}):
                case.path_parameters["room"] = room.name  # the room the token opens
            response = case.call(base_url=server.base, headers=headers)
            case.validate_response(response, checks=[not_a_server_error])
            if response.status_code >= 400:
                body = response.json()
                assert body["ok"] is False and body["reason"], body

        call()
