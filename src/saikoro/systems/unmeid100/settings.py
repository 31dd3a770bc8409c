"""House-rule settings of 運命判定d100: every *default* of RULES.md System B is a named field.

A GM changes a field per table/campaign; the rule functions in ``rules.py`` take an
``UnmeiSettings`` (the defaults when omitted). The rule ID each field belongs to is in
its description, and ``docs/rules/UnmeiD100.md`` lists them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Rounding = Literal["floor", "ceil"]


class UnmeiSettings(BaseModel):
    """The GM's choices where the seed is silent or ambiguous (RULES.md *default*)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    fate_uses_reset: Literal["session", "scenario", "never"] = Field(
        json_schema_extra={
            "ja": "運命判定の回数が回復する時: session=セッションごと / scenario=シナリオごと / never=しない"
        },
        default="session",
        description="UM-FATE-01: when the fate-check count resets to the level (default: "
        "at the start of each session).",
    )
    fate_damage_halving: Rounding = Field(
        json_schema_extra={"ja": "運命 (b) ダメージ半減の端数: floor=切り捨て / ceil=切り上げ"},
        default="floor",
        description="UM-FATE-02: rounding of rescue (b), damage halved (default: rounded down).",
    )
    dying_check_mandatory: bool = Field(
        json_schema_extra={"ja": "HP 0以下で運命判定を必ず行う"},
        default=True,
        description="UM-FATE-04: HP <= 0 forces a fate check (default: yes).",
    )
    dying_check_uses_fate: bool = Field(
        json_schema_extra={"ja": "HP 0以下の運命判定で回数を使う"},
        default=False,
        description="UM-FATE-04: the HP <= 0 fate check uses up a fate use (default: no).",
    )
    dying_without_fate: Literal["dead", "gm"] = Field(
        json_schema_extra={
            "ja": "HP 0以下の運命判定に使う回数が残っていないとき: dead=判定失敗 (死亡) / "
            "gm=GM が /gm dying で決める"
        },
        default="dead",
        description="UM-FATE-07: with dying_check_uses_fate on and no fate use left, the "
        "character still goes down and the check fails (dead), or the GM rules it with "
        "/gm dying (gm) (default: dead).",
    )
    turn_order: Literal["agility", "listed"] = Field(
        json_schema_extra={"ja": "提示する手番順: agility=敏捷度の高い順 / listed=登録順"},
        default="agility",
        description="UM-TURN-01: the order the tracker offers (default: 敏捷度, highest "
        "first); the GM may pick anyone at any time.",
    )
    critical_beyond_skill: bool = Field(
        json_schema_extra={"ja": "出目≦敏捷度なら戦闘スキルを超えてもクリティカルヒット"},
        default=True,
        description="UM-MELEE-01: a roll <= 敏捷度 is a critical hit even when it exceeds the "
        "skill (default: yes).",
    )
    renzoku_extra_attacks: int = Field(
        json_schema_extra={"ja": "クリティカル時「連続」で追加できる攻撃の回数"},
        default=1,
        ge=0,
        le=10,
        description="UM-MELEE-02: 連続 on a critical gives this many more attacks at once "
        "(default: 1).",
    )
    hissatsu_damage_rolls: int = Field(
        json_schema_extra={"ja": "クリティカル時「必殺」でダメージダイスを振る回数 (合計)"},
        default=2,
        ge=1,
        le=10,
        description="UM-MELEE-02: 必殺 on a critical rolls the damage dice this many times and "
        "adds them (default: 2).",
    )
    ranged_rounding: Rounding = Field(
        json_schema_extra={
            "ja": "射撃の目標値 (盗賊スキル÷2×(狙い+1)) の端数: floor=切り捨て / ceil=切り上げ"
        },
        default="floor",
        description="UM-RANGED-01: rounding of 盗賊スキル ÷ 2 × (aim + 1) (default: down).",
    )
    aim_ends_on_other_action: bool = Field(
        json_schema_extra={"ja": "他の行動をすると狙いが消える"},
        default=True,
        description="UM-AIM-01: aiming is lost when the character does anything else "
        "(default: yes).",
    )
    magic_equal_succeeds: bool = Field(
        json_schema_extra={"ja": "出目が発動率と同じなら発動する"},
        default=True,
        description="UM-MAGIC-02: a roll equal to the activation target activates the spell "
        "(default: yes, as UM-CHECK-01).",
    )
    magic_half_rounding: Rounding = Field(
        json_schema_extra={"ja": "発動率半分の端数: floor=切り捨て / ceil=切り上げ"},
        default="floor",
        description="UM-MAGIC-02: rounding of a 発動率半分 target (default: down).",
    )
    melee_equal_ac_blocks: bool = Field(
        json_schema_extra={"ja": "出目がACと同じなら攻撃は防がれる"},
        default=True,
        description="UM-MELEE-01: a roll equal to the target's AC is stopped by the armour "
        "(seed: 'AC以下の場合、攻撃は失敗'; default: yes).",
    )

    default_melee_weapon: str = Field(
        json_schema_extra={"ja": "白兵武器を持たないキャラクターが攻撃に使うもの"},
        default="素手",
        min_length=1,
        max_length=40,
        description="UM-EQUIP-01: what a character with no melee weapon on the sheet hits "
        "with (default: 素手, bare hands).",
    )
    default_melee_damage: str = Field(
        json_schema_extra={"ja": "その攻撃 (default_melee_weapon) のダメージダイス"},
        default="1D6",
        pattern=r"^[1-9][0-9]?D[1-9][0-9]{0,2}([+-][0-9]{1,3})?$",
        description="UM-EQUIP-01: the damage dice of default_melee_weapon (default: 1D6).",
    )
    distance_checks: bool = Field(
        json_schema_extra={
            "ja": "配置済み (/gm place) のキャラクターの間で白兵の間合いと弓の射程を確かめる"
        },
        default=True,
        description="UM-RANGE-01: check melee reach and bow range between characters the GM "
        "has placed on the track (/gm place); unplaced characters are never checked "
        "(default: yes).",
    )
    melee_reach_m: int = Field(
        json_schema_extra={"ja": "白兵攻撃が届く距離 (m)"},
        default=1,
        ge=0,
        le=100,
        description="UM-RANGE-01: the farthest a melee target may be, in metres (seed: 1 m).",
    )
    bow_range_m: int = Field(
        json_schema_extra={"ja": "弓の有効射程 (m)"},
        default=50,
        ge=1,
        le=10000,
        description="UM-RANGE-01/UM-RANGED-01: the bow's effective range in metres; a farther "
        "individual cannot be shot (seed: 50 m).",
    )

    # -- issue 21: where the seed is unclear, named (default: as the table did before) --------
    no_growth_rates: Literal["zero", "refuse"] = Field(
        json_schema_extra={
            "ja": "成長率のないシート (全能力値の成長率0) のレベルアップ: zero=成長率0として振る / "
            "refuse=断る (GM が成長率を決める)"
        },
        default="zero",
        description="UM-LEVEL-07: a level-up of a character with no growth rate above 0 rolls "
        "them as 0 (zero) or is refused until the GM sets them (refuse) (default: zero).",
    )
    off_school_half_order: Literal["minus_then_half", "half_then_minus"] = Field(
        json_schema_extra={
            "ja": "門外の発動率半分の魔法: minus_then_half=−10してから半分 (70→30) / "
            "half_then_minus=半分にしてから−10 (70→25)"
        },
        default="minus_then_half",
        description="UM-MAGIC-04: an off-school 発動率半分 spell takes −10 before halving "
        "(70 → 30) or after (70 → 25) (default: minus_then_half).",
    )
    spent_mob_dying_check: bool = Field(
        json_schema_extra={
            "ja": "運命判定 (1回) を使い切ったmobも HP 0以下で運命判定を行う (off: 死亡)"
        },
        default=True,
        description="UM-FATE-08: a mob that has spent its one fate use still makes the dying "
        "check at HP <= 0 (off: it dies) (default: yes).",
    )
    down_ac: Literal["full", "zero"] = Field(
        json_schema_extra={
            "ja": "気絶・死亡したキャラクターの AC: full=そのまま / zero=0 (攻撃は必ず防がれない)"
        },
        default="full",
        description="UM-MELEE-03: a 気絶 or 死亡 target keeps its full AC (full) or has AC 0 "
        "(zero) (default: full).",
    )
    down_states_exclusive: bool = Field(
        json_schema_extra={"ja": "気絶と死亡は同時にならない (一方になると他方は解ける)"},
        default=False,
        description="UM-FATE-09: 気絶 and 死亡 exclude each other (the newer replaces the "
        "older) (default: no, a character may hold both).",
    )
    mount_takes_turn: bool = Field(
        json_schema_extra={"ja": "戦闘中の騎乗・下馬 (/mount, /dismount) は1手番を使う"},
        default=False,
        description="UM-MOVE-02: /mount and /dismount in a combat take the turn's action (the "
        "seed is silent) (default: no, they take no turn).",
    )


DEFAULT_SETTINGS = UnmeiSettings()
