"""帽子世界TRPG rules as pure functions: checks, criticals, difficulty, opposed checks, attacks.

Every function here judges values (dice as lists of ints) and returns a frozen result
naming the RULES.md rule IDs it applied (``rules``). Rolling is kept apart: the
``roll_*`` helpers only take dice from a :class:`~saikoro.dice.randomizer.Randomizer`
and hand them to the pure judgement.

The other rule areas live in their own modules and are re-exported here, so
``from saikoro.systems.littleworld.rules import …`` reaches everything:
:mod:`.turn_order` (turn order, rows), :mod:`.conditions` (conditions, rest, party
down), :mod:`.keeper` (価値観 ledger, 禁忌値, hat), :mod:`.special` (specialist
actions, herbs, water, vehicles).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.dice.randomizer import Randomizer


class RollSettings(Protocol):
    """The part of :class:`~.settings.LittleWorldSettings` the rolls use (any settings object
    with these attributes will do)."""

    @property
    def weak_action_below_one(self) -> bool: ...
    @property
    def critical_sixes(self) -> int: ...
    @property
    def sum_crit_without_comparison(self) -> bool: ...
    @property
    def opposed_passive_rolls_on_active_fumble(self) -> bool: ...
    @property
    def defender_critical_beats_attacker_critical(self) -> bool: ...
    @property
    def damage_floor_zero(self) -> bool: ...
    @property
    def weak_dice_from_real_ability(self) -> bool: ...


@dataclass(frozen=True)
class RollDefaults:
    """The defaults of :class:`RollSettings`, equal to ``LittleWorldSettings()``'s (a test
    checks it): the chat commands use this so that a roll does not import pydantic."""

    weak_action_below_one: bool = True
    critical_sixes: int = 2
    sum_crit_without_comparison: bool = False
    opposed_passive_rolls_on_active_fumble: bool = True
    defender_critical_beats_attacker_critical: bool = True
    damage_floor_zero: bool = True
    weak_dice_from_real_ability: bool = True


ROLL_DEFAULTS: RollSettings = RollDefaults()


class LittleWorldRuleError(SaikoroError):
    """A rule function was given values the rules do not allow (nothing was changed)."""

    reason = "rule violation"


# ---------------------------------------------------------------------------
# Checks (LW-CHECK-01…04)
# ---------------------------------------------------------------------------


def dice_count(ability: int, settings: RollSettings = ROLL_DEFAULTS) -> int:
    """LW-CHECK-02: 2D6, or 1D6 for a weak ability (苦手行動)."""
    weak = ability == 1 or (ability < 1 and settings.weak_action_below_one)
    return 1 if weak else 2


def is_critical(dice: Sequence[int], settings: RollSettings = ROLL_DEFAULTS) -> bool:
    """LW-CHECK-03: two or more 6s (so a single 1D6 can never be critical)."""
    return sum(1 for d in dice if d == 6) >= settings.critical_sixes


def is_fumble(dice: Sequence[int]) -> bool:
    """LW-CHECK-03: every die shows 1 (at least one die)."""
    return bool(dice) and all(d == 1 for d in dice)


@dataclass(frozen=True)
class DifficultyBand:
    """LW-CHECK-04: the difficulty guide of a target value."""

    key: Literal["easy", "normal", "hard", "expert"]
    ja: str
    en: str
    rules: tuple[str, ...] = ("LW-CHECK-04",)


_BANDS = (
    (15, "expert", "専門技術があっても困難", "hard even for experts"),
    (10, "hard", "難しい", "hard"),
    (5, "normal", "普通", "normal"),
)


def difficulty_band(target: int) -> DifficultyBand:
    """LW-CHECK-04: 0–4 易しい, 5–9 普通, 10–14 難しい, 15+ 専門技術があっても困難."""
    for low, key, ja, en in _BANDS:
        if target >= low:
            return DifficultyBand(key, ja, en)  # type: ignore[arg-type]
    return DifficultyBand("easy", "易しい", "easy")


@dataclass(frozen=True)
class Check:
    """One roll of ability + dice (LW-CHECK-01/02/03), not yet compared with anything."""

    ability: int
    dice: tuple[int, ...]
    total: int
    weak: bool
    critical: bool
    fumble: bool
    rules: tuple[str, ...]


def judge_check(
    ability: int,
    dice: Sequence[int],
    settings: RollSettings = ROLL_DEFAULTS,
    *,
    ability_counted: int | None = None,
) -> Check:
    """Judge dice already rolled for ``ability``: total, 苦手行動, critical, fumble.

    ``ability_counted`` is the value added to the dice when it differs from the
    ability that chose the dice (an attacker critical makes it 0, LW-COMBAT-06).
    """
    expected = dice_count(ability, settings)
    if len(dice) != expected:
        raise LittleWorldRuleError(
            Message(
                f"能力値{ability}の判定は{expected}D6です (ダイス{len(dice)}個)",
                f"a check with ability {ability} rolls {expected}D6 (got {len(dice)} dice)",
            )
        )
    if any(not 1 <= d <= 6 for d in dice):
        raise LittleWorldRuleError(Message("D6の出目は1〜6です", "a d6 shows 1 to 6"))
    weak = expected == 1
    added = ability if ability_counted is None else ability_counted
    rules = ["LW-CHECK-01", "LW-CHECK-03"]
    if weak:
        rules.append("LW-CHECK-02")
    return Check(
        ability=ability,
        dice=tuple(dice),
        total=sum(dice) + added,
        weak=weak,
        critical=is_critical(dice, settings),
        fumble=is_fumble(dice),
        rules=tuple(rules),
    )


def roll_dice(
    ability: int, randomizer: Randomizer, settings: RollSettings = ROLL_DEFAULTS
) -> list[int]:
    """Roll the dice of a check with ``ability`` (2D6, or 1D6 when weak)."""
    return randomizer.roll_barabara(dice_count(ability, settings), 6)


def roll_check(
    ability: int, randomizer: Randomizer, settings: RollSettings = ROLL_DEFAULTS
) -> Check:
    return judge_check(ability, roll_dice(ability, randomizer, settings), settings)


@dataclass(frozen=True)
class CheckOutcome:
    """A check compared with a target (LW-CHECK-01), criticals and fumbles deciding first."""

    check: Check
    target: int
    success: bool
    band: DifficultyBand
    rules: tuple[str, ...]


def check_against(check: Check, target: int) -> CheckOutcome:
    """LW-CHECK-01/03/04: success when 達成値 ≥ 目標値; a critical always succeeds, a fumble
    always fails."""
    if check.critical:
        success = True
    elif check.fumble:
        success = False
    else:
        success = check.total >= target
    band = difficulty_band(target)
    return CheckOutcome(check, target, success, band, (*check.rules, "LW-CHECK-04"))


# ---------------------------------------------------------------------------
# Opposed checks (LW-CHECK-05)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class OpposedOutcome:
    """Who won an opposed check; ``reason`` is one of ``critical``, ``fumble``,
    ``both_critical``, ``higher``, ``tie``."""

    active: Check
    passive: Check | None
    active_wins: bool
    reason: str
    rules: tuple[str, ...]


def resolve_opposed(active: Check, passive: Check | None) -> OpposedOutcome:
    """LW-CHECK-05 with LW-CHECK-03: the side that received the challenge (passive) wins ties.

    A fumble always loses (the active side's fumble first); a critical always wins unless
    both sides are critical (then the passive side wins, as in a tie). ``passive`` may be
    None only when the active side fumbled (it loses without the other side rolling).
    """
    rules = ("LW-CHECK-05", "LW-CHECK-03")
    if active.fumble:
        return OpposedOutcome(active, passive, False, "fumble", rules)
    if passive is None:
        raise LittleWorldRuleError(
            Message("受動側の判定がありません", "the passive side's roll is missing")
        )
    if passive.fumble:
        return OpposedOutcome(active, passive, True, "fumble", rules)
    if active.critical and passive.critical:
        return OpposedOutcome(active, passive, False, "both_critical", rules)
    if active.critical or passive.critical:
        return OpposedOutcome(active, passive, active.critical, "critical", rules)
    if active.total == passive.total:
        return OpposedOutcome(active, passive, False, "tie", rules)
    return OpposedOutcome(active, passive, active.total > passive.total, "higher", rules)


# ---------------------------------------------------------------------------
# Attacks (LW-COMBAT-05…11)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOutcome:
    """One complete attack.

    ``defence`` is None when no defence dice were rolled: after an attacker fumble
    (LW-COMBAT-07) or when the defender cannot defend (LW-COMBAT-11).
    ``defence_value`` is the 防御値 actually used (0 after a defender fumble).
    ``evaded`` is True on a defender critical (LW-COMBAT-08).
    """

    attack: Check
    defence: Check | None
    can_defend: bool
    defence_value: int | None
    evaded: bool
    damage: int
    rules: tuple[str, ...]

    @property
    def attack_value(self) -> int:
        return self.attack.total


def defence_needed(attack: Check, can_defend: bool) -> bool:
    """Whether defence dice are rolled: not after an attacker fumble (LW-COMBAT-07), not when
    the defender cannot defend (LW-COMBAT-11)."""
    return can_defend and not attack.fumble


def judge_defence(
    defender_ability: int,
    dice: Sequence[int],
    attack: Check,
    settings: RollSettings = ROLL_DEFAULTS,
) -> Check:
    """LW-COMBAT-05/06: the defence roll; after an attacker critical the ability counts as 0."""
    counted = _counted_defence(defender_ability, attack)
    chooser = defender_ability if settings.weak_dice_from_real_ability else counted
    check = judge_check(chooser, dice, settings, ability_counted=counted)
    if attack.critical:
        check = replace(check, ability=defender_ability, rules=(*check.rules, "LW-COMBAT-06"))
    return check


def _counted_defence(defender_ability: int, attack: Check) -> int:
    """LW-COMBAT-06: the ability added to the defence dice (0 after an attacker critical)."""
    return 0 if attack.critical else defender_ability


def defence_dice_count(
    defender_ability: int, attack: Check, settings: RollSettings = ROLL_DEFAULTS
) -> int:
    """How many dice the defence rolls (LW-CHECK-02 on the ability, see
    ``weak_dice_from_real_ability``)."""
    counted = _counted_defence(defender_ability, attack)
    return dice_count(
        defender_ability if settings.weak_dice_from_real_ability else counted, settings
    )


def resolve_attack(
    attack: Check,
    defence: Check | None,
    *,
    can_defend: bool = True,
    settings: RollSettings = ROLL_DEFAULTS,
) -> AttackOutcome:
    """LW-COMBAT-05…11: the damage of an attack whose dice are known.

    ``defence`` must be given exactly when :func:`defence_needed` says so.
    """
    rules = ["LW-COMBAT-05", *attack.rules]
    needed = defence_needed(attack, can_defend)
    if needed != (defence is not None):
        raise LittleWorldRuleError(
            Message(
                "防御判定は攻撃がファンブルでなく防御可能なときだけ振ります",
                "the defence is rolled only when the attack did not fumble and the "
                "defender can defend",
            )
        )
    if attack.fumble:
        rules.append("LW-COMBAT-07")
        return AttackOutcome(attack, None, can_defend, None, False, 0, tuple(rules))
    if defence is None:
        rules.append("LW-COMBAT-11")
        return AttackOutcome(
            attack, None, False, None, False, max(attack.total, 0), tuple(_uniq(rules))
        )
    rules.extend(r for r in defence.rules if r not in rules)
    if attack.critical:
        rules.append("LW-COMBAT-06")
    if defence.critical and (
        not attack.critical or settings.defender_critical_beats_attacker_critical
    ):
        rules.append("LW-COMBAT-08")
        return AttackOutcome(attack, defence, True, defence.total, True, 0, tuple(_uniq(rules)))
    defence_value = defence.total
    if defence.fumble:
        rules.append("LW-COMBAT-09")
        defence_value = 0
    damage = attack.total - defence_value
    rules.append("LW-COMBAT-10")
    if settings.damage_floor_zero:
        damage = max(damage, 0)
    return AttackOutcome(attack, defence, True, defence_value, False, damage, tuple(_uniq(rules)))


def roll_attack(
    attacker_ability: int,
    defender_ability: int | None,
    randomizer: Randomizer,
    settings: RollSettings = ROLL_DEFAULTS,
) -> AttackOutcome:
    """Roll a whole attack; ``defender_ability`` None = the defender cannot defend.

    Defence dice are taken from the randomizer only when needed (no dice after an
    attacker fumble).
    """
    attack = roll_check(attacker_ability, randomizer, settings)
    can_defend = defender_ability is not None
    defence = None
    if defender_ability is not None and defence_needed(attack, can_defend):
        count = defence_dice_count(defender_ability, attack, settings)
        dice = randomizer.roll_barabara(count, 6)
        defence = judge_defence(defender_ability, dice, attack, settings)
    return resolve_attack(attack, defence, can_defend=can_defend, settings=settings)


@dataclass(frozen=True)
class Declaration:
    """LW-COMBAT-04: a skill card declared by the attacker or the defender (for the log)."""

    role: Literal["attacker", "defender"]
    card: str
    rules: tuple[str, ...]
    gm_override: bool = False


def declare_skill_card(
    role: Literal["attacker", "defender"],
    card: str,
    skill_cards: Sequence[str],
    *,
    stage: Literal["before_action", "before_defence", "after_roll"],
    asleep: bool = False,
    gm_override: bool = False,
) -> Declaration:
    """LW-COMBAT-04: the attacker declares a skill card before acting, the defender before the
    defence roll; a card not held, a late declaration, or a sleeping character's card
    (LW-COND-04) is refused unless the GM overrides."""
    rules: tuple[str, ...] = ("LW-COMBAT-04",)
    due = "before_action" if role == "attacker" else "before_defence"
    problem: Message | None = None
    if card not in skill_cards:
        problem = Message(
            f"スキルカード「{card}」を持っていません", f"the skill card {card} is not held"
        )
    elif asleep:
        rules = (*rules, "LW-COND-04")
        problem = Message(
            "睡眠中はスキルカードを使えません", "skill cards cannot be used while asleep"
        )
    elif stage != due:
        when = "行動前" if role == "attacker" else "防御判定の前"
        problem = Message(
            f"スキルカードは{when}に宣言します",
            "a skill card is declared "
            + ("before acting" if role == "attacker" else "before the defence roll"),
        )
    if problem is not None and not gm_override:
        raise LittleWorldRuleError(problem)
    return Declaration(role, card, rules, gm_override=problem is not None)


def fall_ability(body: int, skill: int) -> tuple[str, int, tuple[str, ...]]:
    """LW-ABIL-03: a fall from height uses the higher of 体力 and 技巧."""
    if skill > body:
        return ("技巧", skill, ("LW-ABIL-03",))
    return ("体力", body, ("LW-ABIL-03",))


def halve(value: int) -> int:
    """LW-CHECK-06: every division rounds down."""
    return value // 2


def _uniq(items: Sequence[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


# The other rule areas, reachable from here (``rules.start_combat``) but imported on first
# use, so that a chat roll does not load them (nor pydantic, which their settings need).
_AREAS = ("conditions", "keeper", "special", "turn_order")


def __getattr__(name: str) -> object:
    import importlib

    if name.startswith("__"):  # import machinery probes (__path__, …)
        raise AttributeError(name)
    for area in _AREAS:
        module = importlib.import_module(f"saikoro.systems.littleworld.{area}")
        if name in module.__all__:
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    import importlib

    names = set(globals())
    for area in _AREAS:
        names.update(importlib.import_module(f"saikoro.systems.littleworld.{area}").__all__)
    return sorted(names)
