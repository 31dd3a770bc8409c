"""Roles in the table core, as pure dispatch: every refusal of issue 11's "Why" (a player
acting for others, as the GM, running the combat; spectators writing; files over the
network), what players may still do, and secret rolls (the roller and the GM see them;
/reveal shows them to all)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from saikoro.dice.randomizer import ScriptedSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.table.actors import Actor, find_name, is_gm_name, name_key
from saikoro.table.dispatch import Context, Outcome, dispatch
from saikoro.table.events import Event
from saikoro.table.state import RoomState, apply_in_place, replay
from saikoro.table.view import revealed_ids, view_event, view_state

from .helpers import SHEETS

GM = Actor.gm()
ALICE = Actor.player("アリス")  # player of アリス
BOB = Actor.player("ボブ")
WATCHER = Actor.spectator()


@dataclass
class Table:
    """A room in memory: dispatch's events folded in, the log kept as the store keeps it."""

    log: list[Event] = field(default_factory=list)
    state: RoomState = field(default_factory=RoomState)

    def state_before(self, command_id: str) -> RoomState:
        first = next(i for i, e in enumerate(self.log) if e.command_id == command_id)
        return replay(self.log[:first])

    def recent(self, count: int) -> list[tuple[int, Event]]:
        return list(enumerate(self.log, start=1))[-count:]

    def run(
        self, line: str, actor: Actor, rands=(), *, allow_files: bool = True, speaker=None
    ) -> Outcome:
        ctx = Context(
            speaker=speaker,
            source=ScriptedSource(list(rands)),
            history=self,
            base_dir=SHEETS,
            actor=actor,
            allow_files=allow_files,
        )
        outcome = dispatch(self.state, line, ctx)
        for event in outcome.events:
            self.log.append(event)
            apply_in_place(self.state, event)
        return outcome

    def refused(self, line: str, actor: Actor, **kwargs) -> SaikoroError:
        before, length = self.state.clone(), len(self.log)
        with pytest.raises(SaikoroError) as caught:
            self.run(line, actor, **kwargs)
        assert self.state == before and len(self.log) == length  # nothing changed
        message = caught.value.message
        assert message.ja and message.en and message.ja != message.en  # bilingual
        return caught.value


def table(system: str = "LittleWorld", sheets=("alice", "bob", "goblin")) -> Table:
    t = Table()
    t.log.append(Event("room_created", {"room": "r", "system": system}, command_id="c0"))
    apply_in_place(t.state, t.log[0])
    for sheet in sheets:
        t.run(f"/char add {sheet}.json", GM)
    return t


def test_names_compare_as_the_dice_read_them():
    assert is_gm_name("ＧＭ") and is_gm_name("gm") and is_gm_name("ｇｍ") and not is_gm_name("GMX")
    assert name_key("Ａｌｉｃｅ") == name_key("alice")
    assert find_name("ＧＯＢＬＩＮ", ["goblin"]) == "goblin"
    assert Actor.player("アリス").owns("アリス") and not Actor.player("アリス").owns("ボブ")
    assert GM.owns("ボブ") and not WATCHER.owns("アリス")


# -- every refusal of the "Why", for a player ----------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "@ボブ :HP-3",  # another player's character's HP
        "@ゴブリン :HP-3",  # the GM's
        "@ボブ 2D6",  # speaking as another player's character
        "/char remove ボブ",
        "/char remove ゴブリン",
        "/cond add ボブ 毒 2",
        "/combat start",
        "/gm note 私がGM",
        "/gm set ボブ hp 1",
        "@GM こんばんは",
        "@ＧＭ こんばんは",  # full-width GM is GM
        "＠ＧＭ こんばんは",
        "@gm /gm note x",
        "@村人 こんにちは",  # a name that is nobody's: the GM's to voice
    ],
)
def test_a_player_is_refused(line):
    t = table()
    error = t.refused(line, ALICE)
    assert error.reason == "forbidden"


def test_a_player_cannot_end_combat_or_pick_the_turn_unmeid100():
    t = table("UnmeiD100", ("ken", "mia"))
    t.run("/combat start", GM, rands=[(1, 10)] * 20)
    assert t.state.combat is not None
    current = t.state.combat.current
    other = next(n for n in t.state.combat.order if n != current)
    player = Actor.player(current)
    assert t.refused("/combat end", player).reason == "forbidden"
    assert t.refused(f"/next {other}", player).reason == "forbidden"
    assert t.refused("/next", Actor.player(other)).reason == "forbidden"  # not their turn
    t.run("/next", player)  # a plain /next ends their own turn
    assert t.state.combat.current != current
    t.run("/combat end", GM)
    assert t.state.combat is None


