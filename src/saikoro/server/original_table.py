"""BCDice's user-defined dice table ("オリジナル表"), parsed and rolled.

The text format (https://docs.bcdice.org/original_table.html)::

    飲み物表          <- the table's name
    1D6               <- how to roll: xDy, D66 / D66N, D66A / D66S (ascending), D66D (descending)
    1:水              <- one row per result: "<number>:<text>"; "\\n" in a row is a line break
    ...

Blank lines are ignored. A table is valid only when its rows cover exactly the results
its dice can give (no gaps, nothing out of range). The roll's text is
``<name>(<result>) ＞ <row text>``, as BCDice prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

_DICE_TYPE = re.compile(r"([0-9]+)D([0-9]+)", re.ASCII)
_ROW = re.compile(r"([0-9]+):", re.ASCII)
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x85\u2028\u2029]")
_D66_SORTS = {"D66": None, "D66N": None, "D66A": "asc", "D66S": "asc", "D66D": "desc"}
#: Results above this are never valid (times × sides ≤ 100 000), so longer numbers are not read.
_MAX_DIGITS = 6


class InvalidTableError(SaikoroError):
    reason = "invalid table"


@dataclass(frozen=True)
class OriginalTable:
    name: str
    dice: str  # upper-cased dice line: "2D6", "D66A", …
    rows: tuple[str, ...]  # the raw row lines, "<n>:<text>"

    def expected_results(self) -> list[int] | None:
        """Every result the dice can give, sorted; None for an unknown dice line."""
        match = _DICE_TYPE.fullmatch(self.dice)
        if match:
            if len(match[1].lstrip("0")) > _MAX_DIGITS or len(match[2].lstrip("0")) > _MAX_DIGITS:
                return None  # e.g. a dice line of 5000 digits: not a table BCDice can roll
            times, sides = int(match[1]), int(match[2])
            if times < 1 or sides < 1 or times * sides > 100_000:
                return None
            return list(range(times, times * sides + 1))
        if self.dice not in _D66_SORTS:
            return None
        order = _D66_SORTS[self.dice]
        if order == "asc":
            return [t * 10 + o for t in range(1, 7) for o in range(t, 7)]
        if order == "desc":
            return sorted(t * 10 + o for o in range(1, 7) for t in range(o, 7))
        return [t * 10 + o for t in range(1, 7) for o in range(1, 7)]

    def is_valid(self) -> bool:
        """BCDice's check: every row numbered, rows cover exactly the possible results."""
        if not all(_ROW.match(row) for row in self.rows):
            return False
        expected = self.expected_results()
        if expected is None:
            return False
        labels = [_ROW.match(row)[1].lstrip("0") for row in self.rows]  # type: ignore[index]
        if any(len(label) > _MAX_DIGITS for label in labels):
            return False
        numbers = sorted({int(label or "0") for label in labels})
        return numbers == expected

    def row_text(self, result: int) -> str | None:
        key = f"{result}:"
        for row in self.rows:
            if row.startswith(key):
                return row[len(key) :].replace("\\n", "\n").strip()
        return None


def parse_table(text: str) -> OriginalTable:
    """Split the table text into name, dice line and rows (no validation yet)."""
    lines = [line.rstrip() for line in _LINE_BREAK.split(text)]
    lines = [line for line in lines if line]
    if len(lines) < 2:
        raise _invalid(
            "表の名前とダイスの行がありません", "the table needs a name line and a dice line"
        )
    return OriginalTable(name=lines[0], dice=lines[1].upper(), rows=tuple(lines[2:]))


def roll_table(text: str, randomizer: Randomizer | None = None) -> RollResult:
    """Roll an original table; :class:`InvalidTableError` when it is not a valid table."""
    table = parse_table(text)
    if not table.is_valid():
        raise _invalid(
            f"オリジナル表 {table.name!r} の形式が正しくありません"
            f" (ダイス {table.dice!r} の出目すべてに 1 行ずつ必要です)",
            f"original table {table.name!r} is not valid"
            f" (it needs exactly one row for each result of {table.dice!r})",
        )
    randomizer = randomizer or Randomizer()
    match = _DICE_TYPE.fullmatch(table.dice)
    if match:
        result = randomizer.roll_sum(int(match[1]), int(match[2]))
    else:
        result = randomizer.roll_d66(_D66_SORTS[table.dice])
    chosen = table.row_text(result)
    if chosen is None:  # e.g. a row written "01:" for result 1, as BCDice
        raise _invalid(
            f"オリジナル表 {table.name!r} に出目 {result} の行がありません",
            f"original table {table.name!r} has no row for result {result}",
        )
    return RollResult(
        text=f"{table.name}({result}) ＞ {chosen}",
        rands=list(randomizer.rands),
        value=result,
        warnings=list(randomizer.warnings),
    )


def _invalid(ja: str, en: str) -> InvalidTableError:
    return InvalidTableError(Message(ja, en))
