"""The shared lexer and integer arithmetic of BCDice's common commands.

Every common command (AddDice, BarabaraDice, RerollDice, UpperDice, TallyDice,
Calc, …) reads its text with the same lexer and the same ``add`` grammar for
numbers, as BCDice's ``CommonCommand::Lexer`` and ``Arithmetic`` do. This module
is that shared part, written from BCDice's behaviour (not its code).

API for command modules
-----------------------
``tokenize(text)``
    The first word of ``text`` (up to the first ASCII whitespace) as tokens
    ``(kind, value)``: ``("NUMBER", int)``, ``("CMP_OP", op or None)`` or one
    upper-cased character as kind and value (``"D"``, ``"+"``, ``"("``, ``"?"``, …),
    always ending with :data:`END` ``("$", None)``.
``TokenStream(tokens)``
    ``peek(k=0)``, ``kind(k=0)``, ``next()``, ``accept(kind)`` (returns the value or
    None), ``expect(kind)`` (raises :class:`ParseFailure`), ``at_end()``,
    ``expect_end()``.
``parse_add(stream, keep_parens=False)``
    BCDice's ``add`` rule (``+ - * /``, ``/…U C R F`` rounding, unary ``+ -``,
    parentheses) → an :class:`Expr` with ``eval(round_type) -> int`` and
    ``output() -> str``. ``keep_parens=True`` keeps parentheses in the output (Calc
    prints ``c(10/2+(5*2))``); BarabaraDice & co. use the default. Division by zero
    raises ``ZeroDivisionError`` (Calc shows a message, others treat it as not a command).
``eval_arith(text, round_type)``
    BCDice's ``Arithmetic.eval``: the value of an arithmetic text, or None.
``normalize_cmp_op(text)`` / ``compare(lhs, op, rhs)`` / ``PREDICATES`` / ``CMP_OP_TEXT``
    Comparison operators as BCDice normalizes them: ``=>`` → ``>=``, ``=<`` → ``<=``,
    ``!=``/``=!``/``<>`` → ``<>``, ``==`` → ``=``; unknown (``!``) → None.
``divide(lhs, rhs, rounding, round_type)``
    Integer division with BCDice's rounding (``""`` = the system's ``round_type``,
    ``"U"`` ceil, ``"R"`` round half away from zero, ``"F"`` floor).
``preprocess(text, system)``
    BCDice's preprocessor for system-specific commands: keep the first word,
    pre-evaluate parenthesized arithmetic (``(8/2)`` → ``4``), then ``2D`` → ``2D6``
    (the system's ``sides_implicit_d``).

A parse error is :class:`ParseFailure` (internal, never leaves a command module:
the command answers None). ``parse_add``/``parse_term`` read and evaluate without
recursion, so arithmetic nests as deep as the input allows (as in BCDice); a parser
that recurses (AddDice's) calls ``TokenStream.enter``, which raises
:class:`NestingTooDeepError` (a :class:`~saikoro.errors.SaikoroError`) past
:data:`MAX_NESTING` parentheses.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.dice.system import DiceSystem

__all__ = [
    "CMP_OP_TEXT",
    "END",
    "MAX_NESTING",
    "PREDICATES",
    "BinaryOp",
    "Expr",
    "FormulaError",
    "Negative",
    "NestingTooDeepError",
    "Number",
    "Parenthesis",
    "ParseFailure",
    "Token",
    "TokenStream",
    "compare",
    "divide",
    "eval_arith",
    "evaluate_formula",
    "first_word",
    "normalize_cmp_op",
    "parse_add",
    "preprocess",
    "tokenize",
]

#: Deepest parenthesis nesting a recursive parser accepts (``TokenStream.enter``; BCDice has
#: no limit, 10240 characters allow 5000: the arithmetic here has none either).
MAX_NESTING = 100

Token = tuple[str, Any]
END: Token = ("$", None)

# Ruby's awk-style split(" ") and /\s/ only know ASCII whitespace.
_WHITESPACE = re.compile(r"[ \t\n\v\f\r]")
_TOKEN = re.compile(r"([0-9]+)|([<>!=]+)|(.)", re.DOTALL)


class ParseFailure(Exception):
    """The text does not follow the grammar (the command answers None). Internal."""


class NestingTooDeepError(SaikoroError):
    reason = "expression too deeply nested"

    def __init__(self) -> None:
        super().__init__(
            Message(
                f"式のカッコの入れ子が深すぎます ({MAX_NESTING} 段まで)",
                f"the expression nests parentheses too deeply (at most {MAX_NESTING} levels)",
            )
        )


class ArithmeticOverflowError(SaikoroError):
    reason = "number too large"

    def __init__(self) -> None:
        super().__init__(
            Message(
                "数値が大きすぎて端数処理できません",
                "the number is too large to divide with rounding",
            )
        )


# -- comparison operators --------------------------------------------------------

#: How each normalized operator is printed (BCDice prints ``!=`` as ``<>``, ``==`` as ``=``).
CMP_OP_TEXT = {">=": ">=", "<=": "<=", ">": ">", "<": "<", "=": "=", "<>": "<>"}


@lru_cache(maxsize=256)
def normalize_cmp_op(text: str) -> str | None:
    """BCDice's ``Normalize.comparison_operator``: the first rule that matches anywhere wins."""
    if "<=" in text or "=<" in text:
        return "<="
    if ">=" in text or "=>" in text:
        return ">="
    if "<>" in text or "!=" in text or "=!" in text:
        return "<>"
    if "<" in text:
        return "<"
    if ">" in text:
        return ">"
    if "=" in text:
        return "="
    return None


