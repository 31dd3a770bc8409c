"""Bilingual user-facing messages.

Players see Japanese by default (as BCDice prints it); English is available with
``SAIKORO_LANG=en`` or a front end's ``--lang en``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass


def lang_code(name: str) -> str:
    """``en`` for any name starting ``en`` (``EN``, ``en_US``), else ``ja``."""
    return "en" if name.lower().startswith("en") else "ja"


def current_lang() -> str:
    """The language user-facing text is shown in: ``ja`` (default) or ``en``."""
    return lang_code(os.environ.get("SAIKORO_LANG", "ja"))


@dataclass(frozen=True)
class Message:
    """One user-facing sentence in Japanese and English."""

    ja: str
    en: str

    @classmethod
    def same(cls, text: str) -> Message:
        """Text that reads the same in both languages (numbers, dice, names)."""
        return cls(text, text)

    def text(self, lang: str | None = None) -> str:
        return self.en if (lang or current_lang()) == "en" else self.ja

    @staticmethod
    def join(separator: str, parts: Iterable[Message]) -> Message:
        """The parts joined in each language (``＞`` between the parts of a result)."""
        listed = list(parts)
        return Message(separator.join(p.ja for p in listed), separator.join(p.en for p in listed))

    def __add__(self, other: Message) -> Message:
        return Message(self.ja + other.ja, self.en + other.en)

    def both(self) -> str:
        """Both languages on one line, for errors and warnings: ``日本語 / English``."""
        return f"{self.ja} / {self.en}"

    def __str__(self) -> str:
        return self.text()
