"""The shape every game system has: identity, help, command pattern, and rule hooks.

A game system is a stateless object. The dice engine asks it two things:
``eval_specific`` for the system's own commands (``LWA3-2``, ``MA60,30,12``, …), and
``check_sum`` to judge a generic sum such as ``2D6+3>=10`` (criticals, fumbles).
Everything else — the generic BCDice command language — comes from the engine.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any, ClassVar

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import CheckResult, RollResult, SumCheck


class GameSystem:
    """Base class of game systems; the generic system ``DiceBot`` is this class as is."""

    id: ClassVar[str] = "DiceBot"
    name: ClassVar[str] = "DiceBot"
    sort_key: ClassVar[str] = "*たいすほつと"
    help_message: ClassVar[str] = ""
    #: Regex sources of the system's own command prefixes, as BCDice's ``register_prefix``.
    prefixes: ClassVar[tuple[str, ...]] = ()
    #: Japanese words of this system's output → English, for ``lang="en"`` (see saikoro.dice.words).
    glossary_en: ClassVar[dict[str, str]] = {}

    # Engine settings, as BCDice's game system attributes.
    round_type: ClassVar[str] = "floor"  # division rounding in sums: floor, ceil or round
    sort_add_dice: ClassVar[bool] = False
    sort_barabara_dice: ClassVar[bool] = False
    sides_implicit_d: ClassVar[int] = 6  # "2D" means 2D6

    #: The house rules this instance plays by (the system's settings model; None: none).
    settings: Any = None

    def __init__(self, settings: Any = None) -> None:
        if settings is not None:
            self.settings = settings

    #: Whether ``check_sum`` judges generic sums (set for every subclass that overrides it).
    judges_sums: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.judges_sums = cls.check_sum is not GameSystem.check_sum

    @cached_property
    def prefixes_pattern(self) -> re.Pattern[str] | None:
        if not self.prefixes:
            return None
        return re.compile(r"^(S)?(" + "|".join(self.prefixes) + ")", re.IGNORECASE)

    @cached_property
    def command_pattern(self) -> re.Pattern[str]:
        """A regex matching the start of every command this system accepts (BCDice's)."""
        from saikoro.dice.engine import common_prefix_patterns

        sources = [*common_prefix_patterns(), *self.prefixes]
        return re.compile(r"^S?(" + "|".join(sources) + ")", re.IGNORECASE)

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        """Evaluate one of the system's own commands (``S`` prefix already removed).

        ``command`` is normalized (half-width, upper case) and has no comment.
        Return None when it is not one of them.
        """
        return None

    def check_sum(self, check: SumCheck) -> CheckResult | None:
        """Judge a generic sum; None leaves it to the default (成功/失敗 on a comparison)."""
        return None

    def __repr__(self) -> str:
        return f"<GameSystem {self.id}>"
