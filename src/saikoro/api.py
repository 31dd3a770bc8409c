"""The Python API: ``saikoro.roll``."""

from __future__ import annotations

from collections.abc import Sequence

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
) -> RollResult | None:
    """Roll one BCDice-style command in ``system``; None when it is not a command.

    ``rands`` scripts the dice as ``[(value, sides), …]`` (BCDice's test form): a die of
    other sides, too few or left-over dice raise :class:`saikoro.errors.ScriptedDiceError`.
    ``source`` gives any other dice source (manual dice, a seeded source, …).
    Unknown systems raise :class:`saikoro.errors.UnsupportedSystemError`.
    """
    game_system = systems.get_system(system)
    scripted = ScriptedSource(rands) if rands is not None else None
    result = evaluate(command, game_system, Randomizer(scripted or source))
    if scripted is not None and result is not None:
        scripted.assert_exhausted()
    return result
