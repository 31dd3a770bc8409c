"""BCDice-API v2 response bodies, as pydantic models for the OpenAPI document.

The routes build their JSON directly (no validation on the hot path); these models
only describe it. Field names and types are BCDice-API's.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class VersionBody(BaseModel):
    api: str = Field(description="BCDice-API version this server is compatible with")
    bcdice: str = Field(description="BCDice version whose behaviour saikoro follows")
    saikoro: str | None = Field(default=None, description="saikoro's own version (?saikoro=1)")


class AdminBody(BaseModel):
    name: str
    url: str
    email: str


class GameSystemSummary(BaseModel):
    id: str
    name: str
    sort_key: str


class GameSystemListBody(BaseModel):
    game_system: list[GameSystemSummary]


class GameSystemInfoBody(BaseModel):
    ok: Literal[True]
    id: str
    name: str
    sort_key: str
    command_pattern: str = Field(
        description="Regex source; a text matching it (case-insensitively) may be a command"
    )
    help_message: str


class RandBody(BaseModel):
    kind: Literal["normal", "tens_d10", "d9"]
    sides: int
    value: int


class RollBody(BaseModel):
    ok: Literal[True]
    text: str
    secret: bool
    success: bool
    failure: bool
    critical: bool
    fumble: bool
    rands: list[RandBody]
    warnings: list[str] | None = Field(
        default=None, description="BCDice limits hit (?saikoro=1 only)"
    )
    rules: list[str] | None = Field(
        default=None, description="RULES.md rule IDs applied (?saikoro=1 only)"
    )


class OriginalTableBody(BaseModel):
    ok: Literal[True]
    text: str
    rands: list[RandBody]


class ErrorBody(BaseModel):
    ok: Literal[False]
    reason: str | None = Field(
        default=None,
        description="'unsupported game system', 'unsupported command', 'not found', "
        "'request too large', 'too many requests', 'timeout', 'busy', …; absent in BCDice-API's "
        '500 {"ok": false}',
    )
    message: str | None = Field(
        default=None, description="Human-readable explanation (Japanese / English; ?saikoro=1)"
    )
