"""Help text (Japanese, BCDice style) of 運命判定d100 (its English is made by the commands).

Every line of :data:`HELP_EXAMPLES` appears in the help and is run by a test.
"""

from __future__ import annotations

#: (command, what it does) — each one is run by tests/unmeid100/test_help.py.
HELP_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("1D100<=65", "成功率65%の行為判定 (出目65以下で成功)"),
    ("FATE12", "運命12の運命判定 (1D100<=60)"),
    ("MA60,30,12", "戦闘スキル60・相手AC30・敏捷度12で白兵攻撃"),
    ("RA55,20,10", "盗賊スキル55・AC20・敏捷度10で射撃 (目標値27)"),
    ("RA55,20,10,2", "狙い2手番の射撃 (目標値82、クリティカル20以下)"),
    ("MG70", "魔術スキル70で魔法発動 (無生物や味方が対象)"),
    ("MG70,40,15", "敵対魔法: 相手RC40、自分の魅力15"),
    ("MG70,40,15,O,H", "門外(-10)で発動率半分の敵対魔法 (目標値30)"),
    ("GROW50,30,20,10", "成長率50/30/20/10%の能力値の成長判定"),
    ("GROW体格20,敏捷度40,魅力50,運命30", "能力値の名前つきで成長判定"),
    ("2D6", "ダメージダイス (武器ごとに固定)"),
)

HELP_MESSAGE = (
    "・行為判定　1D100<=成功率　(例：1D100<=65)\n"
    "・運命判定　FATE運命　目標値は運命×5。成功すれば下のいずれか１つ：\n"
    "　直前に失敗した行為判定を成功に／受けるダメージを半分(切り捨て)に／"
    "受ける状態異常を無効に／ダメージダイスを振り直す\n"
    "・白兵攻撃　MA戦闘スキル,相手のAC,敏捷度\n"
    "　出目≦敏捷度：クリティカルヒット(ACに関係なく命中)\n"
    "　出目≦戦闘スキル かつ 出目＞AC：命中／出目≦AC：アーマークラスに防がれる／それ以外：外れ\n"
    "・射撃攻撃　RA盗賊スキル,相手のAC,敏捷度[,狙い手番数0〜2]\n"
    "　目標値は盗賊スキルの半分(切り捨て)。狙い1手番で盗賊スキルそのまま、"
    "2手番で半分の3倍 (盗賊スキル×1.5、切り捨て) かつクリティカルは敏捷度×2以下\n"
    "・魔法発動　MG魔術スキル[,相手のRC,魅力][,O][,H]\n"
    "　O：自分の門ではない魔法(-10)　H：発動率半分(切り捨て)\n"
    "　出目＞目標値：発動失敗(詠唱は継続、次の手番に再挑戦可)\n"
    "　敵対魔法(RC指定時)：出目≦魅力なら抵抗を無視して効果発揮、"
    "出目≦RCなら抵抗される、それ以外は効果発揮\n"
    "・成長判定　GROW成長率1,成長率2,…　能力値ごとに1D100、成長率以下で+1。"
    "成長率の前に能力値名を書いてもよい (GROW体格20,敏捷度40)。"
    "ASCII だけを送るクライアントでは名前なしで (GROW20,40)。"
    "どれも上がらなければ (失敗) 好きな能力値を1つ+1。"
    "結果の値は上がった能力値の数 (1つ以上で成功)\n"
    "・ダメージ　2D6 など武器のダメージダイスをそのまま振る\n"
    "例）\n" + "".join(f"　{cmd}　{what}\n" for cmd, what in HELP_EXAMPLES)
)

#: The usage of each command name, for a line that starts like one but cannot be read
#: (``MA60,30``, ``FATE``): name → (Japanese, English).
USAGE: dict[str, tuple[str, str]] = {
    "FATE": ("FATE運命 (例: FATE12 → 1D100<=60)", "FATE<fate> (e.g. FATE12 → 1D100<=60)"),
    "MA": (
        "MA戦闘スキル,相手のAC,敏捷度 (例: MA60,30,12)",
        "MA<combat skill>,<target's AC>,<agility> (e.g. MA60,30,12)",
    ),
    "RA": (
        "RA盗賊スキル,相手のAC,敏捷度[,狙い0〜2] (例: RA55,20,10)",
        "RA<thief skill>,<target's AC>,<agility>[,<aim 0-2>] (e.g. RA55,20,10)",
    ),
    "MG": (
        "MG魔術スキル[,相手のRC,魅力][,O][,H] (例: MG70,40,15)",
        "MG<magic skill>[,<RC>,<charm>][,O][,H] (e.g. MG70,40,15)",
    ),
    "GROW": (
        "GROW成長率1,成長率2,… (例: GROW体格20,敏捷度40)",
        "GROW<rate 1>,<rate 2>,… (e.g. GROW体格20,敏捷度40)",
    ),
}
