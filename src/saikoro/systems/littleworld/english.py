"""English names of 帽子世界TRPG's game terms, for the English side of the table's texts.

Japanese labels stay what players type (``/attack ゴブリン 技巧``, ``/cure ギン 病院``, the
sheet's ``{価値観}``); the English text names the thing in English (Skill, a hospital,
Values), so an English table reads English.
"""

from __future__ import annotations

from saikoro.systems.littleworld.commands import ABILITY_EN

#: Conditions (LW-COND-02…05) by their table labels.
CONDITION_EN = {"毒": "poison", "麻痺": "paralysis", "睡眠": "sleep", "混乱": "confusion"}
#: Rows (LW-COMBAT-16).
ROW_EN = {"前衛": "front row", "後衛": "back row"}
#: The special values (LW-ABIL-05) by their sheet labels.
VALUE_EN = {"価値観": "Values", "禁忌値": "Taboo"}
#: The means of ``/cure`` (LW-COND-01/02/05), with their article.
CURE_EN = {
    "治癒魔法": "healing magic",
    "中和剤": "a neutraliser",
    "解毒草": "an antidote herb",
    "病院": "a hospital",
    "教会": "a church",
}
#: Herbs (LW-SPECIAL-08).
HERB_EN = {"薬草": "medicinal herb", "解毒草": "antidote herb"}

TERMS_EN: dict[str, str] = {
    **ABILITY_EN,
    **CONDITION_EN,
    **ROW_EN,
    **VALUE_EN,
    **HERB_EN,
    "馬": "horse",
}


def english(term: str) -> str:
    """A game term's English name, or the term itself (a name the table does not know:
    a character's, an item's, a GM's own label)."""
    return TERMS_EN.get(term, term)


def english_list(terms: list[str]) -> str:
    return ", ".join(english(t) for t in terms)


def with_article(term: str) -> str:
    """``english(term)`` after "a" or "an" (an antidote herb, a medicinal herb)."""
    word = english(term)
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
