"""新クトゥルフ神話TRPG (``Cthulhu7th``): only its skill roll ``CC``, as BCDice 3.16.1 rolls it.

BCDice-API's own test (``test_detailed``) rolls ``CC1`` here; saikoro offers the system
so that test and clients that use it for percentile rolls with bonus/penalty dice work.
Only ``CC`` is implemented — BCDice's other commands of this system (``CBR``, ``FAR``,
the madness and phobia tables) answer "unsupported command", and ``command_pattern``
lists only ``CC``. Verified die for die against BCDice (``tests/oracle``,
``tests/systems/test_cthulhu7th.py``). A dice-only system, as ``DiceBot``: no sheet,
tracker or transfer profile.
"""

from __future__ import annotations

import re
from typing import ClassVar

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.base import GameSystem
from saikoro.systems.cthulhu7th.help import HELP_MESSAGE
from saikoro.systems.manifest import SystemManifest

#: ``CC[±n][<=target[R|H|E|C]]`` after BCDice's preprocessing (upper case, ``(1)`` → ``1``).
_CC = re.compile(r"^CC([-+]?\d+)?(?:<=(\d+)([RHEC])?)?$")
MAX_BONUS = 100

#: Result level → (Japanese, English), from worst to best (BCDice's order).
LEVELS: dict[str, tuple[str, str]] = {
    "fumble": ("ファンブル", "fumble"),
    "failure": ("失敗", "failure"),
    "success": ("成功", "success"),
    "regular_success": ("レギュラー成功", "regular success"),
    "hard_success": ("ハード成功", "hard success"),
    "extreme_success": ("イクストリーム成功", "extreme success"),
    "critical": ("クリティカル", "critical"),
}
_ORDER = list(LEVELS)


class Cthulhu7thCommandError(SaikoroError):
    """A ``CC`` that BCDice fails on (BCDice-API: ``500 {"ok": false}``)."""

    reason = "invalid command"


def level_with_difficulty(total: int, difficulty: int) -> str:
    """The level of a roll against a named difficulty (成功 or not)."""
    fumble = 96 if difficulty < 50 else 100
    if total == 1:
        return "critical"
    if total >= fumble:
        return "fumble"
    return "success" if total <= difficulty else "failure"


def level_of(total: int, target: int) -> str:
    """The level of a roll against a skill value: extreme ≤ ⌊v/5⌋, hard ≤ ⌊v/2⌋, …"""
    fumble = 96 if target < 50 else 100
    if total == 1:
        return "critical"
    if total >= fumble:
        return "fumble"
    if total <= target // 5:
        return "extreme_success"
    if total <= target // 2:
        return "hard_success"
    return "regular_success" if total <= target else "failure"


def roll_with_bonus(bonus: int, randomizer: Randomizer) -> tuple[int, list[int]]:
    """|bonus|+1 tens dice and one ones die; the lowest (bonus) or highest (penalty) total."""
    tens = [randomizer.roll_tens_d10() for _ in range(abs(bonus) + 1)]
    ones = randomizer.roll_once(10) % 10
    totals = [t + ones or 100 for t in tens]
    return (min(totals) if bonus >= 0 else max(totals)), totals


def skill_roll(command: str, randomizer: Randomizer) -> RollResult | None:
    match = _CC.match(command)
    if match is None:
        return None
    bonus = int(match[1] or 0)
    target = int(match[2]) if match[2] is not None else None
    difficulty = match[3]
    if target == 0:
        target = None
    elif target is not None and difficulty == "H":
        target //= 2
    elif target is not None and difficulty == "E":
        target //= 5
    elif target is not None and difficulty == "C":
        target = 0
    if bonus == 0 and target is None:
        die = randomizer.roll_once(100)
        return RollResult(f"(1D100) ＞ {die}", value=die, text_en=f"(1D100) ＞ {die}")
    if abs(bonus) > MAX_BONUS:
        return RollResult(
            "ボーナス・ペナルティダイスの値は-100以上、100以下としてください",
            text_en="bonus/penalty dice must be from -100 to 100",
        )
    total, totals = roll_with_bonus(bonus, randomizer)
    expression = "1D100" if target is None else f"1D100<={target}"
    head = f"({expression}) ボーナス・ペナルティダイス[{bonus}]"
    head_en = f"({expression}) bonus/penalty dice [{bonus}]"
    rolled = [", ".join(map(str, totals)), str(total)]
    if target is None and difficulty:  # BCDice 3.16.1 raises here (BCDice-API answers 500)
        raise Cthulhu7thCommandError(
            Message(
                f"{command}: 目標値 0 には難易度 ({difficulty}) を付けられません",
                f"{command}: a target of 0 takes no difficulty ({difficulty})",
            )
        )
    if target is None:
        level = None
    elif difficulty:
        level = level_with_difficulty(total, target)
    else:
        level = level_of(total, target)
    parts, parts_en = [head, *rolled], [head_en, *rolled]
    if level is None:
        return RollResult(" ＞ ".join(parts), value=total, text_en=" ＞ ".join(parts_en))
    ja, en = LEVELS[level]
    success = _ORDER.index(level) >= _ORDER.index("success")
    return RollResult(
        " ＞ ".join([*parts, ja]),
        success=success,
        failure=not success,
        critical=level == "critical",
        fumble=level == "fumble",
        value=total,
        text_en=" ＞ ".join([*parts_en, en]),
    )


class Cthulhu7th(GameSystem):
    id = "Cthulhu7th"
    name = "新クトゥルフ神話TRPG"
    sort_key = "しんくとうるふしんわTRPG"
    help_message = HELP_MESSAGE
    prefixes: ClassVar[tuple[str, ...]] = ("CC",)

    def eval_specific(self, command: str, randomizer: Randomizer) -> RollResult | None:
        return skill_roll(command, randomizer)


MANIFEST = SystemManifest(id="Cthulhu7th", package=__name__, game=":Cthulhu7th")
