"""Compare saikoro with the real BCDice (the npm ``bcdice`` oracle) on the same dice.

Strategy: BCDice rolls each command first with a *recording seeded* randomizer
(``bcdice_oracle.mjs`` in record mode), which fixes the dice; saikoro then replays
exactly those dice (``saikoro.roll(cmd, system, rands=…)``, whose scripted source
fails on a die of other sides, too few or left-over dice), and the text and the five
flags are compared.

An *outcome* is a dict shaped like the oracle's output line:

- ``{"ok": true, "text", "secret", "success", "failure", "critical", "fumble", "rands"}``
- ``{"ok": false, "reason": "unsupported command"}`` (BCDice returned nil / saikoro None)
- ``{"ok": false, "reason": "error: …"}`` (BCDice raised, e.g. too many dice; saikoro
  raised a :class:`saikoro.errors.SaikoroError`)
- saikoro only: ``{"ok": false, "reason": "crash: …"}`` for any other exception.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ORACLE_DIR = Path(__file__).resolve().parent
ORACLE_SCRIPT = ORACLE_DIR / "bcdice_oracle.mjs"
FLAGS = ("secret", "success", "failure", "critical", "fumble")
UNSUPPORTED = "unsupported command"

# BCDice-JS is Ruby compiled to JavaScript by Opal, where integers are JS numbers: a
# negative zero (``-1 * 0``, ``Math.ceil(-0.2)``) prints as ``-0.0``. Ruby BCDice's
# Integer arithmetic has no negative zero and prints ``0``; saikoro follows Ruby.
_OPAL_NEGATIVE_ZERO = re.compile(r"(?<![\d.])-0\.0(?![\d.])")


def ruby_text(text: str) -> str:
    """The text Ruby BCDice prints, from BCDice-JS's (undo Opal's ``-0.0``)."""
    return _OPAL_NEGATIVE_ZERO.sub("0", text)


# Opal's integers are JS doubles: past 2**53 BCDice-JS prints the double nearest to the
# exact value (``173566053470368480`` for Ruby's ``173566053470368466``).
_JS_SAFE_INTEGER = 2**53
_DIGITS = re.compile(r"(\d+)")


def texts_agree(bcdice_js: str, saikoro: str) -> bool:
    """Whether saikoro's text is what Ruby BCDice prints, given BCDice-JS's text.

    Equal after :func:`ruby_text`, or equal but for integers beyond JS's exact range
    that BCDice-JS printed as the JS double nearest to saikoro's exact integer.
    """
    expected = ruby_text(bcdice_js)
    if expected == saikoro:
        return True
    ours, theirs = _DIGITS.split(saikoro), _DIGITS.split(expected)
    if len(ours) != len(theirs):
        return False
    for i, (mine, js) in enumerate(zip(ours, theirs, strict=True)):
        if mine == js:
            continue
        if i % 2 == 0 or max(int(mine), int(js)) < _JS_SAFE_INTEGER:
            return False
        if float(int(mine)) != float(int(js)):
            return False
    return True


# -- the oracle (Node) ---------------------------------------------------------------
def oracle_unavailable_reason() -> str | None:
    """Why the live oracle cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (the BCDice oracle is a Node script)"
    if not (ORACLE_DIR / "node_modules" / "bcdice").is_dir():
        return "tools/oracle/node_modules is missing: run `npm ci --prefix tools/oracle`"
    return None


def run_oracle(requests: Sequence[dict[str, Any]], timeout: float = 300.0) -> list[dict[str, Any]]:
    """Run JSON-line requests through ``bcdice_oracle.mjs``; one answer per request."""
    payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    proc = subprocess.run(
        ["node", str(ORACLE_SCRIPT)],
        input=payload.encode("utf-8"),
        capture_output=True,
        cwd=ORACLE_DIR,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"bcdice_oracle.mjs failed: {proc.stderr.decode('utf-8', 'replace')}")
    answers = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    if len(answers) != len(requests):
        raise RuntimeError(f"oracle answered {len(answers)} lines for {len(requests)} requests")
    return answers


def oracle_version() -> str:
    proc = subprocess.run(
        ["node", str(ORACLE_SCRIPT), "--version"],
        capture_output=True,
        cwd=ORACLE_DIR,
        check=True,
        timeout=60,
    )
    return proc.stdout.decode().strip()