#: Each normalized operator as a function ``(lhs, rhs) -> bool``.
PREDICATES: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
    "<>": operator.ne,
}


def compare(lhs: int, op: str, rhs: int) -> bool:
    """``lhs op rhs`` for a normalized operator."""
    try:
        predicate = PREDICATES[op]
    except KeyError:
        raise ValueError(f"unknown comparison operator {op!r}") from None
    return predicate(lhs, rhs)


# -- division ----------------------------------------------------------------------


def _float_quotient(lhs: int, rhs: int) -> float:
    try:
        return float(lhs) / float(rhs)
    except OverflowError:
        raise ArithmeticOverflowError() from None


def _round_half_away(value: float) -> int:
    if math.isinf(value) or math.isnan(value):
        raise ZeroDivisionError
    magnitude = abs(value)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:
        whole += 1
    return int(whole) if value >= 0 else -int(whole)


def divide(lhs: int, rhs: int, rounding: str, round_type: str = "floor") -> int:
    """BCDice's division: ``rounding`` is ``""`` (use ``round_type``), ``U``/``C``, ``R`` or ``F``.

    Raises ``ZeroDivisionError`` when ``rhs`` is 0 (callers decide what that means).
    """
    if rhs == 0:
        raise ZeroDivisionError
    if rounding == "":
        rounding = {"ceil": "U", "round": "R"}.get(round_type, "F")
    if rounding == "F":
        return lhs // rhs
    quotient = _float_quotient(lhs, rhs)
    if rounding in ("U", "C"):
        if math.isinf(quotient):
            raise ArithmeticOverflowError()
        return math.ceil(quotient)
    return _round_half_away(quotient)


# -- lexer -------------------------------------------------------------------------


def first_word(text: str) -> str:
    """Text up to the first ASCII whitespace (leading whitespace skipped), as Ruby's split(" ")."""
    text = text.lstrip(" \t\n\v\f\r")
    return _WHITESPACE.split(text, 1)[0]


