"""The keeper's 価値観 ledger, 禁忌値 and the hat."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import LittleWorldSettings


@pytest.mark.rule("LW-KEEPER-02")
def test_holy_grail_example_rank_3_found_at_16_costs_21() -> None:
    grail = R.Reward("artifact", 3, name="聖杯", found_target=16)
    assert R.found_discount(16) == 25
    cost = R.reward_cost(grail)
    assert (cost.base, cost.discount, cost.cost) == (28, 25, 21)
    ledger = R.grant_reward(R.KeeperLedger(99), grail)
    assert ledger.value == 78
    assert ledger.entries[0].cost.reward.name == "聖杯"
    assert ledger.spent == 21


@pytest.mark.rule("LW-KEEPER-02")
@pytest.mark.parametrize(
    ("reward", "cost"),
    [
        (R.Reward("exp", 0), 0),
        (R.Reward("exp", 5), 20),
        (R.Reward("exp", 10), 40),
        (R.Reward("money", 90), 3),
        (R.Reward("money", 100), 3),  # rounded down (LW-CHECK-06)
        (R.Reward("item", 400), 10),
        (R.Reward("artifact", 1), 2),
        (R.Reward("artifact", 2), 14),
        (R.Reward("artifact", 4), 34),
    ],
)
def test_reward_prices(reward: R.Reward, cost: int) -> None:
    assert R.reward_cost(reward).cost == cost


@pytest.mark.rule("LW-KEEPER-02")
@pytest.mark.parametrize(
    ("target", "discount"), [(1, 0), (12, 0), (13, 8), (16, 25), (24, 50), (60, 50)]
)
def test_found_discount_is_clamped_to_0_50(target: int, discount: int) -> None:
    assert R.found_discount(target) == discount


@pytest.mark.rule("LW-KEEPER-02")
def test_experience_costs_the_same_for_any_party_and_at_most_10() -> None:
    assert R.reward_cost(R.Reward("exp", 3, found_target=24)).cost == 12  # no discount
    with pytest.raises(SaikoroError):
        R.reward_cost(R.Reward("exp", 11))
    with pytest.raises(SaikoroError):
        R.reward_cost(R.Reward("artifact", 5))
    with pytest.raises(SaikoroError):
        R.reward_cost(R.Reward("money", -30))


@pytest.mark.rule("LW-KEEPER-02")
def test_overspending_and_spending_at_1_percent_are_refused() -> None:
    ledger = R.KeeperLedger(25)
    plan = R.plan_reward(ledger, R.Reward("artifact", 3))
    assert not plan.allowed and plan.reason is not None
    with pytest.raises(SaikoroError):
        R.grant_reward(ledger, R.Reward("artifact", 3))
    down = R.grant_reward(ledger, R.Reward("artifact", 3, found_target=16))  # 21 → 4 left
    assert down.value == 4
    exact = R.grant_reward(R.KeeperLedger(15), R.Reward("artifact", 2))
    assert exact.value == 1
    with pytest.raises(SaikoroError):
        R.grant_reward(exact, R.Reward("exp", 0))  # nothing can be set at 1 %
    with pytest.raises(SaikoroError):
        R.grant_reward(R.KeeperLedger(14), R.Reward("artifact", 2))  # would leave 0 %
    lenient = LittleWorldSettings(keeper_floor_percent=0)
    assert R.grant_reward(R.KeeperLedger(14), R.Reward("artifact", 2), lenient).value == 0


@pytest.mark.rule("LW-ABIL-05")
def test_taboo_value_event_at_100() -> None:
    up = R.raise_taboo(90, 5)
    assert up.value == 95 and not up.reached and not up.newly_reached
    hit = R.raise_taboo(95, 5)
    assert hit.reached and hit.newly_reached
    beyond = R.raise_taboo(100, 10)
    assert beyond.value == 110 and beyond.reached and not beyond.newly_reached
    assert R.raise_taboo(3, -10).value == 0


@pytest.mark.rule("LW-KEEPER-01")
def test_hat_release_only_while_wearing_the_hat() -> None:
    hat = R.HatState(worn=True)
    released = R.release_hat(hat)
    assert released.released and released.worn
    off = R.take_off_hat(released)
    assert not off.worn and not off.released
    with pytest.raises(SaikoroError):
        R.release_hat(off)
    assert R.release_hat(R.put_on_hat(off)).released
