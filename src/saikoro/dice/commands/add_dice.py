"""AddDice: sums of dice with arithmetic and an optional comparison (``2D6+3>=10``).

Grammar (BCDice's, case-insensitive, first word only)::

    command := [S] add [CMP_OP (add | ?)]
    add     := mul (('+' | '-') mul)*
    mul     := unary (('*' unary) | ('/' unary [U|C|R|F]))*
    unary   := ('+' | '-')* dice
    dice    := term D term [filter] | term D [filter] | D term [filter] | term
    filter  := (KH | KL | DH | DL) [term] | MAX | MIN
    term    := '(' add ')' | NUMBER

The left side must roll dice and the target must not; the number of dice, the
sides and the keep/drop count are dice-free. Division by zero gives 1 (as BCDice).
The game system judges a comparison through ``system.check_sum`` (default 成功/失敗).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from saikoro.dice.arith import (
    CMP_OP_TEXT,
    PREDICATES,
    ParseFailure,
    TokenStream,
    divide,
    tokenize,
)
from saikoro.dice.result import RollResult, SumCheck
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.dice.randomizer import Randomizer
    from saikoro.dice.system import DiceSystem

PREFIX_PATTERN = r"[+\-(]*(\d+|D\d+)"

SEPARATOR = " ＞ "


class _Ctx:
    """What evaluating one command needs: the system, its randomizer and the dice rolled."""

    __slots__ = ("groups", "randomizer", "round_type", "system")

    def __init__(self, system: DiceSystem, randomizer: Randomizer | None) -> None:
        self.system = system
        self.randomizer = randomizer
        self.round_type = system.round_type
        self.groups: list[tuple[list[int], int]] = []  # (values, sides) of each roll

    def dice(self) -> tuple[tuple[int, int], ...]:
        """``(value, sides)`` of every die rolled, in order (for :class:`SumCheck`)."""
        return tuple((value, sides) for values, sides in self.groups for value in values)

    def roll(self, times: int, sides: int) -> list[int]:
        randomizer = self.randomizer
        assert randomizer is not None
        system = self.system
        if sides == 66:
            sort = getattr(system, "d66_sort_type", None)
            values = [randomizer.roll_d66(sort) for _ in range(max(times, 0))]
        elif sides == 9 and getattr(system, "enabled_d9", False):
            values = [randomizer.roll_d9() for _ in range(max(times, 0))]
        else:
            values = randomizer.roll_barabara(times, sides)
        if system.sort_add_dice:
            values.sort()
        self.groups.append((values, sides))
        return values


# -- nodes: eval(ctx) -> (value, output); expr(ctx) -> the command as BCDice echoes it --------


class Node:
    __slots__ = ("has_dice",)
    has_dice: bool

    def value(self, ctx: _Ctx) -> int:
        """The value of a dice-free node (times, sides, keep count, target)."""
        return self.eval(ctx)[0]

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        raise NotImplementedError

    def expr(self, ctx: _Ctx) -> str:
        raise NotImplementedError


class Num(Node):
    __slots__ = ("literal", "text")

    def __init__(self, literal: int) -> None:
        self.literal = literal
        self.text = str(literal)
        self.has_dice = False

    def value(self, ctx: _Ctx) -> int:
        return self.literal

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        return self.literal, self.text

    def expr(self, ctx: _Ctx) -> str:
        return self.text


class Paren(Node):
    __slots__ = ("body",)

    def __init__(self, body: Node) -> None:
        self.body = body
        self.has_dice = body.has_dice

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        value, out = self.body.eval(ctx)
        return value, "(" + out + ")"

    def expr(self, ctx: _Ctx) -> str:
        return "(" + self.body.expr(ctx) + ")"


class Neg(Node):
    __slots__ = ("body",)

    def __init__(self, body: Node) -> None:
        self.body = body
        self.has_dice = body.has_dice

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        value, out = self.body.eval(ctx)
        return -value, "-" + out

    def expr(self, ctx: _Ctx) -> str:
        return "-" + self.body.expr(ctx)


class Chain(Node):
    """``first (op operand [rounding])*``, left-associative, kept flat."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Node, rest: list[tuple[str, Node, str]]) -> None:
        self.first = first
        self.rest = rest
        self.has_dice = first.has_dice or any(node.has_dice for _, node, _ in rest)

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        value, out = self.first.eval(ctx)
        parts = [out]
        for op, node, rounding in self.rest:
            if type(node) is Num:  # the common "+3": no call
                rhs, rhs_out = node.literal, node.text
            else:
                rhs, rhs_out = node.eval(ctx)
            if op == "+":
                value += rhs
            elif op == "-":
                value -= rhs
            elif op == "*":
                value *= rhs
            else:
                value = 1 if rhs == 0 else divide(value, rhs, rounding, ctx.round_type)
            parts.append(op)
            parts.append(rhs_out)
            parts.append(rounding)
        return value, "".join(parts)

    def expr(self, ctx: _Ctx) -> str:
        parts = [self.first.expr(ctx)]
        for op, node, rounding in self.rest:
            parts.append(op)
            parts.append(node.expr(ctx))
            parts.append(rounding)
        return "".join(parts)


