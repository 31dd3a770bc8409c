"""ワンダイス (``OneDie``): a tiny game system in one folder, to show what a system needs.

One command, ``OD``: roll 1D6, success on ``success_at`` or more (a house rule, 4 by
default; OD-ROLL-01). A sheet with HP, a tracker with ``/hit TARGET`` (1D6 damage,
OD-HIT-01), Udonarium/CCFOLIA labels and a chat palette. Nothing outside this folder
names it: ``SAIKORO_SYSTEMS=thirdsystem.onedie`` (or ``saikoro.systems.register_package``)
registers it.
"""

from __future__ import annotations

import re
from typing import ClassVar

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult
from saikoro.i18n import Message
from saikoro.systems.base import GameSystem
from saikoro.systems.manifest import SystemManifest

COMMAND = re.compile(r"^OD$")


class OneDie(GameSystem):
    id = "OneDie"
    name = "ワンダイス"
    sort_key = "わんたいす"
    help_message = "OD: 1D6 で判定 (4以上で成功)\n例) OD\n"
    prefixes: ClassVar[tuple[str, ...]] = (r"OD",)

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        if not COMMAND.match(command):
            return None
        success_at = self.settings.success_at if self.settings is not None else 4
        value = randomizer.roll_once(6)
        ok = value >= success_at
        word = Message("成功", "Success") if ok else Message("失敗", "Failure")
        text = Message("(OD) ＞ ワンダイス判定 ", "(OD) ＞ one-die check ") + Message.same(
            f"{value} ＞ "
        )
        return RollResult(
            text=(text + word).ja,
            text_en=(text + word).en,
            success=ok,
            failure=not ok,
            rands=list(randomizer.rands),
            value=value,
            rules=("OD-ROLL-01",),
        )


MANIFEST = SystemManifest(
    id="OneDie",
    package=__name__,
    game=":OneDie",
    sheet=".parts:OneDieSheet",
    settings=".parts:OneDieSettings",
    tracker=".tracker:OneDieTracker",
    transfer_profile=".transfer:PROFILE",
    palette=".transfer:palette",
    rules_spec="RULES.md",
    rules_reference="reference.md",
)
