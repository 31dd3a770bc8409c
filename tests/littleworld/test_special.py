"""Special situations: specialist actions, riding, vehicles, water, machines, languages, herbs."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import DEFAULT_SPECIALIST_CARDS, LittleWorldSettings
from saikoro.systems.littleworld.sheet import Item


@pytest.mark.rule("LW-SPECIAL-01")
@pytest.mark.parametrize(
    "action",
    ["罠設置", "落とし穴", "鳴子", "開錠", "偵察", "潜入", "足音を立てない歩行", "尾行", "読心"],
)
def test_specialist_actions_need_their_card(action: str) -> None:
    refused = R.specialist_action(action, ["料理人"])
    assert not refused.allowed and refused.reason is not None and refused.check is None
    overridden = R.specialist_action(action, [], gm_override=True)
    assert overridden.allowed and overridden.gm_override
    key = {"落とし穴": "罠設置", "鳴子": "罠設置"}.get(action, action)
    card = DEFAULT_SPECIALIST_CARDS[key][0]
    assert R.specialist_action(action, [card]).allowed


@pytest.mark.rule("LW-SPECIAL-01")
def test_ordinary_actions_and_custom_card_names() -> None:
    assert R.specialist_action("料理", []).allowed
    settings = LittleWorldSettings(specialist_cards={"開錠": ["シーフ"]})
    assert R.specialist_action("開錠", ["シーフ"], settings=settings).allowed
    assert not R.specialist_action("開錠", ["開錠"], settings=settings).allowed


@pytest.mark.rule("LW-SPECIAL-02")
def test_riding_needs_a_skill_check_and_no_mounted_combat() -> None:
    horse = R.riding()
    assert horse.allowed and horse.check == "技巧"
    assert not R.riding(in_combat=True).allowed
    assert not R.riding("ドラゴン").allowed
    assert R.riding("ドラゴン", gm_override=True).gm_override


@pytest.mark.rule("LW-SPECIAL-03")
def test_licence_vehicles_refused_cars_need_a_check() -> None:
    assert not R.vehicle("飛行機").allowed
    assert not R.vehicle("船").allowed
    car = R.vehicle("車")
    assert car.allowed and car.check == "技巧"
    assert R.vehicle("バイク").check == "技巧"


@pytest.mark.rule("LW-SPECIAL-04")
def test_body_1_cannot_swim_and_others_may_opt_in() -> None:
    assert R.is_kanazuchi(1) and not R.is_kanazuchi(2)
    assert R.is_kanazuchi(4, opted_in=True)
    assert not R.swimming(1).allowed
    assert not R.swimming(3, kanazuchi_opt_in=True).allowed
    assert R.swimming(3).allowed


@pytest.mark.rule("LW-SPECIAL-05")
def test_no_combat_in_water_and_breath_limit() -> None:
    assert not R.swimming(3, fighting=True).allowed
    waived = LittleWorldSettings(water_penalty=False)
    assert R.swimming(3, fighting=True, settings=waived).allowed
    assert R.breath_limit_seconds(4) == 120
    assert R.breath_limit_seconds(4, waived) is None


@pytest.mark.rule("LW-SPECIAL-06")
def test_intellect_1_cannot_use_electronics() -> None:
    assert R.is_machine_onchi(1)
    assert not R.electronics(1).allowed
    assert R.electronics(2).allowed


@pytest.mark.rule("LW-SPECIAL-07")
def test_special_languages_need_an_intellect_check() -> None:
    assert R.language(special=True).check == "理知"
    assert R.language(special=False).check is None


@pytest.mark.rule("LW-SPECIAL-08")
def test_herb_gathering_needs_card_wild_plants_and_once_per_field() -> None:
    ledger = R.HerbLedger()
    assert not R.herb_gathering(["剣士"], "北の野山", ledger).allowed
    assert not R.herb_gathering(["農民"], "砂漠", ledger, wild_plants=False).allowed
    ok = R.herb_gathering(["スカウト"], "北の野山", ledger)
    assert ok.allowed and ok.check == "技巧"
    attempt = R.gather_herbs(9, "北の野山", ledger)  # 9 < 10: failure, the field is used
    assert not attempt.success and attempt.herb is None
    assert not R.herb_gathering(["スカウト"], "北の野山", attempt.ledger).allowed
    assert R.herb_gathering(["錬金術師"], "南の草原", attempt.ledger).allowed


@pytest.mark.rule("LW-SPECIAL-08")
def test_herb_check_target_about_10_and_critical_fumble() -> None:
    ledger = R.HerbLedger()
    assert R.gather_herbs(10, "野", ledger, herb="解毒草").herb == "解毒草"
    assert not R.gather_herbs(12, "野", ledger, target=13).success
    assert R.gather_herbs(5, "野", ledger, critical=True).success
    assert not R.gather_herbs(15, "野", ledger, fumble=True).success
    with pytest.raises(SaikoroError):
        R.gather_herbs(10, "野", ledger, herb="金")


@pytest.mark.rule("LW-SPECIAL-08")
def test_gathered_herbs_are_lost_at_scenario_end() -> None:
    items = [Item(name="薬草", scenario_only=True), Item(name="ロープ")]
    kept, lost = R.herbs_at_scenario_end(items)
    assert [i.name for i in kept] == ["ロープ"]
    assert [i.name for i in lost] == ["薬草"]
