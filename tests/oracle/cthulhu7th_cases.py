"""Cthulhu7th ``CC`` commands for comparing saikoro with BCDice (``tests/oracle``).

Every bonus/penalty form × target × difficulty BCDice 3.16.1's ``CC`` reads, near misses it
does not, secret and lower-case forms, and comments. Each command is rolled with several
seeds so that criticals, fumbles and every success level come up.
"""

from __future__ import annotations

from typing import Any

BONUSES = ("", "0", "1", "2", "3", "-1", "-2", "+1", "+2", "(1)", "(-1)", "(+2)", "(1+1)", "101")
TARGETS = ("", "<=0", "<=1", "<=5", "<=30", "<=49", "<=50", "<=65", "<=99", "<=100", "<=(25*2)")
DIFFICULTIES = ("", "R", "H", "E", "C", "h")
#: The largest bonus and penalty BCDice allows (101 dice each), once.
EDGES = ("CC100", "CC-100<=50", "CC-101<=50")
NEAR_MISSES = ("CCX", "CC<=50+10", "CC1<=50a", "CC<=50,60", "CC(1", "CC1)<=50", "CCB<=50", "C C")
SEEDS_PER_COMMAND = 3


def commands() -> list[str]:
    found: list[str] = []
    for bonus in BONUSES:
        for target in TARGETS:
            for difficulty in DIFFICULTIES if target else ("",):
                found.append(f"CC{bonus}{target}{difficulty}")
    found += [f"S{c}" for c in found[::7]] + [c.lower() for c in found[3::11]]
    found += [f"{c} 目星" for c in found[5::13]]
    return [*found, *EDGES, *NEAR_MISSES]


def cases() -> list[dict[str, Any]]:
    return [
        {"system": "Cthulhu7th", "command": c, "oracle_command": c}
        for c in commands()
        for _ in range(SEEDS_PER_COMMAND)
    ]
