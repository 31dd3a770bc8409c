"""ワンダイス pieces in Udonarium / CCFOLIA: an HP resource, and a one-line palette."""

from __future__ import annotations

from saikoro.sheets import SheetBase
from saikoro.transfer.profiles import Profile, hp_slot

PROFILE = Profile(system="OneDie", title="ワンダイス", slots=(hp_slot(),))


def palette(sheet: SheetBase) -> list[str]:
    return ["OD ワンダイス判定"]