@lru_cache(maxsize=1024)
def _tokenize_word(word: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    append = tokens.append
    for number, cmp_op, char in _TOKEN.findall(word):
        if number:
            append(("NUMBER", int(number)))
        elif cmp_op:
            append(("CMP_OP", normalize_cmp_op(cmp_op)))
        else:
            upper = char.upper()
            append((upper, upper))
    append(END)
    return tuple(tokens)


def tokenize(text: str) -> tuple[Token, ...]:
    """Tokens of the first word of ``text`` (BCDice's common lexer), ending with :data:`END`."""
    return _tokenize_word(first_word(text))


class TokenStream:
    """A cursor over tokens; reading past the end keeps returning :data:`END`."""

    __slots__ = ("depth", "pos", "tokens")

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self, k: int = 0) -> Token:
        i = self.pos + k
        return self.tokens[i] if i < len(self.tokens) else END

    def kind(self, k: int = 0) -> str:
        return self.peek(k)[0]

    def next(self) -> Token:
        token = self.peek()
        if self.pos < len(self.tokens):
            self.pos += 1
        return token

    def accept(self, kind: str) -> Any:
        """Consume the next token if it is ``kind`` and return its value (None otherwise)."""
        token = self.peek()
        if token[0] == kind:
            self.pos += 1
            return token[1] if token[1] is not None else True
        return None

    def expect(self, kind: str) -> Any:
        token = self.peek()
        if token[0] != kind:
            raise ParseFailure(f"expected {kind}, got {token[0]}")
        self.pos += 1
        return token[1]

    def at_end(self) -> bool:
        return self.kind() == "$"

    def expect_end(self) -> None:
        if not self.at_end():
            raise ParseFailure(f"unexpected {self.kind()}")

    def enter(self) -> None:
        """Count one level of parentheses (raises :class:`NestingTooDeepError`)."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise NestingTooDeepError()

    def leave(self) -> None:
        self.depth -= 1


# -- arithmetic expressions ------------------------------------------------------------


class Expr:
    """A dice-free arithmetic expression node.

    ``eval`` and ``output`` walk the tree with explicit stacks (:func:`_postfix`,
    :func:`_pieces`), never recursively: ``C(((…)))`` nests as deep as BCDice allows (the
    10240-character input bound: about 5000 levels)."""

    __slots__ = ()

    def eval(self, round_type: str = "floor") -> int:
        raise NotImplementedError

    def output(self) -> str:
        raise NotImplementedError


class _Compound(Expr):
    """A node with operands: its postfix steps and its text are made once (a parsed
    expression is cached and may be evaluated many times, ``x100 C(…)``)."""

    __slots__ = ("_steps", "_text")

    def __init__(self) -> None:
        self._steps: list[_Step] | None = None
        self._text: str | None = None

    def eval(self, round_type: str = "floor") -> int:
        steps = self._steps
        if steps is None:
            steps = self._steps = _postfix(self)
        return _evaluate(steps, round_type)

    def output(self) -> str:
        text = self._text
        if text is None:
            text = self._text = "".join(_pieces(self))
        return text


class Number(Expr):
    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def eval(self, round_type: str = "floor") -> int:
        return self.value

    def output(self) -> str:
        return str(self.value)


class Negative(_Compound):
    """``count`` unary minuses before ``body`` (kept as one node: no deep trees)."""

    __slots__ = ("body", "count")

    def __init__(self, body: Expr, count: int = 1) -> None:
        super().__init__()
        self.body = body
        self.count = count


class Parenthesis(_Compound):
    __slots__ = ("body",)

    def __init__(self, body: Expr) -> None:
        super().__init__()
        self.body = body


class BinaryOp(_Compound):
    """A left-associative chain ``first op operand op operand …`` (kept flat: no deep trees).

    ``rest`` holds ``(op, operand, rounding)``; ``op`` is ``+ - * /`` and ``rounding``
    is the division suffix as printed (``""``, ``C``, ``R``, ``F``; see :func:`parse_rounding`).
    """

    __slots__ = ("first", "rest")

    def __init__(self, first: Expr, rest: list[tuple[str, Expr, str]]) -> None:
        super().__init__()
        self.first = first
        self.rest = rest


#: One step of an expression in postfix order: a number, ``("neg", count)`` or
#: ``(op, rounding)`` applied to the two values before it.
_Step = int | tuple[str, Any]


def _postfix(root: Expr) -> list[_Step]:
    """``root`` in postfix order (operands before their operator), left to right."""
    steps: list[_Step] = []
    todo: list[Expr | tuple[str, Any]] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, Number):
            steps.append(item.value)
        elif isinstance(item, Parenthesis):
            todo.append(item.body)
        elif isinstance(item, Negative):
            todo.append(("neg", item.count))
            todo.append(item.body)
        elif isinstance(item, BinaryOp):
            for op, operand, rounding in reversed(item.rest):
                todo.append((op, rounding))
                todo.append(operand)
            todo.append(item.first)
        elif isinstance(item, tuple):
            steps.append(item)
    return steps


def _evaluate(steps: list[_Step], round_type: str) -> int:
    """The value of postfix ``steps``, left to right as BCDice computes it (the first
    division by zero raises ``ZeroDivisionError``)."""
    values: list[int] = []
    push, pop = values.append, values.pop
    for step in steps:
        if isinstance(step, int):
            push(step)
            continue
        op, detail = step
        if op == "neg":
            if detail % 2:
                values[-1] = -values[-1]
        elif op == "+":
            rhs = pop()
            values[-1] += rhs
        elif op == "-":
            rhs = pop()
            values[-1] -= rhs
        elif op == "*":
            rhs = pop()
            values[-1] *= rhs
        else:
            rhs = pop()
            values[-1] = divide(values[-1], rhs, detail, round_type)
    return values[0]


def _pieces(root: Expr) -> list[str]:
    """The printed pieces of ``root``, in order."""
    pieces: list[str] = []
    todo: list[Expr | str] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            pieces.append(item)
        elif isinstance(item, Number):
            pieces.append(str(item.value))
        elif isinstance(item, Parenthesis):
            todo += [")", item.body, "("]
        elif isinstance(item, Negative):
            todo += [item.body, "-" * item.count]
        elif isinstance(item, BinaryOp):
            for op, operand, rounding in reversed(item.rest):
                todo += [rounding, operand, op]
            todo.append(item.first)
    return pieces


_ROUNDING = {"U": "C", "C": "C", "R": "R", "F": "F"}


def parse_rounding(stream: TokenStream, ceil_letter: str = "C") -> str:
    """The optional rounding suffix after a divisor as printed: ceil, ``R``, ``F`` or ``""``.

    BCDice prints ceiling as ``C`` in plain arithmetic (Calc) and ``U`` in AddDice:
    pass ``ceil_letter`` accordingly.
    """
    kind = stream.kind()
    if kind in _ROUNDING:
        stream.pos += 1
        letter = _ROUNDING[kind]
        return ceil_letter if letter == "C" else letter
    return ""


def parse_add(stream: TokenStream, keep_parens: bool = False) -> Expr:
    """BCDice's ``add`` rule over ``stream``; raises :class:`ParseFailure`."""
    return _parse(stream, keep_parens, term_only=False)


