"""The pure rule functions of 運命判定d100 (rules.py): each names the rule IDs it applied."""

from __future__ import annotations

import pytest

from saikoro.errors import SaikoroError
from saikoro.systems.unmeid100 import rules as R
from saikoro.systems.unmeid100.settings import UnmeiSettings


def fighter(**kw) -> R.CombatantState:
    base = {"name": "A", "agility": 10, "action_points": 1, "ac": 30, "rc": 40}
    base.update(kw)
    return R.CombatantState(**base)


# ------------------------------------------------------------------ checks and fate


@pytest.mark.rule("UM-CHECK-01")
def test_check_roll_under() -> None:
    assert R.check(65, 65).success and not R.check(66, 65).success
    assert R.check(1, 65).rules == ("UM-CHECK-01",)


@pytest.mark.rule("UM-FATE-01", "UM-FATE-03")
def test_fate_uses_per_session_by_kind() -> None:
    assert R.fate_uses_per_session("PC", 4).uses == 4
    assert R.fate_uses_per_session("named", 7) == R.FateUses(7, ("UM-FATE-01", "UM-FATE-03"))
    assert R.fate_uses_per_session("mob", 9) == R.FateUses(1, ("UM-FATE-03",))


@pytest.mark.rule("UM-FATE-01")
def test_each_fate_attempt_uses_one_success_or_not() -> None:
    spent = R.spend_fate(2, 60, 12)
    assert spent.check.success and spent.uses_left == 1 and spent.check.target == 60
    spent = R.spend_fate(spent.uses_left, 61, 12)
    assert not spent.check.success and spent.uses_left == 0
    with pytest.raises(SaikoroError) as info:
        R.spend_fate(0, 1, 12)
    assert info.value.reason == "no fate uses left"


@pytest.mark.rule("UM-FATE-01")
def test_fate_uses_reset_per_session_by_default() -> None:
    assert R.reset_fate_uses("PC", 3, "session", 0).uses == 3
    assert R.reset_fate_uses("PC", 3, "scenario", 0).uses == 0
    per_scenario = UnmeiSettings(fate_uses_reset="scenario")
    assert R.reset_fate_uses("PC", 3, "scenario", 0, per_scenario).uses == 3
    assert R.reset_fate_uses("PC", 3, "session", 1, per_scenario).uses == 1


@pytest.mark.rule("UM-FATE-02")
def test_rescue_a_turns_the_failed_check_into_success() -> None:
    fate = R.fate_check(10, 12)
    failed = R.check(80, 50)
    result = R.apply_rescue(fate, "check_success", failed_check=failed)
    assert result.check is not None and result.check.success and result.check.rescued
    assert result.check.roll == 80 and result.rules == ("UM-FATE-02",)
    with pytest.raises(SaikoroError):
        R.apply_rescue(fate, R.Rescue.CHECK_SUCCESS, failed_check=R.check(10, 50))
    with pytest.raises(SaikoroError):
        R.apply_rescue(fate, R.Rescue.CHECK_SUCCESS)


@pytest.mark.rule("UM-FATE-02")
def test_rescue_b_halves_damage_rounded_down_by_default() -> None:
    fate = R.fate_check(10, 12)
    assert R.apply_rescue(fate, "halve_damage", incoming_damage=9).damage == 4
    up = UnmeiSettings(fate_damage_halving="ceil")
    assert R.apply_rescue(fate, "halve_damage", incoming_damage=9, settings=up).damage == 5
    with pytest.raises(SaikoroError):
        R.apply_rescue(fate, "halve_damage", incoming_condition="毒")


@pytest.mark.rule("UM-FATE-02")
def test_rescue_c_and_d() -> None:
    fate = R.fate_check(60, 12)
    assert (
        R.apply_rescue(fate, "cancel_condition", incoming_condition="麻痺").condition_cancelled
        == "麻痺"
    )
    rerolled = R.apply_rescue(fate, "reroll_damage", new_damage_rolls=[1, 2])
    assert rerolled.damage == 3 and rerolled.damage_rolls == (1, 2)
    with pytest.raises(SaikoroError):
        R.apply_rescue(fate, "reroll_damage", incoming_damage=5)


@pytest.mark.rule("UM-FATE-02")
def test_no_rescue_after_a_failed_fate_check() -> None:
    with pytest.raises(SaikoroError) as info:
        R.apply_rescue(R.fate_check(61, 12), "halve_damage", incoming_damage=8)
    assert info.value.reason == "fate check failed"


# ------------------------------------------------------------------ damage and dying


