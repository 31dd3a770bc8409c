"""Property: any chat line — in both systems and DiceBot, in and out of combat, as the GM, a
player or a named speaker — gives a result or a bilingual SaikoroError that changes nothing,
never another exception, and answers fast."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from work import count_calls

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.store import open_store
from saikoro.table.actors import Actor
from saikoro.table.session import TableSession

from .helpers import SHEETS

#: Function calls one fuzzed table line may make (counted, not timed: tests/work.py).
LINE_CALLS = 3_000_000

SETUP = {
    "LittleWorld": ["alice.json", "bob.json", "goblin.json"],
    "UnmeiD100": ["ken.json", "mia.json", "orc.json"],
    "DiceBot": [],
}
NAMES = {
    "LittleWorld": ["アリス", "ボブ", "ゴブリン"],
    "UnmeiD100": ["ケン", "ミア", "オーク"],
    "DiceBot": ["誰か"],
}
VERBS = [
    "help", "state", "log", "undo", "char", "gm", "cond", "combat", "next", "attack", "pass",
    "card", "melee", "shoot", "aim", "chant", "cast", "defend", "move", "fate", "switch", "nope",
]  # fmt: skip
WORDS = [
    "add", "list", "remove", "set", "note", "order", "setting", "lock", "row", "tie", "rest",
    "time", "dying", "fate", "start", "end", "success", "half", "cancel", "reroll", "shield",
    "default", "reset", "none", "気絶", "死亡", "前衛", "後衛", "front", "back", "pc", "npc",
    "体力", "技巧", "理知", "運命", "HP", "hp", "MHP", "最大HP", "AC", "aim", "fate_left",
    "chant", "row", "_incoming", "_used", "毒", "麻痺", "睡眠", "混乱", "不意打ち", "火球",
    "poison_interval_minutes", "paralysis_recovery_turns", "turn_order", "fate_uses_reset",
    "dying_check_mandatory", "true", "null", "[]", "{}", '"x"', "1e999", "NaN", "-0", "²",
    "１２", "٣", "{体力}", "{{x}}", "{", "}", "@", "~nobody_such_user/x.json", "nowhere.json",
    "/", "/dev/null", "3", "1", "5", "0", "-1", "10**9", "1000000000",
]  # fmt: skip
DICE = ["2D6+{体力}>=8", "1D100<={運命}", "LWA{技巧}-3", "MA{白兵},20,10", "S2D6", "1D6", "x"]
#: lines that work in some state, so the hostile ones meet rooms in many states
KNOWN = {
    "LittleWorld": [
        "/combat start", "/next", "/combat end", "/undo", "@アリス /attack ゴブリン 体力",
        "@ゴブリン /attack アリス 技巧", "@ボブ /pass", "/cond add ボブ 麻痺",
        "/cond add ゴブリン 毒 2", "@アリス :HP-30", "/gm lock", "/gm time 60",
        "/gm rest", "@アリス /card 不明",
    ],
    "UnmeiD100": [
        "/combat start", "/next", "/combat end", "/undo", "@ケン /melee オーク",
        "@ケン /shoot オーク", "@ケン /aim", "@ミア /chant 火球", "@ミア /cast オーク",
        "@オーク /melee ケン", "@ケン /fate reroll", "@ケン /fate success", "@オーク :HP-30",
        "/gm dying オーク none", "/gm fate reset", "@ケン /switch", "@ケン /defend",
    ],
    "DiceBot": ["2D6", "/undo", "/log 3"],
}  # fmt: skip
_rooms = itertools.count()


def numbers():
    return st.integers(-(10**30), 10**30).map(str)


def words(system):
    return st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(NAMES[system]),
        numbers(),
        st.text(max_size=6).filter(lambda t: t.strip() == t and t),
    )


@st.composite
def lines(draw, system):
    kind = draw(st.sampled_from(["known", "known", "slash", "slash", "status", "dice", "free"]))
    if kind == "known":
        return draw(st.sampled_from(KNOWN[system]))
    if kind == "slash":
        line = "/" + " ".join(
            [draw(st.sampled_from(VERBS)), *draw(st.lists(words(system), max_size=5))]
        )
    elif kind == "status":
        line = ":" + draw(words(system)) + draw(st.sampled_from("+-=")) + draw(numbers())
    elif kind == "dice":
        line = draw(st.sampled_from(DICE))
    else:
        line = draw(st.text(max_size=30))
    if draw(st.booleans()):
        name = draw(st.one_of(st.sampled_from([*NAMES[system], "GM", ""]), words(system)))
        line = f"@{name} {line}"
    return line


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), system=st.sampled_from(sorted(SETUP)), combat=st.booleans())
def test_any_line_gives_a_result_or_a_clean_refusal(tmp_path_factory, data, system, combat):
    store = open_store(str(tmp_path_factory.getbasetemp() / "fuzz_lines.db"))
    room = f"f{next(_rooms)}"
    setup = TableSession.open(store, room, system, gm=True, source=SeededSource(0))
    for sheet in SETUP[system]:
        setup.run(f"/char add {SHEETS / sheet}")
    if combat and SETUP[system]:
        setup.run("/combat start")
    for line in data.draw(st.lists(lines(system), min_size=1, max_size=12), label="lines"):
        who = data.draw(st.sampled_from(["gm", "player", "spectator", *NAMES[system]]), label="as")
        session = TableSession.open(
            store,
            room,
            system,
            gm=who == "gm",
            speaker=None if who in ("gm", "player", "spectator") else who,
            source=SeededSource(1),
            actor=Actor.spectator() if who == "spectator" else None,
        )
        before = session.state.model_copy(deep=True)
        work = count_calls(lambda: session.run(line))  # noqa: B023 - called at once
        if work.error is None:
            outcome = work.value
            assert outcome is not None
            assert not (who == "spectator" and outcome.events), line  # spectators only read
        else:
            error = work.error
            assert isinstance(error, SaikoroError), (line, error)
            assert error.message.ja and error.message.en, line
            session.refresh()
            assert session.state == before, line
        assert work.calls < LINE_CALLS, (line, work.calls)
    store.close()
