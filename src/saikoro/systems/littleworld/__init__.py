"""帽子世界TRPG (``LittleWorld``): checks, opposed checks and attacks on 2D6 + ability.

The rules live in :mod:`.rules` (pure functions), the chat commands in :mod:`.commands`,
the character sheet in :mod:`.sheet` and the GM's house rules in :mod:`.settings`.
"""

from __future__ import annotations

from typing import ClassVar

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import CheckResult, RollResult, SumCheck
from saikoro.systems.base import GameSystem
from saikoro.systems.littleworld.help import HELP_MESSAGE
from saikoro.systems.littleworld.rules import ROLL_DEFAULTS, RollSettings
from saikoro.systems.manifest import SystemManifest


class LittleWorld(GameSystem):
    """帽子世界TRPG: ``LW<a>``, ``LW<a>>=<t>``, ``LWO<a>-<b>``, ``LWA<a>-<d>``, ``LWA<a>[-X]``,
    and LW-CHECK-03 criticals/fumbles on generic sums of d6 with a comparison."""

    id = "LittleWorld"
    name = "帽子世界TRPG"
    sort_key = "ほうしせかいTRPG"
    help_message = HELP_MESSAGE
    # BCDice's convention: the commands' names, so that command_pattern matches every form
    # the server rolls (LW(1+2)>=10, LWA(2+1)-2) as clients see it, before (1+2) → 3.
    prefixes: ClassVar[tuple[str, ...]] = ("LWO", "LWA", "LWT", "LW")
    sort_add_dice = False
    settings: RollSettings = ROLL_DEFAULTS

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        from saikoro.systems.littleworld.commands import evaluate

        return evaluate(command, randomizer, self.settings)

    def check_sum(self, check: SumCheck) -> CheckResult | None:
        from saikoro.systems.littleworld.commands import judge_sum

        return judge_sum(check, self.settings)


MANIFEST = SystemManifest(
    id="LittleWorld",
    package=__name__,
    game=":LittleWorld",
    sheet=".sheet:LittleWorldSheet",
    settings=".settings:LittleWorldSettings",
    tracker=".tracker:LittleWorldTracker",
    transfer_profile=".transfer:PROFILE",
    palette=".transfer:palette",
    palette_en=".transfer:palette_label_en",
    simulation=".simulate:LittleWorldPlaybook",
)

__all__ = ["MANIFEST", "LittleWorld"]