def test_undo_only_ones_own_line():
    t = table()
    t.run("@ゴブリン :HP-1", GM)
    assert t.refused("@ゴブリン /undo", ALICE).reason == "forbidden"  # not their character
    assert t.refused("/undo", ALICE).reason == "forbidden"  # the GM's line
    t.run(":HP-2", ALICE)
    assert t.refused("/undo", BOB).reason == "forbidden"
    t.run("/undo", ALICE)
    assert t.state.characters["アリス"].hp == t.state.characters["アリス"].max_hp
    t.run("/undo", GM)  # the GM undoes anyone's
    assert t.state.characters["ゴブリン"].hp == t.state.characters["ゴブリン"].max_hp


def test_what_a_player_may_do():
    t = table()
    out = t.run("2D6+{体力}", ALICE, rands=[(1, 6), (2, 6)])  # speaks as their character
    assert out.events[0].actor == "アリス" and "アリス: (2D6+3)" in out.text("ja")
    t.run(":HP-2", ALICE)
    t.run("/cond add アリス 毒 1", ALICE)
    assert t.state.characters["アリス"].hp == 10
    assert t.state.characters["アリス"].condition("毒") is not None
    for line in ("/help", "/state", "/log 3", "/char list"):
        t.run(line, ALICE)
    t.run("/char remove アリス", ALICE)
    assert "アリス" not in t.state.characters
    t.run("/char add alice.json", ALICE)  # their own sheet back
    assert t.refused("/char add bob.json", Actor.player("キャロル")).reason == "forbidden"


def test_the_gm_does_everything():
    t = table()
    for line in (
        "@ボブ :HP-3",
        "@ＧＭ こんばんは",
        "/cond add ボブ 毒 2",
        "/gm note 裁定",
        "/combat start",
        "/combat end",
        "/char remove ゴブリン",
        "/undo",
    ):
        t.run(line, GM, rands=[(3, 6)] * 12)
    assert "ゴブリン" in t.state.characters  # undone
    assert t.log[-2].actor == "GM"


def test_a_spectator_only_reads():
    t = table()
    for line in ("こんばんは", "2D6", ":HP-1", "/char remove アリス", "/undo", "/reveal"):
        assert t.refused(line, WATCHER).reason == "forbidden"
    assert t.refused("@アリス 2D6", WATCHER).reason == "forbidden"
    for line in ("/help", "/state", "/log", "/char list"):
        t.run(line, WATCHER)


def test_no_line_names_a_server_file_over_the_network():
    t = table(sheets=())
    for actor in (GM, ALICE):
        error = t.refused("/char add alice.json", actor, allow_files=False)
        assert error.reason == "forbidden" and "file" in error.message.en
    t.run("/char add alice.json", GM)  # saikoro play may


def test_legacy_flags_are_roles_too():
    """Without an actor, ``--gm`` is the GM and ``--as NAME`` a player of NAME."""
    t = table()
    ctx = Context(speaker="アリス", source=ScriptedSource([]), history=t, base_dir=SHEETS)
    with pytest.raises(SaikoroError):
        dispatch(t.state, "@ボブ :HP-3", ctx)
    with pytest.raises(SaikoroError):
        dispatch(t.state, "@ＧＭ やあ", ctx)
    out = dispatch(t.state, ":HP-3", ctx)
    assert out.events[0].data["name"] == "アリス"
    gm = Context(gm=True, source=ScriptedSource([]), history=t, base_dir=SHEETS)
    assert dispatch(t.state, "@ボブ :HP-3", gm).events[0].data["name"] == "ボブ"


# -- secret rolls ----------------------------------------------------------------------------


def test_secret_roll_seen_by_roller_and_gm_until_revealed():
    t = table()
    out = t.run("S2D6", ALICE, rands=[(6, 6), (5, 6)])
    assert "11" in out.caller_text("ja")  # the roller sees their own result
    secret = out.events[0]
    assert secret.secret and secret.actor == "アリス"
    revealed: set[str] = revealed_ids(t.log)
    assert view_event(secret, GM, revealed) == secret
    assert view_event(secret, ALICE, revealed) == secret
    for other in (BOB, WATCHER):
        seen = view_event(secret, other, revealed)
        assert seen.secret and seen.data == {} and not seen.dice
        assert seen.text is not None and "11" not in seen.text.ja + seen.text.en
        assert seen.text.ja == "アリス: シークレットダイス"
    assert "11" not in t.run("/log 5", BOB).text("ja")
    assert "11" in t.run("/log 5", ALICE).text("ja")
    assert "11" in t.run("/log 5", GM).text("ja")
    # another player cannot reveal it; the roller can
    assert t.refused("/reveal", BOB).reason == "nothing to reveal"
    seq = next(i for i, e in enumerate(t.log, 1) if e.command_id == secret.command_id)
    assert t.refused(f"/reveal #{seq}", BOB).reason == "forbidden"
    shown = t.run("/reveal", ALICE)
    assert shown.events[0].kind == "revealed" and "11" in shown.text("ja")
    assert shown.events[0].data["command_id"] == secret.command_id
    revealed = revealed_ids(t.log)
    for anyone in (BOB, WATCHER):
        assert view_event(secret, anyone, revealed) == secret
    assert "11" in t.run("/log 8", BOB).text("ja")
    assert t.refused(f"/reveal #{seq}", GM).reason != "forbidden"  # already revealed


