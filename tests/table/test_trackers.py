"""Tracker rules beyond the two scripted fights: rows, party down, 行動順操作, aim, fate.

Tests marked ``via="table"`` play their lines through ``saikoro play`` (``played``); the
others drive ``TableSession`` directly (``room``), which proves a rule at function level."""

from __future__ import annotations

import pytest

from saikoro.dice.randomizer import ScriptedSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.table.session import TableSession

from .helpers import SHEETS, PlayedRoom, texts


@pytest.fixture
def room(tmp_path):
    store = open_store(str(tmp_path / "t.db"))

    def make(system, sheets, *extra):
        session = TableSession.open(store, "t", system, gm=True, source=ScriptedSource([]))
        for name in sheets:
            session.run(f"/char add {SHEETS / name}")
        for line in extra:
            session.run(line)
        return session

    yield make
    store.close()


@pytest.fixture
def played(tmp_path):
    """A room played through ``saikoro play``, its sheets added (and any lines run) by the GM."""

    def make(system, sheets, *extra):
        table = PlayedRoom(str(tmp_path / "t.db"), system)
        table.play([*(f"/char add {SHEETS / name}" for name in sheets), *extra])
        return table

    return make


def d6(*faces):
    return [f"{face}/6" for face in faces]


def rolled(session, rands):
    session.source = ScriptedSource(rands)
    return session


@pytest.mark.rule("LW-COMBAT-16")
def test_back_row_moves_up_when_the_front_row_falls(room):
    s = room("LittleWorld", ["alice.json", "bob.json", "goblin.json"], "/gm row アリス 後衛")
    assert s.state.characters["アリス"].fields["row"] == "後衛"
    s.run("@ボブ :HP=0")  # the only PC front-liner is down
    assert s.state.characters["アリス"].fields["row"] == "後衛"  # out of combat: as set
    s.run("/combat start")  # in combat the collapse applies
    assert s.state.characters["アリス"].fields["row"] == "前衛"


@pytest.mark.rule("LW-HP-03", via="table")
def test_party_down_when_every_pc_is_unable_to_act(played):
    t = played("LittleWorld", ["alice.json", "bob.json", "goblin.json"])
    assert "PC全員が行動不能" not in texts(t.play(["@アリス :HP=0"]))  # ボブ still stands
    out = t.play(["@ボブ :HP-10", "@アリス :HP-1"])
    assert out[0]["text"] == "GM: ボブ HP 10 → 0\nPC全員が行動不能です: GMが運命を決めます"
    assert "PC全員が行動不能" not in out[1]["text"]  # said once, while the party stays down
    assert [c["down"] for c in t.state()["characters"]] == [True, True, False]
    t.play(["/gm set ボブ hp 3"])  # the GM heals: the party is up again …
    out = t.play(["@ボブ :HP=0"], lang="en")  # … so falling again is a new "party down"
    assert "every PC is unable to act: the GM decides their fate" in out[0]["text"]


@pytest.mark.rule("LW-COMBAT-13", "LW-COMBAT-14", "LW-COND-04", "LW-COMBAT-01", via="table")
def test_order_follows_current_skill_until_locked(played):
    t = played("LittleWorld", ["alice.json", "bob.json", "goblin.json"], "/combat start")
    assert t.state()["combat"]["order"] == ["アリス", "ゴブリン", "ボブ"]
    t.play(["/cond add アリス 睡眠"])  # 技巧 4 → 2: only from the next round (LW-COMBAT-13)
    assert t.state()["combat"]["order"] == ["アリス", "ゴブリン", "ボブ"]
    out = t.play(["/next", "/next", "/next"])
    # round 2: ゴブリン 4, then the tied PCs ボブ 2 and アリス 2 as listed
    assert "ラウンド2" in texts(out)
    combat = t.state()["combat"]
    assert (combat["round"], combat["order"]) == (2, ["ゴブリン", "アリス", "ボブ"])
    t.play(["/gm lock ボブ アリス ゴブリン", "/cond remove アリス 睡眠"])
    t.play(["/next"] * 3)
    combat = t.state()["combat"]
    assert combat["round"] == 3
    assert combat["order"] == ["ボブ", "アリス", "ゴブリン"]  # kept despite 技巧


@pytest.mark.rule("UM-AIM-01", "UM-RANGED-01", via="table")
def test_two_aiming_turns_triple_the_target_and_double_the_critical_range(played):
    t = played(
        "UnmeiD100", ["ken.json", "mia.json", "orc.json"], "/gm hold ケン 弓", "/combat start"
    )
    t.play(["@ケン /aim", *["/next"] * 4])  # オーク ×2, ミア, then round 2: ケン
    t.play(["@ケン /aim", *["/next"] * 4])
    # 盗賊40 × 3 / 2 = 60; critical range 12 × 2 = 24: a 24 is a critical
    out = t.play(["@ケン /shoot オーク"], ["24/100", "3/6"])
    assert "1D100<=60" in out[0]["text"] and "クリティカル<=24" in out[0]["text"]
    chars = t.characters()
    assert chars["オーク"]["hp"] == 15 - 3
    assert chars["ケン"]["aim"] == 0


