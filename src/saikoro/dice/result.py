"""Values a command produces: the roll result (BCDice-API's shape) and the sum-check hook types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from saikoro.dice.randomizer import Die
from saikoro.i18n import Message


@dataclass
class RollResult:
    """The outcome of one command, as BCDice-API v2 returns it, plus what saikoro adds.

    ``value`` is the number the command is about: the total of a sum, or the damage
    of an attack command (used by odds); None where there is no such number.
    ``rules`` names the RULES.md rule IDs applied; ``detail`` holds system-specific
    structured values (attack/defence values, bands, …) for front ends.
    ``warnings`` says which limit was hit (shown in human-readable output only).
    ``text_en`` is the text in English, made by the command itself (BCDice-API's ``text``
    stays the Japanese one); :attr:`message` gives both.
    """

    text: str
    secret: bool = False
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    rands: list[Die] = field(default_factory=list)
    value: int | None = None
    rules: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    warnings: list[Message] = field(default_factory=list)
    text_en: str | None = None

    @property
    def message(self) -> Message | None:
        """The text in both languages, when the command made its English."""
        return Message(self.text, self.text_en) if self.text_en is not None else None

    def to_json(self) -> dict[str, Any]:
        """BCDice-API v2's roll response body."""
        return {
            "ok": True,
            "text": self.text,
            "secret": self.secret,
            "success": self.success,
            "failure": self.failure,
            "critical": self.critical,
            "fumble": self.fumble,
            "rands": [d.to_json() for d in self.rands],
        }


@dataclass(frozen=True)
class SumCheck:
    """What a game system sees of a finished sum (AddDice) to judge it.

    ``dice`` are the ``(value, sides)`` of every die rolled in the expression, in order.
    ``cmp_op`` is one of ``>=``, ``<=``, ``>``, ``<``, ``=``, ``<>``, or None; ``target``
    is None when there is no comparison (or it is ``?``).
    """

    total: int
    dice: tuple[tuple[int, int], ...]
    cmp_op: str | None
    target: int | None


@dataclass(frozen=True)
class CheckResult:
    """A game system's judgement of a sum: the text after the last ``＞`` (Japanese and
    ``text_en``) and the flags."""

    text: str
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    rules: tuple[str, ...] = ()
    text_en: str | None = None
