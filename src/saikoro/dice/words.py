"""English for BCDice's Japanese result words (``--lang en``).

Every command makes its own English (``RollResult.text_en``: the generic commands and every
command of the built-in game systems); :func:`english_text` prefers it. What is left for
the translation below: a result without ``text_en`` (a system's BCDice ``grich_text`` hook,
a third-party system that gives none; the odds' words of such results).
``to_english(text, system)`` replaces the words the generic commands print
(成功, 失敗, クリティカル, ファンブル, 成功数, their error sentences) and the
system's own ``glossary_en`` in one pass, longest phrase first, so a phrase is
never translated twice. Numbers, dice and the ``＞`` separators stay as they are.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from saikoro.dice.result import RollResult
    from saikoro.dice.system import DiceSystem

#: The generic commands' words (BCDice's en_us locale where it has one).
GENERIC_EN: dict[str, str] = {
    "成功数": "successes ",
    "成功": "Success",
    "失敗": "Failure",
    "クリティカル": "Critical",
    "ファンブル": "Fumble",
    "ゼロ除算が発生したため計算できませんでした": "cannot be calculated: division by zero",
    "Repeatコマンドの重複はできません": "Repeat commands cannot be nested",
    "繰り返し回数は1以上、100以下としてください": "the repeat count must be from 1 to 100",
    "繰り返し対象のコマンドが実行できませんでした": "the repeated command could not be run",
    "項目数は100以下としてください": "at most 100 items can be chosen from",
    "面数は1以上、": "the number of sides must be from 1 to ",
    "以下としてください": "",
    "無限ロールの条件がまちがっています": "wrong condition for endless rerolls",
    "(最大/合計)": "(largest/total)",
    "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。": (
        "wrong condition: give a reroll threshold, as in 2R6>=5 or 2R6[5]."
    ),
    "シークレットダイス": "secret dice",
}


@lru_cache(maxsize=32)
def _translator(glossary: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str], dict[str, str]]:
    table = dict(GENERIC_EN)
    table.update(dict(glossary))  # a system's own words win over the generic ones
    keys = sorted((k for k in table if k), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, keys))), table


def english_text(result: RollResult, system: DiceSystem | None = None) -> str:
    """The result's text in English: the command's own, else its words translated."""
    if result.text_en is not None:
        return result.text_en
    return to_english(result.text, system)


def to_english(text: str, system: DiceSystem | None = None) -> str:
    """``text`` with every known Japanese result word replaced by its English."""
    glossary = tuple(sorted(getattr(system, "glossary_en", {}).items())) if system else ()
    pattern, table = _translator(glossary)
    return pattern.sub(lambda m: table[m.group(0)], text)
