"""Turn order, rounds, delays, 行動順操作, rows and skill-card declarations."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.littleworld import rules as R
from saikoro.systems.littleworld.settings import LittleWorldSettings

C = R.Combatant


def party() -> list[R.Combatant]:
    return [
        C("goblin", 4, False, "ゴブリン"),
        C("alice", 4, True, "アリス"),
        C("bob", 2, True, "ボブ"),
        C("carol", 4, True, "キャロル"),
        C("wolf", 5, False, "オオカミ"),
        C("slime", 4, False, "スライム"),
    ]


@pytest.mark.rule("LW-COMBAT-01")
def test_highest_skill_acts_first() -> None:
    order = R.turn_order([C("a", 2, True), C("b", 5, True), C("c", 3, False)])
    assert order.order == ("b", "c", "a")


@pytest.mark.rule("LW-COMBAT-01", "LW-COND-04")
def test_order_uses_current_skill_so_sleep_halves_it() -> None:
    asleep = R.effective_ability(5, 0, R.Conditions(sleep=True))
    order = R.turn_order([C("sleeper", asleep, True), C("awake", 3, True)])
    assert order.order == ("awake", "sleeper")


@pytest.mark.rule("LW-COMBAT-02")
def test_ties_pc_before_npc_then_listed_order() -> None:
    order = R.turn_order(party())
    assert order.order == ("wolf", "alice", "carol", "goblin", "slime", "bob")
    assert order.tied_pc_groups == (("alice", "carol"),)


@pytest.mark.rule("LW-COMBAT-02")
def test_players_reorder_tied_pcs() -> None:
    order = R.reorder_tied_pcs(party(), ["carol", "alice"])
    assert order.order == ("wolf", "carol", "alice", "goblin", "slime", "bob")


@pytest.mark.rule("LW-COMBAT-02")
@pytest.mark.parametrize("group", [["alice", "bob"], ["alice", "goblin"], ["alice", "nobody"], []])
def test_reordering_untied_or_npc_is_refused(group: list[str]) -> None:
    with pytest.raises(SaikoroError):
        R.reorder_tied_pcs(party(), group)


@pytest.mark.rule("LW-COMBAT-02")
def test_tied_pcs_by_name_setting() -> None:
    settings = LittleWorldSettings(tied_pcs_order="name")
    order = R.turn_order([C("x", 3, True, "ボブ"), C("y", 3, True, "アリス")], settings=settings)
    assert order.order == ("y", "x")


@pytest.mark.rule("LW-COMBAT-03")
def test_pass_moves_the_actor_to_the_end_of_the_round() -> None:
    state = R.start_combat(party())
    assert R.current_actor(state) == "wolf"
    state = R.delay_turn(state)
    assert state.queue == ("alice", "carol", "goblin", "slime", "bob", "wolf")
    with pytest.raises(SaikoroError):
        # everyone else acts, then the wolf cannot pass a second time this round
        s = state
        for _ in range(5):
            s = R.end_turn(s)
        assert R.current_actor(s) == "wolf"
        R.delay_turn(s)


@pytest.mark.rule("LW-COMBAT-12", "LW-COMBAT-15")
def test_round_runs_through_everyone_then_restarts_from_highest() -> None:
    state = R.start_combat(party())
    acted = []
    while not R.round_over(state):
        acted.append(R.current_actor(state))
        state = R.end_turn(state)
    assert acted == list(state.order)
    assert state.acted == tuple(acted)
    with pytest.raises(SaikoroError):
        R.end_turn(state)
    nxt = R.next_round(state, party())
    assert nxt.round == 2
    assert R.current_actor(nxt) == "wolf"


@pytest.mark.rule("LW-COMBAT-13")
def test_skill_change_takes_effect_next_round() -> None:
    people = [C("a", 5, True), C("b", 3, True)]
    state = R.start_combat(people)
    state = R.end_turn(state)
    # b's 技巧 rises mid-round: this round's order does not change
    changed = [C("a", 5, True), C("b", 9, True)]
    assert state.order == ("a", "b")
    state = R.end_turn(state)
    assert R.next_round(state, changed).order == ("b", "a")


@pytest.mark.rule("LW-COMBAT-14")
def test_order_manipulation_locks_the_order_for_the_combat() -> None:
    people = [C("a", 5, True), C("b", 3, True), C("c", 1, False)]
    state = R.start_combat(people)
    state = R.use_order_manipulation(state, ["c", "b", "a"])
    assert state.locked and state.queue == ("c", "b", "a")
    for _ in range(3):
        state = R.end_turn(state)
    later = [C("a", 9, True), C("b", 3, True), C("c", 1, False), C("d", 7, True)]
    nxt = R.next_round(state, later)
    assert nxt.order == ("c", "b", "a", "d")
    assert nxt.locked
    assert R.next_round(R.RoundState(2, nxt.order, (), locked=True), later).order == nxt.order
    with pytest.raises(SaikoroError):
        R.use_order_manipulation(state, ["a", "b"])


@pytest.mark.rule("LW-COMBAT-16")
def test_back_row_moves_up_when_no_front_liner_can_act() -> None:
    side = [
        R.RowMember("tank", "前衛", can_act=False),
        R.RowMember("mage", "後衛"),
        R.RowMember("archer", "後衛"),
    ]
    result = R.collapse_rows(side)
    assert result.collapsed
    assert {m.id: m.row for m in result.members} == {
        "tank": "前衛",
        "mage": "前衛",
        "archer": "前衛",
    }
    assert result.moved == ("mage", "archer")


@pytest.mark.rule("LW-COMBAT-16")
def test_rows_stay_while_a_front_liner_can_act_and_when_nobody_is_in_front() -> None:
    side = [R.RowMember("tank", "前衛"), R.RowMember("mage", "後衛")]
    assert not R.collapse_rows(side).collapsed
    only_back = [R.RowMember("mage", "後衛")]
    assert R.collapse_rows(only_back).members[0].row == "前衛"


@pytest.mark.rule("LW-COMBAT-04")
def test_skill_cards_declared_before_acting_and_before_the_defence_roll() -> None:
    ok = R.declare_skill_card("attacker", "剛力", ["剛力"], stage="before_action")
    assert ok.rules == ("LW-COMBAT-04",) and not ok.gm_override
    R.declare_skill_card("defender", "鉄壁", ["鉄壁"], stage="before_defence")
    with pytest.raises(SaikoroError):
        R.declare_skill_card("defender", "鉄壁", ["鉄壁"], stage="after_roll")
    with pytest.raises(SaikoroError):
        R.declare_skill_card("attacker", "剛力", [], stage="before_action")
    late = R.declare_skill_card("attacker", "剛力", ["剛力"], stage="after_roll", gm_override=True)
    assert late.gm_override


@pytest.mark.rule("LW-COMBAT-04", "LW-COND-04")
def test_sleeping_character_cannot_declare_a_skill_card() -> None:
    with pytest.raises(SaikoroError):
        R.declare_skill_card("defender", "鉄壁", ["鉄壁"], stage="before_defence", asleep=True)


@pytest.mark.rule("LW-COMBAT-01")
def test_duplicate_ids_are_refused_and_removal_drops_from_queue() -> None:
    with pytest.raises(SaikoroError):
        R.turn_order([C("a", 1, True), C("a", 2, False)])
    state = R.remove_combatant(R.start_combat(party()), "alice")
    assert "alice" not in state.queue and "alice" not in state.order
