"""A room played from a bound Discord channel: characters by attachment, players' lines
through the table core, roles, secrets, the tracker, slash commands and buttons."""

from __future__ import annotations

from pathlib import Path

from saikoro.store import open_store

from .harness import run, start, stop
from .scene import ROOM, seat_everyone


def _state(db: str):  # the room as the store has it
    store = open_store(db)
    try:
        record = store.get_room(ROOM)
        assert record is not None
        return store.load_state(record)
    finally:
        store.close()


def test_characters_by_attachment_and_a_roll_with_a_reference(tmp_path: Path) -> None:
    from .scene import create_room

    db = str(tmp_path / "t.db")
    create_room(db)

    async def scenario() -> None:
        h = await start(db)
        try:
            await seat_everyone(h, db, tmp_path)
            joined = [r for r in h.responses if r.ephemeral]
            assert [r.content for r in joined] == [
                "アリス が卓に加わりました / アリス joined the table",
                "ボブ が卓に加わりました / ボブ joined the table",
                "ゴブリン が卓に加わりました / ゴブリン joined the table",
            ]
            state = _state(db)
            assert set(state.characters) == {"アリス", "ボブ", "ゴブリン"}
            assert state.characters["ゴブリン"].side == "npc"
            h.dice.push((3, 6), (4, 6))
            await h.say(1, "2D6+{体力}>=8 登攀")
            await h.caught_up()
            last = h.channel_texts()[-1]
            assert last == "アリス: 登攀 (2D6+3>=8) ＞ 10[3,4]+3 ＞ 13 ＞ 成功" or "10" in last, (
                last
            )
            assert "アリス" in last and "成功" in last
            await h.say(1, "今日はよろしく")  # chat: ignored, not logged
            assert h.channel_texts()[-1] == last
            assert not any(e.kind == "chat" for e in _events(db))
        finally:
            await stop(h)

    run(scenario)


def _events(db: str):
    store = open_store(db)
    try:
        record = store.get_room(ROOM)
        assert record is not None
        return list(store.iter_events(record, after=0))
    finally:
        store.close()


async def _seated(tmp_path: Path):
    from .scene import create_room

    db = str(tmp_path / "t.db")
    created = create_room(db)
    h = await start(db)
    await seat_everyone(h, db, tmp_path)
    return db, created, h


def test_attack_by_slash_command_and_the_tracker_edited_in_place(tmp_path: Path) -> None:
    async def scenario() -> None:
        db, _created, h = await _seated(tmp_path)
        try:
            alice, bob = h.member(1), h.member(2)
            await h.say(0, "/combat start")
            await h.caught_up()
            await h.settle()
            trackers = [s for s in h.sent if s.content and s.content.startswith("⚔")]
            assert len(trackers) == 1, h.channel_texts()
            board = trackers[0]
            assert "▶ **アリス** の手番" in (board.content or "")
            # "your turn" mentions アリス's player only
            turn = [s for s in h.sent if s.content and "の手番です" in s.content]
            assert turn and turn[0].content.startswith(f"<@{alice.id}> アリス")
            assert turn[0].allowed_mentions == {
                "parse": [],
                "users": [alice.id],
                "replied_user": False,
            } or turn[0].allowed_mentions["users"] == [alice.id]
            # 攻撃値 4+[3,4]=11, 防御値 4+[2,2]=8 → 3 damage: ゴブリン 8→5
            h.dice.push((3, 6), (4, 6), (2, 6), (2, 6))
            await h.slash(1, "attack", {"target": "ゴブリン", "extra": "技巧"})
            await h.caught_up()
            assert _state(db).characters["ゴブリン"].hp == 5
            answered = [r for r in h.responses if r.kind == "response" and not r.ephemeral]
            assert any("ゴブリン" in (r.content or "") for r in answered), h.responses
            # the tracker message is edited (the same message), not posted again
            await h.settle()
            assert [s for s in h.sent if (s.content or "").startswith("⚔")] == [board]
            edits = [e for e in h.edits if e.message_id == board.message_id]
            assert edits and "HP 5/8" in (edits[-1].content or ""), h.edits
            # coalesced: draws at least one interval apart on the injected clock
            assert all(wait <= 1.0 for wait in h.clock.sleeps)
            assert not any(t for t in (bob.id,) if f"<@{t}>" in "".join(h.channel_texts()[:3]))
        finally:
            await stop(h)

    run(scenario)


def test_a_button_press_runs_the_verb_for_the_current_actor(tmp_path: Path) -> None:
    async def scenario() -> None:
        db, _created, h = await _seated(tmp_path)
        try:
            await h.say(0, "/combat start")
            await h.caught_up()
            assert _state(db).combat.current == "アリス"
            # the attack button asks for the target first (a select menu, to the presser)
            await h.press(1, "saikoro:verb:attack")
            picker = h.responses[-1]
            assert picker.ephemeral and picker.components, picker
            options = picker.components[0]["components"][0]["options"]
            assert {o["value"] for o in options} == {"ボブ", "ゴブリン"}
            # ボブ's player may not act in アリス's turn: refused, nothing changed
            before = _state(db)
            await h.press(2, "saikoro:verb:pass")
            refusal = h.responses[-1]
            assert refusal.ephemeral and " / " in (refusal.content or ""), refusal
            assert _state(db).version == before.version
            # アリス's player passes: the turn moves on
            await h.press(1, "saikoro:verb:pass")
            await h.caught_up()
            assert _state(db).combat.current != "アリス"
            assert any("アリス" in (r.content or "") for r in h.responses if not r.ephemeral)
        finally:
            await stop(h)

    run(scenario)


