"""Choice: pick one (or ``n``, without repeats) of the listed items, as BCDice's ``choice``.

Forms (the character after ``choice`` and its count picks the separator)::

    choice[A,B,C]    choice(A,B,C)    choice A B C    choice2[A,B,C]

Items are stripped of surrounding white space and empty items are dropped. A single
item of the form ``A-F``, ``c-g`` or ``3-10`` stands for that range. ``[…]`` and
``(…)`` end at the first closing bracket (text after it is a comment); the
space-separated form takes the rest of the line. More than 100 items give BCDice's
message instead of a pick. The scanning mimics BCDice's ``StringScanner`` use exactly,
including its quirks (``choice[A] x, y]`` has the items ``A] x`` and ``y``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult

PREFIX_PATTERN = r"choice"

MAX_ITEMS = 100
TOO_MANY_ITEMS_TEXT = "項目数は100以下としてください"
TOO_MANY_ITEMS_TEXT_EN = "at most 100 items can be chosen from"

# Ruby's \s and String#strip work on ASCII white space only.
_RUBY_SPACE = " \t\n\v\f\r"
_STRIP_CHARS = _RUBY_SPACE + "\0"
_FLAGS = re.ASCII | re.IGNORECASE

_SPACES = re.compile(r"[ \t\n\v\f\r]+")
_SECRET = re.compile(r"S", _FLAGS)
_CHOICE = re.compile(r"choice", _FLAGS)
_DIGITS = re.compile(r"[0-9]+")
_OPENER = re.compile(r"\(|\[|[ \t\n\v\f\r]+")
_COMMA = re.compile(",")
_NUM_RANGE = re.compile(r"^([0-9]+)-([0-9]+)$", re.MULTILINE)
_LOWER_RANGE = re.compile(r"^([a-z])-([a-z])$", re.MULTILINE)
_UPPER_RANGE = re.compile(r"^([A-Z])-([A-Z])$", re.MULTILINE)

# block type → (item separator, terminator, closing character, separator in the pick)
_BLOCKS: dict[str, tuple[re.Pattern[str], str, str]] = {
    "[": (_COMMA, "]", ", "),
    "(": (_COMMA, ")", ", "),
    " ": (_SPACES, "", " "),
}


@dataclass(frozen=True)
class NumberRange:
    """A shorthand ``first-last`` of whole numbers, kept lazy (it may be huge)."""

    first: int
    last: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def to_list(self) -> list[str]:
        return [str(n) for n in range(self.first, self.last + 1)]


@dataclass(frozen=True)
class ChoiceCommand:
    secret: bool
    block: str  # "[", "(" or " "
    takes: int
    items: list[str] | NumberRange

    def expr(self) -> str:
        count = "" if self.takes == 1 else str(self.takes)
        items = self.items.to_list() if isinstance(self.items, NumberRange) else self.items
        if self.block == " ":
            return f"choice{count} {' '.join(items)}"
        closing = _BLOCKS[self.block][1]
        return f"choice{count}{self.block}{','.join(items)}{closing}"


class _Scanner:
    """The few ``StringScanner`` operations BCDice's parser uses."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def scan(self, pattern: re.Pattern[str]) -> str | None:
        match = pattern.match(self.text, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return match.group()

    def scan_until(self, pattern: re.Pattern[str]) -> str | None:
        match = pattern.search(self.text, self.pos)
        if match is None:
            return None
        start, self.pos = self.pos, match.end()
        return self.text[start : self.pos]

    def scan_until_char(self, char: str) -> str | None:
        index = self.text.find(char, self.pos)
        if index < 0:
            return None
        start, self.pos = self.pos, index + 1
        return self.text[start : self.pos]


def _expand_shorthand(item: str) -> list[str] | NumberRange:
    """``A-F`` / ``c-g`` / ``3-10`` → the range; anything else → no items (as BCDice)."""
    match = _NUM_RANGE.search(item)
    if match:
        first, last = int(match.group(1)), int(match.group(2))
        if first <= last:
            return NumberRange(first, last)
    match = _LOWER_RANGE.search(item) or _UPPER_RANGE.search(item)
    if match:
        first_c, last_c = match.group(1), match.group(2)
        if first_c <= last_c:
            return [chr(c) for c in range(ord(first_c), ord(last_c) + 1)]
    return []


def _size(items: list[str] | NumberRange) -> int:
    return items.size if isinstance(items, NumberRange) else len(items)


def parse(text: str) -> ChoiceCommand | None:
    """Parse a choice command, or None when ``text`` is not one."""
    scanner = _Scanner(text)
    scanner.scan(_SPACES)
    secret = scanner.scan(_SECRET) is not None
    if scanner.scan(_CHOICE) is None:
        return None
    digits = scanner.scan(_DIGITS)
    takes = int(digits) if digits is not None else 1
    if takes == 0:
        return None
    opener = scanner.scan(_OPENER)
    if opener is None:
        return None
    block = opener if opener in ("[", "(") else " "
    separator, closing, _ = _BLOCKS[block]

    raw_items: list[str] = []
    while (item := scanner.scan_until(separator)) is not None:
        raw_items.append(item.removesuffix(","))
    if block == " ":
        last_item: str | None = text[scanner.pos :]
    else:
        last_item = scanner.scan_until_char(closing)
        if last_item is None:
            return None
        last_item = last_item.removesuffix(closing)
    raw_items.append(last_item or "")

    listed = [s for s in (i.strip(_STRIP_CHARS) for i in raw_items) if s]
    items: list[str] | NumberRange = listed
    if len(listed) == 1:
        items = _expand_shorthand(listed[0])
    if _size(items) == 0 or _size(items) < takes:
        return None
    return ChoiceCommand(secret=secret, block=block, takes=takes, items=items)


def roll(command: ChoiceCommand, randomizer: Randomizer) -> RollResult:
    """Pick ``takes`` distinct items with ``roll_index``; too many items → BCDice's message."""
    if _size(command.items) > MAX_ITEMS:
        return RollResult(text=TOO_MANY_ITEMS_TEXT, text_en=TOO_MANY_ITEMS_TEXT_EN)
    items = list(command.items) if isinstance(command.items, list) else command.items.to_list()
    chosen = [items.pop(randomizer.roll_index(len(items))) for _ in range(command.takes)]
    joiner = _BLOCKS[command.block][2]
    text = f"({command.expr()}) ＞ {joiner.join(chosen)}"
    return RollResult(text=text, text_en=text, secret=command.secret)  # the items as typed


def evaluate(text: str, system: object, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    return roll(command, randomizer)