def parse_term(stream: TokenStream, keep_parens: bool = False) -> Expr:
    """``( add )`` or a number."""
    return _parse(stream, keep_parens, term_only=True)


class _Level:
    """An ``add`` being read inside one pair of parentheses (or at the top)."""

    __slots__ = ("add_first", "add_op", "add_rest", "mul_first", "mul_op", "mul_rest", "negative")

    def __init__(self) -> None:
        self.add_first: Expr | None = None
        self.add_rest: list[tuple[str, Expr, str]] = []
        self.add_op: str | None = None
        self.mul_first: Expr | None = None
        self.mul_rest: list[tuple[str, Expr, str]] = []
        self.mul_op: str | None = None
        self.negative = 0  # unary minuses before the parenthesis this level is inside

    def factor(self, operand: Expr, stream: TokenStream) -> None:
        """``operand`` read: the next factor (a divisor takes its rounding suffix)."""
        if self.mul_op is None:
            self.mul_first = operand
        else:
            rounding = parse_rounding(stream) if self.mul_op == "/" else ""
            self.mul_rest.append((self.mul_op, operand, rounding))
            self.mul_op = None

    def term(self) -> None:
        """The factors read so far are one term of the sum."""
        assert self.mul_first is not None
        product = BinaryOp(self.mul_first, self.mul_rest) if self.mul_rest else self.mul_first
        if self.add_op is None:
            self.add_first = product
        else:
            self.add_rest.append((self.add_op, product, ""))
        self.mul_first, self.mul_rest = None, []

    def close(self) -> Expr:
        self.term()
        assert self.add_first is not None
        return BinaryOp(self.add_first, self.add_rest) if self.add_rest else self.add_first


def _parse(stream: TokenStream, keep_parens: bool, term_only: bool) -> Expr:
    """The ``add`` rule (or, ``term_only``, one number or parenthesis) without recursion:
    each open parenthesis saves its :class:`_Level` on a stack, so nesting is bounded only
    by the input's length, as in BCDice."""
    levels: list[_Level] = []
    level = _Level()
    wrapped = False  # term_only with "(": the outermost level is itself parenthesized
    if term_only:
        token = stream.next()
        if token[0] == "NUMBER":
            return Number(token[1])
        if token[0] != "(":
            raise ParseFailure(f"unexpected {token[0]}")
        wrapped = True
    while True:
        negative = 0
        kind = stream.kind()
        while kind == "+" or kind == "-":
            stream.pos += 1
            negative += kind == "-"
            kind = stream.kind()
        token = stream.next()
        if token[0] == "(":
            level.negative = negative
            levels.append(level)
            level = _Level()
            continue
        if token[0] != "NUMBER":
            raise ParseFailure(f"unexpected {token[0]}")
        operand: Expr = Number(token[1])
        while True:  # an operand is read: continue its level, or close levels
            # Each unary minus is its own node in BCDice's arithmetic: "--1" prints "--1".
            level.factor(Negative(operand, negative) if negative else operand, stream)
            kind = stream.kind()
            if kind == "*" or kind == "/":
                stream.pos += 1
                level.mul_op = kind
                break
            if kind == "+" or kind == "-":
                stream.pos += 1
                level.term()
                level.add_op = kind
                break
            expr = level.close()
            if not levels and not wrapped:
                return expr
            stream.expect(")")
            operand = Parenthesis(expr) if keep_parens else expr
            if not levels:
                return operand
            level = levels.pop()
            negative = level.negative


