"""Repeat: run one command several times (``x3 2D6``, ``rep3 2D6``, ``repeat3 2D6``).

At most :data:`REPEAT_LIMIT` times; a repeat inside a repeat is refused (it would
multiply the work). Each repetition goes through the whole pipeline again
(``engine.evaluate_normalized``) with the same randomizer, so BCDice's limit on
dice per command holds for the whole line, and the text is bounded as it grows
(:data:`saikoro.dice.limits.MAX_OUTPUT_CHARS`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from saikoro.dice import engine
from saikoro.dice.limits import check_output
from saikoro.dice.result import RollResult
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.dice.randomizer import Randomizer
    from saikoro.dice.system import DiceSystem

PREFIX_PATTERN = r"(repeat|rep|x)\d+"

REPEAT_LIMIT = 100
#: The text one line may evaluate: repetitions × the repeated command's length (saikoro's
#: cost model; x100 of a 1000-character command fits, x100 of a 10000-character one does not).
REPEAT_TEXT_BUDGET = 100_000

_COMMAND = re.compile(r"(S)?(repeat|rep|x)([0-9]+)[ \t\n\v\f\r]+", re.IGNORECASE)
# BCDice only refuses a lower-case nested repeat; saikoro refuses every spelling, with or
# without the secret prefix, so that "x100 X100 …" cannot run 10000 commands.
_NESTED = re.compile(r"S?(repeat|rep|x)[0-9]+", re.IGNORECASE)

NESTED_TEXT = "Repeatコマンドの重複はできません"
TIMES_TEXT = f"繰り返し回数は1以上、{REPEAT_LIMIT}以下としてください"
FAILED_TEXT = "繰り返し対象のコマンドが実行できませんでした ({trailer})"
NESTED_TEXT_EN = "Repeat commands cannot be nested"
TIMES_TEXT_EN = f"the repeat count must be from 1 to {REPEAT_LIMIT}"
FAILED_TEXT_EN = "the repeated command could not be run ({trailer})"

# The limit hit, for human-readable output (the text itself stays BCDice's).
NESTED_WARNING = Message(
    "繰り返しの中で繰り返しはできません", "a repeat cannot contain another repeat"
)
TIMES_WARNING = Message(
    f"繰り返しは 1〜{REPEAT_LIMIT} 回までです",
    f"a command can be repeated 1 to {REPEAT_LIMIT} times",
)


class RepeatTooLongError(SaikoroError):
    reason = "repeat too long"

    def __init__(self, times: int, length: int) -> None:
        super().__init__(
            Message(
                f"繰り返すコマンドが長すぎます ({times} 回 × {length} 文字;"
                f" 合計 {REPEAT_TEXT_BUDGET} 文字まで)",
                f"the repeated command is too long ({times} times {length} characters;"
                f" at most {REPEAT_TEXT_BUDGET} in all)",
            )
        )


class RepeatCommand(NamedTuple):
    secret: bool
    times: int
    trailer: str  # the repeated command
    nested: bool  # the trailer is itself a repeat


@lru_cache(maxsize=1024)
def parse(text: str) -> RepeatCommand | None:
    """The repeat command in ``text`` (parses are cached: a table repeats its lines), or None."""
    match = _COMMAND.match(text)
    if match is None:
        return None
    trailer = text[match.end() :]
    if not trailer:
        return None
    nested = _NESTED.match(trailer) is not None
    return RepeatCommand(match.group(1) is not None, int(match.group(3)), trailer, nested)


def evaluate(text: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    secret, times, trailer, nested = command
    if nested:
        return RollResult(
            text=NESTED_TEXT, text_en=NESTED_TEXT_EN, secret=secret, warnings=[NESTED_WARNING]
        )
    if not 1 <= times <= REPEAT_LIMIT:
        return RollResult(
            text=TIMES_TEXT, text_en=TIMES_TEXT_EN, secret=secret, warnings=[TIMES_WARNING]
        )

    if times * len(trailer) > REPEAT_TEXT_BUDGET:
        raise RepeatTooLongError(times, len(trailer))

    evaluate_once = engine.evaluate_normalized
    results: list[RollResult | None] = []
    printed = 0
    for _ in range(times):
        result = evaluate_once(trailer, system, randomizer)
        results.append(result)
        printed += len(result.text) if result is not None else 0
        check_output(printed)  # stop as soon as the line's text is too long
    answered = [r for r in results if r is not None]
    if not answered:
        return RollResult(
            text=FAILED_TEXT.format(trailer=trailer),
            text_en=FAILED_TEXT_EN.format(trailer=trailer),
            secret=secret,
        )
    text = "\n\n".join(
        [f"#{index}\n{r.text if r is not None else ''}" for index, r in enumerate(results, 1)]
    )
    text_en = None
    if all(r.text_en is not None for r in answered):
        text_en = "\n\n".join(
            [
                f"#{index}\n{r.text_en if r is not None else ''}"
                for index, r in enumerate(results, 1)
            ]
        )
    secret = secret or any([r.secret for r in answered])
    return RollResult(text=text, text_en=text_en, secret=secret, detail={"repeat": answered})
