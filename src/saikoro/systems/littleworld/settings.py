"""House-rule settings of 帽子世界TRPG: every *default* of RULES.md System A as a named field.

The seed leaves many things to the GM. Where RULES.md picks a default, or where this
implementation had to pick one, it is a field here with the default value, so a GM
can change it per table or campaign (``LittleWorldSettings(poison_stacking="add")``).
Each field's description names the rule it belongs to. ``docs/rules/LittleWorld.md``
lists them all.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: LW-HP-01 at the table: the most nights one ``/gm rest`` covers (each night writes a few
#: events per character, so the number must be bounded; a month of rest is plenty).
MAX_REST_NIGHTS = 30
#: LW-HP-01: the longest night the ``night_minutes`` setting may make (a whole day).
MAX_NIGHT_MINUTES = 1440
#: LW-COND-02…04 at the table: the most minutes one ``/gm time`` passes (30 days).
MAX_ELAPSED_MINUTES = MAX_REST_NIGHTS * MAX_NIGHT_MINUTES

#: LW-SPECIAL-01: specialist actions and the skill cards that allow them (default: the
#: card of the same name; the seed does not name the cards).
DEFAULT_SPECIALIST_CARDS: dict[str, list[str]] = {
    "罠設置": ["罠設置"],
    "開錠": ["開錠"],
    "偵察": ["偵察"],
    "潜入": ["潜入"],
    "足音を立てない歩行": ["足音を立てない歩行", "忍び足"],
    "尾行": ["尾行"],
    "読心": ["読心"],
}


#: LW-SPECIAL-01: other names players type for each specialist action (the action's own name
#: always counts). Matched whole after normalising width and case and dropping a trailing
#: する (``偵察する``, ``ｶｷﾞｱｹ`` are not needed here). Booby traps (落とし穴, 鳴子) are 罠設置,
#: as the seed says. Not here on purpose: the task table's own tasks 隠密行動 and 追跡
#: (LW-ABIL-02), which anyone may attempt.
DEFAULT_SPECIALIST_NAMES: dict[str, list[str]] = {
    "罠設置": [
        "罠", "わな", "トラップ", "罠を仕掛ける", "罠仕掛け", "罠作り", "落とし穴", "鳴子",
        "ブービートラップ", "trap", "set trap",
    ],
    "開錠": [
        "解錠", "鍵開け", "鍵を開ける", "ピッキング", "錠前破り", "unlock", "lockpick",
        "lockpicking",
    ],
    "偵察": ["斥候", "偵察行動", "recon", "reconnaissance"],
    "潜入": ["潜入行動", "忍び込む", "忍び込み", "infiltrate", "infiltration"],
    "足音を立てない歩行": [
        "忍び足", "忍び歩き", "抜き足", "抜き足差し足", "足音を立てずに歩く", "無音歩行", "スニーク",
        "sneak", "sneaking",
    ],
    "尾行": ["後をつける", "あとをつける", "後をつけ", "tail", "tailing"],
    "読心": ["読心術", "心を読む", "読心能力", "マインドリーディング", "mind reading"],
}  # fmt: skip


#: LW-SPECIAL-03: vehicles that need a special licence (「船や飛行機など」): refused. A name
#: matches an entry when it is the entry, or ends with an entry of two or more characters
#: (大型ボート, 戦闘ヘリ, 熱気球); one-character entries (船, 艦) match only whole, so 風船
#: (a toy balloon) is not a ship.
DEFAULT_LICENCE_VEHICLES: tuple[str, ...] = (
    # ships and boats
    "船", "艦", "船舶", "艦船", "漁船", "帆船", "客船", "貨物船", "商船", "汽船", "蒸気船",
    "戦艦", "軍艦", "潜水艦", "潜水艇", "ボート", "ヨット", "クルーザー", "フェリー",
    "水上バイク", "ジェットスキー",
    # aircraft and spacecraft
    "飛行機", "航空機", "旅客機", "輸送機", "戦闘機", "爆撃機", "ジェット機", "ジェット",
    "水上機", "複葉機", "プロペラ機", "セスナ", "グライダー", "ヘリ", "ヘリコプター",
    "気球", "飛行船", "ロケット", "スペースシャトル", "宇宙船", "UFO",
    # other vehicles a licence of their own is needed for
    "戦車", "装甲車", "電車", "列車", "機関車", "汽車", "新幹線", "重機", "ブルドーザー",
    "ship", "boat", "yacht", "submarine", "plane", "airplane", "aeroplane", "aircraft",
    "jet", "helicopter", "balloon", "airship", "rocket", "spaceship", "tank", "train",
)  # fmt: skip

#: LW-SPECIAL-03: cars and bikes, driven with a 技巧 check that must exceed the target
#: (matched as the licence vehicles). Anything in neither list is the GM's call.
DEFAULT_CHECK_VEHICLES: tuple[str, ...] = (
    "車", "自動車", "乗用車", "軽トラ", "トラック", "バン", "ワゴン", "ジープ", "タクシー",
    "カー", "バイク", "オートバイ", "原付", "スクーター", "自転車",
    "car", "bike", "motorbike", "motorcycle", "scooter", "truck", "van", "jeep", "taxi",
    "bicycle",
)  # fmt: skip


#: LW-SPECIAL-01: the ability a specialist action's check uses (the seed does not say).
DEFAULT_SPECIALIST_ABILITIES: dict[str, Literal["体力", "技巧", "理知"]] = {
    "罠設置": "技巧",
    "開錠": "技巧",
    "偵察": "技巧",
    "潜入": "技巧",
    "足音を立てない歩行": "技巧",
    "尾行": "技巧",
    "読心": "理知",
}


class LittleWorldSettings(BaseModel):
    """GM-changeable rules of 帽子世界TRPG (defaults = RULES.md System A)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # -- checks ---------------------------------------------------------------
    weak_action_below_one: bool = Field(
        json_schema_extra={"ja": "能力値が1未満に下がっても苦手行動 (1D6) にする"},
        default=True,
        description="LW-CHECK-02: an ability of 1 rolls 1D6 (苦手行動); with this default an "
        "ability lowered below 1 (sleep halving 1, equipment loss) is weak too; False: it "
        "rolls 2D6.",
    )
    critical_sixes: int = Field(
        json_schema_extra={"ja": "クリティカルになる6の個数"},
        default=2,
        ge=1,
        description="LW-CHECK-03: how many 6s make a critical.",
    )
    sum_crit_without_comparison: bool = Field(
        json_schema_extra={"ja": "比較のない合計 (2D6+3) でもクリティカル/ファンブルを判定する"},
        default=False,
        description="LW-CHECK-03 on generic sums: judge クリティカル/ファンブル on a sum without "
        "a comparison (2D6+3). Default False, as BCDice's Arianrhod: a bare sum (1D6 for a "
        "random pick) is just a number; use LW<a> for a check without a target.",
    )
    opposed_passive_rolls_on_active_fumble: bool = Field(
        json_schema_extra={"ja": "対抗判定で能動側がファンブルしても受動側も振る"},
        default=True,
        description="LW-CHECK-05: in an opposed check both sides roll, even when the active "
        "side fumbles (it loses anyway).",
    )

    # -- conditions -------------------------------------------------------------
    poison_stacking: Literal["higher", "add", "replace"] = Field(
        json_schema_extra={"ja": "毒の重ね掛け: higher=高い方 / add=加算 / replace=上書き"},
        default="higher",
        description="LW-COND-02: a second poison keeps the higher level (default), adds, "
        "or replaces the first.",
    )
    poison_interval_minutes: int = Field(
        json_schema_extra={"ja": "安静時に毒が1回進む間隔 (分)"},
        default=30,
        ge=1,
        description="LW-COND-02: minutes of rest per poison tick.",
    )
    poison_ticks_while_exploring: bool = Field(
        json_schema_extra={"ja": "安静状態以外の時間でも毒が進む"},
        default=False,
        description="LW-COND-02: the seed ticks poison every 30 minutes *at rest* (安静状態); "
        "whether other out-of-combat time counts is left to the GM (default: no).",
    )
    paralysis_recovery_turns: int = Field(
        json_schema_extra={"ja": "戦闘中、麻痺が治るまでの自分の手番数"},
        default=2,
        ge=1,
        description="LW-COND-03: own turns passed to recover in combat.",
    )
    paralysis_recovery_minutes: int = Field(
        json_schema_extra={"ja": "戦闘外で麻痺が治るまでの時間 (分、目安)"},
        default=30,
        ge=1,
        description="LW-COND-03: minutes to recover out of combat (about).",
    )
    sleep_recovery_turns: int = Field(
        json_schema_extra={"ja": "戦闘中、睡眠から覚めるまでの自分の手番数"},
        default=3,
        ge=1,
        description="LW-COND-04: own turns spent to wake in combat.",
    )
    sleep_recovery_minutes: int = Field(
        json_schema_extra={"ja": "戦闘外で睡眠から覚めるまでの時間 (分、目安)"},
        default=60,
        ge=1,
        description="LW-COND-04: minutes to wake out of combat (about).",
    )
    sleeping_can_defend: bool = Field(
        json_schema_extra={"ja": "睡眠中でも (能力値半分で) 防御できる"},
        default=True,
        description="LW-COND-04: a sleeping character may still defend, with halved abilities.",
    )
    sleeping_can_act: bool = Field(
        json_schema_extra={"ja": "睡眠中でも (能力値半分・スキルカードなしで) 行動できる"},
        default=True,
        description="LW-COND-04: a sleeping character may act on their turn with halved "
        "abilities and no skill cards (the seed only says those two limits); each own turn "
        "counts toward waking.",
    )
    confusion_label: str = Field(
        json_schema_extra={"ja": "「精神の均衡を失った」状態の表示名"},
        default="混乱",
        min_length=1,
        description="LW-COND-05: the name shown for the unnamed 'lost mental balance' state.",
    )

    # -- combat -----------------------------------------------------------------
    defender_critical_beats_attacker_critical: bool = Field(
        json_schema_extra={"ja": "防御側のクリティカルは攻撃側のクリティカルでも完全回避"},
        default=True,
        description="LW-COMBAT-08: a defender critical evades completely even against an "
        "attacker critical (the defender received the challenge, LW-CHECK-05).",
    )
    damage_floor_zero: bool = Field(
        json_schema_extra={"ja": "ダメージは0未満にならない (同値は0ダメージ)"},
        default=True,
        description="LW-COMBAT-10: damage never goes below 0 (a tie deals 0).",
    )
    weak_dice_from_real_ability: bool = Field(
        json_schema_extra={
            "ja": "攻撃クリティカルで防御側の能力値が0扱いでも、ダイス数は本来の能力値で決める"
        },
        default=True,
        description="LW-COMBAT-06 with LW-CHECK-02: after an attacker critical the defender's "
        "ability counts as 0, but the number of dice (1D6 for a weak ability) still follows "
        "the real ability.",
    )
    tied_pcs_order: Literal["listed", "name"] = Field(
        json_schema_extra={
            "ja": "同値のPCの手番順 (プレイヤーが決めるまで): listed=登録順 / name=名前順"
        },
        default="listed",
        description="LW-COMBAT-02: order of tied PCs until the players choose: as listed "
        "(default) or by name.",
    )
    delay_once_per_round: bool = Field(
        json_schema_extra={"ja": "ラウンドの最後への手番送りは1ラウンドに1回まで"},
        default=True,
        description="LW-COMBAT-03: a character may pass to the end of the round once per round.",
    )
    rows_return_when_front_recovers: bool = Field(
        json_schema_extra={"ja": "前衛が戦闘中に復帰したら繰り上がった後衛を戻す"},
        default=False,
        description="LW-COMBAT-16: back-liners moved up by the collapse go back when a "
        "front-liner of their side can act again (healed, woken) during the combat; by "
        "default only a front-liner joining the combat, or its end, sends them back.",
    )
    party_down_counts_paralysis: bool = Field(
        json_schema_extra={"ja": "麻痺したPCも全滅の判定で行動不能に数える"},
        default=False,
        description="LW-HP-03: a paralysed PC counts as unable to act for 'party down' "
        "(default: only HP ≤ 0 is 行動不能, LW-ABIL-01).",
    )

    # -- turns and the action gate (issue 21) -------------------------------------------
    off_turn_actions: Literal["refuse", "cost", "free"] = Field(
        json_schema_extra={
            "ja": "戦闘中、他人の手番での行動 (治癒魔法・野草採取・/act…): refuse=不可 / "
            "cost=自分の次の手番を消費 / free=自由"
        },
        default="refuse",
        description="LW-TABLE-09: an action in combat on another character's turn (healing "
        "magic, /act, /herb, /device…): refused (default: the seed's turns — each acts on "
        "their own 手番, 「次の行動者が行動します」), 'cost': allowed, and the actor's own next "
        "turn is spent, or 'free' (allowed at no cost).",
    )
    off_turn_cards: Literal["free", "cost", "refuse"] = Field(
        json_schema_extra={
            "ja": "戦闘中、他人の手番でのスキルカード宣言 (/card): free=自由 (防御側の宣言) / "
            "cost=自分の次の手番を消費 / refuse=不可"
        },
        default="free",
        description="LW-TABLE-09: declaring a skill card (/card) on another character's turn: "
        "free by default (the seed: the attack's target declares its card before the defence "
        "roll, on the attacker's turn), 'cost' (the actor's next turn is spent) or 'refuse'.",
    )
    minor_actions_cost_action: bool = Field(
        json_schema_extra={"ja": "/swim off・/ride off・/hat を戦闘中の行動として数える"},
        default=False,
        description="LW-TABLE-10 (not in the rulebook): leaving the water (/swim off), "
        "dismounting (/ride off) and the hat (/hat) cost no action by default; True: in "
        "combat they end the actor's turn, and on another's turn they follow "
        "off_turn_actions.",
    )
    rows_collapse_counts_conditions: bool = Field(
        json_schema_extra={"ja": "隊列の繰り上げで、麻痺・混乱の前衛も行動不能に数える"},
        default=True,
        description="LW-COMBAT-16 (not in the rulebook): a front-liner who cannot act for a "
        "condition (paralysis, confusion) counts as 行動不能 for moving the back row up "
        "(default); False: only HP ≤ 0 counts (LW-ABIL-01), as for party down.",
    )
    rows_return_when_combat_ends: bool = Field(
        json_schema_extra={"ja": "戦闘終了時、繰り上がった後衛を後衛に戻す"},
        default=True,
        description="LW-COMBAT-16 (not in the rulebook): back-liners moved up by the collapse "
        "go back to the back row when the combat ends (default); False: they stay in the "
        "front row.",
    )
    poison_ticks_on_skipped_turns: bool = Field(
        json_schema_extra={"ja": "HP 0以下で飛ばされる手番にも毒が進む"},
        default=False,
        description="LW-COND-02 (not in the rulebook): poison also ticks on the combat turns "
        "a character at HP ≤ 0 does not take (default: no, a skipped turn does not come).",
    )
    poison_below_zero_at_rest: bool = Field(
        json_schema_extra={"ja": "安静時の毒でHPが0未満まで減る"},
        default=True,
        description="LW-COND-02 (not in the rulebook): poison at rest (/gm time, /gm rest) "
        "keeps taking HP below 0 (default); False: it stops at 0 (and at a character "
        "already at HP ≤ 0).",
    )
    cure_place_anywhere: bool = Field(
        json_schema_extra={"ja": "/cure 病院・教会 をどこでも使える (falseならGMの行だけ)"},
        default=True,
        description="LW-COND-05 (not in the rulebook): a player's /cure NAME 病院|教会 works "
        "anywhere (default); False: only a GM's line (a ruling that they are at a hospital "
        "or church) cures by them.",
    )
    downed_target_can_defend: bool = Field(
        json_schema_extra={"ja": "HP 0以下の目標も防御判定を行う"},
        default=False,
        description="LW-COMBAT-11 (not in the rulebook): a target at HP ≤ 0 does not defend "
        "(default: it cannot act on its own, LW-HP-02); True: it rolls its defence.",
    )
    mount_in_combat: bool = Field(
        json_schema_extra={"ja": "戦闘中でも騎乗できる"},
        default=False,
        description="LW-SPECIAL-02 (not in the rulebook): mounting is refused during a combat "
        "by default (the seed forbids only fighting while mounted); True: allowed.",
    )
    ride_swim_exclusive: bool = Field(
        json_schema_extra={"ja": "騎乗と水泳は同時にできない"},
        default=True,
        description="LW-SPECIAL-02/05 (not in the rulebook): riding and swimming exclude each "
        "other (default: /ride refused while swimming, /swim while mounted); False: both.",
    )

    # -- rest ---------------------------------------------------------------------
    rest_bonus: int = Field(
        json_schema_extra={"ja": "一晩の休息で回復するHP = 体力 + この値"},
        default=6,
        ge=0,
        description="LW-HP-01: one night's rest recovers 体力 + this.",
    )
    night_minutes: int = Field(
        json_schema_extra={"ja": "一晩の休息 (/gm rest) の長さ (分)。すべて安静状態"},
        default=480,
        ge=0,
        le=MAX_NIGHT_MINUTES,
        description="LW-HP-01 with LW-COND-02…04: how long one night's rest (/gm rest) lasts, "
        "0 to 1440 minutes; all of it is 安静状態 (poison ticks every "
        "poison_interval_minutes, paralysis and sleep wear off). The seed does not say; "
        "default 8 hours.",
    )

    # -- special situations ---------------------------------------------------------
    specialist_cards: dict[str, list[str]] = Field(
        json_schema_extra={"ja": "専門行動 → それを許すスキルカード"},
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_SPECIALIST_CARDS.items()},
        description="LW-SPECIAL-01: specialist action → skill cards that allow it.",
    )
    specialist_names: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_SPECIALIST_NAMES.items()},
        json_schema_extra={
            "ja": "専門行動の別名 (鍵開け → 開錠、忍び足 → 足音を立てない歩行 など)"
        },
        description="LW-SPECIAL-01: specialist action → other names players type for it "
        "(synonyms, 鍵開け for 開錠, 忍び足 for 足音を立てない歩行, 落とし穴 for 罠設置); "
        "matched whole, full-/half-width and case folded, a trailing する dropped.",
    )
    herb_cards: tuple[str, ...] = Field(
        json_schema_extra={"ja": "薬草採取ができるスキルカード"},
        default=("スカウト", "錬金術師", "農民"),
        description="LW-SPECIAL-08: skill cards that allow herb gathering.",
    )
    specialist_abilities: dict[str, Literal["体力", "技巧", "理知"]] = Field(
        json_schema_extra={"ja": "専門行動 (/act) の判定に使う能力値"},
        default_factory=lambda: dict(DEFAULT_SPECIALIST_ABILITIES),
        description="LW-SPECIAL-01: the ability of a specialist action's check at the table "
        "(/act), which the seed does not name: 技巧 for the hand-and-foot skills, 理知 for "
        "読心; /act ACTION ABILITY overrides it.",
    )
    herb_target: int = Field(
        json_schema_extra={"ja": "薬草採取の技巧判定の目標値"},
        default=10,
        ge=0,
        description="LW-SPECIAL-08: target of the 技巧 check (about 10).",
    )
    breath_seconds_per_body: int = Field(
        json_schema_extra={"ja": "息止めの限界 = 体力 × この秒数"},
        default=30,
        ge=0,
        description="LW-SPECIAL-05: breath-hold limit = 体力 × this seconds.",
    )
    licence_vehicles: tuple[str, ...] = Field(
        default=DEFAULT_LICENCE_VEHICLES,
        json_schema_extra={"ja": "特殊な免許が要る乗り物 (船・飛行機など): PC は操縦できない"},
        description="LW-SPECIAL-03: vehicles that need a special licence (ships, boats, "
        "aircraft, …): PCs cannot operate them. A name matches an entry it equals or ends "
        "with (entries of two or more characters: 大型ボート, 戦闘ヘリ).",
    )
    check_vehicles: tuple[str, ...] = Field(
        default=DEFAULT_CHECK_VEHICLES,
        json_schema_extra={"ja": "技巧判定で運転できる乗り物 (車・バイク)。それ以外は GM が決める"},
        description="LW-SPECIAL-03: cars and bikes, driven with a 技巧 check (matched as "
        "licence_vehicles); any other vehicle is the GM's call.",
    )
    vehicle_must_exceed: bool = Field(
        json_schema_extra={"ja": "乗り物の判定は目標値を上回ったときだけ成功"},
        default=True,
        description="LW-SPECIAL-03: a car or bike check succeeds only when the 技巧 check "
        "exceeds (上回る) the target, as the seed says; False: reaching it is enough, as "
        "other checks.",
    )
    water_penalty: bool = Field(
        json_schema_extra={"ja": "水中の不利 (水中で戦闘不可、息止め) がある世界"},
        default=True,
        description="LW-SPECIAL-05: the world has the water penalty (no combat in water, "
        "breath limit); False for a world with breathable water.",
    )

    # -- keeper (管理人) ---------------------------------------------------------------
    keeper_floor_percent: int = Field(
        json_schema_extra={"ja": "価値観をこの値以下にはできない (報酬でも)"},
        default=1,
        ge=0,
        description="LW-KEEPER-02: nothing can be set at or below this 価値観, and a reward "
        "may not take 価値観 below it (overspending).",
    )
    keeper_exp_cost: int = Field(
        json_schema_extra={"ja": "経験点1点あたりの価値観 (%)"},
        default=4,
        ge=0,
        description="LW-KEEPER-02: % per experience point (any party size).",
    )
    keeper_exp_max: int = Field(
        json_schema_extra={"ja": "PC1人あたりの経験点の上限"},
        default=10,
        ge=0,
        description="LW-KEEPER-02: most experience points per PC.",
    )
    keeper_cr_per_percent: int = Field(
        json_schema_extra={"ja": "価値観1%あたりのお金 (cr)"},
        default=30,
        ge=1,
        description="LW-KEEPER-02: cr of money per 1 % (rounded down).",
    )
    keeper_item_cr_per_percent: int = Field(
        json_schema_extra={"ja": "価値観1%あたりのアイテム価格 (cr)"},
        default=40,
        ge=1,
        description="LW-KEEPER-02: cr of item price per 1 % (rounded down).",
    )
    keeper_artifact_costs: tuple[int, int, int, int] = Field(
        json_schema_extra={"ja": "オーパーツ ランク1〜4の価値観 (%)"},
        default=(2, 14, 28, 34),
        description="LW-KEEPER-02: % of an オーパーツ of rank 1–4.",
    )
    keeper_max_discount: int = Field(
        json_schema_extra={"ja": "見つけた報酬の割引の上限 (%)"},
        default=50,
        ge=0,
        le=100,
        description="LW-KEEPER-02: most discount (%) of a found reward.",
    )
    taboo_threshold: int = Field(
        json_schema_extra={"ja": "禁忌値がこの値に達するとイベント"},
        default=100,
        ge=1,
        description="LW-ABIL-05: 禁忌値 at which the event is raised.",
    )


DEFAULT_SETTINGS = LittleWorldSettings()