@lru_cache(maxsize=1024)
def _parse_arith_text(text: str) -> Expr | None:
    stream = TokenStream(tokenize(text))
    try:
        expr = parse_add(stream)
        stream.expect_end()
    except ParseFailure:
        return None
    return expr


def eval_arith(text: str, round_type: str = "floor") -> int | None:
    """BCDice's ``Arithmetic.eval``: the value of ``text``, or None (not arithmetic, or ÷0)."""
    expr = _parse_arith_text(text)
    if expr is None:
        return None
    try:
        return expr.eval(round_type)
    except ZeroDivisionError:
        return None


# -- formulas over named values ---------------------------------------------------------

#: Longest formula text accepted, and largest value a formula may reach.
MAX_FORMULA_LENGTH = 200
MAX_FORMULA_VALUE = 10**9
_FORMULA_SPACE = re.compile(r"\s+")
_UNKNOWN_NAME = re.compile(r"[^0-9+\-*/()]+")


class FormulaError(SaikoroError):
    """A formula over named values that cannot be computed (bilingual reason)."""

    reason = "invalid formula"

    def __init__(self, formula: str, why: str, why_en: str) -> None:
        super().__init__(
            Message(f"式 {formula!r} が不正です: {why}", f"invalid formula {formula!r}: {why_en}")
        )


def evaluate_formula(formula: str, values: Mapping[str, int], round_type: str = "floor") -> int:
    """Integer arithmetic over named values (``体格*2+敏捷度``, ``(体格+運命)÷2``), on the
    same grammar and rounding as the dice commands (``+ - * /``, parentheses, unary signs;
    ``×``/``÷`` are ``*``/``/``; ``/`` rounds by ``round_type``). Each name is replaced by its
    value; anything else is a :class:`FormulaError`. Never executes code."""
    if len(formula) > MAX_FORMULA_LENGTH:
        raise FormulaError(formula[:20] + "…", "長すぎます", "too long")
    text = _FORMULA_SPACE.sub("", formula).replace("×", "*").replace("÷", "/")
    for name in sorted(values, key=len, reverse=True):  # 体格成長率 before 体格
        if name:
            text = text.replace(name, f"({int(values[name])})")
    unknown = _UNKNOWN_NAME.search(text)
    if unknown is not None:
        name = unknown.group(0)
        raise FormulaError(formula, f"{name} という値はありません", f"unknown value {name}")
    stream = TokenStream(_tokenize_word(text))
    try:
        expr = parse_add(stream)
        stream.expect_end()
    except ParseFailure:
        raise FormulaError(formula, "構文エラー", "syntax error") from None
    try:
        value = expr.eval(round_type)
    except ZeroDivisionError:
        raise FormulaError(formula, "0 で割っています", "division by zero") from None
    if abs(value) > MAX_FORMULA_VALUE:
        raise FormulaError(formula, "値が大きすぎます", "value too large")
    return value


# -- preprocessor (system-specific commands) ---------------------------------------------

_PAREN_ARITH = re.compile(r"\([0-9/+*\-CURF]+\)")
# The look-behind starts a match only at a number's first digit: without it, a long run of
# digits not followed by D was scanned again from each of its digits (quadratic: 4000
# digits took 0.2 s per pass). A match can only start there anyway.
_IMPLICIT_D = re.compile(r"(?<![0-9])([0-9]+)[Dd]([^A-Za-z0-9_]|$)")


def preprocess(text: str, system: DiceSystem) -> str:
    """BCDice's ``Preprocessor.process`` (used before a system's own commands).

    ``"1d6+4D+(3*4) comment"`` → ``"1d6+4D6+12"``.
    """
    text = first_word(text.strip(" \t\n\v\f\r\0"))
    round_type = system.round_type

    def _replace(match: re.Match[str]) -> str:
        value = eval_arith(match.group(0), round_type)
        return match.group(0) if value is None else str(value)

    for _ in range(len(text)):  # each pass removes a pair of parentheses or stops
        replaced = _PAREN_ARITH.sub(_replace, text)
        if replaced == text:
            break
        text = replaced
    change_text = getattr(system, "change_text", None)
    if change_text is not None:
        text = change_text(text)
    sides = system.sides_implicit_d
    return _IMPLICIT_D.sub(lambda m: f"{m.group(1)}D{sides}{m.group(2)}", text)
