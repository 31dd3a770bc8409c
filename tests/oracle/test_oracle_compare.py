"""The comparison itself must be able to fail: text, each flag, and outcome kinds."""

from __future__ import annotations

import pytest
from oracle_compare import FLAGS, compare_cases, differences, ruby_text, texts_agree

RESULT = {
    "ok": True,
    "text": "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
    "secret": False,
    "success": True,
    "failure": False,
    "critical": False,
    "fumble": False,
    "rands": [[3, 6], [4, 6]],
}


def test_identical_outcomes_agree() -> None:
    assert differences(RESULT, dict(RESULT)) == []


def test_a_different_text_disagrees() -> None:
    assert differences(RESULT, {**RESULT, "text": "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 失敗"})


@pytest.mark.parametrize("flag", FLAGS)
def test_each_flag_is_compared(flag: str) -> None:
    assert differences(RESULT, {**RESULT, flag: not RESULT[flag]})


def test_outcome_kinds_must_match() -> None:
    unsupported = {"ok": False, "reason": "unsupported command"}
    raised = {"ok": False, "reason": "error: TooManyRandsError: "}
    assert differences(RESULT, unsupported)
    assert differences(unsupported, RESULT)
    assert differences(unsupported, {"ok": False, "reason": "error: too many dice: …"})
    assert differences(raised, RESULT)
    assert differences(raised, {"ok": False, "reason": "crash: TypeError: x"})
    assert not differences(raised, {"ok": False, "reason": "error: too many dice: …"})
    assert not differences(unsupported, dict(unsupported))


def test_only_opal_negative_zero_is_rewritten() -> None:
    assert ruby_text("(1D6*-0) ＞ 3[3]*-0 ＞ -0.0") == "(1D6*-0) ＞ 3[3]*-0 ＞ 0"
    assert ruby_text("1-0.05 -0.01 -0.0x") == "1-0.05 -0.01 0x"


def test_big_integers_match_only_as_the_js_double_of_the_exact_value() -> None:
    js = "c(240069913*722981282) ＞ 173566053470368480"
    assert texts_agree(js, "c(240069913*722981282) ＞ 173566053470368466")
    assert not texts_agree(js, "c(240069913*722981282) ＞ 173566053470368400")
    assert not texts_agree("c(3*3) ＞ 9", "c(3*3) ＞ 8")
    assert not texts_agree("(2D6) ＞ 7[3,4] ＞ 7", "(2D6) ＞ 7[3,4]")


def test_replay_uses_exactly_bcdices_dice() -> None:
    case = {"command": "2D6>=7", "oracle_command": "2D6>=7", "expected": RESULT}
    assert compare_cases([case]).agreement == 1.0
    extra_die = {**RESULT, "rands": [[3, 6], [4, 6], [1, 6]]}
    report = compare_cases([{**case, "expected": extra_die}])
    assert report.agreement == 0.0 and "left over" in report.disagreements[0].diffs[0]
