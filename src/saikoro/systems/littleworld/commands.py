"""帽子世界TRPG chat commands → rule functions → BCDice-style results.

Syntax (a contract, see help.py):

- ``LW<a>`` / ``LW<a>>=<t>``: a check with ability ``a`` (LW-CHECK-01…04); a modifier
  after the ability (``LW3+1>=10``, ``LW3-2``) is added to the total, not to the ability
  (the dice still follow the ability, LW-CHECK-02), as BCDice's modifiers do.
- ``LWO<a>-<b>``: an opposed check, active ``a`` against passive ``b`` (LW-CHECK-05).
- ``LWA<a>-<d>``: a whole attack (LW-COMBAT-05…11); ``LWA<a>`` / ``LWA<a>-X``: the
  defender cannot defend.
- ``LWT<行動>``: which ability a task uses (LW-ABIL-02).

Generic sums (``2D6+3>=10``) are judged by :func:`judge_sum` (LW-CHECK-03).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import CheckResult, RollResult, SumCheck
from saikoro.i18n import Message
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.rules import ROLL_DEFAULTS, RollSettings

SEP = " ＞ "
SUCCESS = Message("成功", "Success")
FAILURE = Message("失敗", "Failure")
#: The abilities' names in English (LWT's answer).
ABILITY_EN = {"体力": "Body", "技巧": "Skill", "理知": "Intellect"}

CHECK_RE = re.compile(r"^LW(\d+)((?:[+-]\d+)*)(?:>=(\d+))?$")
_MODIFIER = re.compile(r"[+-]\d+")
OPPOSED_RE = re.compile(r"^LWO(\d+)-(\d+)$")
ATTACK_RE = re.compile(r"^LWA(\d+)(?:-(\d+|X))?$")
TASK_RE = re.compile(r"^LWT(.+)$")


def evaluate(
    command: str, randomizer: Randomizer, settings: RollSettings = ROLL_DEFAULTS
) -> RollResult | None:
    """One ``LW…`` command (normalized, upper case, ``S`` and comment removed), or None."""
    if m := CHECK_RE.match(command):
        target = int(m.group(3)) if m.group(3) is not None else None
        modifier = sum(int(x) for x in _MODIFIER.findall(m.group(2)))
        return check_command(
            command, int(m.group(1)), target, randomizer, settings, modifier=modifier
        )
    if m := OPPOSED_RE.match(command):
        return opposed_command(command, int(m.group(1)), int(m.group(2)), randomizer, settings)
    if m := ATTACK_RE.match(command):
        d = m.group(2)
        defender = None if d is None or d == "X" else int(d)
        return attack_command(command, int(m.group(1)), defender, randomizer, settings)
    if m := TASK_RE.match(command):
        return task_command(command, m.group(1))
    return None


# -- text pieces ----------------------------------------------------------------


def dice_text(check: R.Check, added: int | None = None, modifier: int = 0) -> str:
    """``9[4,5]+3``: the dice sum, the dice, and the ability added (BCDice's AddDice form);
    ``9[4,5]+3+1`` with a modifier."""
    plus = check.ability if added is None else added
    text = f"{sum(check.dice)}[{','.join(map(str, check.dice))}]{_signed(plus)}"
    return text + (_signed(modifier) if modifier else "")


def _signed(number: int) -> str:
    return f"{'+' if number >= 0 else '-'}{abs(number)}"


def _check_detail(check: R.Check) -> dict[str, Any]:
    return {
        "ability": check.ability,
        "dice": list(check.dice),
        "total": check.total,
        "weak": check.weak,
        "critical": check.critical,
        "fumble": check.fumble,
    }


CRITICAL = Message("クリティカル", "Critical")
FUMBLE = Message("ファンブル", "Fumble")
WEAK = Message("(苦手行動)", " (weak action)")


def _flag_word(check: R.Check) -> Message:
    if check.critical:
        return Message(" ", " ") + CRITICAL
    if check.fumble:
        return Message(" ", " ") + FUMBLE
    return Message("", "")


def _result(parts: list[Message], **fields: Any) -> RollResult:
    text = Message.join(SEP, parts)
    return RollResult(text=text.ja, text_en=text.en, **fields)


# -- LW<a>[>=<t>] -------------------------------------------------------------------


def check_command(
    command: str,
    ability: int,
    target: int | None,
    randomizer: Randomizer,
    settings: RollSettings = ROLL_DEFAULTS,
    *,
    modifier: int = 0,
) -> RollResult:
    """LW-CHECK-01…04. As BCDice prints it, a fumble shows no difficulty band (it fails
    whatever the target), a critical and an ordinary result do."""
    check = R.roll_check(ability, randomizer, settings)
    if modifier:
        check = replace(check, total=check.total + modifier)
    parts = [Message.same(f"({command})")]
    if check.weak:
        parts.append(Message("1D6(苦手行動)", "1D6 (weak action)"))
    parts += [Message.same(dice_text(check, modifier=modifier)), Message.same(str(check.total))]
    detail: dict[str, Any] = {"kind": "check", **_check_detail(check), "target": target}
    if modifier:
        detail["modifier"] = modifier
    rules = check.rules
    if target is None:
        success = check.critical
        failure = check.fumble
        if check.critical:
            parts.append(CRITICAL)
        elif check.fumble:
            parts.append(FUMBLE)
    else:
        outcome = R.check_against(check, target)
        success, failure = outcome.success, not outcome.success
        word = (
            CRITICAL
            if check.critical
            else FUMBLE
            if check.fumble
            else (SUCCESS if outcome.success else FAILURE)
        )
        band = outcome.band
        band_shown = Message(f"(難易度:{band.ja})", f" (difficulty: {band.en})")
        parts.append(word if check.fumble else word + band_shown)
        detail.update(band=band.key, band_ja=band.ja, success=outcome.success)
        rules = outcome.rules
    return _result(
        parts,
        success=success,
        failure=failure,
        critical=check.critical,
        fumble=check.fumble,
        value=check.total,
        rules=rules,
        detail=detail,
    )


# -- LWO<a>-<b> ----------------------------------------------------------------------


def _side(ja: str, en: str, check: R.Check) -> Message:
    shown = f" {dice_text(check)}={check.total}"
    return Message(ja + shown, en + shown) + _flag_word(check)


def opposed_command(
    command: str,
    active_ability: int,
    passive_ability: int,
    randomizer: Randomizer,
    settings: RollSettings = ROLL_DEFAULTS,
) -> RollResult:
    active = R.roll_check(active_ability, randomizer, settings)
    passive = None
    if not active.fumble or settings.opposed_passive_rolls_on_active_fumble:
        passive = R.roll_check(passive_ability, randomizer, settings)
    outcome = R.resolve_opposed(active, passive)
    parts = [Message.same(f"({command})"), _side("能動側", "active", active)]
    if passive is not None:
        parts.append(_side("受動側", "passive", passive))
    why = {
        "tie": Message("(同値)", " (tie)"),
        "both_critical": Message("(両者クリティカル)", " (both critical)"),
    }.get(outcome.reason, Message("", ""))
    winner = (
        Message("能動側の勝ち", "active side wins")
        if outcome.active_wins
        else Message("受動側の勝ち", "passive side wins")
    )
    parts.append(winner + why)
    detail = {
        "kind": "opposed",
        "active": _check_detail(active),
        "passive": _check_detail(passive) if passive is not None else None,
        "active_wins": outcome.active_wins,
        "reason": outcome.reason,
    }
    return _result(
        parts,
        success=outcome.active_wins,
        failure=not outcome.active_wins,
        critical=active.critical,
        fumble=active.fumble,
        value=active.total,
        rules=tuple(dict.fromkeys((*active.rules, *outcome.rules))),
        detail=detail,
    )


# -- LWA<a>[-<d>|-X] -----------------------------------------------------------------


def attack_texts(outcome: R.AttackOutcome) -> list[Message]:
    """An attack's text after its command (``＞``-separated) in both languages: 攻撃値,
    防御値 (or 攻撃失敗 / 防御不能), ダメージ. ``LWA…`` and the table's ``/attack`` show it."""
    attack = outcome.attack
    weak = WEAK if attack.weak else Message("", "")
    shown = f" {dice_text(attack)}={attack.total}"
    parts = [Message("攻撃値" + shown, "attack" + shown) + weak + _flag_word(attack)]
    defence = outcome.defence
    if attack.fumble:
        parts.append(Message("攻撃失敗", "attack fails"))
    elif defence is None:
        parts.append(Message("防御不能", "cannot defend"))
    else:
        counted = 0 if attack.critical else defence.ability
        shown = f" {dice_text(defence, counted)}={defence.total}"
        text = Message("防御値" + shown, "defence" + shown)
        if defence.weak:
            text += WEAK
        if attack.critical:
            text += Message("(能力値0)", " (ability counts as 0)")
        if outcome.evaded:
            text += Message(" クリティカル(完全回避)", " Critical (full evasion)")
        elif defence.fumble:
            text += Message(" ファンブル(防御値0)", " Fumble (defence 0)")
        elif defence.critical:
            text += Message(" ", " ") + CRITICAL
        parts.append(text)
    parts.append(Message(f"ダメージ{outcome.damage}", f"damage {outcome.damage}"))
    return parts


def attack_parts(outcome: R.AttackOutcome) -> list[str]:
    """:func:`attack_texts` in Japanese."""
    return [part.ja for part in attack_texts(outcome)]


def attack_command(
    command: str,
    attacker: int,
    defender: int | None,
    randomizer: Randomizer,
    settings: RollSettings = ROLL_DEFAULTS,
) -> RollResult:
    outcome = R.roll_attack(attacker, defender, randomizer, settings)
    attack, defence = outcome.attack, outcome.defence
    parts = [Message.same(f"({command})"), *attack_texts(outcome)]
    detail = {
        "kind": "attack",
        "attacker_ability": attacker,
        "defender_ability": defender,
        "attack": _check_detail(attack),
        "defence": _check_detail(defence) if defence is not None else None,
        "attack_value": attack.total,
        "defence_value": outcome.defence_value,
        "can_defend": outcome.can_defend,
        "evaded": outcome.evaded,
        "damage": outcome.damage,
    }
    return _result(
        parts,
        success=outcome.damage > 0,
        failure=outcome.damage <= 0,
        critical=attack.critical,
        fumble=attack.fumble,
        value=outcome.damage,
        rules=outcome.rules,
        detail=detail,
    )


# -- LWT<task> -----------------------------------------------------------------------


def task_command(command: str, task: str) -> RollResult:
    from saikoro.systems.littleworld.tasks import find_task

    found = find_task(task)
    echo = Message.same(f"({command})")
    if found is None:
        missing = Message("該当する行動が見つかりません", "no such task")
        return _result(
            [echo, missing], failure=True, rules=("LW-ABIL-02",), detail={"kind": "task"}
        )
    abilities = Message(  # one kind of parentheses in result texts: (…)
        f"({'/'.join(found.abilities)})",
        f" ({'/'.join(ABILITY_EN.get(a, a) for a in found.abilities)})",
    )
    return _result(
        [echo, Message.same(found.task) + abilities],
        rules=found.rules,
        detail={"kind": "task", "task": found.task, "abilities": list(found.abilities)},
    )


# -- generic sums (LW-CHECK-03) -------------------------------------------------------


def judge_sum(check: SumCheck, settings: RollSettings = ROLL_DEFAULTS) -> CheckResult | None:
    """LW-CHECK-03 on a generic sum of d6s: two or more 6s → クリティカル (success), every die
    1 → ファンブル (failure); otherwise the default judgement. As BCDice's Arianrhod, a sum
    without a comparison is not judged (setting ``sum_crit_without_comparison``), and a sum
    with other dice than d6 is not judged."""
    if check.cmp_op is None and not settings.sum_crit_without_comparison:
        return None
    if not check.dice or any(sides != 6 for _, sides in check.dice):
        return None
    values = [v for v, _ in check.dice]
    rules = ("LW-CHECK-03",)
    if R.is_fumble(values):
        return CheckResult(FUMBLE.ja, failure=True, fumble=True, rules=rules, text_en=FUMBLE.en)
    if R.is_critical(values, settings):
        return CheckResult(
            CRITICAL.ja, success=True, critical=True, rules=rules, text_en=CRITICAL.en
        )
    return None