@pytest.mark.rule("UM-DMG-01", "UM-FATE-04")
def test_damage_to_zero_makes_the_dying_check_due() -> None:
    hurt = R.take_damage(10, 7)
    assert hurt.hp == 3 and not hurt.dying_check_due and hurt.rules == ("UM-DMG-01",)
    down = R.take_damage(3, 3)
    assert down.hp == 0 and down.dying_check_due and "UM-FATE-04" in down.rules
    optional = R.take_damage(3, 5, settings=UnmeiSettings(dying_check_mandatory=False))
    assert optional.hp == -2 and not optional.dying_check_due


@pytest.mark.rule("UM-MAGIC-01", "UM-DMG-01")
def test_damage_breaks_chant() -> None:
    assert R.take_damage(10, 1, chanting=True).chant_broken
    assert not R.take_damage(10, 0, chanting=True).chant_broken
    state = R.start_chant(fighter(own_turn=1), "火球").state
    broken = R.damage_combatant(state, 2)
    assert broken.state.chant is None and broken.rules == ("UM-MAGIC-01",) and not broken.uses_turn
    assert R.damage_combatant(state, 0).state.chant is not None


@pytest.mark.rule("UM-FATE-04", "UM-FATE-07")
def test_dying_check_unconscious_or_dead_without_using_fate() -> None:
    alive = R.dying_check(50, 10, uses_left=0)
    assert alive.state is R.LifeState.UNCONSCIOUS and alive.uses_left == 0 and not alive.used_fate
    dead = R.dying_check(51, 10, uses_left=2)
    assert dead.state is R.LifeState.DEAD and dead.uses_left == 2
    costly = UnmeiSettings(dying_check_uses_fate=True)
    assert R.dying_check(10, 10, 2, costly).uses_left == 1
    # UM-FATE-07: no use left → no check; 死亡 by default, or the GM's ruling
    none_left = R.dying_check(10, 10, 0, costly)
    assert none_left.check is None and none_left.state is R.LifeState.DEAD
    assert "UM-FATE-07" in none_left.rules and not R.dying_check_rolls(0, costly)
    ruled = R.dying_check(
        10, 10, 0, UnmeiSettings(dying_check_uses_fate=True, dying_without_fate="gm")
    )
    assert ruled.check is None and ruled.state is None


# ------------------------------------------------------------------ attacks


@pytest.mark.rule("UM-MELEE-01")
def test_melee_critical_beyond_skill_setting() -> None:
    assert R.melee_attack(25, 20, 50, 30).result == "critical"
    strict = UnmeiSettings(critical_beyond_skill=False)
    assert R.melee_attack(25, 20, 50, 30, strict).result == "miss"
    assert R.melee_attack(15, 20, 50, 30, strict).result == "critical"


@pytest.mark.rule("UM-MELEE-01")
def test_melee_roll_equal_ac_setting() -> None:
    assert R.melee_attack(30, 60, 30, 5).result == "armour"
    lenient = UnmeiSettings(melee_equal_ac_blocks=False)
    assert R.melee_attack(30, 60, 30, 5, lenient).result == "hit"


@pytest.mark.rule("UM-MELEE-02")
def test_weapon_abilities_on_critical_defaults() -> None:
    effects = R.critical_effects(["連続", "必殺", "炎"])
    assert (effects.extra_attacks, effects.damage_rolls, effects.gm_defined) == (1, 2, ("炎",))
    assert effects.defaults_applied == ("renzoku_extra_attacks", "hissatsu_damage_rolls")
    plain = R.critical_effects([])
    assert (plain.extra_attacks, plain.damage_rolls) == (0, 1)
    custom = UnmeiSettings(renzoku_extra_attacks=2, hissatsu_damage_rolls=3)
    assert R.critical_effects(["連続", "必殺"], custom).extra_attacks == 2
    assert R.critical_effects(["必殺"], custom).damage_rolls == 3


@pytest.mark.rule("UM-RANGED-01")
def test_bow_range_limit_and_rounding() -> None:
    assert R.ranged_attack(5, 55, 20, 10, distance_m=50).result == "critical"
    assert R.ranged_attack(5, 55, 20, 10, distance_m=51).result == "out_of_range"
    assert R.ranged_target(55) == 27
    assert R.ranged_target(55, settings=UnmeiSettings(ranged_rounding="ceil")) == 28


@pytest.mark.rule("UM-AIM-01")
def test_aiming_turns_and_loss() -> None:
    state = fighter()
    once = R.take_aim(state).state
    twice = R.take_aim(once).state
    assert (once.aim, twice.aim, R.take_aim(twice).state.aim) == (1, 2, 2)
    out = R.ranged_attack(20, 55, 25, 10, aim=twice.aim)
    assert out.target == 82 and out.critical_range == 20 and out.result == "critical"
    assert out.rules == ("UM-RANGED-01", "UM-AIM-01")
    assert R.shoot(twice).aim == 0
    assert R.full_defence(twice).state.aim == 0  # anything else ends the aim (default)
    keep = UnmeiSettings(aim_ends_on_other_action=False)
    assert R.full_defence(twice, keep).state.aim == 2
    assert R.other_action(twice).aim == 0 and R.other_action(twice, keep).aim == 2
    with pytest.raises(SaikoroError):
        R.ranged_target(55, aim=3)


