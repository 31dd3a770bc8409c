"""Conditions, rest, surprise and party-down."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import LittleWorldSettings

from .helpers import lw


@pytest.mark.rule("LW-COND-02")
def test_poison_ticks_on_own_turn_in_combat() -> None:
    cond = R.inflict_poison(R.Conditions(), 3)
    change = R.on_own_turn(cond, hp=10)
    assert change.hp == 7 and change.poison_damage == 3
    assert change.conditions.poison == 3  # no natural recovery
    again = R.on_own_turn(change.conditions, change.hp)
    assert again.hp == 4


@pytest.mark.rule("LW-COND-02")
def test_poison_ticks_every_30_minutes_at_rest_and_keeps_the_remainder() -> None:
    cond = R.inflict_poison(R.Conditions(), 2)
    first = R.time_passes(cond, 20, 45)
    assert first.hp == 18  # one tick, 15 minutes carried
    second = R.time_passes(first.conditions, first.hp, 15)
    assert second.hp == 16
    assert second.conditions.poison == 2
    assert R.time_passes(cond, 20, 120).hp == 20 - 8


@pytest.mark.rule("LW-COND-02")
def test_poison_while_exploring_only_with_the_setting() -> None:
    cond = R.inflict_poison(R.Conditions(), 2)
    assert R.time_passes(cond, 10, 60, at_rest=False).hp == 10
    settings = LittleWorldSettings(poison_ticks_while_exploring=True)
    assert R.time_passes(cond, 10, 60, at_rest=False, settings=settings).hp == 6


@pytest.mark.rule("LW-COND-02")
@pytest.mark.parametrize(("stacking", "level"), [("higher", 4), ("add", 6), ("replace", 2)])
def test_second_poison(stacking: str, level: int) -> None:
    settings = LittleWorldSettings(poison_stacking=stacking)
    cond = R.inflict_poison(R.inflict_poison(R.Conditions(), 4, settings), 2, settings)
    assert cond.poison == level


@pytest.mark.rule("LW-COND-02")
@pytest.mark.parametrize("means", ["中和剤", "解毒草", "治癒魔法"])
def test_poison_cured_by_antidotes(means: str) -> None:
    cond, rules = R.cure(R.Conditions(poison=3, paralysis=True), means)
    assert cond.poison == 0
    assert cond.paralysis is (means != "治癒魔法")
    assert rules


@pytest.mark.rule("LW-COND-03", "LW-COMBAT-11")
def test_paralysis_no_action_no_defence_recovers_after_two_passed_turns() -> None:
    cond = R.inflict(R.Conditions(), "麻痺")
    caps = R.capabilities(cond)
    assert not caps.can_act and not caps.can_defend
    assert R.can_defend(cond)[0] is False
    first = R.on_own_turn(cond, 10)
    assert not first.may_act and first.conditions.paralysis
    second = R.on_own_turn(first.conditions, 10)
    assert not second.may_act
    assert not second.conditions.paralysis and second.recovered == ("麻痺",)
    assert R.on_own_turn(second.conditions, 10).may_act


@pytest.mark.rule("LW-COND-03")
def test_paralysis_wears_off_after_30_minutes_out_of_combat() -> None:
    cond = R.inflict(R.Conditions(), "麻痺")
    assert R.time_passes(cond, 10, 29).conditions.paralysis
    assert not R.time_passes(cond, 10, 30).conditions.paralysis


@pytest.mark.rule("LW-COND-04")
def test_sleep_halves_abilities_stops_skill_cards_and_wakes_after_three_turns() -> None:
    cond = R.inflict(R.Conditions(), "睡眠")
    caps = R.capabilities(cond)
    assert caps.abilities_halved and not caps.can_use_skill_cards
    assert caps.can_defend  # default
    assert R.effective_ability(5, 0, cond) == 2
    state = cond
    for _ in range(3):  # 「自身の行動を3回消費」: each of the three turns is spent asleep
        state = R.on_own_turn(state, 10).conditions
        assert state.sleep and R.capabilities(state).abilities_halved
        if state.sleep_turns < 3:
            assert R.after_own_turn(state, 10).recovered == ()
    woken = R.after_own_turn(state, 10)  # the third turn ends: awake
    assert woken.recovered == ("睡眠",) and not woken.conditions.sleep


@pytest.mark.rule("LW-COND-04")
def test_sleep_defence_and_action_settings() -> None:
    cond = R.Conditions(sleep=True)
    no = LittleWorldSettings(sleeping_can_defend=False, sleeping_can_act=False)
    caps = R.capabilities(cond, settings=no)
    assert not caps.can_defend and not caps.can_act
    assert not R.on_own_turn(cond, 10, no).may_act
    assert R.on_own_turn(cond, 10).may_act


@pytest.mark.rule("LW-COND-04")
def test_sleep_wears_off_after_an_hour() -> None:
    cond = R.inflict(R.Conditions(), "睡眠")
    half = R.time_passes(cond, 5, 30)
    assert half.conditions.sleep
    assert not R.time_passes(half.conditions, 5, 30).conditions.sleep


@pytest.mark.rule("LW-COND-05")
def test_confusion_only_moves_cannot_defend_and_never_recovers_by_itself() -> None:
    cond = R.inflict(R.Conditions(), "混乱")
    caps = R.capabilities(cond)
    assert caps.can_move and not caps.can_act and not caps.can_defend
    state = cond
    for _ in range(10):
        state = R.on_own_turn(state, 10).conditions
    assert state.confusion
    assert R.time_passes(state, 10, 10_000).conditions.confusion
    assert not R.cure(state, "教会")[0].confusion
    assert not R.cure(state, "病院")[0].confusion
    assert R.cure(state, "解毒草")[0].confusion


@pytest.mark.rule("LW-COND-01")
def test_healing_magic_cures_every_condition() -> None:
    cond = R.Conditions(poison=5, paralysis=True, sleep=True, confusion=True, sleep_turns=2)
    cured, rules = R.cure(cond, "治癒魔法")
    assert not cured.any and cured == R.Conditions()
    assert rules == ("LW-COND-01",)


@pytest.mark.rule("LW-COND-06", "LW-COMBAT-11")
def test_surprised_character_takes_the_attack_value() -> None:
    can, rules = R.can_defend(R.Conditions(), surprised=True)
    assert can is False and "LW-COND-06" in rules
    assert R.surprise_damage(11)[0] == 11
    result = lw("LWA3-X", 4, 4)
    assert result.value == 11


@pytest.mark.rule("LW-HP-01")
def test_rest_recovers_body_plus_6_capped_at_max() -> None:
    assert R.rest(hp=5, max_hp=20, body=3).hp == 14
    capped = R.rest(hp=15, max_hp=20, body=3)
    assert capped.hp == 20 and capped.recovered == 5
    assert R.rest(hp=2, max_hp=40, body=2, nights=2).hp == 18
    assert R.rest(hp=5, max_hp=20, body=3, settings=LittleWorldSettings(rest_bonus=0)).hp == 8


@pytest.mark.rule("LW-HP-02")
@pytest.mark.parametrize("hp", [0, -3])
def test_no_rest_recovery_at_hp_0_or_below(hp: int) -> None:
    result = R.rest(hp=hp, max_hp=20, body=3)
    assert result.hp == hp and result.recovered == 0
    assert result.rules == ("LW-HP-02",)
    caps = R.capabilities(R.Conditions(), hp=hp)
    assert not caps.can_act


@pytest.mark.rule("LW-HP-03", "LW-ABIL-01")
def test_party_down_when_every_pc_is_unable_to_act() -> None:
    members = [
        R.PartyMember("a", 0),
        R.PartyMember("b", -2),
        R.PartyMember("goblin", 5, is_pc=False),
    ]
    status = R.party_status(members)
    assert status.down and status.unable == ("a", "b")
    members.append(R.PartyMember("c", 1))
    assert not R.party_status(members).down
    assert not R.party_status([R.PartyMember("g", 0, is_pc=False)]).down


@pytest.mark.rule("LW-HP-03", "LW-COND-03")
def test_party_down_counts_paralysis_only_with_the_setting() -> None:
    members = [
        R.PartyMember("a", 0),
        R.PartyMember("b", 5, conditions=R.Conditions(paralysis=True)),
    ]
    assert not R.party_status(members).down
    settings = LittleWorldSettings(party_down_counts_paralysis=True)
    assert R.party_status(members, settings).down


@pytest.mark.rule("LW-COND-02")
def test_bad_condition_inputs_are_refused() -> None:
    with pytest.raises(SaikoroError):
        R.inflict_poison(R.Conditions(), 0)
    with pytest.raises(SaikoroError):
        R.time_passes(R.Conditions(), 10, -1)
    with pytest.raises(SaikoroError):
        R.rest(5, 10, 3, nights=-1)
