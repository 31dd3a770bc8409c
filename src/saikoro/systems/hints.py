"""Better refusals: why a line is not a command of a system, and which system ID was meant.

- another system's command (``LWA3-2`` rolled in the generic system): say which system is in
  use and which one has the command (found by the systems' ``prefixes``).
- a command of the system that cannot be read (``MA60,30``, ``FATE``): the command's usage
  (a system's ``usage`` map).
- system IDs are matched case-insensitively; an unknown one gets the nearest known ID as a
  suggestion.
"""

from __future__ import annotations

import difflib
import re

from saikoro.i18n import Message

#: The first word of a dice-looking line: ``2D6+…``, ``S1D100…``.
_DICE_START = re.compile(r"^S?\d*D\d", re.IGNORECASE)


def resolve_system_id(name: str) -> str:
    """The known system ID spelled ``name`` in any letter case (an ID typed all lower-case
    still finds its system); ``name`` itself when none matches (the registry refuses it)."""
    from saikoro.systems import systems

    if name in systems:
        return name
    for known in systems:
        if known.lower() == name.lower():
            return known
    return name


def suggest_system_id(name: str) -> str | None:
    """The known system ID closest to ``name`` (a misspelling), or None."""
    from saikoro.systems import systems

    lowered = {known.lower(): known for known in systems}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def _first_word(command: str) -> str:
    from saikoro.dice.normalize import to_half_width

    words = to_half_width(command).strip().split()
    return words[0] if words else ""


def _usage_name(word: str, usage: dict[str, tuple[str, str]]) -> str | None:
    """The command name a word starts like: the name itself, or the name followed by
    numbers and commas (``MA60,30``); the longest name wins (``MG`` vs ``M``)."""
    word = word.upper()
    word = word.removeprefix("S") if word[1:2].isalpha() and word[:1] == "S" else word
    for name in sorted(usage, key=len, reverse=True):
        rest = word[len(name) :]
        if word.startswith(name) and re.fullmatch(r"[\d,+\-]*", rest):
            return name
    return None


def other_system_with(command: str, system_id: str) -> str | None:
    """Another registered system whose command ``command`` is (by its ``prefixes``)."""
    from saikoro.systems import systems

    word = _first_word(command)
    for known in systems:
        if known == system_id:
            continue
        prefixes = getattr(systems[known], "prefixes", ())
        if any(re.match(p, word, re.IGNORECASE) for p in prefixes):
            return known
    return None


def why_not_a_command(command: str, system_id: str, *, at_table: bool = False) -> Message | None:
    """What to tell a player whose ``command`` is not a command of ``system_id`` although
    it looks like one (None: it does not look like a command, e.g. plain chat)."""
    from saikoro.systems import systems

    word = _first_word(command)
    if not word:
        return None
    other = other_system_with(command, system_id)
    if other is not None and at_table:
        return Message(
            f"{word} は {other} のコマンドです (この部屋のシステムは {system_id})",
            f"{word} is a {other} command (this room plays {system_id})",
        )
    if other is not None:
        return Message(
            f"{word} は {other} のコマンドです (使っているシステムは {system_id}): "
            f"--system {other} で振ってください",
            f"{word} is a {other} command (the system in use is {system_id}): "
            f"roll it with --system {other}",
        )
    usage = getattr(systems.get_system(system_id), "usage", {})
    name = _usage_name(word, usage)
    if name is not None:
        ja, en = usage[name]
        return Message(f"{word} は読めません: {ja}", f"cannot read {word}: {en}")
    reference = _REFERENCE.search(word)
    if reference is not None and word.count("{") == word.count("}"):
        ref = reference.group(0)
        if at_table:
            return Message(
                f"{word} の {ref} はキャラクターの値です: キャラクターとして話すと読めます "
                "(@名前 …、または値を数字で書いてください)",
                f"{ref} in {word} is a character's value: speak as a character to use it "
                "(@NAME …, or write the number)",
            )
        return Message(
            f"{word} の {ref} はキャラクターの値です: saikoro roll にはキャラクターがいません "
            "(値を数字で書くか、saikoro play で キャラクターとして振ってください)",
            f"{ref} in {word} is a character's value: saikoro roll has no character "
            "(write the number, or roll it as a character in saikoro play)",
        )
    if "{" in word or "}" in word:
        return Message(
            f"{word} は読めません: {{…}} の括弧が閉じていません",
            f"cannot read {word}: a {{…}} reference is not closed",
        )
    if _DICE_START.match(word):
        return Message(
            f"{word} はダイスコマンドとして読めません (例: 2D6+1>=8)",
            f"{word} cannot be read as a dice command (e.g. 2D6+1>=8)",
        )
    return None


#: A ``{…}`` reference to a character's value.
_REFERENCE = re.compile(r"\{[^{}]+\}")


def not_a_command(command: str, system_id: str) -> Message:
    """The refusal of ``saikoro roll``: the reason when known, else BCDice's plain one."""
    return why_not_a_command(command, system_id) or Message(
        "コマンドとして解釈できません", "not a command of this game system"
    )
