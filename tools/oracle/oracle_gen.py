"""Grammar-based random generator of BCDice generic (``DiceBot``) commands.

Each generated case is ``Case(command, oracle_command)``: ``command`` is what saikoro
gets, ``oracle_command`` what the real BCDice gets. They differ only for full-width or
mixed-width variants (BCDice rejects those; saikoro must answer as for the half-width
form, which is ``oracle_command``).

Covered: AddDice (``+ - * /``, parentheses, unary minus, ``/…U /…C /…R /…F``, implicit
times and sides, ``KH KL DH DL MAX MIN``, comparisons ``>= <= > < = <> != ==`` with an
expression or ``?`` as target), BarabaraDice ``xBy``, RerollDice ``xRy[t]`` / ``@t``,
UpperDice ``xUy[t]`` / ``@t`` with modifiers, TallyDice ``xTYy`` / ``xTZy``, Calc ``C(…)``,
Choice (``[…]``, ``(…)``, space form, counts, ranges), D66 (``D66 D66A D66D D66N D66S``),
Repeat (``x3 rep3 repeat3``, over-limit and nested), the ``S`` prefix, comments after a
space, lower case, and a share of near-miss / invalid texts (BCDice says "not a command").

Usage: ``python tools/oracle/oracle_gen.py --seed 1 --count 100`` prints JSON lines
``{"system": "DiceBot", "command": …, "oracle_command": …}``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

SIDES = (2, 3, 4, 6, 6, 6, 8, 10, 10, 12, 20, 100)
CMP_OPS = (">=", "<=", ">", "<", "=", "<>", "!=", "==", "=>", "=<")
ROUNDING = ("", "", "U", "C", "R", "F")
COMMENTS = ("攻撃", "回避判定", "comment", "a b c", "（全角の注釈）", "#1")
#: Signs Japanese IMEs produce for operators (saikoro reads them as the ASCII form).
SIGNS = {">=": "≥", "<=": "≤", "<>": "≠", "*": "×", "/": "÷", "-": "−"}
WORDS = ("A", "B", "C", "りんご", "みかん", "ぶどう", "x", "Sword", "盾", "1", "42", "a b")


@dataclass(frozen=True)
class Case:
    """One random command: ``command`` for saikoro, ``oracle_command`` for BCDice."""

    command: str
    oracle_command: str
    kind: str
    system: str = "DiceBot"

    def to_json(self) -> dict[str, str]:
        return {
            "system": self.system,
            "command": self.command,
            "oracle_command": self.oracle_command,
            "kind": self.kind,
        }


class Generator:
    """Random BCDice generic commands from a seeded :class:`random.Random`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- small pieces ---------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def number(self, low: int = 0, high: int = 12) -> int:
        return self.rng.randint(low, high)

    def times(self, high: int = 6) -> int:
        return self.rng.randint(1, high)

    def sides(self) -> int:
        if self.chance(0.05):
            return self.rng.randint(1, 30)
        return self.rng.choice(SIDES)

    def cmp_op(self) -> str:
        return self.rng.choice(CMP_OPS)

    def target(self) -> str:
        """A comparison target: mostly a plain number, sometimes an expression."""
        if self.chance(0.7):
            return str(self.rng.randint(1, 20) if self.chance(0.8) else self.rng.randint(21, 100))
        return self.arith()

    def arith(self, depth: int = 0, allow_zero_div: bool = False) -> str:
        """A dice-free arithmetic expression (targets, modifiers, Calc)."""
        roll = self.rng.random()
        if depth >= 2 or roll < 0.45:
            return str(self.number(0 if allow_zero_div else 1, 20))
        if roll < 0.55:
            return f"-{self.arith(depth + 1)}"
        if roll < 0.7:
            return f"({self.arith(depth + 1)})"
        op = self.rng.choice("+-*/")
        left = self.arith(depth + 1)
        right = self.arith(depth + 1, allow_zero_div=False)
        if op == "/":
            return f"{left}/{right}{self.rng.choice(ROUNDING)}"
        return f"{left}{op}{right}"

    # -- AddDice ----------------------------------------------------------------
    def add_dice_roll(self) -> str:
        roll = self.rng.random()
        n, s = self.times(5), self.sides()
        if roll < 0.55:
            return f"{n}D{s}"
        if roll < 0.62:
            return f"D{self.rng.choice((4, 6, 8, 10, 20, 100))}"
        if roll < 0.67:
            return f"{n}D"
        if roll < 0.72:
            return f"({self.number(1, 3)}+{self.number(1, 2)})D{s}"
        if roll < 0.9:
            k = self.rng.randint(1, n)
            kind = self.rng.choice(("KH", "KL", "DH", "DL"))
            count = "" if kind in ("KH", "KL") and self.chance(0.1) else str(k)
            sides = "" if self.chance(0.08) else str(s)
            return f"{n}D{sides}{kind}{count}"
        return f"{n}D{s}{self.rng.choice(('MAX', 'MIN'))}"

    def add_dice_term(self, depth: int) -> str:
        roll = self.rng.random()
        if roll < 0.55 or depth >= 2:
            return self.add_dice_roll() if self.chance(0.7) else str(self.number(0, 10))
        if roll < 0.75:
            return f"({self.add_dice_expr(depth + 1)})"
        return f"-{self.add_dice_term(depth + 1)}"

    def add_dice_expr(self, depth: int = 0) -> str:
        parts = [self.add_dice_term(depth)]
        for _ in range(self.rng.choice((0, 0, 1, 1, 2, 3))):
            op = self.rng.choice("++--*/")
            term = self.add_dice_term(depth + 1)
            if op == "/":
                parts.append(f"/{term}{self.rng.choice(ROUNDING)}")
            else:
                parts.append(f"{op}{term}")
        return "".join(parts)

    def add_dice(self) -> str:
        expr = self.add_dice_expr()
        if "D" not in expr:
            expr = f"{self.add_dice_roll()}+{expr}"
        if self.chance(0.55):
            target = "?" if self.chance(0.05) else self.target()
            expr += f"{self.cmp_op()}{target}"
        return expr

    # -- the other dice commands ------------------------------------------------
    def notations(self, letter: str, count_high: int = 6) -> str:
        parts = [f"{self.times(count_high)}{letter}{self.sides()}"]
        while self.chance(0.2):
            parts.append(f"{self.times(4)}{letter}{self.sides()}")
        return "+".join(parts)

    def barabara(self) -> str:
        text = self.notations("B", 8)
        if self.chance(0.6):
            text += f"{self.cmp_op()}{self.target()}"
        return text

    def reroll(self) -> str:
        notations = self.notations("R", 5)
        sides = max(int(p.split("R")[1]) for p in notations.split("+"))
        threshold = self.rng.randint(max(2, sides // 2), max(2, sides)) if sides > 1 else 2
        target = f"{self.cmp_op()}{self.target()}" if self.chance(0.7) else ""
        form = self.rng.random()
        if form < 0.55:
            return f"{notations}[{threshold}]{target}"
        if form < 0.7:
            op = self.rng.choice((">=", ">", "<=", "<", "="))
            return f"{notations}[{op}{threshold}]{target}"
        if form < 0.9:
            return f"{notations}{target}@{threshold}"
        return f"{notations}{target}"

    def upper(self) -> str:
        notations = self.notations("U", 5)
        sides = max(int(p.split("U")[1]) for p in notations.split("+"))
        threshold = self.rng.randint(max(2, sides // 2), max(2, sides)) if sides > 1 else 2
        modifier = ""
        while self.chance(0.3):
            modifier += f"{self.rng.choice('+-')}{self.number(1, 6)}"
        target = f"{self.cmp_op()}{self.target()}" if self.chance(0.5) else ""
        form = self.rng.random()
        if form < 0.6:
            return f"{notations}[{threshold}]{modifier}{target}"
        if form < 0.9:
            return f"{notations}{modifier}{target}@{threshold}"
        return f"{notations}{modifier}{target}"

    def tally(self) -> str:
        times = (
            str(self.times(10))
            if self.chance(0.85)
            else f"({self.number(1, 3)}+{self.number(1, 3)})"
        )
        sides = str(self.rng.choice((2, 4, 6, 6, 8, 10))) if self.chance(0.9) else "(2*3)"
        return f"{times}T{self.rng.choice('YZ')}{sides}"

    def calc(self) -> str:
        expr = self.arith(0, allow_zero_div=True)
        if self.chance(0.7):
            return f"C({expr})"
        return f"C{expr}"

    def choice(self) -> str:
        count = ""
        if self.chance(0.2):
            count = str(self.rng.randint(0, 4))
        roll = self.rng.random()
        if roll < 0.2:
            kind = self.rng.random()
            if kind < 0.4:
                a = self.rng.randint(0, 20)
                ab = (a, a + self.rng.randint(0, 6))
                rng_text = f"{ab[0]}-{ab[1]}" if self.chance(0.9) else f"{ab[1]}-{ab[0]}"
            else:
                letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                if self.chance(0.4):
                    letters = letters.lower()
                i = self.rng.randint(0, 20)
                j = i + self.rng.randint(0, 5)
                rng_text = f"{letters[i]}-{letters[j]}"
            open_, close = self.rng.choice((("[", "]"), ("(", ")")))
            return f"choice{count}{open_}{rng_text}{close}"
        items = [self.rng.choice(WORDS) for _ in range(self.rng.randint(1, 5))]
        if roll < 0.5:
            sep = self.rng.choice((",", ", ", " ,"))
            return f"choice{count}[{sep.join(items)}]"
        if roll < 0.75:
            return f"choice{count}({','.join(items)})"
        items = [w.replace(" ", "") for w in items]
        return f"choice{count} {' '.join(items)}"

    def d66(self) -> str:
        return "D66" + self.rng.choice(("", "", "A", "D", "N", "S"))

    def repeat(self) -> str:
        keyword = self.rng.choice(("x", "rep", "repeat"))
        times = self.rng.randint(1, 4)
        if self.chance(0.05):
            times = self.rng.choice((0, 100, 101))
        inner_kind = self.rng.choice(("add", "add", "barabara", "choice", "d66", "calc"))
        inner = getattr(self, {"add": "add_dice"}.get(inner_kind, inner_kind))()
        if times >= 100:
            inner = "1D6"
        if self.chance(0.04):
            inner = f"x2 {inner}"
        return f"{keyword}{times} {inner}"

    def edge(self) -> str:
        """Edge cases: limits, odd counts and thresholds, division by zero, odd spacing."""
        n, s, k = self.rng.randint(0, 8), self.rng.choice(SIDES), self.rng.randint(-1, 9)
        big = self.rng.choice((199, 200, 201, 1000))
        huge_sides = self.rng.choice((9999, 10000, 10001, 99999))
        op = self.cmp_op()
        templates = (
            f"{big}D6",
            f"{big}B6>=4",
            f"{self.rng.randint(1, 3)}D{huge_sides}",
            f"{self.rng.randint(1, 3)}B{huge_sides}",
            f"{n}D{s}",
            f"{n}B{s}{op}{k}",
            f"{n}D{s}KH{k}" if k >= 0 else f"{n}D{s}KH(0{k})",
            f"{n}D{s}{self.rng.choice(('KL', 'DH', 'DL'))}{max(k, 0)}",
            f"1D{s}/0",
            f"1D{s}/({n}-{n}){self.rng.choice(ROUNDING)}",
            f"C({self.rng.randint(-50, 50)}/{self.rng.randint(-5, 5)}{self.rng.choice(ROUNDING)})",
            f"C({self.rng.randint(1, 10**9)}*{self.rng.randint(1, 10**9)})",
            f"{self.rng.randint(1, 5)}D6*{self.rng.randint(10**6, 10**9)}",
            f"({n}*2)D({s}/2)",
            f"{n}D{s}{op}({k})*2",
            f"{n}R{s}[1]",
            f"{n}R{s}[{s + 1}]{op}{k}",
            f"{n}R{s}{op}{k}",
            f"{n}R{s}[<{self.rng.randint(1, 3)}]",
            f"{n}U{s}[1]",
            f"{n}U{s}",
            f"{n}U{s}[{s + 1}]{op}{k}",
            f"{n}U{s}[{max(2, s)}]+{n}*2{op}{k}",
            f"{n}TY{s}",
            f"{n}TZ{self.rng.choice((0, 1, 2, 100))}",
            f"{big}TY6",
            f"choice[{self.rng.choice(WORDS)},,{self.rng.choice(WORDS)}]",
            f"choice[ {self.rng.choice(WORDS)} , {self.rng.choice(WORDS)} ]",
            "choice[a(b),c]",
            "choice(a[b],c)",
            f"choice{self.rng.randint(0, 9)}[A,B,C]",
            f"choice[{self.rng.randint(0, 99)}-{self.rng.randint(0, 99)}]",
            f"choice[{self.rng.choice('aAzZ')}-{self.rng.choice('aAzZdD')}]",
            "choice[A-C,D]",
            "choice[1-2000]",
            "choice()",
            f"D66{self.rng.choice(('AA', 'a', 'd', 'n', 's', 'X'))}",
            f"x{self.rng.choice((0, 1, 99, 100, 101, 1000))} 1D6",
            f"x2 x2 {n}D6",
            f"x02 {n}D6",
            f"X2 {n}D6",
            f"x2  {n}D6",
            f"x2 S{n}D6",
            f"Sx2 {n}D6",
            f"rep{self.rng.randint(1, 3)} choice a b c",
            "repeat",
            f"rep{self.rng.randint(1, 3)}",
            f"S {n}D6",
            f"{n}D6 >= 7",
            f"{n}d{s}{op}?",
            f"{n}B{s}{op}?",
            f"(((({n}D{s}))))",
            f"{n}D{s}+" + "+".join(["1"] * self.rng.randint(1, 30)),
            "-" * self.rng.randint(1, 3) + f"{n}D{s}",
        )
        return self.rng.choice(templates)

    def invalid(self) -> str:
        """Near misses: things that look like commands but are not (or barely are)."""
        return self.rng.choice(
            (
                "2D6>=",
                "D",
                "1D6+",
                "+1D6",
                "2D6>=1D6",
                "(2D6",
                "2D6)",
                "3B",
                "B6",
                "2R6",
                "2U6",
                "choice",
                "choice[]",
                "D66X",
                "x3",
                "C()",
                "2D6**3",
                "1D6/",
                "hello",
                "S",
                "SS2D6",
                "2TX6",
                "2D6KH",
                "3D6KH1KL1",
                "1D6=>=3",
                "2D6 >= 7",
                "2 D6",
                "1D66",
                "D66AD",
                "x3 x3 2D6",
                "1D6/0",
                "C(1/0)",
                "0D6",
                "2D0",
                "0B6",
            )
        )

    # -- a whole case -------------------------------------------------------------
    KINDS: tuple[tuple[str, float], ...] = (
        ("add_dice", 0.36),
        ("barabara", 0.11),
        ("reroll", 0.09),
        ("upper", 0.08),
        ("tally", 0.05),
        ("calc", 0.07),
        ("choice", 0.09),
        ("d66", 0.04),
        ("repeat", 0.06),
        ("invalid", 0.05),
        ("edge", 0.10),
    )

    def command(self) -> tuple[str, str]:
        kinds = [k for k, _ in self.KINDS]
        weights = [w for _, w in self.KINDS]
        kind = self.rng.choices(kinds, weights)[0]
        make: Callable[[], str] = getattr(self, kind)
        text = make()
        if kind not in ("repeat", "choice") and self.chance(0.08):
            text = text.lower()
        if self.chance(0.1):
            text = "S" + text if self.chance(0.8) else "s" + text
        if kind not in ("choice",) and self.chance(0.1):
            text += " " + self.rng.choice(COMMENTS)
        return kind, text

    def case(self) -> Case:
        kind, text = self.command()
        if self.chance(0.15):
            return Case(widen(text, self.rng, mixed=self.chance(0.5)), text, kind + "+fullwidth")
        if self.chance(0.03) and any(op in text for op in SIGNS):
            signed = text
            for op, sign in SIGNS.items():
                if self.chance(0.7):
                    signed = signed.replace(op, sign)
            return Case(signed, text, kind + "+fullwidth")
        return Case(text, text, kind)


def widen(text: str, rng: random.Random, mixed: bool = False) -> str:
    """Full-width form of ASCII text (``mixed``: only some characters widened)."""
    out = []
    for ch in text:
        if mixed and rng.random() < 0.5:
            out.append(ch)
        elif "!" <= ch <= "~":
            out.append(chr(ord(ch) + 0xFEE0))
        elif ch == " ":
            out.append("\u3000" if rng.random() < 0.5 else " ")
        else:
            out.append(ch)
    return "".join(out)


def generate(seed: int, count: int) -> list[Case]:
    """``count`` random cases, the same for the same ``seed``."""
    gen = Generator(random.Random(seed))
    return [gen.case() for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args(argv)
    for case in generate(args.seed, args.count):
        sys.stdout.write(json.dumps(case.to_json(), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
