"""Chat palettes for exported pieces.

The first part works with the stock BCDice in Udonarium and CCFOLIA (generic commands
with ``{ラベル}`` references, which the tool fills in from the piece's own values);
the second part uses saikoro's own system commands, for a table whose BCDice-API
server is ``saikoro serve`` (rules such as criticals, weak actions and attack
resolution are then applied by saikoro).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from saikoro.sheets import PALETTE_NOTE, SheetBase
from saikoro.transfer.labels import UNPORTABLE

SAIKORO_HEADER = "//---- saikoro サーバー用 (BCDice-API に saikoro serve を指定したとき) ----"


def clean(text: str) -> str:
    """One palette line's worth of a name: no line breaks or characters a tool drops."""
    return UNPORTABLE.sub(" ", text)


def sheet_abilities(sheet: SheetBase, names: tuple[str, ...]) -> dict[str, int]:
    """The sheet's own ability values (what the exported params hold)."""
    abilities = sheet.model_dump(mode="json").get("abilities") or {}
    return {name: int(abilities.get(name, 0) or 0) for name in names}


def build_palette(sheet: SheetBase) -> str:
    """The chat palette of the sheet's system (its manifest's ``palette``; none: empty)."""
    from saikoro.systems import manifest

    builder = manifest(sheet.system).palette_builder()
    return "\n".join(builder(sheet)) if builder else ""


def export_palette(sheet: SheetBase) -> str:
    """The palette an exported piece carries: the character's own lines (its palette notes:
    what its piece came with, what its player added on the page), then the system's."""
    generated = build_palette(sheet)
    own = own_palette_lines(sheet.notes, generated.splitlines())
    return "\n".join([*own, generated]) if own and generated else "\n".join(own) or generated


#: One rule of a palette's English labels: a label's whole pattern and its English text.
LabelRule = tuple["re.Pattern[str]", Callable[["re.Match[str]"], str]]


def english_label(label: str, rules: Sequence[LabelRule]) -> str:
    """The English of a generated palette line's label (the first rule that matches it
    whole), or the label itself: what the sheet names (a spell, a weapon) stays as it is."""
    for pattern, english in rules:
        found = pattern.fullmatch(label)
        if found is not None:
            return english(found)
    return label


def palette_label_en(system: str, label: str) -> str:
    """The English label of one of the system's generated palette lines (its manifest's
    ``palette_en``; a system without one: the label as it is)."""
    from saikoro.systems import manifest

    translate = manifest(system).palette_english()
    return translate(label) if translate else label


def _canonical(palette: str) -> list[str]:
    lines = (unicodedata.normalize("NFKC", line).strip() for line in palette.splitlines())
    return [line for line in lines if line]


def same_palette(a: str, b: str) -> bool:
    """Equal up to width, surrounding spaces and blank lines."""
    return _canonical(a) == _canonical(b)


def _same(line: str) -> str:
    return unicodedata.normalize("NFKC", line).strip()


def own_palette_lines(notes: dict[str, str], generated: list[str]) -> list[str]:
    """A character's own chat palette: the lines of its sheet's palette notes (what its
    piece came with, what its player added on the page), without comments (``//…``),
    repeats and the lines saikoro writes itself (``generated``)."""
    ours = {_same(line) for line in generated}
    lines: list[str] = []
    for key, text in notes.items():
        if not (isinstance(key, str) and key.startswith(PALETTE_NOTE) and isinstance(text, str)):
            continue
        for line in text.splitlines():
            same = _same(line)
            if (
                same
                and not same.startswith("//")
                and same not in ours
                and line.strip() not in lines
            ):
                lines.append(line.strip())
    return lines
