"""The chat commands of 運命判定d100: FATE, MA, RA, MG, GROW (syntax: issue 4, a contract).

Each command parses its arguments, rolls 1d100 through the randomizer and hands the
roll to the pure rule functions in ``rules.py``; the text is BCDice-style Japanese
(``＞`` separators) and always says what happened.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import CheckResult, RollResult, SumCheck
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.base import GameSystem
from saikoro.systems.unmeid100 import rules
from saikoro.systems.unmeid100.help import HELP_MESSAGE, USAGE
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS, UnmeiSettings

MAX_GROWTH_ABILITIES = 20
MAX_NUMBER = 10000

_FATE = re.compile(r"^FATE(\d+)$")
_MA = re.compile(r"^MA(\d+),(-?\d+),(\d+)$")
_RA = re.compile(r"^RA(\d+),(-?\d+),(\d+)(?:,(\d+))?$")
_MG = re.compile(r"^MG(\d+)((?:,-?\d+)*)((?:,[OH])*)$")
_GROW_ITEM = r"[^\d,\[\]<>=]{0,20}\d+"
_GROW = re.compile(rf"^GROW({_GROW_ITEM}(?:,{_GROW_ITEM})*)$")
_GROW_SPLIT = re.compile(r"^([^\d,\[\]<>=]*)(\d+)$")

ATTACK_TEXTS: dict[str, Message] = {
    "critical": Message("クリティカルヒット！ 命中", "Critical hit!"),
    "hit": Message("命中", "hit"),
    "armour": Message("失敗(アーマークラスに防がれた)", "Failure (stopped by armour class)"),
    "miss": Message("失敗(外れ)", "Failure (miss)"),
    "out_of_range": Message("失敗(射程外)", "Failure (out of range)"),
}
_ACTIVATED = Message("発動 ＞ ", "activated ＞ ")
SPELL_TEXTS: dict[str, Message] = {
    "not_activated": Message("発動失敗(詠唱継続)", "Not activated (still chanting)"),
    "activated": Message("発動", "activated"),
    "charm_override": _ACTIVATED
    + Message("魅力以下：抵抗を無視して効果発揮", "roll <= charm: takes effect whatever the RC"),
    "resisted": _ACTIVATED
    + Message("失敗(レジストクラスに抵抗された)", "Failure (resisted by resist class)"),
    "took_effect": _ACTIVATED + Message("効果発揮", "takes effect"),
}
#: The Japanese words (as BCDice prints them).
ATTACK_WORDS: dict[str, str] = {key: text.ja for key, text in ATTACK_TEXTS.items()}
SPELL_WORDS: dict[str, str] = {key: text.ja for key, text in SPELL_TEXTS.items()}
SUCCESS = Message("成功", "Success")
FAILURE = Message("失敗", "Failure")
MELEE = Message("白兵攻撃", "melee attack")


SEP = " ＞ "


def ranged_text(aim: int) -> Message:
    return (
        Message(f"射撃攻撃 狙い{aim}", f"ranged attack aim {aim}")
        if aim
        else Message("射撃攻撃", "ranged attack")
    )


def ranged_label(aim: int) -> str:
    return ranged_text(aim).ja


def attack_texts(label: Message, out: rules.AttackOutcome) -> list[Message]:
    """An attack's text after its command (``＞``-separated) in both languages, as MA/RA
    and the table's ``/melee`` / ``/shoot`` show it."""
    shown = f" (1D100<={out.target}) AC{out.ac} "
    return [
        label
        + Message(
            f"{shown}クリティカル<={out.critical_range}", f"{shown}Critical<={out.critical_range}"
        ),
        Message.same(str(out.roll)),
        ATTACK_TEXTS[out.result],
    ]


def attack_parts(label: str, out: rules.AttackOutcome) -> list[str]:
    """:func:`attack_texts` in Japanese."""
    return [part.ja for part in attack_texts(Message(label, label), out)]


def spell_text(off_school: bool, halved: bool) -> Message:
    notes = [
        n
        for n, on in (
            (Message("門外-10", "off-school -10"), off_school),
            (Message("発動率半分", "half rate"), halved),
        )
        if on
    ]
    label = Message("魔法発動", "spell activation")
    return (
        label + Message("[", "[") + Message.join(",", notes) + Message("]", "]") if notes else label
    )