#: keep/drop filters: how to choose the summed dice from the sorted values.
FILTERS = {
    "KH": lambda values, n: values[::-1][:n],
    "KL": lambda values, n: values[:n],
    "DH": lambda values, n: values[::-1][n:],
    "DL": lambda values, n: values[n:],
}


def dice_output(total: int, values: list[int]) -> str:
    """A roll as BCDice shows it in a sum: ``7[3,4]``."""
    return f"{total}[{','.join(map(str, values))}]"


class NegativeKeepCountError(SaikoroError):
    """``3D6KH(0-1)``: BCDice refuses a negative keep/drop count (it raises), so do we."""

    reason = "negative keep/drop count"

    def __init__(self, filter_name: str, count: int) -> None:
        super().__init__(
            Message(
                f"{filter_name} の個数が負です ({count})",
                f"the {filter_name} count is negative ({count})",
            )
        )


class Dice(Node):
    """``times D sides`` (``sides`` None = the system's implicit sides), maybe filtered."""

    __slots__ = ("count", "filter", "sides", "times")

    def __init__(
        self, times: Node, sides: Node | None, filter: str | None = None, count: Node | None = None
    ) -> None:
        self.times = times
        self.sides = sides
        self.filter = filter
        self.count = count
        self.has_dice = True

    @property
    def plain(self) -> bool:
        """A dice roll without a filter (BCDice's ``DiceRoll``): its lone die is not repeated."""
        return self.filter is None

    def _sides(self, ctx: _Ctx) -> int:
        return ctx.system.sides_implicit_d if self.sides is None else self.sides.value(ctx)

    def roll(self, ctx: _Ctx) -> list[int]:
        """The dice, as rolled (no filter applied)."""
        times_node, sides_node = self.times, self.sides
        times = times_node.literal if type(times_node) is Num else times_node.value(ctx)
        sides = sides_node.literal if type(sides_node) is Num else self._sides(ctx)
        return ctx.roll(times, sides)

    def eval(self, ctx: _Ctx) -> tuple[int, str]:
        if self.filter is None:
            values = self.roll(ctx)
            total = sum(values)
            return total, dice_output(total, values)
        assert self.count is not None
        count = self.count.value(ctx)
        values = sorted(self.roll(ctx))
        if count < 0:
            raise NegativeKeepCountError(self.filter, count)
        total = sum(FILTERS[self.filter](values, count))
        return total, dice_output(total, values)

    def expr(self, ctx: _Ctx) -> str:
        text = f"{self.times.value(ctx)}D{self._sides(ctx)}"
        if self.filter is not None:
            assert self.count is not None
            text += f"{self.filter}{self.count.value(ctx)}"
        return text


