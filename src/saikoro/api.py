"""The Python API: ``saikoro.roll``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from saikoro.dice.engine import evaluate
from saikoro.dice.randomizer import DiceSource, Randomizer, ScriptedSource
from saikoro.dice.result import RollResult
from saikoro.systems import systems


def roll(
    command: str,
    system: str = "DiceBot",
    rands: Sequence[tuple[int, int]] | None = None,
    *,
    source: DiceSource | None = None,
    settings: Mapping[str, Any] | None = None,
) -> RollResult | None:
    """Roll one BCDice-style command in ``system``; None when it is not a command.

    ``rands`` scripts the dice as ``[(value, sides), …]`` (BCDice's test form): a die of
    other sides, too few or left-over dice raise :class:`saikoro.errors.ScriptedDiceError`.
    ``source`` gives any other dice source (manual dice, a seeded source, …).
    ``settings`` are house rules (the system's settings fields, as ``/gm setting`` at a table).
    Unknown systems raise :class:`saikoro.errors.UnsupportedSystemError`.
    """
    game_system = systems.configured(system, settings)
    scripted = ScriptedSource(rands) if rands is not None else None
    result = evaluate(command, game_system, Randomizer(scripted or source))
    if scripted is not None and result is not None:
        scripted.assert_exhausted()
    return result