def test_the_gm_reveals_anyones_secret_roll():
    t = table()
    t.run("S1D6", BOB, rands=[(4, 6)])
    gm_secret = t.run("@ゴブリン S1D6", GM, rands=[(2, 6)]).events[0]
    assert view_event(gm_secret, BOB, set()).data == {}
    assert view_event(gm_secret, ALICE, set()).data == {}
    t.run("/reveal", GM)  # the newest: the goblin's
    assert view_event(gm_secret, BOB, revealed_ids(t.log)) == gm_secret
    bob_roll = t.log[-3]
    assert view_event(bob_roll, ALICE, revealed_ids(t.log)).data == {}


def test_view_state_says_who_reads_and_shows_values_to_owner_and_gm():
    t = table()
    as_alice = view_state(t.state, ALICE)
    assert as_alice["you"] == {"role": "player", "characters": ["アリス"], "label": "アリス"}
    rows = {row["name"]: row for row in as_alice["characters"]}
    assert rows["アリス"]["mine"] and rows["アリス"]["values"]["体力"] == 3
    assert "values" not in rows["ボブ"] and not rows["ボブ"]["mine"]
    as_gm = {row["name"]: row for row in view_state(t.state, GM)["characters"]}
    assert all("values" in row for row in as_gm.values())
    as_watcher = view_state(t.state, WATCHER)
    assert as_watcher["you"]["role"] == "spectator"
    assert all("values" not in row for row in as_watcher["characters"])


@settings(max_examples=200, deadline=None)
@given(
    roller=st.sampled_from(["アリス", "ボブ", "ゴブリン", "", "ｱﾘｽ", "ALICE", "Alice"]),
    reader=st.sampled_from(
        [GM, ALICE, BOB, WATCHER, Actor.player(), Actor.player("Alice"), Actor.player("ALICE")]
    ),
    revealed=st.booleans(),
    by_gm=st.booleans(),
    value=st.integers(2, 12),
)
def test_no_reader_sees_an_unrevealed_secret_that_is_not_theirs(
    roller, reader, revealed, by_gm, value
):
    """Names must match exactly (``ALICE`` is not ``Alice``'s), and a roll the GM typed —
    also as a player's character — is the GM's."""
    secret = Event(
        "roll",
        {"command": "S2D6", "result": {"text": f"(2D6) ＞ {value}", "value": value}},
        actor=roller,
        command_id="c1",
        text=Message(f"{roller}: (2D6) ＞ {value}", f"{roller}: (2D6) ＞ {value}"),
        secret=True,
        by_gm=by_gm,
    )
    seen = view_event(secret, reader, {"c1"} if revealed else set())
    own = reader.role == "player" and bool(roller) and roller in reader.characters
    entitled = revealed or reader.is_gm or (own and not by_gm)
    assert (seen == secret) is entitled
    if not entitled:
        assert seen.data == {} and not seen.dice and seen.secret
        assert seen.text is not None and f"＞ {value}" not in seen.text.ja + seen.text.en
    plain = Event("chat", {"text": "やあ"}, actor=roller, command_id="c2", text=Message("a", "a"))
    assert view_event(plain, reader, set()) == plain  # only secrets are ever hidden


def test_undo_mine_takes_back_only_the_callers_own_line() -> None:
    """The page's undo button sends `/undo mine`: the GM's click never takes back a player's
    line (typed `/undo` still does, as a ruling); a player's `/undo` is always `mine`."""
    t = table()
    t.run("@ゴブリン :HP-2", GM)
    t.run(":HP-1", ALICE, speaker="アリス")
    refused = t.refused("/undo mine", GM)
    assert refused.reason == "forbidden" and "アリス" in refused.message.ja
    assert t.refused("/undo please", GM).reason != "forbidden"  # a usage error
    t.run("/undo mine", ALICE, speaker="アリス")  # hers: taken back
    assert t.state.characters["アリス"].hp == 12
    t.run("/undo mine", GM)  # now the newest line is the GM's own
    assert t.state.characters["ゴブリン"].hp == t.state.characters["ゴブリン"].max_hp
    t.run(":HP-1", ALICE, speaker="アリス")
    t.run("/undo", GM)  # typed /undo: the GM takes back anyone's line
    assert t.state.characters["アリス"].hp == 12