@pytest.mark.rule("UM-FATE-02", "UM-FATE-04")
def test_fate_halves_damage_and_can_lift_a_character_back_from_unconscious(room):
    s = room("UnmeiD100", ["ken.json", "mia.json", "orc.json"], "/combat start")
    s.run("/next オーク")
    # 40 ≤ 50 hits ミア (AC10); 1D10 → 10 … then ミア's 8 HP? no: 14 HP → 4
    rolled(s, [(40, 100), (10, 10)]).run("@オーク /melee ミア")
    assert s.state.characters["ミア"].hp == 4
    out = rolled(s, [(60, 100)]).run("@ミア /fate half")  # 運命12 × 5 = 60: success
    assert "成功" in out.text("ja")
    mia = s.state.characters["ミア"]
    assert (mia.hp, mia.fields["fate_left"]) == (14 - 5, 0)
    with pytest.raises(SaikoroError):
        s.run("@ミア /fate half")  # nothing left to rescue (and no uses left)
    s.run("/next")
    rolled(s, [(5, 100), (9, 10), (61, 100)]).run("@オーク /melee ミア")  # critical, 9 → 0 HP
    assert [c.label for c in s.state.characters["ミア"].conditions] == ["死亡"]  # 61 > 60
    s.run("/gm dying ミア 気絶")
    assert [c.label for c in s.state.characters["ミア"].conditions] == ["気絶"]


@pytest.mark.rule("UM-FATE-04")
def test_an_hp_edit_to_zero_also_triggers_the_dying_check(room):
    s = room("UnmeiD100", ["ken.json", "mia.json", "orc.json"])
    out = rolled(s, [(50, 100)]).run("@ケン :HP-20")  # 運命10 × 5 = 50: success → 気絶
    assert "成功: 気絶" in out.text("ja")
    assert [c.label for c in s.state.characters["ケン"].conditions] == ["気絶"]
    s.run("@ケン :HP-1")  # already 気絶: no second check (no dice scripted)


@pytest.mark.rule("LW-COMBAT-04", "LW-COMBAT-14", "LW-COND-04", via="table")
def test_skill_cards_are_declared_in_the_log(played):
    t = played("LittleWorld", ["alice.json", "carol.json", "goblin.json"], "/combat start")
    out = t.play(["@アリス /card 治癒魔法"], speaker="アリス", check=False)
    assert not out[0]["ok"] and "持っていません" in out[0]["ja"]  # not her card
    # a defender may declare off turn (アリス's turn): her player types it
    out = t.play(["@キャロル /card 治癒魔法", "@キャロル /card 行動順操作"], speaker="キャロル")
    assert out[0]["text"] == "キャロル: スキルカード「治癒魔法」を宣言"
    assert "行動順操作: 手番順を固定 (アリス → ゴブリン → キャロル)" in out[1]["text"]
    log = texts(t.play(["/log 3"]))
    assert "キャロル: スキルカード「治癒魔法」を宣言" in log  # the log records the declaration
    t.play(["/cond add キャロル 睡眠"])
    out = t.play(["@キャロル /card 治癒魔法"], speaker="キャロル", check=False)
    assert not out[0]["ok"] and "スキルカードを使えません" in out[0]["ja"]  # asleep: no cards


@pytest.mark.rule("UM-FATE-02")
def test_fate_cancels_a_condition_or_rerolls_damage(room):
    s = room("UnmeiD100", ["ken.json", "mia.json", "orc.json"], "/combat start")
    s.run("/gm cond ケン 毒")  # a condition whose effect the GM rules (UnmeiD100 has no 毒)
    rolled(s, [(50, 100)]).run("@ケン /fate cancel")
    assert s.state.characters["ケン"].conditions == []
    s.run("/next オーク")
    rolled(s, [(40, 100), (9, 10)]).run("@オーク /melee ケン")  # 40 > AC20: 9 damage
    assert s.state.characters["ケン"].hp == 11
    rolled(s, [(50, 100), (2, 10)]).run("@ケン /fate reroll")  # 1D10 again: 2
    ken = s.state.characters["ケン"]
    assert (ken.hp, ken.fields["fate_left"]) == (18, 0)  # level 2: two uses, both spent
    s.run("/next オーク")
    rolled(s, [(40, 100), (9, 10)]).run("@オーク /melee ケン")  # damage to rescue, no uses left
    with pytest.raises(SaikoroError):
        rolled(s, [(50, 100)]).run("@ケン /fate half")


