"""The system's identity and help: every help example is a working command."""

from __future__ import annotations

import pytest

import saikoro
from saikoro.dice.randomizer import SeededSource
from saikoro.systems import systems
from saikoro.systems.unmeid100.help import HELP_EXAMPLES


def test_registry_identity() -> None:
    system = systems.get_system("UnmeiD100")
    assert (system.id, system.name, system.sort_key) == (
        "UnmeiD100",
        "運命判定d100",
        "うんめいはんていD100",
    )


@pytest.mark.rule(
    "UM-CHECK-01", "UM-FATE-01", "UM-MELEE-01", "UM-RANGED-01", "UM-MAGIC-02", "UM-LEVEL-02"
)
@pytest.mark.parametrize(("command", "what"), HELP_EXAMPLES)
def test_every_help_example_runs(command: str, what: str) -> None:
    system = systems.get_system("UnmeiD100")
    assert f"{command}　{what}" in system.help_message
    for seed in range(5):
        result = saikoro.roll(command, "UnmeiD100", source=SeededSource(seed))
        assert result is not None, command
        assert result.text.startswith(f"({command}")
        assert result.rands


def test_commands_are_matched_by_the_command_pattern() -> None:
    pattern = systems.get_system("UnmeiD100").command_pattern
    for command, _ in HELP_EXAMPLES:
        assert pattern.match(command), command
    assert not pattern.match("こんにちは")


@pytest.mark.rule("UM-AIM-01", "UM-LEVEL-02")
def test_help_says_what_two_aiming_turns_and_grow_give() -> None:
    text = systems.get_system("UnmeiD100").help_message
    assert "2手番で3倍" not in text  # three times the *half*: 1.5 × the skill
    assert "2手番で半分の3倍 (盗賊スキル×1.5、切り捨て)" in text
    assert saikoro.roll("RA55,20,10,2", "UnmeiD100", rands=[(1, 100)]).detail["target"] == 82
    assert "結果の値は上がった能力値の数 (1つ以上で成功)" in text
