"""RerollDice: ``xRy[t]`` roll, reroll the dice that meet a condition, count successes (BCDice).

Forms::

    2R6[5]>=5     2R6[>4]>=4     2R6>=4@>4     2R6>=5 (threshold = the target)
    2R4+2R6[<=2]>=4

The reroll condition is ``[op t]`` or ``@op t``; a bare number uses the success
comparison's operator (``>=`` when there is none), and without a threshold the
target number is used. A condition that would always reroll (``[>=1]``, ``[<7]``
on a d6, ``[<>9]`` on a d6) gives BCDice's message. Rerolling stops after 10000
rolls (BCDice's ``REROLL_LIMIT``) or when the 10000-random-number limit of the
randomizer is hit, so no input can loop for long.

Output: ``(2R6[3]>=3) ＞ 3,1 + 2 ＞ 成功数1`` — each roll (first the groups written,
then the rerolls in order) separated by `` + ``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from saikoro.dice import arith
from saikoro.dice.arith import PREDICATES, Expr, ParseFailure, TokenStream
from saikoro.dice.commands.barabara_dice import (
    DivisionByZeroError,
    Notation,
    cmp_text,
    grich_text,
    none_as_empty,
    parse_cmp_op,
    parse_notations,
    parse_target,
    setting,
)
from saikoro.dice.randomizer import UPPER_LIMIT_DICE_SIDES, Randomizer
from saikoro.dice.result import RollResult

PREFIX_PATTERN = r"\d+R\d+"

#: BCDice's limit on rolls (the first groups plus every reroll) in one command.
REROLL_LIMIT = 10000

BAD_CONDITION_TEXT = (
    "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。"
)
BAD_CONDITION_TEXT_EN = "wrong condition: give a reroll threshold, as in 2R6>=5 or 2R6[5]."


@dataclass(frozen=True)
class RerollCommand:
    secret: bool
    notations: tuple[Notation, ...]
    source: str  # the command as typed (first word), for the error text
    cmp_op: str | None = None
    target: Expr | None = None
    reroll_cmp_op: str | None = None
    threshold: Expr | None = None


def _parse_threshold(stream: TokenStream) -> tuple[str | None, Expr]:
    """``[op] add`` of a reroll condition (after ``[`` or ``@``)."""
    return parse_cmp_op(stream), arith.parse_add(stream)


def parse(text: str) -> RerollCommand | None:
    """The command in ``text`` (its first word; parses are cached), or None."""
    return _parse_word(arith.first_word(text))


@lru_cache(maxsize=2048)
def _parse_word(text: str) -> RerollCommand | None:
    stream = TokenStream(arith.tokenize(text))
    try:
        secret = stream.accept("S") is not None
        notations = parse_notations(stream, "R")
        reroll_op: str | None = None
        threshold: Expr | None = None
        if stream.accept("["):
            reroll_op, threshold = _parse_threshold(stream)
            stream.expect("]")
            cmp_op, target = parse_target(stream)
        else:
            cmp_op, target = parse_target(stream)
            if stream.accept("@"):
                reroll_op, threshold = _parse_threshold(stream)
        stream.expect_end()
    except ParseFailure:
        return None
    return RerollCommand(
        secret=secret,
        notations=notations,
        source=arith.first_word(text),
        cmp_op=cmp_op,
        target=target,
        reroll_cmp_op=reroll_op,
        threshold=threshold,
    )


def condition_is_valid(op: str, threshold: int | None, sides: int) -> bool:
    """False when the condition would reroll every face (or there is no threshold)."""
    if threshold is None:
        return False
    if op == "<=":
        return threshold < sides
    if op == "<":
        return threshold <= sides
    if op == ">=":
        return threshold > 1
    if op == ">":
        return threshold >= 1
    if op == "<>":
        return 1 <= threshold <= sides
    return True  # "=": BCDice accepts any threshold


def roll_with_rerolls(
    dice: list[tuple[int, int]],
    randomizer: Randomizer,
    op: str,
    threshold: int,
    sort: bool,
) -> list[list[int]]:
    """Roll each group, queueing a new group of as many dice as met the condition."""
    rerolls = PREDICATES[op]
    queue = deque(dice)
    groups: list[list[int]] = []
    # Dice of impossible sides show 0 without using random numbers, so ``200R0[=0]``
    # rolls the same group 10000 times: remember it instead of re-rolling it.
    zero_groups: dict[tuple[int, int], tuple[list[int], int]] = {}
    rolls = 0
    while queue and rolls < REROLL_LIMIT:
        times, sides = queue.popleft()
        rolls += 1
        known = zero_groups.get((times, sides))
        if known is not None:
            values, again = known[0], known[1]
        else:
            values = randomizer.roll_barabara(times, sides)
            if sort:
                values.sort()
            again = sum(1 for v in values if rerolls(v, threshold))
            if not 1 <= sides <= UPPER_LIMIT_DICE_SIDES:
                zero_groups[(times, sides)] = (values, again)
        groups.append(values)
        if again > 0:
            queue.append((again, sides))
    return groups


def roll(command: RerollCommand, system: Any, randomizer: Randomizer) -> RollResult | None:
    round_type = system.round_type
    cmp_op = command.cmp_op or setting(system, "default_cmp_op")
    reroll_op = command.reroll_cmp_op or cmp_op or ">="
    try:
        target = command.target.eval(round_type) if command.target is not None else None
        if target is None:
            target = setting(system, "default_target_number")
        threshold = command.threshold.eval(round_type) if command.threshold is not None else None
        if threshold is None:
            threshold = setting(system, "reroll_dice_reroll_threshold")
        if threshold is None:
            threshold = target
        dice = [n.to_dice(round_type) for n in command.notations]
    except ZeroDivisionError:
        raise DivisionByZeroError() from None

    if not all(condition_is_valid(reroll_op, threshold, sides) for _, sides in dice):
        return RollResult(
            text=f"{command.source} ＞ {BAD_CONDITION_TEXT}",
            text_en=f"{command.source} ＞ {BAD_CONDITION_TEXT_EN}",
            secret=command.secret,
        )
    assert threshold is not None  # condition_is_valid rejects None

    groups = roll_with_rerolls(
        dice, randomizer, reroll_op, threshold, setting(system, "sort_barabara_dice", False)
    )
    # Ones among the rerolled dice do not count (BCDice's rule for glitches).
    ones = sum(group.count(1) for group in groups[: len(command.notations)])
    succeeds = PREDICATES[cmp_op] if cmp_op else None
    dice_count = success = 0
    texts: list[str] = []
    seen: dict[int, tuple[str, int]] = {}  # repeated (memoized) groups are counted once
    for group in groups:
        known = seen.get(id(group))
        if known is None:
            hits = sum(1 for v in group if succeeds(v, target)) if succeeds else 0
            known = seen[id(group)] = (",".join(map(str, group)), hits)
        texts.append(known[0])
        success += known[1]
        dice_count += len(group)

    notation = "+".join(f"{times}R{sides}" for times, sides in dice)
    reroll_text = "" if reroll_op == cmp_op else cmp_text(reroll_op)
    expr = f"({notation}[{reroll_text}{threshold}]{cmp_text(cmp_op)}{none_as_empty(target)})"
    glitch = grich_text(system, ones, dice_count, success)
    sequence = [expr, " + ".join(texts), f"成功数{success}", *glitch]
    english = [expr, " + ".join(texts), f"successes {success}"]
    return RollResult(
        text=" ＞ ".join(sequence),
        text_en=None if glitch else " ＞ ".join(english),  # a system's hook: Japanese only
        secret=command.secret,
        value=success,
        detail={"dice": groups, "success_count": success},
    )


def evaluate(text: str, system: Any, randomizer: Randomizer) -> RollResult | None:
    command = parse(text)
    if command is None:
        return None
    return roll(command, system, randomizer)
