"""A simulation's summary for a terminal (Rich), in Japanese or English."""

from __future__ import annotations

from typing import Any

from saikoro.simulate.stats import Rate, Summary


def _pct(rate: Rate, with_interval: bool = True) -> str:
    low, high = rate.interval
    shown = f"{100 * rate.value:.1f}%"
    return f"{shown} [{100 * low:.1f}–{100 * high:.1f}]" if with_interval else shown


def render(summary: Summary, console: Any, lang: str = "ja") -> None:
    from rich.table import Table

    ja = lang == "ja"
    side_names = {"pc": "味方" if ja else "party", "npc": "敵" if ja else "enemies"}
    head = (
        f"{summary.system}: {summary.fights:,} 戦 (seed {summary.seed}, "
        f"方針 {summary.policies['pc']} / {summary.policies['npc']}, "
        f"{summary.seconds:.1f} 秒)"
        if ja
        else f"{summary.system}: {summary.fights:,} fights (seed {summary.seed}, "
        f"policies {summary.policies['pc']} / {summary.policies['npc']}, "
        f"{summary.seconds:.1f} s)"
    )
    console.print(head)
    wins = Table(title="勝率 (95% 信頼区間)" if ja else "win rate (95% CI)")
    wins.add_column("")
    wins.add_column("勝率" if ja else "rate", justify="right")
    for side in ("pc", "npc"):
        wins.add_row(
            f"{side_names[side]} の勝ち" if ja else f"{side_names[side]} win",
            _pct(summary.wins[side]),
        )
    wins.add_row("引き分け" if ja else "draw", _pct(summary.wins["draw"]))
    console.print(wins)
    if summary.capped:
        console.print(
            f"{summary.capped} 戦は {summary.round_cap} ラウンドで終わらず引き分けに数えました"
            if ja
            else f"{summary.capped} fights did not end within {summary.round_cap} rounds: "
            "counted as draws"
        )
    people = Table(title="キャラクター" if ja else "characters")
    for column in (
        ("名前", "name"),
        ("陣営", "side"),
        ("倒れる", "down"),
        ("死亡", "dies"),
        ("与ダメージ", "dealt"),
        ("被ダメージ", "taken"),
    ):
        people.add_column(
            column[0] if ja else column[1],
            justify="left" if column[1] in ("name", "side") else "right",
        )
    for c in summary.characters:
        people.add_row(
            c.name,
            side_names.get(c.side, c.side),
            _pct(c.down),
            _pct(c.dead, with_interval=False),
            f"{c.dealt:.1f}",
            f"{c.taken:.1f}",
        )
    console.print(people)
    spread = ", ".join(
        f"{r}: {100 * n / summary.fights:.1f}%" for r, n in sorted(summary.rounds.items())
    )
    console.print(
        f"ラウンド数: 平均 {summary.mean_rounds:.2f} ({spread})"
        if ja
        else f"rounds: mean {summary.mean_rounds:.2f} ({spread})"
    )
