"""The rules of 運命判定d100 (RULES.md System B, ``UM-*``) as pure functions.

Nothing here rolls dice or does I/O: the caller passes the rolls (from any dice source)
and the values; every function returns a frozen value whose ``rules`` names the rule
IDs it applied. Where the seed is silent the :class:`UnmeiSettings` decides (defaults
as in RULES.md). Invalid requests (no fate uses left, activation without a chant, …)
raise :class:`UnmeiRuleError`, a :class:`saikoro.errors.SaikoroError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal

from saikoro.dice.arith import evaluate_formula
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS, Rounding, UnmeiSettings

# Numbers stated by the seed (not defaults).
FATE_MULTIPLIER = 5  # UM-FATE-01: target = 運命 × 5
MAX_LEVEL = 10  # UM-LEVEL-01
MIN_LEVEL = 1
MOVE_PENALTY = 20  # UM-MOVE-01: 5 m move → AC/RC −20
FULL_DEFENCE_BONUS = 20  # UM-DEFEND-01
OFF_SCHOOL_PENALTY = 10  # UM-MAGIC-02
BOW_RANGE_M = 50  # UM-RANGED-01
MAX_AIM = 2  # UM-AIM-01


class UnmeiRuleError(SaikoroError):
    """A rule forbids the requested action; nothing was changed."""

    reason = "rule violation"


def _round(value: float, rounding: Rounding) -> int:
    return math.ceil(value) if rounding == "ceil" else math.floor(value)


def _half(value: int, rounding: Rounding) -> int:
    return -((-value) // 2) if rounding == "ceil" else value // 2


# ---------------------------------------------------------------- checks and fate


@dataclass(frozen=True)
class CheckOutcome:
    """A d100 roll-under check (UM-CHECK-01); ``rescued`` when fate turned it (UM-FATE-02a)."""

    roll: int
    target: int
    success: bool
    rescued: bool = False
    rules: tuple[str, ...] = ("UM-CHECK-01",)


def check(roll: int, rate: int) -> CheckOutcome:
    """UM-CHECK-01: success when the d100 roll is at most the success rate."""
    return CheckOutcome(roll=roll, target=rate, success=roll <= rate)


def fate_target(fate: int) -> int:
    """UM-FATE-01: the fate check's target, 運命 × 5."""
    return fate * FATE_MULTIPLIER


def fate_check(roll: int, fate: int) -> CheckOutcome:
    """UM-FATE-01: 1d100 ≤ 運命 × 5."""
    target = fate_target(fate)
    return CheckOutcome(roll=roll, target=target, success=roll <= target, rules=("UM-FATE-01",))


class CharacterKind(StrEnum):
    """PC, mob (雑魚) or named NPC (ネームド)."""

    PC = "PC"
    MOB = "mob"
    NAMED = "named"


@dataclass(frozen=True)
class FateUses:
    uses: int
    rules: tuple[str, ...]


def fate_uses_per_session(kind: CharacterKind | str, level: int) -> FateUses:
    """UM-FATE-01/03: as many fate checks as the level; a mob has exactly one."""
    kind = CharacterKind(kind)
    if kind is CharacterKind.MOB:
        return FateUses(1, ("UM-FATE-03",))
    rules = ("UM-FATE-01",) if kind is CharacterKind.PC else ("UM-FATE-01", "UM-FATE-03")
    return FateUses(max(MIN_LEVEL, min(level, MAX_LEVEL)), rules)


@dataclass(frozen=True)
class FateSpend:
    """A fate check made: its outcome and the uses left afterwards."""

    check: CheckOutcome
    uses_left: int
    rules: tuple[str, ...] = ("UM-FATE-01",)


def spend_fate(uses_left: int, roll: int, fate: int) -> FateSpend:
    """UM-FATE-01: each attempt uses one, success or not; none left → refused."""
    if uses_left <= 0:
        raise UnmeiRuleError(
            Message(
                "運命判定の残り回数がありません",
                "no fate checks left",
            ),
            reason="no fate uses left",
        )
    return FateSpend(check=fate_check(roll, fate), uses_left=uses_left - 1)


