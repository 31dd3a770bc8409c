"""Record BCDice's answers to the Cthulhu7th ``CC`` cases into ``tests/oracle/data``.

Usage: python tests/oracle/make_cthulhu7th_corpus.py   (needs node and tools/oracle/node_modules)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1] / "tools" / "oracle")]

from cthulhu7th_cases import cases  # noqa: E402
from oracle_compare import oracle_version, run_oracle  # noqa: E402

OUT = HERE / "data" / "cthulhu7th_cc.jsonl"
SEED_BASE = 7000


def main() -> None:
    todo = cases()
    answers = run_oracle(
        [
            {"system": c["system"], "command": c["oracle_command"], "seed": SEED_BASE + i}
            for i, c in enumerate(todo)
        ]
    )
    version = oracle_version()
    with OUT.open("w", encoding="utf-8") as out:
        for i, (case, answer) in enumerate(zip(todo, answers, strict=True)):
            line = {"id": i, **case, "bcdice": version, "expected": answer}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(todo)} cases → {OUT}")


if __name__ == "__main__":
    main()
