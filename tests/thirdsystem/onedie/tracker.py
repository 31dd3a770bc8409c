"""ワンダイス at the table: ``/hit TARGET`` deals 1D6 damage (OD-HIT-01) and ends the turn."""

from __future__ import annotations

from saikoro.i18n import Message
from saikoro.table.emit import Emit
from saikoro.table.tracker import Tracker


class OneDieTracker(Tracker):
    system = "OneDie"

    def __init__(self) -> None:
        self.verbs = {"hit": self.hit}
        self.verb_help = {"hit 目標": Message("1D6 ダメージ (OD-HIT-01)", "1D6 damage")}

    def hit(self, emit: Emit, actor: str, args: list[str]) -> None:
        target = emit.character(args[0] if args else "")
        damage = emit.randomizer.roll_once(6)
        hp = target.hp - damage
        emit.set_status(
            target.name,
            "hp",
            hp,
            old=target.hp,
            rules=("OD-HIT-01",),
            note=Message(
                f"{actor} → {target.name} ＞ ダメージ{damage} (HP {hp})",
                f"{actor} → {target.name} > damage {damage} (HP {hp})",
            ),
        )
