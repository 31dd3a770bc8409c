"""Conditions, rest, HP and party-down in 帽子世界TRPG (LW-COND-*, LW-HP-*), as pure functions.

:class:`Conditions` is an immutable value; each function returns the new value and
what happened (HP lost, conditions recovered) with the rule IDs applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.littleworld.settings import DEFAULT_SETTINGS, LittleWorldSettings

__all__ = [
    "ActionGate",
    "ActionKind",
    "Capabilities",
    "ConditionChange",
    "ConditionError",
    "Conditions",
    "PartyMember",
    "PartyStatus",
    "RestResult",
    "after_own_turn",
    "can_defend",
    "capabilities",
    "cure",
    "effective_ability",
    "inflict",
    "inflict_poison",
    "may_act",
    "on_own_turn",
    "party_status",
    "rest",
    "surprise_damage",
    "time_passes",
]

Cure = Literal["治癒魔法", "中和剤", "解毒草", "病院", "教会"]


class ConditionError(SaikoroError):
    reason = "condition rule"


@dataclass(frozen=True)
class Conditions:
    """The conditions of one character and their progress toward natural recovery.

    ``poison`` is the poison level (0 = not poisoned). Turn counters count the
    character's own turns since the condition began; minute counters the game time.
    """

    poison: int = 0
    paralysis: bool = False
    sleep: bool = False
    confusion: bool = False
    paralysis_turns: int = 0
    sleep_turns: int = 0
    poison_minutes: int = 0
    paralysis_minutes: int = 0
    sleep_minutes: int = 0

    @property
    def any(self) -> bool:
        return bool(self.poison or self.paralysis or self.sleep or self.confusion)


@dataclass(frozen=True)
class Capabilities:
    """What a character may do under their conditions (LW-COND-03…05)."""

    can_act: bool
    can_move: bool
    can_defend: bool
    can_use_skill_cards: bool
    abilities_halved: bool
    rules: tuple[str, ...]


def capabilities(
    conditions: Conditions, hp: int = 1, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> Capabilities:
    """LW-HP-02, LW-COND-03/04/05: paralysis stops everything incl. defence; sleep halves
    abilities and stops skill cards (defence allowed by default); confusion allows only
    moving; HP ≤ 0 allows nothing on one's own."""
    return _capabilities(
        hp <= 0,
        conditions.paralysis,
        conditions.sleep,
        conditions.confusion,
        settings.sleeping_can_act,
        settings.sleeping_can_defend,
    )


@cache  # 64 cases at most; asked for every character on every line
def _capabilities(
    down: bool,
    paralysed: bool,
    asleep: bool,
    confused: bool,
    sleeping_can_act: bool,
    sleeping_can_defend: bool,
) -> Capabilities:
    act = move = defend = cards = True
    halved = False
    rules: list[str] = []
    if down:
        act = move = cards = False
        rules.append("LW-HP-02")
    if paralysed:
        act = move = defend = cards = False
        rules.append("LW-COND-03")
    if asleep:
        halved = True
        cards = False
        act = act and sleeping_can_act
        move = move and sleeping_can_act
        defend = defend and sleeping_can_defend
        rules.append("LW-COND-04")
    if confused:
        act = False
        defend = False
        cards = False
        rules.append("LW-COND-05")
    return Capabilities(act, move, defend, cards, halved, tuple(rules))


#: What an action is, for :func:`may_act`: ``action`` (anything done in the world: an attack,
#: a check, an item), ``move`` (movement: swimming, leaving the water or a mount), ``card`` (a
#: skill card declared, or an action only its card allows: 治癒魔法, a specialist action,
#: herb gathering), ``free`` (not an action: passing the turn).
ActionKind = Literal["action", "move", "card", "free"]


@dataclass(frozen=True)
class ActionGate:
    """May the character do an action of this kind: ``reason`` says why not."""

    allowed: bool
    reason: Message | None
    rules: tuple[str, ...]


