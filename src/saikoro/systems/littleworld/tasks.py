"""LW-ABIL-02: which ability a task uses, as data, and a lookup (``水泳`` → 体力).

``TASKS`` is the seed's table; the words in brackets of an entry (目星(調査・発見)) and
the ``ALIASES`` are other names of the same task. LW-ABIL-03: a fall from height uses
the higher of 体力 and 技巧 (two abilities).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

TASKS: dict[str, tuple[str, ...]] = {
    "体力": (
        "運搬", "登攀", "破壊行為", "長距離走", "水泳", "耐寒暖", "耐病", "大声(肺活量)",
        "力仕事", "タックル",
    ),
    "技巧": (
        "目星(調査・発見)", "聞き耳", "嗅覚", "追跡", "隠密行動", "短距離走", "軽業", "工作",
        "美術", "音楽", "調理", "騎乗", "車やバイクの運転", "演技",
    ),
    "理知": (
        "図書館(資料探し)", "知識", "計算", "説得", "交渉", "話術", "威圧", "第六感",
        "医療行為", "運が左右する行為",
    ),
}  # fmt: skip

#: Other names people type for a task of the table.
ALIASES: dict[str, str] = {
    "運転": "車やバイクの運転",
    "車の運転": "車やバイクの運転",
    "バイクの運転": "車やバイクの運転",
    "運": "運が左右する行為",
    "医療": "医療行為",
    "隠密": "隠密行動",
    "破壊": "破壊行為",
    "耐寒": "耐寒暖",
    "耐暑": "耐寒暖",
    "乗馬": "騎乗",
}

FALL = "高所からの落下"

#: ASCII names of the tasks, for clients that send only ASCII (``LWTSWIM`` = ``LWT水泳``).
ASCII_NAMES: dict[str, str] = {
    "CARRY": "運搬", "CLIMB": "登攀", "BREAK": "破壊行為", "LONGRUN": "長距離走",
    "SWIM": "水泳", "WEATHER": "耐寒暖", "DISEASE": "耐病", "SHOUT": "大声(肺活量)",
    "LABOR": "力仕事", "TACKLE": "タックル",
    "SPOT": "目星(調査・発見)", "LISTEN": "聞き耳", "SMELL": "嗅覚", "TRACK": "追跡",
    "STEALTH": "隠密行動", "SPRINT": "短距離走", "ACROBATICS": "軽業", "CRAFT": "工作",
    "ART": "美術", "MUSIC": "音楽", "COOK": "調理", "RIDE": "騎乗",
    "DRIVE": "車やバイクの運転", "ACTING": "演技",
    "LIBRARY": "図書館(資料探し)", "KNOWLEDGE": "知識", "MATH": "計算", "PERSUADE": "説得",
    "NEGOTIATE": "交渉", "TALK": "話術", "INTIMIDATE": "威圧", "SIXTHSENSE": "第六感",
    "MEDICINE": "医療行為", "LUCK": "運が左右する行為",
}  # fmt: skip
ASCII_FALL = "FALL"


@dataclass(frozen=True)
class TaskAbility:
    """``abilities`` has one name, or two for a fall (the higher is used, LW-ABIL-03)."""

    task: str
    abilities: tuple[str, ...]
    rules: tuple[str, ...]


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def _index() -> dict[str, tuple[str, str]]:
    index: dict[str, tuple[str, str]] = {}
    for ability, tasks in TASKS.items():
        for task in tasks:
            index[_key(task)] = (task, ability)
            m = re.match(r"^(.+?)\((.+)\)$", _key(task))
            if m:
                index.setdefault(m.group(1), (task, ability))
                for word in m.group(2).split("・"):
                    index.setdefault(word, (task, ability))
    for alias, task in ALIASES.items():
        index[alias] = index[_key(task)]
    return index


def _ascii_name(key: str) -> str | None:
    """The task an ASCII name means (any case), or None."""
    upper = key.upper()
    if upper == ASCII_FALL:
        return FALL
    return ASCII_NAMES.get(upper)


INDEX = _index()


def all_tasks() -> list[tuple[str, str]]:
    """(task, ability) for every task of the table, in the seed's order."""
    return [(task, ability) for ability, tasks in TASKS.items() for task in tasks]


def find_task(name: str) -> TaskAbility | None:
    """The ability of a task by name (exact name, a bracketed word, an alias, or a unique
    partial match); None when nothing or more than one task matches."""
    key = _key(name)
    if not key:
        return None
    key = _ascii_name(key) or key
    if key in ("落下", FALL) or "落下" in key:
        return TaskAbility(FALL, ("体力", "技巧"), ("LW-ABIL-03",))
    hit = INDEX.get(key)
    if hit is None:
        partial = {v for k, v in INDEX.items() if key in k}
        if len(partial) != 1:
            return None
        hit = partial.pop()
    task, ability = hit
    return TaskAbility(task, (ability,), ("LW-ABIL-02",))


def ability_for_task(name: str) -> str | None:
    """``水泳`` → ``体力``; for a fall the first of 体力/技巧 (use the higher, LW-ABIL-03)."""
    found = find_task(name)
    return found.abilities[0] if found else None