def record(cases: Iterable[dict[str, Any]], seed_base: int) -> list[dict[str, Any]]:
    """BCDice's outcome for each case's ``oracle_command``, dice from a per-case seed."""
    cases = list(cases)
    requests = [
        {
            "system": c.get("system", "DiceBot"),
            "command": c["oracle_command"],
            "seed": seed_base + i,
        }
        for i, c in enumerate(cases)
    ]
    answers = run_oracle(requests)
    for answer in answers:
        answer.pop("detailed_rands", None)
    return answers


# -- saikoro ---------------------------------------------------------------------------
def saikoro_outcome(command: str, system: str, expected: dict[str, Any]) -> dict[str, Any]:
    """saikoro's outcome for ``command``, replaying the dice BCDice used in ``expected``."""
    import saikoro
    from saikoro.dice.randomizer import SeededSource
    from saikoro.errors import SaikoroError

    try:
        if expected.get("ok"):
            rands = [(int(v), int(s)) for v, s in expected.get("rands", [])]
            result = saikoro.roll(command, system, rands=rands)
        else:
            # BCDice rolled no recorded dice (not a command, or it raised): any dice will do.
            result = saikoro.roll(command, system, source=SeededSource(0))
    except SaikoroError as exc:
        return {"ok": False, "reason": f"error: {exc.reason}: {exc.message.en}"}
    except Exception as exc:
        return {"ok": False, "reason": f"crash: {type(exc).__name__}: {exc}"}
    if result is None:
        return {"ok": False, "reason": UNSUPPORTED}
    outcome: dict[str, Any] = {"ok": True, "text": result.text}
    outcome.update({flag: bool(getattr(result, flag)) for flag in FLAGS})
    outcome["rands"] = [[d.value, d.sides] for d in result.rands]
    return outcome


def differences(expected: dict[str, Any], observed: dict[str, Any]) -> list[str]:
    """What differs in text and flags (empty when saikoro agrees with BCDice)."""
    if expected.get("ok"):
        if not observed.get("ok"):
            return [f"BCDice gave a result, saikoro: {observed.get('reason')}"]
        diffs = []
        if not texts_agree(expected["text"], observed["text"]):
            diffs.append(f"text: BCDice {expected['text']!r} / saikoro {observed['text']!r}")
        for flag in FLAGS:
            if bool(expected.get(flag)) != bool(observed.get(flag)):
                diffs.append(f"{flag}: BCDice {expected.get(flag)} / saikoro {observed.get(flag)}")
        return diffs
    reason = str(expected.get("reason", ""))
    if reason == UNSUPPORTED:
        if observed.get("ok") or observed.get("reason") != UNSUPPORTED:
            got = observed.get("text") if observed.get("ok") else observed.get("reason")
            return [f"BCDice: not a command / saikoro: {got!r}"]
        return []
    # BCDice raised (TooManyRandsError): saikoro must answer with its own error type.
    if str(observed.get("reason", "")).startswith("error:"):
        return []
    got = observed.get("text") if observed.get("ok") else observed.get("reason")
    return [f"BCDice raised ({reason}) / saikoro: {got!r}"]


@dataclass
class Disagreement:
    index: int
    command: str
    oracle_command: str
    diffs: list[str]

    def __str__(self) -> str:
        shown = (
            self.command
            if self.command == self.oracle_command
            else (f"{self.command}  (BCDice: {self.oracle_command})")
        )
        return f"#{self.index} {shown}\n    " + "\n    ".join(self.diffs)


@dataclass
class Report:
    total: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def agreed(self) -> int:
        return self.total - len(self.disagreements)

    @property
    def agreement(self) -> float:
        return self.agreed / self.total if self.total else 0.0

    def summary(self, limit: int = 60) -> str:
        lines = [
            f"{self.agreed}/{self.total} agree with BCDice ({self.agreement:.2%});"
            f" {len(self.disagreements)} disagreements:"
        ]
        lines += [str(d) for d in self.disagreements[:limit]]
        if len(self.disagreements) > limit:
            lines.append(f"... and {len(self.disagreements) - limit} more")
        return "\n".join(lines)


def compare_cases(cases: Iterable[dict[str, Any]]) -> Report:
    """Replay each ``{"command", "oracle_command", "system", "expected"}`` in saikoro."""
    report = Report()
    for i, case in enumerate(cases):
        report.total += 1
        observed = saikoro_outcome(case["command"], case.get("system", "DiceBot"), case["expected"])
        diffs = differences(case["expected"], observed)
        if diffs:
            report.disagreements.append(
                Disagreement(case.get("id", i), case["command"], case["oracle_command"], diffs)
            )
    return report
