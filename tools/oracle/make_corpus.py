"""Build the committed oracle corpus: random generic commands and BCDice's answers.

Writes ``tests/oracle/data/bcdice_oracle.jsonl`` (one case a line: ``id, kind, system,
command`` (saikoro's input), ``oracle_command`` (BCDice's input: the half-width form),
``expected`` (BCDice's outcome, with the dice it rolled as ``rands``)) and
``tests/oracle/data/bcdice_oracle.meta.json`` (seed, count, BCDice and npm versions).
Needs node and ``npm ci --prefix tools/oracle``; run via ``tools/oracle/make_corpus.sh``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from oracle_compare import oracle_version, record  # noqa: E402
from oracle_gen import generate  # noqa: E402

REPO = HERE.parents[1]
DATA = REPO / "tests" / "oracle" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129, help="generator seed")
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--out", type=Path, default=DATA / "bcdice_oracle.jsonl")
    args = parser.parse_args(argv)

    cases = [c.to_json() for c in generate(args.seed, args.count)]
    # BCDice's dice for case i come from the oracle's PRNG seeded with seed*10000 + i.
    seed_base = args.seed * 10000 % 2**31
    answers = record(cases, seed_base)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        for i, (case, expected) in enumerate(zip(cases, answers, strict=True)):
            line = {"id": i, **case, "expected": expected}
            out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
    package = json.loads((HERE / "package.json").read_text())
    meta = {
        "count": len(cases),
        "seed": args.seed,
        "oracle_seed_base": seed_base,
        "bcdice_version": oracle_version(),
        "npm_package": f"bcdice@{package['dependencies']['bcdice']}",
        "generated_by": "tools/oracle/make_corpus.sh",
        "outcomes": {
            "result": sum(1 for a in answers if a.get("ok")),
            "unsupported command": sum(
                1 for a in answers if a.get("reason") == "unsupported command"
            ),
            "error": sum(1 for a in answers if str(a.get("reason", "")).startswith("error:")),
        },
    }
    meta_path = args.out.with_name(args.out.stem + ".meta.json")
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {args.out} ({meta['outcomes']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
