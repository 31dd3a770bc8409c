"""The sheet (HP and a name) and the house rules of ワンダイス."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from saikoro.sheets import SheetBase


class OneDieSheet(SheetBase):
    system: Literal["OneDie"] = "OneDie"


class OneDieSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    success_at: int = Field(default=4, ge=1, le=6, description="OD-ROLL-01: success at or above.")