# ------------------------------------------------------------------ magic


@pytest.mark.rule("UM-MAGIC-02")
def test_spell_equal_target_default_and_setting() -> None:
    assert R.activate_spell(70, 70).result == "activated"
    strict = UnmeiSettings(magic_equal_succeeds=False)
    assert R.activate_spell(70, 70, settings=strict).result == "not_activated"
    assert R.spell_target(71, halved=True, settings=UnmeiSettings(magic_half_rounding="ceil")) == 36


@pytest.mark.rule("UM-MAGIC-03")
def test_willing_target_ignores_rc_hostile_resists() -> None:
    assert R.activate_spell(10, 70).takes_effect  # no RC: willing or inanimate
    resisted = R.activate_spell(10, 70, rc=40, charm=5)
    assert resisted.result == "resisted" and not resisted.takes_effect
    assert R.activate_spell(5, 70, rc=40, charm=5).result == "charm_override"
    assert R.activate_spell(41, 70, rc=40, charm=5).result == "took_effect"


@pytest.mark.rule("UM-MAGIC-01", "UM-MAGIC-02")
def test_activation_only_after_chanting_on_an_earlier_turn() -> None:
    state = R.begin_own_turn(fighter())
    assert not R.can_activate(state)
    chanting = R.start_chant(state, "火球")
    assert chanting.rules == ("UM-MAGIC-01",) and chanting.uses_turn
    assert not R.can_activate(chanting.state)  # same turn
    with pytest.raises(SaikoroError):
        R.activation_attempt(chanting.state, R.activate_spell(10, 70))
    next_turn = R.begin_own_turn(chanting.state)
    assert R.can_activate(next_turn) and R.can_activate(next_turn, "火球")
    assert not R.can_activate(next_turn, "氷槍")
    failed = R.activation_attempt(next_turn, R.activate_spell(71, 70))
    assert failed.state.chant is not None  # the chant continues
    retry = R.begin_own_turn(failed.state)
    assert R.can_activate(retry)  # the failed attempt kept the chant up
    done = R.activation_attempt(retry, R.activate_spell(70, 70))
    assert done.state.chant is None and "UM-MAGIC-02" in done.rules


@pytest.mark.rule("UM-MAGIC-02")
def test_a_turn_spent_otherwise_lapses_the_chant() -> None:
    """Activation needs the chant on the *previous* own turn, not any earlier one."""
    chanted = R.start_chant(R.begin_own_turn(fighter()), "火球").state
    defended = R.full_defence(R.begin_own_turn(chanted)).state
    later = R.begin_own_turn(defended)
    assert not R.can_activate(later)
    with pytest.raises(SaikoroError):
        R.activation_attempt(later, R.activate_spell(10, 70))


# ------------------------------------------------------------------ movement, defence, switch


@pytest.mark.rule("UM-MOVE-01")
@pytest.mark.parametrize(("option", "metres"), [("attack", 3), ("act", 1), ("run", 5)])
def test_move_options_and_mounted_double(option: str, metres: int) -> None:
    assert R.move(fighter(), option).detail["distance_m"] == metres
    assert R.move(fighter(mounted=True), option).detail["distance_m"] == metres * 2


@pytest.mark.rule("UM-MOVE-01")
def test_run_lowers_ac_and_rc_until_next_own_turn() -> None:
    state = R.begin_own_turn(fighter())
    ran = R.move(state, "run").state
    assert (ran.effective_ac, ran.effective_rc) == (10, 20)
    assert R.melee_attack(11, 60, ran.effective_ac, 5).result == "hit"
    restored = R.begin_own_turn(ran)
    assert (restored.effective_ac, restored.effective_rc) == (30, 40)
    with pytest.raises(SaikoroError):
        R.move(state, "fly")  # type: ignore[arg-type]


@pytest.mark.rule("UM-DEFEND-01")
def test_full_defence_plus_twenty_but_not_against_criticals() -> None:
    state = R.begin_own_turn(fighter())
    guarded = R.full_defence(state).state
    assert (guarded.effective_ac, guarded.effective_rc) == (50, 60)
    assert R.melee_attack(45, 60, guarded.effective_ac, 5).result == "armour"
    assert R.melee_attack(5, 60, guarded.effective_ac, 5).result == "critical"
    assert R.activate_spell(55, 70, rc=guarded.effective_rc).result == "resisted"
    assert R.begin_own_turn(guarded).effective_ac == 30


