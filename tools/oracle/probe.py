"""Ask BCDice and saikoro the same commands with the same dice, side by side.

Usage: ``python tools/oracle/probe.py [--seed N] [--half] COMMAND...`` — BCDice rolls
each command with a seeded recording randomizer, saikoro replays its dice. ``--half``
gives BCDice the half-width form (as saikoro normalizes it) instead of the raw text.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle_compare import differences, record, saikoro_outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commands", nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--system", default="DiceBot")
    parser.add_argument("--half", action="store_true", help="give BCDice the half-width form")
    args = parser.parse_args(argv)
    if args.half:
        from saikoro.dice.normalize import to_half_width
    cases = [
        {
            "system": args.system,
            "command": c,
            "oracle_command": to_half_width(c) if args.half else c,
        }
        for c in args.commands
    ]
    disagreements = 0
    for case, expected in zip(cases, record(cases, args.seed), strict=True):
        observed = saikoro_outcome(case["command"], args.system, expected)
        diffs = differences(expected, observed)
        disagreements += bool(diffs)
        print(f"{'DIFF' if diffs else 'same'}  {case['command']}")
        print(f"   BCDice : {expected.get('text', expected.get('reason'))!r}")
        print(f"   saikoro: {observed.get('text', observed.get('reason'))!r}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