class Command:
    """A parsed AddDice command. Its echo and target depend only on the system's settings."""

    __slots__ = ("_static", "cmp_op", "lhs", "plain_roll", "rhs", "secret")

    def __init__(self, secret: bool, lhs: Node, cmp_op: str | None, rhs: Node | str | None):
        self.secret = secret
        self.lhs = lhs
        self.cmp_op = cmp_op
        self.rhs = rhs  # a dice-free node, "?" or None
        # BCDice repeats the dice ("5[2,3]") unless the whole left side is one plain die.
        self.plain_roll = lhs if isinstance(lhs, Dice) and lhs.plain else None
        self._static: dict[tuple[str, int], tuple[str, int | None]] = {}

    def static_parts(self, ctx: _Ctx) -> tuple[str, int | None]:
        """``(echo, target)``: the command as BCDice echoes it and the target's value."""
        system = ctx.system
        key = (system.round_type, system.sides_implicit_d)
        cached = self._static.get(key)
        if cached is None:
            echo = self.lhs.expr(ctx)
            target: int | None = None
            if self.cmp_op is not None:
                if isinstance(self.rhs, Node):
                    target = self.rhs.value(ctx)
                    echo += CMP_OP_TEXT[self.cmp_op] + str(target)
                else:
                    echo += CMP_OP_TEXT[self.cmp_op] + "?"
            cached = self._static[key] = ("(" + echo + ")", target)
        return cached


# -- parser ------------------------------------------------------------------------------

_TERM_START = ("NUMBER", "(")


def _parse_add(stream: TokenStream) -> Node:
    rest: list[tuple[str, Node, str]] = []
    first = _parse_mul(stream)
    while True:
        op = stream.kind()
        if op != "+" and op != "-":
            break
        stream.pos += 1
        node = _parse_mul(stream)
        if isinstance(node, Neg):  # a + -b → a - b; a - -b → a + b
            op = "-" if op == "+" else "+"
            node = node.body
        rest.append((op, node, ""))
    return Chain(first, rest) if rest else first


def _parse_mul(stream: TokenStream) -> Node:
    rest: list[tuple[str, Node, str]] = []
    first = _parse_unary(stream)
    while True:
        op = stream.kind()
        if op == "*":
            stream.pos += 1
            rest.append(("*", _parse_unary(stream), ""))
        elif op == "/":
            stream.pos += 1
            node = _parse_unary(stream)
            rounding = stream.kind()
            if rounding in ("U", "C", "R", "F"):
                stream.pos += 1
                rounding = "U" if rounding == "C" else rounding
            else:
                rounding = ""
            rest.append(("/", node, rounding))
        else:
            break
    return Chain(first, rest) if rest else first


def _parse_unary(stream: TokenStream) -> Node:
    negative = False
    while True:
        kind = stream.kind()
        if kind == "+":
            stream.pos += 1
        elif kind == "-":
            stream.pos += 1
            negative = not negative  # BCDice folds - - x into x
        else:
            break
    node = _parse_dice(stream)
    return Neg(node) if negative else node


def _parse_term(stream: TokenStream) -> Node:
    token = stream.next()
    if token[0] == "NUMBER":
        return Num(token[1])
    if token[0] == "(":
        stream.enter()
        inner = _parse_add(stream)
        stream.expect(")")
        stream.leave()
        return Paren(inner)
    raise ParseFailure(f"unexpected {token[0]}")


def _parse_filter(stream: TokenStream) -> tuple[str, Node] | None:
    """``KH/KL/DH/DL [term]`` or ``MAX``/``MIN``; None when no filter follows."""
    kind, after = stream.kind(), stream.kind(1)
    if kind in ("K", "D") and after in ("H", "L"):
        stream.pos += 2
        count = _parse_term(stream) if stream.kind() in _TERM_START else Num(1)
        if count.has_dice:
            raise ParseFailure("dice in a keep/drop count")
        return kind + after, count
    if kind == "M":
        if after == "A" and stream.kind(2) == "X":
            stream.pos += 3
            return "KH", Num(1)
        if after == "I" and stream.kind(2) == "N":
            stream.pos += 3
            return "KL", Num(1)
        raise ParseFailure("M must start MAX or MIN")
    return None


