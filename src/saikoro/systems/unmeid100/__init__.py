"""運命判定d100 (``UnmeiD100``): the game system (commands in ``commands.py``)."""

from __future__ import annotations

from saikoro.systems.manifest import SystemManifest
from saikoro.systems.unmeid100.commands import UnmeiD100

MANIFEST = SystemManifest(
    id="UnmeiD100",
    package=__name__,
    game=".commands:UnmeiD100",
    sheet=".sheet:UnmeiSheet",
    settings=".settings:UnmeiSettings",
    tracker=".tracker:UnmeiTracker",
    transfer_profile=".transfer:PROFILE",
    palette=".transfer:palette",
    palette_en=".transfer:palette_label_en",
    simulation=".simulate:UnmeiPlaybook",
)

__all__ = ["MANIFEST", "UnmeiD100"]
