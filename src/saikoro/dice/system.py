"""What the dice engine asks of a game system: a small protocol, so ``dice`` imports no system.

:class:`saikoro.systems.base.GameSystem` implements it. BCDice's optional game-system settings
(``d66_sort_type``, ``enabled_d9``, ``default_cmp_op``, ``change_text``, …) are read with a
default where a command needs them.
"""

from __future__ import annotations

import re
from typing import Protocol

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import CheckResult, RollResult, SumCheck


class DiceSystem(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def round_type(self) -> str:
        """Division rounding in sums: ``floor``, ``ceil`` or ``round``."""
        ...

    @property
    def sort_add_dice(self) -> bool: ...

    @property
    def sort_barabara_dice(self) -> bool: ...

    @property
    def sides_implicit_d(self) -> int:
        """``2D`` means ``2D<sides_implicit_d>``."""
        ...

    @property
    def judges_sums(self) -> bool:
        """Whether :meth:`check_sum` judges generic sums (else the default 成功/失敗)."""
        ...

    @property
    def glossary_en(self) -> dict[str, str]: ...

    @property
    def prefixes_pattern(self) -> re.Pattern[str] | None:
        """The system's own command prefixes (``^(S)?(…)``), or None."""
        ...

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None: ...

    def check_sum(self, check: SumCheck) -> CheckResult | None: ...


__all__ = ["DiceSystem"]
