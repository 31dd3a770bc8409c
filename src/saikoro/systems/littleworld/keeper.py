"""The keeper (管理人): 価値観 reward ledger, 禁忌値 and the hat (LW-KEEPER-*, LW-ABIL-05).

LW-KEEPER-02: a keeper running a session in their own world pays for rewards with
【価値観】. :func:`reward_cost` prices one reward; :class:`KeeperLedger` is the
immutable ledger of a session and :func:`grant_reward` refuses overspending.
Every division rounds down (LW-CHECK-06).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.littleworld.settings import DEFAULT_SETTINGS, LittleWorldSettings

__all__ = [
    "HatState",
    "KeeperError",
    "KeeperLedger",
    "LedgerEntry",
    "Reward",
    "RewardCost",
    "RewardPlan",
    "TabooChange",
    "found_discount",
    "grant_reward",
    "plan_reward",
    "put_on_hat",
    "raise_taboo",
    "release_hat",
    "reward_cost",
    "take_off_hat",
]

RewardKind = Literal["exp", "money", "item", "artifact"]


class KeeperError(SaikoroError):
    reason = "keeper rule"


@dataclass(frozen=True)
class Reward:
    """One reward: ``amount`` is experience points (exp), cr (money), the item's price in cr
    (item) or the オーパーツ rank 1–4 (artifact). ``found_target`` is the target of the check
    through which the party found it (None = not found through a check)."""

    kind: RewardKind
    amount: int
    name: str = ""
    found_target: int | None = None


@dataclass(frozen=True)
class RewardCost:
    reward: Reward
    base: int
    discount: int
    cost: int
    rules: tuple[str, ...]


def found_discount(target: int, settings: LittleWorldSettings = DEFAULT_SETTINGS) -> int:
    """LW-KEEPER-02: a reward found through a check with target T costs (100 − 1200/T) % less,
    clamped to 0–50 % (1200/T rounded down, LW-CHECK-06)."""
    if target < 1:
        return 0
    return min(max(100 - 1200 // target, 0), settings.keeper_max_discount)


def reward_cost(reward: Reward, settings: LittleWorldSettings = DEFAULT_SETTINGS) -> RewardCost:
    """LW-KEEPER-02: experience 4 % per point (any party size, 0–10 points); money 1 % per
    30 cr; items 1 % per 40 cr of price; オーパーツ rank 1/2/3/4 = 2/14/28/34 %."""
    s = settings
    if reward.amount < 0:
        raise KeeperError(Message("報酬の量は0以上です", "a reward amount cannot be negative"))
    if reward.kind == "exp":
        if reward.amount > s.keeper_exp_max:
            raise KeeperError(
                Message(
                    f"経験点は1人{s.keeper_exp_max}点までです",
                    f"at most {s.keeper_exp_max} experience points per PC",
                )
            )
        base = reward.amount * s.keeper_exp_cost
    elif reward.kind == "money":
        base = reward.amount // s.keeper_cr_per_percent
    elif reward.kind == "item":
        base = reward.amount // s.keeper_item_cr_per_percent
    elif reward.kind == "artifact":
        if not 1 <= reward.amount <= len(s.keeper_artifact_costs):
            raise KeeperError(
                Message("オーパーツのランクは1〜4です", "an artifact's rank is 1 to 4")
            )
        base = s.keeper_artifact_costs[reward.amount - 1]
    else:
        raise KeeperError(Message(f"報酬の種類 {reward.kind!r} はありません", "unknown reward"))
    discount = 0
    rules = ["LW-KEEPER-02"]
    if reward.found_target is not None and reward.kind != "exp":
        discount = found_discount(reward.found_target, settings)
        rules.append("LW-CHECK-06")
    cost = base * (100 - discount) // 100
    return RewardCost(reward, base, discount, cost, tuple(rules))


@dataclass(frozen=True)
class LedgerEntry:
    cost: RewardCost
    balance_after: int


@dataclass(frozen=True)
class KeeperLedger:
    """The 価値観 a keeper spends in one session (starting at the sheet's value, usually 99)."""

    value: int = 99
    entries: tuple[LedgerEntry, ...] = ()

    @property
    def spent(self) -> int:
        return sum(e.cost.cost for e in self.entries)


@dataclass(frozen=True)
class RewardPlan:
    cost: RewardCost
    allowed: bool
    balance_after: int
    reason: Message | None
    rules: tuple[str, ...]


def plan_reward(
    ledger: KeeperLedger, reward: Reward, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> RewardPlan:
    """What a reward would cost and whether it may be set: nothing once 価値観 ≤ 1 %, and no
    reward that takes 価値観 below 1 % (``keeper_floor_percent``)."""
    cost = reward_cost(reward, settings)
    after = ledger.value - cost.cost
    reason = None
    if ledger.value <= settings.keeper_floor_percent:
        reason = Message(
            f"価値観が{ledger.value}%なので報酬を設定できません",
            f"Values are at {ledger.value}%: no reward can be set",
        )
    elif after < settings.keeper_floor_percent:
        reason = Message(
            f"価値観が足りません (必要{cost.cost}%, 残り{ledger.value}%)",
            f"not enough Values (needs {cost.cost}%, {ledger.value}% left)",
        )
    return RewardPlan(cost, reason is None, after, reason, cost.rules)


def grant_reward(
    ledger: KeeperLedger, reward: Reward, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> KeeperLedger:
    """Spend 価値観 on a reward; refused (:class:`KeeperError`, ledger unchanged) when
    :func:`plan_reward` does not allow it."""
    plan = plan_reward(ledger, reward, settings)
    if not plan.allowed:
        assert plan.reason is not None
        raise KeeperError(plan.reason)
    entry = LedgerEntry(plan.cost, plan.balance_after)
    return replace(ledger, value=plan.balance_after, entries=(*ledger.entries, entry))


@dataclass(frozen=True)
class TabooChange:
    value: int
    reached: bool  # at or above the threshold now
    newly_reached: bool  # crossed it with this change: raise the event
    rules: tuple[str, ...] = ("LW-ABIL-05",)


def raise_taboo(
    current: int, amount: int, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> TabooChange:
    """LW-ABIL-05: 禁忌値 changes; at ≥ 100 something terrible happens (the GM decides what):
    ``newly_reached`` tells the table to raise the event."""
    new = max(current + amount, 0)
    reached = new >= settings.taboo_threshold
    return TabooChange(new, reached, reached and current < settings.taboo_threshold)


@dataclass(frozen=True)
class HatState:
    worn: bool = True
    released: bool = False
    rules: tuple[str, ...] = ()


def release_hat(state: HatState) -> HatState:
    """LW-KEEPER-01: 帽子解放 only while wearing the hat (its effect is the GM's)."""
    if not state.worn:
        raise KeeperError(
            Message(
                "帽子解放は帽子を被っているときだけ行えます",
                "hat release needs the hat to be worn",
            )
        )
    return HatState(True, True, ("LW-KEEPER-01",))


def put_on_hat(state: HatState) -> HatState:
    return HatState(True, state.released, ("LW-KEEPER-01",))


def take_off_hat(state: HatState) -> HatState:
    """Taking the hat off ends a release (release needs the hat, LW-KEEPER-01)."""
    return HatState(False, False, ("LW-KEEPER-01",))
