"""UM-TABLE-08: the one gate every action of 運命判定d100 passes (pure; issue 21 point 1).

Each table verb declares its kind of action (:data:`ACTION_KINDS`); :func:`refusal` decides
from the actor's HP and conditions whether they may take it. The seed has no paralysis or
confusion; what stops a character is HP ≤ 0 and the dying check's 気絶 / 死亡 (UM-FATE-04):
such a character takes no action at all. A fate check is no action: it is what a character
does about what is happening to them now (UM-FATE-02), so it is never gated here (its own
rule asks for something to rescue). A condition whose effect the GM rules (``/gm cond``)
stops nothing by itself: the GM's line rules what it does.
"""

from __future__ import annotations

from collections.abc import Collection

from saikoro.i18n import Message
from saikoro.systems.unmeid100.rules import LifeState

#: verb → kind: ``attack`` (/melee, /shoot), ``act`` (any other action of a turn), ``move``
#: (/move, getting on or off a mount), ``fate`` (never gated).
ACTION_KINDS: dict[str, str] = {
    "melee": "attack",
    "shoot": "attack",
    "aim": "act",
    "chant": "act",
    "cast": "act",
    "defend": "act",
    "switch": "act",
    "move": "move",
    "mount": "move",
    "dismount": "move",
    "fate": "fate",
}

KIND_NAMES = {"attack": ("攻撃", "attack"), "act": ("行動", "act"), "move": ("移動", "move")}
DOWN = (LifeState.UNCONSCIOUS.value, LifeState.DEAD.value)


def refusal(name: str, kind: str, hp: int, labels: Collection[str]) -> Message | None:
    """Why ``name`` (HP ``hp``, conditions ``labels``) may not take a ``kind`` action, or None."""
    if kind == "fate":
        return None
    ja, en = KIND_NAMES.get(kind, ("行動", "act"))
    down = [label for label in DOWN if label in labels]
    if down:
        return Message(
            f"{name} は{down[-1]}しているので{ja}できません [UM-TABLE-08]",
            f"{name} is {'dead' if down[-1] == LifeState.DEAD.value else 'unconscious'} "
            f"and cannot {en} [UM-TABLE-08]",
        )
    if hp <= 0:
        return Message(
            f"{name} は HP {hp} (0以下) なので{ja}できません [UM-TABLE-08]",
            f"{name} has HP {hp} (0 or less) and cannot {en} [UM-TABLE-08]",
        )
    return None
