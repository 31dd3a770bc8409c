"""What each 帽子世界TRPG table verb is as an action (issue 21), as pure functions.

Every verb of the system declares its kind here (:func:`action_kind`), so that one gate,
:func:`saikoro.systems.littleworld.conditions.may_act`, decides from the actor's HP and
conditions whether they may do it (LW-TABLE-07); :func:`off_turn` says what doing it on
another character's combat turn costs (LW-TABLE-09); :func:`is_minor` names the lines that
cost no action by default (LW-TABLE-10).
"""

from __future__ import annotations

from typing import Literal

from saikoro.systems.littleworld import special
from saikoro.systems.littleworld.conditions import ActionKind
from saikoro.systems.littleworld.settings import DEFAULT_SETTINGS, LittleWorldSettings

__all__ = ["VERB_KINDS", "OffTurn", "action_kind", "is_minor", "off_turn"]

OffTurn = Literal["refuse", "cost", "free"]

#: Each verb's kind; :func:`action_kind` refines those that depend on their arguments.
VERB_KINDS: dict[str, ActionKind] = {
    "attack": "action",
    "pass": "free",  # passing the turn is not an action (LW-COMBAT-03)
    "card": "card",  # LW-COMBAT-04
    "act": "action",  # a specialist action: "card" (only its card allows it)
    "ride": "action",  # /ride off: "move"
    "drive": "action",
    "swim": "move",
    "device": "action",
    "language": "action",
    "herb": "card",  # LW-SPECIAL-08: only スカウト/錬金術師/農民 may gather
    "hat": "action",
    "reward": "action",
    "cure": "action",  # 治癒魔法: "card"
    "use": "action",
}

_OFF = (["off"], ["降りる"], ["上がる"])


def action_kind(
    verb: str, args: list[str], settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> ActionKind:
    """The kind of ``/verb args`` (an unknown verb is an action)."""
    if verb == "ride" and args in _OFF:
        return "move"
    if verb == "cure" and args[1:2] == ["治癒魔法"]:
        return "card"
    if (
        verb == "act"
        and args
        and special.specialist_key(args[0], settings) in (settings.specialist_cards)
    ):
        return "card"
    return VERB_KINDS.get(verb, "action")


def is_minor(verb: str, args: list[str]) -> bool:
    """LW-TABLE-10: leaving the water, dismounting and the hat (the program's rule: they
    cost no action unless ``minor_actions_cost_action``)."""
    return verb == "hat" or (verb in ("swim", "ride") and args in _OFF)


def off_turn(
    verb: str, args: list[str], settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> OffTurn:
    """LW-TABLE-09: what ``/verb`` on another character's combat turn does — refused,
    allowed at the cost of the actor's own next turn, or free."""
    if action_kind(verb, args, settings) == "free":
        return "free"
    if is_minor(verb, args) and not settings.minor_actions_cost_action:
        return "free"
    if verb == "card":
        return settings.off_turn_cards
    return settings.off_turn_actions