def may_act(
    kind: ActionKind,
    conditions: Conditions,
    hp: int,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> ActionGate:
    """LW-TABLE-07: the one gate of every action at the table, from HP and conditions.
    HP ≤ 0: nothing on one's own (LW-HP-02); 麻痺: 「一切の行動が取れなくなります」
    (LW-COND-03); confusion: 「移動以外の行動が取れなくなります」 (LW-COND-05); 睡眠: no skill
    cards (LW-COND-04; abilities are halved where they are read), nothing when
    ``sleeping_can_act`` is off. ``free`` is never refused."""
    if kind == "free":
        return ActionGate(True, None, ())
    label = settings.confusion_label
    refusals: tuple[tuple[bool, str, Message], ...] = (
        (
            hp <= 0,
            "LW-HP-02",
            Message(
                f"HP {hp} (行動不能) なので自力での行動ができません",
                f"at HP {hp} (unable to act) they cannot act on their own",
            ),
        ),
        (
            conditions.paralysis,
            "LW-COND-03",
            Message("麻痺で一切の行動が取れません", "paralysed: no action at all"),
        ),
        (
            conditions.confusion and kind != "move",
            "LW-COND-05",
            Message(f"{label}で移動以外の行動が取れません", "confused: nothing but moving"),
        ),
        (
            conditions.sleep and kind == "card",
            "LW-COND-04",
            Message("睡眠中はスキルカードを使えません", "asleep: no skill cards"),
        ),
        (
            conditions.sleep and not settings.sleeping_can_act,
            "LW-COND-04",
            Message("睡眠中は行動できません", "asleep: no action"),
        ),
    )
    for refused, rule, reason in refusals:
        if refused:
            return ActionGate(False, reason, (rule, "LW-TABLE-07"))
    return ActionGate(True, None, ("LW-TABLE-07",))


def can_defend(
    conditions: Conditions,
    *,
    surprised: bool = False,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> tuple[bool, tuple[str, ...]]:
    """LW-COMBAT-11/LW-COND-06: paralysis, confusion or surprise → no defence."""
    caps = capabilities(conditions, settings=settings)
    if surprised:
        return False, (*caps.rules, "LW-COND-06", "LW-COMBAT-11")
    if not caps.can_defend:
        return False, (*caps.rules, "LW-COMBAT-11")
    return True, caps.rules


def effective_ability(value: int, modifiers: int, conditions: Conditions) -> int:
    """LW-ABIL-04, LW-COND-04, LW-CHECK-06: ability + temporary modifiers, halved (rounded
    down) while asleep; never below 0."""
    base = max(value + modifiers, 0)
    return base // 2 if conditions.sleep else base


@dataclass(frozen=True)
class ConditionChange:
    """The outcome of time or a turn passing: the new conditions and HP, HP lost to poison,
    conditions recovered, and whether the character may act this turn."""

    conditions: Conditions
    hp: int
    poison_damage: int
    recovered: tuple[str, ...]
    may_act: bool
    rules: tuple[str, ...]


def inflict_poison(
    conditions: Conditions, level: int, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> Conditions:
    """LW-COND-02: poison of ``level``; a second poison keeps the higher level by default
    (setting ``poison_stacking``: higher, add, replace)."""
    if level < 1:
        raise ConditionError(Message("毒レベルは1以上です", "a poison level is at least 1"))
    if not conditions.poison:
        return replace(conditions, poison=level, poison_minutes=0)
    if settings.poison_stacking == "add":
        return replace(conditions, poison=conditions.poison + level)
    if settings.poison_stacking == "replace":
        return replace(conditions, poison=level)
    return replace(conditions, poison=max(conditions.poison, level))


def inflict(conditions: Conditions, condition: Literal["麻痺", "睡眠", "混乱"]) -> Conditions:
    """LW-COND-03/04/05: a new paralysis or sleep starts its recovery count afresh."""
    if condition == "麻痺":
        return replace(conditions, paralysis=True, paralysis_turns=0, paralysis_minutes=0)
    if condition == "睡眠":
        return replace(conditions, sleep=True, sleep_turns=0, sleep_minutes=0)
    if condition == "混乱":
        return replace(conditions, confusion=True)
    raise ConditionError(
        Message(f"状態異常 {condition!r} はありません", f"no condition {condition!r}")
    )


def on_own_turn(
    conditions: Conditions, hp: int, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> ConditionChange:
    """In combat, when the character's turn comes (LW-COND-02/03/04).

    Poison takes its level in HP. A paralysed character passes the turn; after
    ``paralysis_recovery_turns`` (2) passed turns they recover (and act from the next
    turn). A sleeping character spends the turn asleep (acting with halved abilities if
    ``sleeping_can_act``); after the ``sleep_recovery_turns``-th (3rd) such turn they wake
    (:func:`after_own_turn`).
    """
    rules: list[str] = []
    recovered: list[str] = []
    lost = 0
    new = conditions
    if new.poison:
        lost = new.poison
        rules.append("LW-COND-02")
    may_act = hp - lost > 0 and not new.paralysis and not new.confusion
    if new.sleep and not settings.sleeping_can_act:
        may_act = False
    if new.paralysis:
        rules.append("LW-COND-03")
        turns = new.paralysis_turns + 1
        if turns >= settings.paralysis_recovery_turns:
            new = replace(new, paralysis=False, paralysis_turns=0, paralysis_minutes=0)
            recovered.append("麻痺")
        else:
            new = replace(new, paralysis_turns=turns)
    if new.sleep:
        # this turn is spent asleep, the last one too: sleep lifts after it (after_own_turn)
        rules.append("LW-COND-04")
        new = replace(new, sleep_turns=new.sleep_turns + 1)
    if new.confusion:
        rules.append("LW-COND-05")
    return ConditionChange(new, hp - lost, lost, tuple(recovered), may_act, tuple(rules))


def after_own_turn(
    conditions: Conditions, hp: int, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> ConditionChange:
    """LW-COND-04: sleep lifts once ``sleep_recovery_turns`` (3) of the character's own
    actions have been spent asleep (「自身の行動を3回消費」): the third turn is still played
    asleep (halved, no skill cards) and the character wakes when it ends.
    ``conditions.sleep_turns`` counts the own turns begun asleep, this one included."""
    if conditions.sleep and conditions.sleep_turns >= settings.sleep_recovery_turns:
        new = replace(conditions, sleep=False, sleep_turns=0, sleep_minutes=0)
        return ConditionChange(new, hp, 0, ("睡眠",), hp > 0, ("LW-COND-04",))
    return ConditionChange(conditions, hp, 0, (), hp > 0, ())


def time_passes(
    conditions: Conditions,
    hp: int,
    minutes: int,
    *,
    at_rest: bool = True,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> ConditionChange:
    """Out of combat, ``minutes`` of game time pass (LW-COND-02/03/04/05).

    Poison takes its level every 30 minutes at rest (and while exploring only if
    ``poison_ticks_while_exploring``); paralysis ends after about 30 minutes, sleep
    after about an hour; confusion never ends by itself.
    """
    if minutes < 0:
        raise ConditionError(Message("経過時間は0分以上です", "elapsed time cannot be negative"))
    rules: list[str] = []
    recovered: list[str] = []
    new = conditions
    lost = 0
    if new.poison and (at_rest or settings.poison_ticks_while_exploring):
        total = new.poison_minutes + minutes
        ticks = total // settings.poison_interval_minutes
        lost = ticks * new.poison
        new = replace(new, poison_minutes=total % settings.poison_interval_minutes)
        rules.append("LW-COND-02")
    if new.paralysis:
        rules.append("LW-COND-03")
        total = new.paralysis_minutes + minutes
        if total >= settings.paralysis_recovery_minutes:
            new = replace(new, paralysis=False, paralysis_turns=0, paralysis_minutes=0)
            recovered.append("麻痺")
        else:
            new = replace(new, paralysis_minutes=total)
    if new.sleep:
        rules.append("LW-COND-04")
        total = new.sleep_minutes + minutes
        if total >= settings.sleep_recovery_minutes:
            new = replace(new, sleep=False, sleep_turns=0, sleep_minutes=0)
            recovered.append("睡眠")
        else:
            new = replace(new, sleep_minutes=total)
    if new.confusion:
        rules.append("LW-COND-05")
    caps = capabilities(new, hp - lost, settings)
    return ConditionChange(new, hp - lost, lost, tuple(recovered), caps.can_act, tuple(rules))


def cure(conditions: Conditions, means: Cure) -> tuple[Conditions, tuple[str, ...]]:
    """LW-COND-01/02/05: 治癒魔法 cures every condition; 中和剤 or 解毒草 cure poison; a
    hospital or church (病院/教会) cures confusion."""
    if means == "治癒魔法":
        return Conditions(), ("LW-COND-01",)
    if means in ("中和剤", "解毒草"):
        return replace(conditions, poison=0, poison_minutes=0), ("LW-COND-02",)
    if means in ("病院", "教会"):
        return replace(conditions, confusion=False), ("LW-COND-05",)
    raise ConditionError(Message(f"治療手段 {means!r} はありません", f"no cure {means!r}"))


@dataclass(frozen=True)
class RestResult:
    hp: int
    recovered: int
    rules: tuple[str, ...]


def rest(
    hp: int,
    max_hp: int,
    body: int,
    nights: int = 1,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> RestResult:
    """LW-HP-01/02: each night's rest recovers 体力 + 6 HP, never above max HP; nothing at
    HP ≤ 0 (the GM may heal by other means)."""
    if nights < 0:
        raise ConditionError(Message("休息は0晩以上です", "nights cannot be negative"))
    if hp <= 0:
        return RestResult(hp, 0, ("LW-HP-02",))
    new = min(max_hp, hp + nights * (body + settings.rest_bonus)) if hp < max_hp else hp
    return RestResult(new, new - hp, ("LW-HP-01",))


def surprise_damage(attack_value: int) -> tuple[int, tuple[str, ...]]:
    """LW-COND-06: surprised (or unable to defend) out of combat → the attack value is the
    HP damage."""
    return max(attack_value, 0), ("LW-COND-06", "LW-COMBAT-11")


@dataclass(frozen=True)
class PartyMember:
    id: str
    hp: int
    is_pc: bool = True
    conditions: Conditions = Conditions()


@dataclass(frozen=True)
class PartyStatus:
    down: bool
    unable: tuple[str, ...]
    rules: tuple[str, ...] = ("LW-HP-03", "LW-ABIL-01")


def party_status(
    members: Sequence[PartyMember], settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> PartyStatus:
    """LW-HP-03: the party is down when every PC is unable to act (HP ≤ 0, LW-ABIL-01; also
    paralysis with ``party_down_counts_paralysis``). The GM decides their fate."""
    pcs = [m for m in members if m.is_pc]
    unable = tuple(
        m.id
        for m in pcs
        if m.hp <= 0 or (settings.party_down_counts_paralysis and m.conditions.paralysis)
    )
    return PartyStatus(bool(pcs) and len(unable) == len(pcs), unable)
