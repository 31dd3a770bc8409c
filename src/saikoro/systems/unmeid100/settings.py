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
        default="session",
        description="UM-FATE-01: when the fate-check count resets to the level (default: "
        "at the start of each session).",
    )
    fate_damage_halving: Rounding = Field(
        default="floor",
        description="UM-FATE-02: rounding of rescue (b), damage halved (default: rounded down).",
    )
    dying_check_mandatory: bool = Field(
        default=True,
        description="UM-FATE-04: HP <= 0 forces a fate check (default: yes).",
    )
    dying_check_uses_fate: bool = Field(
        default=False,
        description="UM-FATE-04: the HP <= 0 fate check uses up a fate use (default: no).",
    )
    turn_order: Literal["agility", "listed"] = Field(
        default="agility",
        description="UM-TURN-01: the order the tracker offers (default: 敏捷度, highest "
        "first); the GM may pick anyone at any time.",
    )
    critical_beyond_skill: bool = Field(
        default=True,
        description="UM-MELEE-01: a roll <= 敏捷度 is a critical hit even when it exceeds the "
        "skill (default: yes).",
    )
    renzoku_extra_attacks: int = Field(
        default=1,
        ge=0,
        le=10,
        description="UM-MELEE-02: 連続 on a critical gives this many more attacks at once "
        "(default: 1).",
    )
    hissatsu_damage_rolls: int = Field(
        default=2,
        ge=1,
        le=10,
        description="UM-MELEE-02: 必殺 on a critical rolls the damage dice this many times and "
        "adds them (default: 2).",
    )
    ranged_rounding: Rounding = Field(
        default="floor",
        description="UM-RANGED-01: rounding of 盗賊スキル ÷ 2 × (aim + 1) (default: down).",
    )
    aim_ends_on_other_action: bool = Field(
        default=True,
        description="UM-AIM-01: aiming is lost when the character does anything else "
        "(default: yes).",
    )
    magic_equal_succeeds: bool = Field(
        default=True,
        description="UM-MAGIC-02: a roll equal to the activation target activates the spell "
        "(default: yes, as UM-CHECK-01).",
    )
    magic_half_rounding: Rounding = Field(
        default="floor",
        description="UM-MAGIC-02: rounding of a 発動率半分 target (default: down).",
    )
    melee_equal_ac_blocks: bool = Field(
        default=True,
        description="UM-MELEE-01: a roll equal to the target's AC is stopped by the armour "
        "(seed: 'AC以下の場合、攻撃は失敗'; default: yes).",
    )

    default_melee_weapon: str = Field(
        default="素手",
        min_length=1,
        max_length=40,
        description="UM-EQUIP-01: what a character with no melee weapon on the sheet hits "
        "with (default: 素手, bare hands).",
    )
    default_melee_damage: str = Field(
        default="1D6",
        pattern=r"^[1-9][0-9]?D[1-9][0-9]{0,2}([+-][0-9]{1,3})?$",
        description="UM-EQUIP-01: the damage dice of default_melee_weapon (default: 1D6).",
    )
    distance_checks: bool = Field(
        default=True,
        description="UM-RANGE-01: check melee reach and bow range between characters the GM "
        "has placed on the track (/gm place); unplaced characters are never checked "
        "(default: yes).",
    )
    melee_reach_m: int = Field(
        default=1,
        ge=0,
        le=100,
        description="UM-RANGE-01: the farthest a melee target may be, in metres (seed: 1 m).",
    )
    bow_range_m: int = Field(
        default=50,
        ge=1,
        le=10000,
        description="UM-RANGE-01/UM-RANGED-01: the bow's effective range in metres; a farther "
        "individual cannot be shot (seed: 50 m).",
    )


DEFAULT_SETTINGS = UnmeiSettings()
