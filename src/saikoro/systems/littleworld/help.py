"""Help text (Japanese, as BCDice prints it) of 帽子世界TRPG (its English is made by the commands).

Every line of ``HELP_MESSAGE`` that starts with ``　`` followed by a command and ``：`` is
an example; the tests run each one (``EXAMPLES``).
"""

from __future__ import annotations

HELP_MESSAGE = """\
・行動判定 LW<能力値>[>=<目標値>]
　2D6+能力値で判定します。能力値が1なら苦手行動で1D6+能力値です。
　6が2個以上でクリティカル(必ず成功)、全ての出目が1でファンブル(必ず失敗)。
　苦手行動(1D6)はクリティカルになりませんが、1の目でファンブルします。
　目標値を書くと成否と難易度の目安(易しい/普通/難しい/専門技術があっても困難)を表示します。
　LW3：【技巧】3で判定(目標値なし)
　LW3>=10：能力値3、目標値10の判定
　LW3+1>=10：能力値3に修正+1 (ダイスは能力値で決まります)
　LW1>=5：能力値1の苦手行動(1D6+1)
・対抗判定 LWO<能動側の能力値>-<受動側の能力値>
　同値は挑戦を受けた側(受動側)の勝ち。クリティカルは必ず勝ち(両者クリティカルは受動側の勝ち)、
　ファンブルは必ず負け。成功＝能動側の勝ち。
　LWO3-2：能力値3で能力値2の相手に挑む
・攻撃 LWA<攻撃側の能力値>-<防御側の能力値>
　攻撃値(2D6+能力値)−防御値(2D6+同じ能力値)がダメージ(0未満にはなりません)。
　攻撃側クリティカル：防御側の能力値を0として防御値を計算。
　攻撃側ファンブル：攻撃失敗、ダメージ0(防御のダイスは振りません)。
　防御側クリティカル：完全回避でダメージ0(攻撃側クリティカルより優先)。
　防御側ファンブル：防御値0。
　LWA3-2：能力値3で攻撃、防御側の能力値2
　LWA1-4：苦手行動(1D6+1)での攻撃
・防御できない相手への攻撃(麻痺・混乱・不意打ちなど) LWA<攻撃側の能力値>[-X]
　攻撃値がそのままダメージになります。
　LWA4：防御不能の相手に能力値4で攻撃
　LWA4-X：同上
・行動と能力値 LWT<行動>
　LWT水泳：水泳に使う能力値(体力)
　LWT目星：目星に使う能力値(技巧)
　LWTSWIM：LWT水泳と同じ(ASCII だけを送るクライアント向けの英語名)
・通常の加算ロールでもクリティカル・ファンブルを判定します(比較があるとき)。
　2D6+3>=10：2D6+3で目標値10
　1D6+1>=5：1D6+1で目標値5
"""

#: The examples of the help message: ``(command, description)``.
EXAMPLES: tuple[tuple[str, str], ...] = tuple(
    (line[1:].split("：", 1)[0], line.split("：", 1)[1])
    for line in HELP_MESSAGE.splitlines()
    if line.startswith("　") and "：" in line and line[1:2].isascii() and line[1:2].isalnum()
)
