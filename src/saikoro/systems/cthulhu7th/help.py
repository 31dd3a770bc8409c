"""新クトゥルフ神話TRPG's help text (BCDice's words for ``CC``) and its examples."""

from __future__ import annotations

#: The examples of the help message: ``(command, description)``.
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("CC<=30", "技能値30の技能ロール"),
    ("CC1<=65", "ボーナス・ダイス1個で技能値65"),
    ("CC-1<=50", "ペナルティ・ダイス1個で技能値50"),
    ("CC<=70R", "難易度レギュラーで技能値70"),
    ("CC1<=60H", "難易度ハード (目標値30)"),
    ("CC-2<=50E", "難易度イクストリーム (目標値10)"),
    ("CC", "1D100 だけ"),
)

HELP_MESSAGE = (
    "※saikoro は技能ロール CC だけを実装しています (BCDice の CBR・FAR・各種表はありません)。\n"
    "・判定　CC(x)<=（目標値）\n"
    "　x：ボーナス・ペナルティダイス。省略可。\n"
    "　目標値が無くても1D100は表示される。\n"
    "　ファンブル／失敗／　レギュラー成功／ハード成功／\n"
    "　イクストリーム成功／クリティカル を自動判定。\n"
    "　例）CC<=30　CC(2)<=50 CC(+2)<=50 CC(-1)<=75 CC-1<=50 CC1<=65 CC+1<=65 CC\n"
    "\n"
    "・技能ロールの難易度指定　CC(x)<=(目標値)(難易度)\n"
    "　目標値の後に難易度を指定することで\n"
    "　成功／失敗／クリティカル／ファンブル を自動判定する。\n"
    "　難易度の指定：\n"
    "　　r:レギュラー　h:ハード　e:イクストリーム　c:クリティカル\n"
    "　例）CC<=70r CC1<=60h CC-2<=50e CC2<=99c\n"
    "例）\n" + "".join(f"　{cmd}　{what}\n" for cmd, what in EXAMPLES)
)