@pytest.mark.rule("LW-COND-03", "LW-COMBAT-10")
def test_gm_house_rules_change_the_trackers(room):
    s = room("LittleWorld", ["alice.json", "bob.json", "goblin.json"], "/combat start")
    listing = s.run("/gm setting").text("ja")
    assert "paralysis_recovery_turns = 2" in listing and "damage_floor_zero = true" in listing
    with pytest.raises(SaikoroError):
        s.run("/gm setting paralysis_recovery_turns 0")  # must be ≥ 1
    with pytest.raises(SaikoroError):
        s.run("/gm setting no_such_rule 1")
    out = s.run("/gm setting paralysis_recovery_turns 1")
    assert out.events[0].gm and "paralysis_recovery_turns = 1 *" in s.run("/gm setting").text("ja")
    s.run("/cond add ボブ 麻痺")  # recovers on his very next turn (house rule: 1 turn)
    s.run("/next")  # ゴブリン
    s.run("/next")  # ボブ: recovers, but that turn is spent → round 2
    assert s.state.characters["ボブ"].conditions == [] and s.state.combat.round == 2
    s.run("/gm setting paralysis_recovery_turns default")
    assert "settings" not in s.state.fields or not s.state.fields["settings"]


@pytest.mark.rule("LW-COMBAT-02")
def test_players_order_tied_pcs_from_the_next_round(room):
    s = room("LittleWorld", ["alice.json", "bob.json", "goblin.json"], "/cond add アリス 睡眠")
    s.run("/combat start")  # アリス's 技巧 4 → 2 asleep: tied with ボブ, listed order first
    assert s.state.combat.order == ["ゴブリン", "アリス", "ボブ"]
    with pytest.raises(SaikoroError):
        s.run("/gm tie ボブ ゴブリン")  # only PCs with the same 技巧
    s.run("/gm tie ボブ アリス")
    assert s.state.combat.order == ["ゴブリン", "アリス", "ボブ"]  # this round stays (LW-COMBAT-13)
    for _ in range(3):
        s.run("/next")
    assert (s.state.combat.round, s.state.combat.order) == (2, ["ゴブリン", "ボブ", "アリス"])


@pytest.mark.rule("LW-COND-06", "LW-COMBAT-11", via="table")
def test_a_surprised_defender_takes_the_whole_attack_value(played):
    t = played("LittleWorld", ["alice.json", "goblin.json"])
    out = t.play(["@アリス /attack ゴブリン 体力 不意打ち"], d6(2, 3))  # 3+5 = 8
    assert "→ ゴブリン ＞ 攻撃値 5[2,3]+3=8 ＞ 防御不能 ＞ ダメージ8" in out[0]["text"]
    assert t.characters()["ゴブリン"]["hp"] == 0


@pytest.mark.rule("LW-HP-01", "LW-HP-02", "LW-COND-02", "LW-COND-03")
def test_rest_and_time_out_of_combat(room):
    s = room("LittleWorld", ["alice.json", "bob.json", "goblin.json"])
    s.run("@アリス :HP=2")
    s.run("@ボブ :HP=0")
    s.run("/gm rest")  # アリス: 2 + 体力3 + 6 = 11; ボブ at 0 does not recover
    assert (s.state.characters["アリス"].hp, s.state.characters["ボブ"].hp) == (11, 0)
    s.run("/gm rest 2")  # never above max HP 12
    assert s.state.characters["アリス"].hp == 12
    s.run("/cond add アリス 毒 2")
    s.run("/cond add ゴブリン 麻痺")
    s.run("/gm time 20")  # not yet 30 minutes
    assert s.state.characters["アリス"].hp == 12
    assert s.state.characters["ゴブリン"].condition("麻痺") is not None
    s.run("/gm time 20")  # 40 minutes: one poison tick, paralysis over
    assert s.state.characters["アリス"].hp == 10
    assert s.state.characters["ゴブリン"].conditions == []
    s.run("/gm time 50 rest")  # 90 minutes: two more ticks (60, 90)
    nights = 3 * 480  # the three nights of rest above passed on the clock (night_minutes)
    assert s.state.characters["アリス"].hp == 6 and s.state.fields["minutes"] == nights + 90
    s.run("/undo")  # the clock goes back with it
    assert s.state.fields["minutes"] == nights + 40 and s.state.characters["アリス"].hp == 10


@pytest.mark.rule("UM-SWITCH-01")
def test_switching_equipment_takes_a_turn_but_dropping_the_shield_does_not(room):
    s = room("UnmeiD100", ["ken.json", "mia.json", "orc.json"], "/gm hold ケン 剣 shield")
    s.run("/combat start")
    s.run("@ケン /switch shield")  # no turn used: a melee attack may follow at once
    assert s.state.characters["ケン"].fields["two_handed_ready"] is True
    rolled(s, [(99, 100)]).run("@ケン /melee オーク")
    with pytest.raises(SaikoroError):
        s.run("@ケン /switch")  # the turn's action is used
    s.run("/next")
    s.run("@オーク /switch")
    with pytest.raises(SaikoroError):
        s.run("@オーク /melee ケン")