@pytest.mark.rule("UM-SWITCH-01")
def test_switching_equipment_takes_a_turn_except_dropping_the_shield() -> None:
    switched = R.switch_equipment(fighter())
    assert switched.uses_turn and switched.rules == ("UM-SWITCH-01",)
    dropped = R.switch_equipment(fighter(), drop_shield_for_two_hands=True)
    assert not dropped.uses_turn and dropped.state.two_handed_ready


# ------------------------------------------------------------------ turns


@pytest.mark.rule("UM-TURN-01")
def test_turns_per_round_by_action_points_and_gm_choice() -> None:
    a = fighter(name="A", agility=8, action_points=2)
    b = fighter(name="B", agility=15, action_points=1)
    c = fighter(name="C", agility=12, action_points=1)
    rnd = R.start_round([a, b, c])
    assert rnd.order == ("B", "C", "A") and rnd.offered() == ("B", "C", "A")
    rnd = R.next_turn(rnd, "A")  # the GM picks anyone
    rnd = R.next_turn(rnd)  # default: first offered
    assert rnd.taken == ("A", "B")
    with pytest.raises(SaikoroError):
        R.next_turn(rnd, "B")  # B has 1 turn only
    rnd = R.next_turn(R.next_turn(rnd, "A"), "C")
    assert rnd.over and rnd.taken == ("A", "B", "A", "C")
    with pytest.raises(SaikoroError):
        R.next_turn(rnd)


@pytest.mark.rule("UM-TURN-01")
def test_turn_order_gm_override_and_listed_setting() -> None:
    a, b = fighter(name="A", agility=1), fighter(name="B", agility=20)
    assert R.start_round([a, b], order=["A", "B"]).order == ("A", "B")
    assert R.default_order([a, b], UnmeiSettings(turn_order="listed")) == ("A", "B")
    with pytest.raises(SaikoroError):
        R.start_round([a, b], order=["A"])
    with pytest.raises(SaikoroError):
        R.start_round([a, fighter(name="A")])


# ------------------------------------------------------------------ growth


@pytest.mark.rule("UM-LEVEL-01", "UM-LEVEL-04")
def test_level_up_to_ten_raises_fate_uses() -> None:
    up = R.level_up(1)
    assert (up.level, up.fate_uses) == (2, 2)
    assert R.level_up(9).level == 10
    assert R.level_up(3, kind="mob").fate_uses == 1
    with pytest.raises(SaikoroError):
        R.level_up(10)
    with pytest.raises(SaikoroError):
        R.level_up(3, survived=False)


@pytest.mark.rule("UM-LEVEL-02")
def test_growth_applies_and_player_choice() -> None:
    grown = R.growth([30, 31], [30, 30], ["体格", "魅力"])
    assert grown.raised == (True, False)
    assert R.apply_growth({"体格": 5, "魅力": 7}, grown) == {"体格": 6, "魅力": 7}
    none = R.growth([99, 99], [30, 30], ["体格", "魅力"])
    assert none.player_chooses
    assert R.apply_growth({"体格": 5, "魅力": 7}, none, chosen="魅力") == {"体格": 5, "魅力": 8}
    with pytest.raises(SaikoroError):
        R.apply_growth({"体格": 5, "魅力": 7}, none)


@pytest.mark.rule("UM-LEVEL-03")
def test_formula_table_is_safe_integer_arithmetic() -> None:
    derived = R.derive(
        {"戦闘": "体格*2+敏捷度", "HP": "(体格+運命)/2"}, {"体格": 10, "敏捷度": 7, "運命": 5}
    )
    assert dict(derived.values) == {"戦闘": 27, "HP": 7} and derived.rules == ("UM-LEVEL-03",)
    assert R.evaluate_formula("体格×3÷2", {"体格": 5}) == 7
    for bad in ("__import__('os')", "体格**2", "1/0", "未知+1", "体格 if 1 else 2", "x" * 300):
        with pytest.raises(SaikoroError):
            R.evaluate_formula(bad, {"体格": 5})


# ------------------------------------------------------------------ settings


def test_every_default_of_system_b_is_a_named_setting() -> None:
    """Each UM rule whose RULES.md text has a *default* names a settings field."""
    from saikoro.rules_coverage import read_spec

    text, _ = read_spec(None)
    with_default = {
        line.split("**")[1]
        for line in text.splitlines()
        if line.lstrip().startswith("- **UM-") and "*default*" in line
    }
    described = {
        rule_id
        for field in UnmeiSettings.model_fields.values()
        for rule_id in [(field.description or "").split(":")[0]]
    }
    assert with_default, "RULES.md System B has defaults"
    assert with_default <= described, with_default - described
