"""The Discord table's first slice: bare dice, a bound room, players' lines, secrets."""

from __future__ import annotations

from pathlib import Path

from .harness import run, start, stop

REPO = Path(__file__).resolve().parents[2]
SHEETS = REPO / "tests" / "table" / "sheets"


def test_bare_dice_answered_chat_ignored(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")

    async def scenario() -> None:
        h = await start(db)
        try:
            h.dice.push((3, 6), (4, 6))
            await h.say(1, "2D6>=7")
            h.dice.push((50, 100))
            await h.say(1, "１Ｄ１００<=65 目星")
            await h.say(1, "こんにちは、今日は何する?")
            texts = h.channel_texts()
            assert texts == [
                "user1_1_nick: (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
                "user1_1_nick: (1D100<=65) ＞ 50 ＞ 成功",
            ], texts
            assert all(s.allowed_mentions == {"parse": []} for s in h.sent)
        finally:
            await stop(h)

    run(scenario)