def _parse_dice(stream: TokenStream) -> Node:
    if stream.kind() == "D":
        stream.pos += 1
        explicit = _parse_term(stream)
        if explicit.has_dice:
            raise ParseFailure("dice in the sides")
        if isinstance(explicit, Num) and explicit.literal == 66:
            raise ParseFailure("D66 is its own command")
        chosen = _parse_filter(stream)
        if chosen is None:
            return Dice(Num(1), explicit)
        return Dice(Num(1), explicit, *chosen)
    times = _parse_term(stream)
    if stream.kind() != "D":
        return times
    stream.pos += 1
    if times.has_dice:
        raise ParseFailure("dice in the number of dice")
    sides: Node | None = None
    if stream.kind() in _TERM_START:
        sides = _parse_term(stream)
        if sides.has_dice:
            raise ParseFailure("dice in the sides")
    chosen = _parse_filter(stream)
    if chosen is None:
        return Dice(times, sides)
    return Dice(times, sides, *chosen)


@lru_cache(maxsize=2048)
def parse(text: str) -> Command | None:
    """The AddDice command in the first word of ``text``, or None."""
    stream = TokenStream(tokenize(text))
    try:
        secret = stream.accept("S") is not None
        lhs = _parse_add(stream)
        cmp_op: str | None = None
        rhs: Node | str | None = None
        if stream.kind() == "CMP_OP":
            cmp_op = stream.next()[1]
            if cmp_op is None:
                return None
            if stream.accept("?") is not None:
                rhs = "?"
            else:
                rhs = _parse_add(stream)
                if rhs.has_dice:
                    return None
        stream.expect_end()
    except ParseFailure:
        return None
    if not lhs.has_dice:
        return None
    return Command(secret, lhs, cmp_op, rhs)


# -- evaluation ------------------------------------------------------------------------------


def run(command: Command, system: DiceSystem, randomizer: Randomizer) -> RollResult:
    ctx = _Ctx(system, randomizer)
    if command.plain_roll is not None:  # the left side is one plain roll (BCDice's DiceRoll)
        values = command.plain_roll.roll(ctx)
        total = sum(values)
        echo, target = command.static_parts(ctx)
        # BCDice does not repeat a lone die: "(1D100) ＞ 42", not "(1D100) ＞ 42[42] ＞ 42"
        parts = [echo] if len(values) <= 1 else [echo, dice_output(total, values)]
    else:
        total, output = command.lhs.eval(ctx)
        echo, target = command.static_parts(ctx)
        parts = [echo, output]
    parts.append(str(total))
    result = RollResult(text="", secret=command.secret, value=total)
    english = list(parts)  # the numbers read the same in English
    translated = True  # False: a system's judgement without its English
    cmp_op = command.cmp_op
    if cmp_op is not None:
        check = None
        if system.judges_sums:
            check = system.check_sum(SumCheck(total, ctx.dice(), cmp_op, target))
        if check is not None:
            if check.text:
                parts.append(check.text)
                english.append(check.text_en or "")
                translated = check.text_en is not None
            result.success = check.success
            result.failure = check.failure
            result.critical = check.critical
            result.fumble = check.fumble
            result.rules = check.rules
        elif target is not None:  # BCDice's default: 成功/失敗 (nothing for a "?" target)
            if PREDICATES[cmp_op](total, target):
                parts.append("成功")
                english.append("Success")
                result.success = True
            else:
                parts.append("失敗")
                english.append("Failure")
                result.failure = True
    result.text = SEPARATOR.join(parts)
    if translated:
        result.text_en = SEPARATOR.join(english)
    return result


def evaluate(text: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    """Evaluate ``text`` (normalized, comment included) as AddDice; None if it is not one."""
    command = parse(text)
    if command is None:
        return None
    return run(command, system, randomizer)