def test_a_players_edit_of_anothers_hp_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        db, _created, h = await _seated(tmp_path)
        try:
            before = _state(db)
            await h.say(2, "@アリス :HP-3")
            reply = h.channel_texts()[-1]
            assert reply.startswith("⚠ ") and " / " in reply, reply
            ja, en = reply[2:].split(" / ", 1)
            assert ja and en and ja != en
            after = _state(db)
            assert after.version == before.version
            assert after.characters["アリス"].hp == before.characters["アリス"].hp
            await h.say(2, ":HP-3")  # ボブ's own HP: fine
            await h.caught_up()
            assert _state(db).characters["ボブ"].hp == before.characters["ボブ"].hp - 3
        finally:
            await stop(h)

    run(scenario)


def test_a_secret_roll_is_seen_by_the_roller_and_the_gm_only_then_revealed(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        _db, _created, h = await _seated(tmp_path)
        try:
            gm, alice, bob = h.member(0), h.member(1), h.member(2)
            h.dice.push((6, 6), (5, 6))
            await h.say(1, "S2D6>=7")
            await h.caught_up()
            texts = h.channel_texts()
            assert texts[-1] == "アリス: シークレットダイス", texts
            assert not any("11[6,5]" in t for t in texts)
            assert any("11[6,5]" in t for t in h.dms_to(alice)), h.sent
            assert any("11[6,5]" in t for t in h.dms_to(gm))
            assert not h.dms_to(bob)
            await h.say(1, "/reveal")
            await h.caught_up()
            assert "11[6,5]" in h.channel_texts()[-1], h.channel_texts()
        finally:
            await stop(h)

    run(scenario)


def test_everyone_in_a_players_line_never_pings(tmp_path: Path) -> None:
    async def scenario() -> None:
        _db, _created, h = await _seated(tmp_path)
        try:
            h.dice.push((3, 6), (4, 6))
            await h.say(1, "2D6 @everyone @here <@&123> 見て")
            await h.say(1, "@アリス @everyone 集まれ")
            await h.caught_up()
            echoed = [s for s in h.sent if "@everyone" in (s.content or "")]
            assert len(echoed) == 2, h.channel_texts()
            for sent in echoed:
                assert sent.allowed_mentions == {"parse": []}
            # every message but "your turn" mentions nobody
            for sent in h.sent:
                assert sent.allowed_mentions is not None
                assert sent.allowed_mentions.get("parse") == []
        finally:
            await stop(h)

    run(scenario)


def test_tracker_edits_are_coalesced_to_one_per_second(tmp_path: Path) -> None:
    """Many changes in a moment make one edit; two edits are at least a second apart on
    the (injected) clock, whatever the changes' pace."""

    async def scenario() -> None:
        _db, _created, h = await _seated(tmp_path)
        try:
            await h.say(0, "/combat start")
            await h.caught_up()
            board = h.bot.plays[h.channel.id].board
            drawn = board.draws
            for _ in range(5):
                board.request()
            await h.settle()
            assert board.draws == drawn + 1
            for line in (":HP-1", ":HP-1", ":HP-1"):
                await h.say(1, line)
            await h.caught_up()
            assert board.draws >= drawn + 2
            gaps = [b - a for a, b in zip(board.drawn_at, board.drawn_at[1:], strict=False)]
            assert gaps and all(gap >= 1.0 for gap in gaps), board.drawn_at
            assert "HP 9/12" in (h.edits[-1].content or "")
        finally:
            await stop(h)

    run(scenario)


def test_newroom_binds_a_new_room_and_a_player_takes_a_pc_by_name(tmp_path: Path) -> None:
    from saikoro.store.links import Link
    from saikoro.table import rooms

    from .scene import SHEETS

    db = str(tmp_path / "t.db")

    async def scenario() -> None:
        h = await start(db)
        try:
            await h.slash(0, "newroom", {"name": "新卓", "system": "littleworld"})
            answer = h.responses[-1]
            assert answer.ephemeral and "新卓 (LittleWorld)" in (answer.content or ""), answer
            store = open_store(db)
            try:  # the GM put ボブ in the room as a PC (on the web table, say)
                gm = Link("x", "新卓", "gm", None, "", False)
                rooms.add_character(store, "新卓", gm, (SHEETS / "bob.json").read_text(), "pc")
            finally:
                store.close()
            await h.slash(2, "char", {"name": "ボブ"})
            assert h.responses[-1].content == "ボブ が卓に加わりました / ボブ joined the table"
            await h.say(2, ":HP-2")
            await h.caught_up()
            assert h.channel_texts()[-1].startswith("ボブ"), h.channel_texts()
            await h.slash(1, "char", {"name": "ボブ"})  # held already: refused
            assert h.responses[-1].ephemeral and "⚠" in (h.responses[-1].content or "")
            await h.slash(1, "newroom", {"name": "新卓", "system": "LittleWorld"})
            assert "⚠" in (h.responses[-1].content or "")  # the name is taken
        finally:
            await stop(h)

    run(scenario)
