"""Bilingual user-facing messages.

Players see Japanese by default (as BCDice prints it); English is available with
``SAIKORO_LANG=en`` or a front end's ``--lang en``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


def current_lang() -> str:
    """The language user-facing text is shown in: ``ja`` (default) or ``en``."""
    return "en" if os.environ.get("SAIKORO_LANG", "ja").lower().startswith("en") else "ja"


@dataclass(frozen=True)
class Message:
    """One user-facing sentence in Japanese and English."""

    ja: str
    en: str

    def text(self, lang: str | None = None) -> str:
        return self.en if (lang or current_lang()) == "en" else self.ja

    def both(self) -> str:
        """Both languages on one line, for errors and warnings: ``日本語 / English``."""
        return f"{self.ja} / {self.en}"

    def __str__(self) -> str:
        return self.text()