def spell_label(off_school: bool, halved: bool) -> str:
    return spell_text(off_school, halved).ja


def spell_texts(label: Message, out: rules.SpellOutcome) -> list[Message]:
    """A spell's activation after its command in both languages, as MG and ``/cast`` show it."""
    shown = f" (1D100<={out.target})"
    resist = (
        Message(f" RC{out.rc} 魅力{out.charm}", f" RC{out.rc} charm {out.charm}")
        if out.rc is not None
        else Message("", "")
    )
    return [
        label + Message.same(shown) + resist,
        Message.same(str(out.roll)),
        SPELL_TEXTS[out.result],
    ]


def spell_parts(label: str, out: rules.SpellOutcome) -> list[str]:
    """:func:`spell_texts` in Japanese."""
    return [part.ja for part in spell_texts(Message(label, label), out)]


def _result(parts: list[Message], **fields: Any) -> RollResult:
    text = Message.join(SEP, parts)
    return RollResult(text=text.ja, text_en=text.en, **fields)


class UnmeiCommandError(SaikoroError):
    reason = "invalid command"


def _number(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_NUMBER:
        raise UnmeiCommandError(
            Message(
                f"数値 {value} が大きすぎます (最大 {MAX_NUMBER})",
                f"number {value} is too large (max {MAX_NUMBER})",
            )
        )
    return value


class UnmeiD100(GameSystem):
    """運命判定d100 — d100 roll-under with fate checks (RULES.md System B)."""

    id = "UnmeiD100"
    name = "運命判定d100"
    sort_key = "うんめいはんていD100"
    help_message = HELP_MESSAGE
    # BCDice's convention: the commands' names (command_pattern then matches FATE(10+2),
    # MA(50+10),30,12 as clients send them).
    prefixes = ("FATE", "MA", "RA", "MG", "GROW")
    usage: ClassVar[dict[str, tuple[str, str]]] = USAGE
    settings: UnmeiSettings = DEFAULT_SETTINGS

    # ------------------------------------------------------------ hooks
    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        for pattern, handler in (
            (_FATE, self._fate),
            (_MA, self._melee),
            (_RA, self._ranged),
            (_MG, self._magic),
            (_GROW, self._grow),
        ):
            match = pattern.match(command)
            if match:
                return handler(command, match, randomizer)
        return None

    def check_sum(self, check: SumCheck) -> CheckResult | None:
        """UM-CHECK-01: a lone d100 against ``<=`` is the basic check; names the rule."""
        if (
            check.cmp_op == "<="
            and check.target is not None
            and len(check.dice) == 1
            and check.dice[0][1] == 100
        ):
            ok = check.total <= check.target
            word = SUCCESS if ok else FAILURE
            return CheckResult(
                word.ja, success=ok, failure=not ok, rules=("UM-CHECK-01",), text_en=word.en
            )
        return None

    # ------------------------------------------------------------ commands
    def _fate(self, command: str, m: re.Match[str], randomizer: Randomizer) -> RollResult:
        fate = _number(m.group(1))
        roll = randomizer.roll_once(100)
        out = rules.fate_check(roll, fate)
        label = f" (1D100<={out.target})"
        return _result(
            [
                Message.same(f"({command})"),
                Message("運命判定" + label, "fate check" + label),
                Message.same(str(roll)),
                SUCCESS if out.success else FAILURE,
            ],
            success=out.success,
            failure=not out.success,
            value=roll,
            rules=out.rules,
            detail={"target": out.target, "fate": fate},
        )

    def _attack_result(
        self, command: str, label: Message, out: rules.AttackOutcome, extra: dict[str, object]
    ) -> RollResult:
        return _result(
            [Message.same(f"({command})"), *attack_texts(label, out)],
            success=out.hit,
            failure=not out.hit,
            critical=out.critical,
            value=out.roll,
            rules=out.rules,
            detail={
                "target": out.target,
                "ac": out.ac,
                "critical_range": out.critical_range,
                "outcome": out.result,
                **extra,
            },
        )

    def _melee(self, command: str, m: re.Match[str], randomizer: Randomizer) -> RollResult:
        skill, ac, agi = (_number(g) for g in m.groups())
        roll = randomizer.roll_once(100)
        out = rules.melee_attack(roll, skill, ac, agi, self.settings)
        return self._attack_result(command, MELEE, out, {"skill": skill, "agility": agi})

    def _ranged(self, command: str, m: re.Match[str], randomizer: Randomizer) -> RollResult:
        thief, ac, agi = (_number(g) for g in m.groups()[:3])
        aim = _number(m.group(4)) if m.group(4) is not None else 0
        if not 0 <= aim <= rules.MAX_AIM:
            raise UnmeiCommandError(
                Message(
                    f"狙いの手番数は 0〜{rules.MAX_AIM} です ({aim})",
                    f"aiming turns must be 0 to {rules.MAX_AIM} ({aim})",
                )
            )
        roll = randomizer.roll_once(100)
        out = rules.ranged_attack(roll, thief, ac, agi, aim, settings=self.settings)
        label = ranged_text(aim)
        return self._attack_result(
            command, label, out, {"thief": thief, "agility": agi, "aim": aim}
        )

    def _magic(self, command: str, m: re.Match[str], randomizer: Randomizer) -> RollResult | None:
        numbers = [_number(x) for x in m.group(2).split(",") if x]
        flags = [x for x in m.group(3).split(",") if x]
        if len(numbers) not in (0, 2) or len(flags) != len(set(flags)):
            return None
        off_school, halved = "O" in flags, "H" in flags
        rc, cha = (numbers[0], numbers[1]) if numbers else (None, None)
        roll = randomizer.roll_once(100)
        out = rules.activate_spell(
            roll,
            _number(m.group(1)),
            off_school=off_school,
            halved=halved,
            rc=rc,
            charm=cha,
            settings=self.settings,
        )
        parts = spell_texts(spell_text(off_school, halved), out)
        return _result(
            [Message.same(f"({command})"), *parts],
            success=out.takes_effect,
            failure=not out.takes_effect,
            value=roll,
            rules=out.rules,
            detail={
                "target": out.target,
                "rc": rc,
                "charm": cha,
                "off_school": off_school,
                "halved": halved,
                "outcome": out.result,
                "chant_continues": out.chant_continues,
            },
        )

    def _grow(self, command: str, m: re.Match[str], randomizer: Randomizer) -> RollResult:
        items = [_GROW_SPLIT.match(x) for x in m.group(1).split(",")]
        names = [
            (item.group(1).strip() or str(i + 1)) if item else str(i + 1)
            for i, item in enumerate(items)
        ]
        rates = [_number(item.group(2)) for item in items if item]
        named = any(item and item.group(1).strip() for item in items)
        if len(rates) > MAX_GROWTH_ABILITIES:
            raise UnmeiCommandError(
                Message(
                    f"成長判定は一度に {MAX_GROWTH_ABILITIES} 能力値までです",
                    f"at most {MAX_GROWTH_ABILITIES} abilities per growth roll",
                )
            )
        rolls = [randomizer.roll_once(100) for _ in rates]
        out = rules.growth(rolls, rates, names)
        parts = [  # a rise: [1]50<=50↑; none: [2]31>30
            f"[{name}]{roll}<={rate}↑" if up else f"[{name}]{roll}>{rate}"
            for name, roll, rate, up in zip(names, rolls, rates, out.raised, strict=True)
        ]
        risen = [name for name, up in zip(names, out.raised, strict=True) if up]
        if risen:
            which = ",".join(risen)
            summary = Message(
                f"{'' if named else '能力値'}{which}が+1",
                f"{'' if named else 'ability '}{which} +1",
            )
        else:
            summary = Message(
                "上昇なし ＞ 好きな能力値を1つ選んで+1",
                "nothing rose ＞ raise one ability of your choice by 1",
            )
        # value: how many abilities rose; success when at least one did (else the player
        # picks one, UM-LEVEL-02) — so odds show the distribution of the rises.
        return _result(
            [
                Message.same(f"({command})"),
                Message("成長判定", "growth"),
                Message.same(" ".join(parts)),
                summary,
            ],
            value=len(risen),
            success=bool(risen),
            failure=not risen,
            rules=out.rules,
            detail={
                "abilities": names,
                "rates": rates,
                "rolls": rolls,
                "raised": list(out.raised),
                "player_chooses": out.player_chooses,
            },
        )