def reset_fate_uses(
    kind: CharacterKind | str,
    level: int,
    event: Literal["session", "scenario"],
    uses_left: int,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> FateUses:
    """UM-FATE-01 (*default* fate_uses_reset): refill at the start of a session (or scenario)."""
    if settings.fate_uses_reset == event:
        return fate_uses_per_session(kind, level)
    return FateUses(uses_left, ("UM-FATE-01",))


class Rescue(StrEnum):
    """The four effects of a successful fate check (UM-FATE-02)."""

    CHECK_SUCCESS = "check_success"  # (a) the failed action check succeeds
    HALVE_DAMAGE = "halve_damage"  # (b) incoming damage halved
    CANCEL_CONDITION = "cancel_condition"  # (c) incoming condition nullified
    REROLL_DAMAGE = "reroll_damage"  # (d) reroll the damage dice


RESCUE_LABELS: dict[Rescue, Message] = {
    Rescue.CHECK_SUCCESS: Message(
        "直前に失敗した行為判定を成功にする", "turn the failed check into a success"
    ),
    Rescue.HALVE_DAMAGE: Message("受けるダメージを半分にする", "halve the incoming damage"),
    Rescue.CANCEL_CONDITION: Message("受ける状態異常を無効にする", "cancel the incoming condition"),
    Rescue.REROLL_DAMAGE: Message("ダメージダイスを振り直す", "reroll the damage dice"),
}


@dataclass(frozen=True)
class RescueResult:
    """What one rescue changed: exactly one of the fields is the changed thing."""

    effect: Rescue
    check: CheckOutcome | None = None
    damage: int | None = None
    condition_cancelled: str | None = None
    damage_rolls: tuple[int, ...] | None = None
    rules: tuple[str, ...] = ("UM-FATE-02",)


def _missing(what: Message) -> UnmeiRuleError:
    return UnmeiRuleError(
        Message(
            f"運命判定の効果の対象がありません: {what.ja}",
            f"nothing to apply the rescue to: {what.en}",
        ),
        reason="rescue target missing",
    )


def apply_rescue(
    fate: CheckOutcome,
    effect: Rescue | str,
    *,
    failed_check: CheckOutcome | None = None,
    incoming_damage: int | None = None,
    incoming_condition: str | None = None,
    new_damage_rolls: Sequence[int] | None = None,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> RescueResult:
    """UM-FATE-02: apply the chosen effect of a *successful* fate check to the right thing.

    (a) ``failed_check`` becomes a success; (b) ``incoming_damage`` is halved
    (``fate_damage_halving``, default down); (c) ``incoming_condition`` is cancelled;
    (d) the damage becomes the sum of ``new_damage_rolls`` (rolled again by the caller).
    """
    effect = Rescue(effect)
    if not fate.success:
        raise UnmeiRuleError(
            Message("運命判定に失敗したので効果はありません", "the fate check failed: no rescue"),
            reason="fate check failed",
        )
    if effect is Rescue.CHECK_SUCCESS:
        if failed_check is None:
            raise _missing(RESCUE_LABELS[effect])
        if failed_check.success:
            raise UnmeiRuleError(
                Message("その判定は失敗していません", "that check did not fail"),
                reason="check not failed",
            )
        return RescueResult(effect, check=replace(failed_check, success=True, rescued=True))
    if effect is Rescue.HALVE_DAMAGE:
        if incoming_damage is None:
            raise _missing(RESCUE_LABELS[effect])
        return RescueResult(effect, damage=_half(incoming_damage, settings.fate_damage_halving))
    if effect is Rescue.CANCEL_CONDITION:
        if not incoming_condition:
            raise _missing(RESCUE_LABELS[effect])
        return RescueResult(effect, condition_cancelled=incoming_condition)
    if new_damage_rolls is None:
        raise _missing(RESCUE_LABELS[effect])
    rolls = tuple(new_damage_rolls)
    return RescueResult(effect, damage=sum(rolls), damage_rolls=rolls)


# ---------------------------------------------------------------- damage, dying


class LifeState(StrEnum):
    ALIVE = "alive"
    UNCONSCIOUS = "気絶"
    DEAD = "死亡"


@dataclass(frozen=True)
class DamageOutcome:
    """UM-DMG-01: HP after damage; at HP ≤ 0 a fate check is due (UM-FATE-04)."""

    hp: int
    damage: int
    dying_check_due: bool
    chant_broken: bool
    rules: tuple[str, ...]


def take_damage(
    hp: int,
    damage: int,
    *,
    chanting: bool = False,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> DamageOutcome:
    """UM-DMG-01: damage (the weapon's dice, not scaled) comes off HP.

    A chanting character loses the chant on any damage (UM-MAGIC-01); at HP ≤ 0 the
    dying fate check is due (UM-FATE-04; mandatory by default).
    """
    damage = max(0, damage)
    new_hp = hp - damage
    rules = ["UM-DMG-01"]
    broken = chanting and damage > 0
    if broken:
        rules.append("UM-MAGIC-01")
    due = new_hp <= 0 and settings.dying_check_mandatory
    if new_hp <= 0:
        rules.append("UM-FATE-04")
    return DamageOutcome(new_hp, damage, due, broken, tuple(rules))


@dataclass(frozen=True)
class DyingOutcome:
    """UM-FATE-04: fate success → 気絶, failure → 死亡 (how soon: the GM's call).

    UM-FATE-07: when the check would use a fate use and none is left, there is no check
    (``check`` None): the character is 死亡 (*default* ``dying_without_fate = "dead"``) or
    the GM rules it (``state`` None, ``"gm"``)."""

    check: CheckOutcome | None
    state: LifeState | None
    uses_left: int
    used_fate: bool
    rules: tuple[str, ...] = ("UM-FATE-04",)


def _spent_mob(uses_left: int, mob: bool, settings: UnmeiSettings) -> bool:
    """UM-FATE-08: a mob whose one fate use is spent, where the GM rules it gets no check."""
    return mob and uses_left <= 0 and not settings.spent_mob_dying_check


def dying_check_rolls(
    uses_left: int, settings: UnmeiSettings = DEFAULT_SETTINGS, *, mob: bool = False
) -> bool:
    """Does the dying check roll a die (UM-FATE-07: not when it needs a use and none is left;
    UM-FATE-08: not for a spent mob with ``spent_mob_dying_check`` off)?"""
    if _spent_mob(uses_left, mob, settings):
        return False
    return not (settings.dying_check_uses_fate and uses_left <= 0)


def dying_check(
    roll: int,
    fate: int,
    uses_left: int,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
    *,
    mob: bool = False,
) -> DyingOutcome:
    """UM-FATE-04: the check at HP ≤ 0; by default it does not use up a fate use.
    UM-FATE-07: with ``dying_check_uses_fate`` and no use left, no check (``roll`` unused).
    UM-FATE-08: a mob that spent its one use, with ``spent_mob_dying_check`` off: 死亡."""
    if _spent_mob(uses_left, mob, settings):
        return DyingOutcome(None, LifeState.DEAD, uses_left, False, ("UM-FATE-04", "UM-FATE-08"))
    if not dying_check_rolls(uses_left, settings):
        state = LifeState.DEAD if settings.dying_without_fate == "dead" else None
        return DyingOutcome(None, state, uses_left, False, ("UM-FATE-04", "UM-FATE-07"))
    if settings.dying_check_uses_fate:
        spent = spend_fate(uses_left, roll, fate)
        result, left, used = spent.check, spent.uses_left, True
    else:
        result, left, used = fate_check(roll, fate), uses_left, False
    state = LifeState.UNCONSCIOUS if result.success else LifeState.DEAD
    return DyingOutcome(result, state, left, used)


# ---------------------------------------------------------------- attacks

AttackResultKind = Literal["critical", "hit", "armour", "miss", "out_of_range"]


@dataclass(frozen=True)
class AttackOutcome:
    """A melee or ranged attack roll judged (UM-MELEE-01 / UM-RANGED-01 / UM-AIM-01)."""

    roll: int
    target: int
    ac: int
    critical_range: int
    result: AttackResultKind
    rules: tuple[str, ...]

    @property
    def hit(self) -> bool:
        return self.result in ("critical", "hit")

    @property
    def critical(self) -> bool:
        return self.result == "critical"


def judge_attack(
    roll: int,
    target: int,
    ac: int,
    critical_range: int,
    rules: tuple[str, ...],
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> AttackOutcome:
    """The shared attack judgement: critical ≤ 敏捷度 (whatever the AC), else hit when
    roll ≤ target and roll > AC, else the armour stops a roll ≤ target, else a miss."""
    if roll <= critical_range and (settings.critical_beyond_skill or roll <= target):
        kind: AttackResultKind = "critical"
    elif roll <= target:
        blocked = roll <= ac if settings.melee_equal_ac_blocks else roll < ac
        kind = "armour" if blocked else "hit"
    else:
        kind = "miss"
    return AttackOutcome(roll, target, ac, critical_range, kind, rules)


def melee_attack(
    roll: int, combat_skill: int, ac: int, agility: int, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> AttackOutcome:
    """UM-MELEE-01: roll ≤ 戦闘スキル and > AC hits; roll ≤ 敏捷度 is a critical hit."""
    return judge_attack(roll, combat_skill, ac, agility, ("UM-MELEE-01",), settings)


def ranged_target(
    thief_skill: int, aim: int = 0, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> int:
    """UM-RANGED-01/UM-AIM-01: ⌊盗賊スキル × (aim + 1) / 2⌋ — half, ×2 after one aiming turn
    (the full skill), ×3 after two."""
    _check_aim(aim)
    return _round(thief_skill * (aim + 1) / 2, settings.ranged_rounding)


def ranged_critical_range(agility: int, aim: int = 0) -> int:
    """UM-AIM-01: two aiming turns double the critical range (敏捷度 × 2)."""
    _check_aim(aim)
    return agility * 2 if aim >= MAX_AIM else agility


def _check_aim(aim: int) -> None:
    if not 0 <= aim <= MAX_AIM:
        raise UnmeiRuleError(
            Message(
                f"狙いは 0〜{MAX_AIM} 手番です ({aim})", f"aiming is 0 to {MAX_AIM} turns ({aim})"
            ),
            reason="invalid aim",
        )


def ranged_attack(
    roll: int,
    thief_skill: int,
    ac: int,
    agility: int,
    aim: int = 0,
    distance_m: float | None = None,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> AttackOutcome:
    """UM-RANGED-01 (+UM-AIM-01 when aiming): a bow shot; beyond 50 m it cannot hit."""
    rules = ("UM-RANGED-01", "UM-AIM-01") if aim else ("UM-RANGED-01",)
    target = ranged_target(thief_skill, aim, settings)
    critical_range = ranged_critical_range(agility, aim)
    if distance_m is not None and distance_m > BOW_RANGE_M:
        return AttackOutcome(roll, target, ac, critical_range, "out_of_range", rules)
    return judge_attack(roll, target, ac, critical_range, rules, settings)


@dataclass(frozen=True)
class CriticalEffects:
    """UM-MELEE-02: what a critical hit triggers through the weapon's abilities."""

    extra_attacks: int
    damage_rolls: int
    gm_defined: tuple[str, ...]
    #: The house-rule settings (RULES.md *defaults*) applied, for the UI to mark as such.
    defaults_applied: tuple[str, ...] = ()
    rules: tuple[str, ...] = ("UM-MELEE-02",)


def critical_effects(
    weapon_abilities: Iterable[str], settings: UnmeiSettings = DEFAULT_SETTINGS
) -> CriticalEffects:
    """UM-MELEE-02 (*defaults*): 連続 → ``renzoku_extra_attacks`` more attacks at once;
    必殺 → damage dice rolled ``hissatsu_damage_rolls`` times and added. Other abilities
    are listed for the GM to rule on."""
    abilities = tuple(weapon_abilities)
    extra = settings.renzoku_extra_attacks if "連続" in abilities else 0
    rolls = settings.hissatsu_damage_rolls if "必殺" in abilities else 1
    others = tuple(a for a in abilities if a not in ("連続", "必殺"))
    applied = tuple(
        name
        for name, ability in (("renzoku_extra_attacks", "連続"), ("hissatsu_damage_rolls", "必殺"))
        if ability in abilities
    )
    return CriticalEffects(extra, rolls, others, applied)


# ---------------------------------------------------------------- magic

SpellResultKind = Literal["not_activated", "activated", "resisted", "charm_override", "took_effect"]


@dataclass(frozen=True)
class SpellOutcome:
    """UM-MAGIC-02/03: activation and, against a hostile target, resistance."""

    roll: int
    target: int
    rc: int | None
    charm: int | None
    result: SpellResultKind
    rules: tuple[str, ...]

    @property
    def activated(self) -> bool:
        return self.result != "not_activated"

    @property
    def takes_effect(self) -> bool:
        return self.result in ("activated", "charm_override", "took_effect")

    @property
    def chant_continues(self) -> bool:
        """A failed activation keeps the chant for another try next turn (UM-MAGIC-02)."""
        return self.result == "not_activated"


def spell_target(
    magic_skill: int,
    off_school: bool = False,
    halved: bool = False,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> int:
    """UM-MAGIC-02: 魔術スキル, −10 off the caster's school (門), then halved (発動率半分);
    UM-MAGIC-04 (*default* ``off_school_half_order``): the −10 before halving (70 → 30), or
    after it (70 → 25). Never below 0."""
    penalty = OFF_SCHOOL_PENALTY if off_school else 0
    if halved and settings.off_school_half_order == "half_then_minus":
        return max(0, _half(magic_skill, settings.magic_half_rounding) - penalty)
    target = magic_skill - penalty
    if halved:
        target = _half(target, settings.magic_half_rounding)
    return max(0, target)


def activate_spell(
    roll: int,
    magic_skill: int,
    *,
    off_school: bool = False,
    halved: bool = False,
    rc: int | None = None,
    charm: int | None = None,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> SpellOutcome:
    """UM-MAGIC-02/03: roll > target → not activated (the chant continues); activated and
    no RC (willing/inanimate target) → takes effect; hostile: roll ≤ 魅力 → takes effect
    whatever the RC, else roll ≤ RC → resisted, else takes effect."""
    target = spell_target(magic_skill, off_school, halved, settings)
    activated = roll <= target if settings.magic_equal_succeeds else roll < target
    if not activated:
        return SpellOutcome(roll, target, rc, charm, "not_activated", ("UM-MAGIC-02",))
    if rc is None:
        return SpellOutcome(roll, target, rc, charm, "activated", ("UM-MAGIC-02",))
    return SpellOutcome(
        roll, target, rc, charm, _resist(roll, rc, charm), ("UM-MAGIC-02", "UM-MAGIC-03")
    )


def _resist(roll: int, rc: int, charm: int | None) -> SpellResultKind:
    """UM-MAGIC-03: roll ≤ 魅力 → takes effect whatever the RC; else roll ≤ RC → resisted."""
    if charm is not None and roll <= charm:
        return "charm_override"
    return "resisted" if roll <= rc else "took_effect"


def rescued_activation(outcome: SpellOutcome) -> SpellOutcome:
    """UM-FATE-05: a fate rescue (UM-FATE-02 a) of a failed activation: the spell is
    activated after all and resolves as an activation with the same die would (a willing
    target: it takes effect; a hostile one: its RC, or the caster's 魅力, with that die)."""
    if outcome.activated:
        raise UnmeiRuleError(
            Message("この魔法は発動に失敗していません", "this spell did not fail to activate"),
            reason="not failed",
        )
    rules = ("UM-MAGIC-02", "UM-FATE-02", "UM-FATE-05")
    if outcome.rc is None:
        return replace(outcome, result="activated", rules=rules)
    kind = _resist(outcome.roll, outcome.rc, outcome.charm)
    return replace(outcome, result=kind, rules=(*rules, "UM-MAGIC-03"))


# ---------------------------------------------------------------- per-combatant turn state


@dataclass(frozen=True)
class Modifier:
    """A temporary AC/RC change lasting until the start of the owner's turn ``until_own_turn``."""

    source: str
    ac: int
    rc: int
    until_own_turn: int
    rule: str


@dataclass(frozen=True)
class Chant:
    """A chant in progress: ``since_own_turn`` is the own turn it was last kept up (the
    chant itself, or a failed activation that let it continue)."""

    spell: str
    since_own_turn: int


@dataclass(frozen=True)
class CombatantState:
    """What the turn rules need to know of one combatant; ``own_turn`` counts their turns."""

    name: str
    agility: int
    action_points: int = 1
    ac: int = 0
    rc: int = 0
    mounted: bool = False
    own_turn: int = 0
    chant: Chant | None = None
    aim: int = 0
    modifiers: tuple[Modifier, ...] = ()
    two_handed_ready: bool = False

    @property
    def effective_ac(self) -> int:
        return self.ac + sum(m.ac for m in self.modifiers)

    @property
    def effective_rc(self) -> int:
        return self.rc + sum(m.rc for m in self.modifiers)


@dataclass(frozen=True)
class TurnOutcome:
    """A combatant's new state after an action, with a note and the rules applied."""

    state: CombatantState
    note: Message
    rules: tuple[str, ...]
    uses_turn: bool = True
    detail: Mapping[str, object] = field(default_factory=dict)


def begin_own_turn(state: CombatantState) -> CombatantState:
    """Start of the combatant's own turn: modifiers lasting "until the next turn" end."""
    turn = state.own_turn + 1
    return replace(
        state, own_turn=turn, modifiers=tuple(m for m in state.modifiers if m.until_own_turn > turn)
    )


def other_action(
    state: CombatantState, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> CombatantState:
    """Doing anything but aiming/shooting loses the aim (UM-AIM-01, *default*
    ``aim_ends_on_other_action``)."""
    return replace(state, aim=0) if settings.aim_ends_on_other_action and state.aim else state


_other_action = other_action  # the earlier private name, still used by the table tracker


MoveOption = Literal["attack", "act", "run"]
_MOVE_DISTANCE: dict[str, int] = {"attack": 3, "act": 1, "run": 5}


def move(
    state: CombatantState, option: MoveOption, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> TurnOutcome:
    """UM-MOVE-01: 3 m then a melee attack within 1 m; 1 m then another action (e.g. a
    chant); 5 m with AC and RC −20 until the start of the next own turn. Mounted ×2."""
    if option not in _MOVE_DISTANCE:
        raise UnmeiRuleError(
            Message(
                f"移動の選択肢 {option!r} はありません (attack/act/run)",
                f"no move option {option!r}",
            ),
            reason="invalid move",
        )
    distance = _MOVE_DISTANCE[option] * (2 if state.mounted else 1)
    new = _other_action(state, settings)
    if option == "run":
        penalty = Modifier("5m移動", -MOVE_PENALTY, -MOVE_PENALTY, state.own_turn + 1, "UM-MOVE-01")
        new = replace(new, modifiers=(*new.modifiers, penalty))
    then = {
        "attack": ("白兵攻撃", "a melee attack"),
        "act": ("他の行動", "another action"),
        "run": ("なし", "nothing"),
    }
    ja, en = then[option]
    note = Message(f"{distance}m 移動 (続けて: {ja})", f"moved {distance} m (then: {en})")
    return TurnOutcome(new, note, ("UM-MOVE-01",), detail={"distance_m": distance, "then": option})


def full_defence(state: CombatantState, settings: UnmeiSettings = DEFAULT_SETTINGS) -> TurnOutcome:
    """UM-DEFEND-01: AC and RC +20 until the next own turn; criticals still hit (they ignore AC)."""
    new = _other_action(state, settings)
    bonus = Modifier(
        "防御専念", FULL_DEFENCE_BONUS, FULL_DEFENCE_BONUS, state.own_turn + 1, "UM-DEFEND-01"
    )
    new = replace(new, modifiers=(*new.modifiers, bonus))
    return TurnOutcome(
        new,
        Message(
            "防御専念: AC・RC +20 (クリティカルは防げない)",
            "full defence: AC/RC +20 (not vs criticals)",
        ),
        ("UM-DEFEND-01",),
    )


def take_aim(state: CombatantState) -> TurnOutcome:
    """UM-AIM-01: a turn spent aiming; at most two count."""
    aim = min(MAX_AIM, state.aim + 1)
    return TurnOutcome(
        replace(state, aim=aim),
        Message(f"狙い {aim} 手番目", f"aiming, turn {aim}"),
        ("UM-AIM-01",),
    )


def shoot(state: CombatantState) -> CombatantState:
    """After a shot the aim is used up (UM-AIM-01)."""
    return replace(state, aim=0)


def start_chant(
    state: CombatantState, spell: str, settings: UnmeiSettings = DEFAULT_SETTINGS
) -> TurnOutcome:
    """UM-MAGIC-01: chanting takes the turn; the spell is announced (target chosen later)."""
    new = replace(_other_action(state, settings), chant=Chant(spell, state.own_turn))
    return TurnOutcome(
        new,
        Message(f"「{spell}」を詠唱 (公開)", f"chanting {spell!r} (announced)"),
        ("UM-MAGIC-01",),
    )


def can_activate(state: CombatantState, spell: str | None = None) -> bool:
    """UM-MAGIC-02: only while still chanting, chanted on the previous own turn (a failed
    activation on that turn kept the chant up, so it counts as well)."""
    chant = state.chant
    return (
        chant is not None
        and chant.since_own_turn == state.own_turn - 1
        and (spell is None or chant.spell == spell)
    )


def activation_attempt(state: CombatantState, outcome: SpellOutcome) -> TurnOutcome:
    """UM-MAGIC-02: apply an activation roll: success ends the chant, failure keeps it."""
    if not can_activate(state):
        raise UnmeiRuleError(
            Message(
                "魔法は前の手番に詠唱し、詠唱中のときだけ発動できます",
                "a spell can be activated only while still chanting it since the previous turn",
            ),
            reason="not chanting",
        )
    assert state.chant is not None
    spell = state.chant.spell
    if outcome.chant_continues:
        kept = replace(state.chant, since_own_turn=state.own_turn)
        return TurnOutcome(
            replace(state, chant=kept),
            Message(f"「{spell}」発動失敗、詠唱継続", f"{spell!r} failed; still chanting"),
            outcome.rules,
        )
    return TurnOutcome(
        replace(state, chant=None),
        Message(f"「{spell}」発動", f"{spell!r} activated"),
        outcome.rules,
    )


def damage_combatant(state: CombatantState, damage: int) -> TurnOutcome:
    """UM-MAGIC-01: taking damage breaks a chant (HP is the sheet's, see :func:`take_damage`)."""
    if state.chant is not None and damage > 0:
        return TurnOutcome(
            replace(state, chant=None),
            Message(
                f"ダメージで「{state.chant.spell}」の詠唱が解除された", "damage broke the chant"
            ),
            ("UM-MAGIC-01",),
            uses_turn=False,
        )
    return TurnOutcome(state, Message("詠唱への影響なし", "no chant affected"), (), uses_turn=False)


def switch_equipment(
    state: CombatantState,
    drop_shield_for_two_hands: bool = False,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> TurnOutcome:
    """UM-SWITCH-01: changing equipment takes a turn; dropping a shield to hold the weapon
    in both hands does not (a melee attack may follow at once)."""
    if drop_shield_for_two_hands:
        return TurnOutcome(
            replace(state, two_handed_ready=True),
            Message(
                "盾を捨てて両手持ち (手番を消費しない)",
                "dropped the shield: two hands (no turn used)",
            ),
            ("UM-SWITCH-01",),
            uses_turn=False,
        )
    return TurnOutcome(
        _other_action(state, settings),
        Message("装備持ち替え (1手番)", "switched equipment (one turn)"),
        ("UM-SWITCH-01",),
    )


# ---------------------------------------------------------------- round tracking


@dataclass(frozen=True)
class RoundState:
    """UM-TURN-01: turns left this round per combatant (行動力 each) and the turns taken."""

    round: int
    remaining: Mapping[str, int]
    order: tuple[str, ...]
    taken: tuple[str, ...] = ()
    rules: tuple[str, ...] = ("UM-TURN-01",)

    def offered(self) -> tuple[str, ...]:
        """Who may act now, in the offered order (the GM may pick any of them)."""
        return tuple(n for n in self.order if self.remaining.get(n, 0) > 0)

    @property
    def over(self) -> bool:
        return not self.offered()


def default_order(
    combatants: Sequence[CombatantState], settings: UnmeiSettings = DEFAULT_SETTINGS
) -> tuple[str, ...]:
    """UM-TURN-01 (*default* turn_order): 敏捷度 highest first, ties in listed order."""
    if settings.turn_order == "listed":
        return tuple(c.name for c in combatants)
    return tuple(c.name for c in sorted(combatants, key=lambda c: -c.agility))


def start_round(
    combatants: Sequence[CombatantState],
    round_number: int = 1,
    order: Sequence[str] | None = None,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> RoundState:
    """UM-TURN-01: each combatant gets 行動力 turns this round; ``order`` is the GM's own."""
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise UnmeiRuleError(
            Message("同じ名前の参加者がいます", "duplicate combatant names"), reason="duplicate"
        )
    offered = tuple(order) if order is not None else default_order(combatants, settings)
    if sorted(offered) != sorted(names):
        raise UnmeiRuleError(
            Message(
                "手番順は参加者全員をちょうど一度ずつ並べてください",
                "the order must list every combatant once",
            ),
            reason="invalid order",
        )
    return RoundState(round_number, {c.name: max(0, c.action_points) for c in combatants}, offered)


def next_turn(state: RoundState, chosen: str | None = None) -> RoundState:
    """UM-TURN-01: the GM names who acts ("by a secret method"); default: the first offered."""
    offered = state.offered()
    if not offered:
        raise UnmeiRuleError(
            Message("このターンの手番は残っていません", "no turns left this round"),
            reason="round over",
        )
    actor = chosen if chosen is not None else offered[0]
    if actor not in offered:
        raise UnmeiRuleError(
            Message(
                f"{actor} にはこのターンの手番が残っていません",
                f"{actor} has no turn left this round",
            ),
            reason="no turn left",
        )
    remaining = dict(state.remaining)
    remaining[actor] -= 1
    return RoundState(state.round, remaining, state.order, (*state.taken, actor), state.rules)


# ---------------------------------------------------------------- growth


@dataclass(frozen=True)
class LevelUp:
    level: int
    fate_uses: int
    rules: tuple[str, ...] = ("UM-LEVEL-01", "UM-LEVEL-04")


def level_up(
    level: int, survived: bool = True, kind: CharacterKind | str = CharacterKind.PC
) -> LevelUp:
    """UM-LEVEL-01/04: a survivor goes up one level, at most 10; fate uses follow the level."""
    if not survived:
        raise UnmeiRuleError(
            Message(
                "セッションで生き残ったキャラクターだけがレベルアップできます",
                "only survivors level up",
            ),
            reason="not survived",
        )
    if level >= MAX_LEVEL:
        raise UnmeiRuleError(
            Message(f"レベルは最大 {MAX_LEVEL} です", f"the maximum level is {MAX_LEVEL}"),
            reason="max level",
        )
    new = max(MIN_LEVEL, level + 1)
    return LevelUp(new, fate_uses_per_session(kind, new).uses)


@dataclass(frozen=True)
class Growth:
    """UM-LEVEL-02: one roll per ability against its growth rate."""

    names: tuple[str, ...]
    rates: tuple[int, ...]
    rolls: tuple[int, ...]
    raised: tuple[bool, ...]
    rules: tuple[str, ...] = ("UM-LEVEL-02",)

    @property
    def player_chooses(self) -> bool:
        """No ability rose: the player raises one of their choice by 1."""
        return not any(self.raised)


def growth(
    rolls: Sequence[int], rates: Sequence[int], names: Sequence[str] | None = None
) -> Growth:
    """UM-LEVEL-02: ≤ growth rate (成長率) → +1."""
    if len(rolls) != len(rates):
        raise ValueError("one roll per growth rate")
    labels = tuple(names) if names is not None else tuple(str(i + 1) for i in range(len(rates)))
    raised = tuple(r <= rate for r, rate in zip(rolls, rates, strict=True))
    return Growth(labels, tuple(rates), tuple(rolls), raised)


def apply_growth(
    abilities: Mapping[str, int], result: Growth, chosen: str | None = None
) -> dict[str, int]:
    """UM-LEVEL-02: new ability values; when nothing rose ``chosen`` (the player's pick) +1."""
    new = dict(abilities)
    for name, up in zip(result.names, result.raised, strict=True):
        if up:
            new[name] = new.get(name, 0) + 1
    if result.player_chooses:
        if chosen is None or chosen not in new:
            raise UnmeiRuleError(
                Message(
                    "能力値が上がらなかったので、上げる能力値を1つ選んでください",
                    "no ability rose: choose one ability to raise by 1",
                ),
                reason="choose ability",
            )
        new[chosen] += 1
    return new


# ---------------------------------------------------------------- formula table (UM-LEVEL-03)

# The formulas are the dice engine's integer arithmetic over ability names (one arithmetic
# core for sums, damage and formulas): saikoro.dice.arith.evaluate_formula / FormulaError.


@dataclass(frozen=True)
class Derived:
    values: Mapping[str, int]
    rules: tuple[str, ...] = ("UM-LEVEL-03",)


def derive(formulas: Mapping[str, str], abilities: Mapping[str, int]) -> Derived:
    """UM-LEVEL-03: recompute skills/sub-values from abilities with the GM's formula table."""
    return Derived({name: evaluate_formula(f, abilities) for name, f in formulas.items()})
