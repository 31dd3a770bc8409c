"""Odds before the roll: exact outcome probabilities of any command of any system.

``odds(command, system="DiceBot")`` walks every dice sequence through the real
evaluator (so the odds can never drift from the rules), convolves plain sums that
are too large to walk, and estimates the rest by Monte Carlo with 95 % intervals.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from saikoro.odds.compute import DEFAULT_LIMIT, METHODS, OddsMethodError, odds
from saikoro.odds.result import FLAGS, Interval, Odds

__all__ = ["DEFAULT_LIMIT", "FLAGS", "METHODS", "Interval", "Odds", "OddsMethodError", "odds"]


class _CallableModule(types.ModuleType):
    """``saikoro.odds`` is this package once imported; calling it calls :func:`odds`.

    ``saikoro/__init__.py`` re-exports ``saikoro.odds`` lazily as the function, but
    importing the package sets the attribute ``saikoro.odds`` to the module, so the
    module itself is made callable: ``saikoro.odds("2D6>=7")`` works either way.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Odds:
        return odds(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
