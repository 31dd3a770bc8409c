"""The system as the dice engine sees it: registry, help examples, generic sums, English."""

from __future__ import annotations

import re

import pytest

import saikoro
from saikoro.dice.result import SumCheck
from saikoro.systems import systems
from saikoro.systems.littleworld.commands import judge_sum
from saikoro.systems.littleworld.help import EXAMPLES, HELP_MESSAGE
from saikoro.systems.littleworld.settings import LittleWorldSettings

from .helpers import lw


def test_registered_with_bcdice_identity() -> None:
    system = systems.get_system("LittleWorld")
    assert (system.id, system.name, system.sort_key) == (
        "LittleWorld",
        "帽子世界TRPG",
        "ほうしせかいTRPG",
    )
    assert system.help_message == HELP_MESSAGE
    for command in ("LW3", "LWO3-2", "LWA3-2", "LWA3", "LWT水泳", "SLW3", "2D6+3>=10"):
        assert system.command_pattern.match(command), command


@pytest.mark.parametrize(("command", "description"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_every_help_example_runs(command: str, description: str) -> None:
    assert description
    result = None
    for count in range(5):  # the scripted source must be used up exactly
        try:
            result = saikoro.roll(command, "LittleWorld", rands=[(3, 6)] * count)
        except saikoro.SaikoroError:
            continue
        break
    assert result is not None, command
    assert result.text.startswith(f"({command})")


def test_help_lists_every_command_form() -> None:
    assert len(EXAMPLES) >= 10
    for form in ("LW3>=10", "LWO3-2", "LWA3-2", "LWA4-X", "LWA4", "LWT水泳", "2D6+3>=10"):
        assert form in [c for c, _ in EXAMPLES]


@pytest.mark.rule("LW-CHECK-03")
def test_generic_sum_critical_text_as_bcdice() -> None:
    result = saikoro.roll("2D6+3>=10", "LittleWorld", rands=[(6, 6), (6, 6)])
    assert result is not None
    assert result.text == "(2D6+3>=10) ＞ 12[6,6]+3 ＞ 15 ＞ クリティカル"
    assert result.critical and result.success and not result.failure
    low = saikoro.roll("2D6+3>=20", "LittleWorld", rands=[(6, 6), (6, 6)])
    assert low is not None and low.success  # a critical always succeeds


@pytest.mark.rule("LW-CHECK-03")
def test_generic_sum_fumble_and_weak_1d6() -> None:
    one = saikoro.roll("1D6+1>=2", "LittleWorld", rands=[(1, 6)])
    assert one is not None and one.fumble and one.failure
    assert one.text.endswith("＞ ファンブル")
    six = saikoro.roll("1D6+1>=5", "LittleWorld", rands=[(6, 6)])
    assert six is not None and not six.critical and six.text.endswith("＞ 成功")
    many = saikoro.roll("3D6>=18", "LittleWorld", rands=[(1, 6), (6, 6), (6, 6)])
    assert many is not None and many.critical


@pytest.mark.rule("LW-CHECK-03")
def test_generic_sum_without_comparison_or_with_other_dice_is_not_judged() -> None:
    bare = saikoro.roll("2D6+3", "LittleWorld", rands=[(6, 6), (6, 6)])
    assert bare is not None and bare.text == "(2D6+3) ＞ 12[6,6]+3 ＞ 15"
    assert not bare.critical
    mixed = saikoro.roll("2D6+1D10>=5", "LittleWorld", rands=[(6, 6), (6, 6), (1, 10)])
    assert mixed is not None and not mixed.critical and mixed.success
    plain = saikoro.roll("2D6>=7", "LittleWorld", rands=[(3, 6), (4, 6)])
    assert plain is not None and plain.text == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


@pytest.mark.rule("LW-CHECK-03")
def test_judge_sum_setting_for_bare_sums() -> None:
    check = SumCheck(15, ((6, 6), (6, 6)), None, None)
    assert judge_sum(check) is None
    judged = judge_sum(check, LittleWorldSettings(sum_crit_without_comparison=True))
    assert judged is not None and judged.critical
    question = judge_sum(SumCheck(2, ((1, 6), (1, 6)), ">=", None))  # target "?"
    assert question is not None and question.fumble


def test_non_commands_are_not_taken() -> None:
    for text in ("LWA", "LWO3", "LWX3", "LW3>=", "LWA3-Y"):
        assert saikoro.roll(text, "LittleWorld", rands=[]) is None, text


def test_english_output_has_no_japanese_left() -> None:
    samples = [
        lw("LWA3-2", 6, 6, 3, 4),
        lw("LWA3-2", 1, 1),
        lw("LWA3-2", 4, 5, 1, 1),
        lw("LWA3-2", 4, 5, 6, 6),
        lw("LWA4-X", 4, 5),
        lw("LW1>=5", 4),
        lw("LW3>=15", 2, 2),
        lw("LW3>=3", 2, 2),
        lw("LW3>=12", 2, 2),
        lw("LWO3-3", 3, 4, 3, 4),
        lw("LWO3-3", 6, 6, 6, 6),
        lw("LWT存在しない"),
    ]
    for result in samples:
        english = result.text_en  # made by the command itself
        assert english is not None
        left = re.sub(r"\(LWT[^)]*\)", "", english)
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", left), english
    # a task keeps the name the user typed; the ability is translated
    assert (lw("LWT水泳").text_en or "").endswith("水泳 (Body)")


@pytest.mark.rule("LW-COMBAT-05")
def test_full_width_and_lower_case_input() -> None:
    wide = saikoro.roll("ＬＷＡ３－２", "LittleWorld", rands=[(4, 6), (5, 6), (3, 6), (5, 6)])
    assert wide is not None and wide.text.startswith("(LWA3-2) ＞")
    low = lw("lw3>=10", 4, 5)
    assert low.text.startswith("(LW3>=10) ＞") and low.success
