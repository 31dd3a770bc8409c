"""``command_pattern`` (as /v2/game_system/{id} gives it) matches every command a system accepts.

Clients such as Udonarium and the Discord bots only send a chat line to the server when
it matches this regex (case-insensitively), so a command it misses is unusable there.
Checked against every example in each system's help message and every BCDice
conformance input the engine accepts.
"""

from __future__ import annotations

import re
import tomllib

import pytest

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.systems import systems

SYSTEM_IDS = tuple(systems)  # every registered system, a new one included


def help_candidates(help_message: str) -> set[str]:
    """Every word of the help text that could be a command (starts with an ASCII letter, digit…)."""
    words: set[str] = set()
    for line in help_message.splitlines():
        for word in re.split(r"[\s　]+", line.strip()):
            word = word.strip("：:、。）)（(「」")
            if word and re.match(r"[A-Za-z0-9(\[]", word) and not word.startswith("http"):
                words.add(word)
                # "3D6+1>=9：…" — the part before a full-width explanation
                head = re.split(r"[：、。（「→]", word)[0]
                if head:
                    words.add(head)
    return words


def accepted(command: str, system_id: str) -> bool:
    try:
        return saikoro.roll(command, system_id, source=SeededSource(1)) is not None
    except SaikoroError:
        return False


def pattern_of(client, system_id: str) -> re.Pattern[str]:
    source = client.get(f"/v2/game_system/{system_id}").json()["command_pattern"]
    return re.compile(source, re.IGNORECASE)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_pattern_matches_every_help_example(client, system_id: str) -> None:
    pattern = pattern_of(client, system_id)
    examples = sorted(
        w for w in help_candidates(systems[system_id].help_message) if accepted(w, system_id)
    )
    assert len(examples) >= 3, f"too few runnable examples found in {system_id}'s help"
    missed = [example for example in examples if not pattern.search(example)]
    assert missed == []


def test_system_commands_are_in_the_pattern(client) -> None:
    """The systems' own commands, in the syntax their issues fix, match their pattern."""
    lw = pattern_of(client, "LittleWorld")
    for command in ("LW3>=10", "LWO3-2", "LWA3-2", "LWA3", "LWA1-X", "SLW2", "lw3"):
        assert lw.search(command), command
    um = pattern_of(client, "UnmeiD100")
    for command in ("FATE12", "MA60,30,12", "RA55,20,10,2", "MG70,40,15,O,H", "GROW30,40"):
        assert um.search(command), command


def conformance_inputs(shared) -> list[tuple[str, str]]:
    cases = []
    for path in sorted((shared / "conformance" / "bcdice").glob("*.toml")):
        for test in tomllib.loads(path.read_text(encoding="utf-8")).get("test", []):
            if test.get("game_system") in SYSTEM_IDS and test.get("output"):
                cases.append((test["game_system"], test["input"]))
    return cases


def test_pattern_matches_conformance_inputs(client, shared) -> None:
    cases = conformance_inputs(shared)
    assert len(cases) > 50
    patterns = {system_id: pattern_of(client, system_id) for system_id in SYSTEM_IDS}
    missed = [(s, c) for s, c in cases if not patterns[s].search(saikoro_normalize(c))]
    assert missed == []


def saikoro_normalize(command: str) -> str:
    from saikoro.dice.normalize import normalize

    return normalize(command)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_pattern_is_portable_to_javascript(client, system_id: str) -> None:
    """Clients compile it with JavaScript's RegExp: no Python-only syntax."""
    source = client.get(f"/v2/game_system/{system_id}").json()["command_pattern"]
    for python_only in ("(?P<", "(?P=", "(?i", "(?s", "(?x", "(?a", "\\Z", "\\A", "(?#"):
        assert python_only not in source


@pytest.mark.parametrize(
    ("system_id", "module", "attribute"),
    [
        ("LittleWorld", "saikoro.systems.littleworld.help", "EXAMPLES"),
        ("UnmeiD100", "saikoro.systems.unmeid100.help", "HELP_EXAMPLES"),
    ],
)
def test_pattern_matches_declared_help_examples(
    client, system_id: str, module: str, attribute: str
) -> None:
    """The systems' own example lists (each run by their tests) all match, unfiltered."""
    import importlib

    examples = [command for command, _what in getattr(importlib.import_module(module), attribute)]
    assert examples
    pattern = pattern_of(client, system_id)
    assert [c for c in examples if not pattern.search(c)] == []
