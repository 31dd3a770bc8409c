"""The 運命判定d100 character sheet (pydantic; JSON and YAML through ``saikoro.sheets``).

Field names are English; ability names are the seed's Japanese ones (体格, 敏捷度, 魅力,
運命, plus any the GM adds). Every validation problem names its field and carries a
Japanese and an English message (``PydanticCustomError`` ctx ``ja``/``en``/``rule``).
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from saikoro.dice.arith import FormulaError, evaluate_formula
from saikoro.sheets import SheetBase, sheet_error
from saikoro.systems.unmeid100.rules import (
    MAX_LEVEL,
    MIN_LEVEL,
    CharacterKind,
    derive,
    fate_target,
    fate_uses_per_session,
)

CORE_ABILITIES = ("体格", "敏捷度", "魅力", "運命")
#: What an enabled formula table may derive (UM-LEVEL-03).
DERIVABLE = ("戦闘", "盗賊", "魔術", "最大HP", "AC", "RC", "行動力", "魔法取得数")
MAX_VALUE = 999
#: Skills are success rates in % (UM-CHECK-01: "スキル成功率"; 1d100 ≤ the rate).
MAX_SKILL = 100


def _error(ja: str, en: str, rule: str | None = None) -> PydanticCustomError:
    return sheet_error("unmei_sheet", ja, en, rule)


def _bounded(
    lo: int, hi: int, ja_name: str, en_name: str, rule: str | None = None
) -> AfterValidator:
    def check(value: int) -> int:
        if not lo <= value <= hi:
            raise _error(
                f"{ja_name}は {lo}〜{hi} の整数です ({value})",
                f"{en_name} must be an integer from {lo} to {hi} (got {value})",
                rule,
            )
        return value

    return AfterValidator(check)


def _nonempty(ja_name: str, en_name: str) -> AfterValidator:
    def check(value: str) -> str:
        if not value.strip():
            raise _error(f"{ja_name}が空です", f"{en_name} is empty")
        return value

    return AfterValidator(check)


Score = Annotated[int, _bounded(0, MAX_VALUE, "能力値", "an ability")]
Rate = Annotated[int, _bounded(0, 100, "成長率", "a growth rate", "UM-LEVEL-02")]
SkillValue = Annotated[int, _bounded(0, MAX_SKILL, "スキル", "a skill", "UM-CHECK-01")]
#: AC/RC as entered on the sheet: never negative (the −20 of a 5 m run and the +20 of full
#: defence are temporary and kept by the tracker, UM-MOVE-01/UM-DEFEND-01).
ArmourClass = Annotated[
    int, _bounded(0, MAX_VALUE, "アーマークラス", "armour class", "UM-MELEE-01")
]
ResistClass = Annotated[
    int, _bounded(0, MAX_VALUE, "レジストクラス", "resist class", "UM-MAGIC-03")
]


def _damage_dice(value: str) -> str:
    """UM-DMG-01: a weapon's damage is an AddDice sum such as ``2D6`` or ``1D8+1``: it
    must parse and roll (checked with seeded dice, so no real die is used) to a number."""
    from saikoro.dice.sums import sum_problem

    problem = sum_problem(value)
    problem_ja, problem_en = (problem.ja, problem.en) if problem else ("", "")
    if problem_ja:
        raise _error(
            f"ダメージダイス {value!r} は振れません: {problem_ja} (例: 2D6, 1D8+1)",
            f"damage dice {value!r} cannot be rolled: {problem_en} (e.g. 2D6, 1D8+1)",
            "UM-DMG-01",
        )
    return value


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Ability(_Part):
    """An ability score and its growth rate (成長率, %, UM-LEVEL-02)."""

    value: Score
    growth_rate: Rate = 0
    #: ほにゃらら儀式 cards held: added to the growth rate (at most 100 in all, UM-LEVEL-02).
    ritual_bonus: Rate = 0


class Skills(_Part):
    """戦闘スキル, 盗賊スキル, 魔術スキル (success rates in %)."""

    combat: SkillValue = 0
    thief: SkillValue = 0
    magic: SkillValue = 0


class Spell(_Part):
    """A known spell: its school (門), 発動率半分, hostile (resisted by RC, UM-MAGIC-03)."""

    name: Annotated[str, _nonempty("魔法名", "a spell name")]
    school: str = ""
    half_rate: bool = False
    hostile: bool = False


class Weapon(_Part):
    """A weapon: fixed damage dice (UM-DMG-01), two-handed, abilities (連続/必殺…, UM-MELEE-02)."""

    name: Annotated[str, _nonempty("武器名", "a weapon name")]
    damage: Annotated[
        str, _nonempty("ダメージダイス", "the damage dice"), AfterValidator(_damage_dice)
    ] = "1D6"
    two_handed: bool = False
    ranged: bool = False
    abilities: list[str] = Field(default_factory=list)


class FormulaTable(_Part):
    """UM-LEVEL-03 house rule (off by default): values derived from abilities by formulas."""

    enabled: bool = False
    formulas: dict[str, str] = Field(default_factory=dict)


class UnmeiSheet(SheetBase):
    """A 運命判定d100 character: PC, mob or named NPC."""

    system: str = "UnmeiD100"
    kind: CharacterKind = CharacterKind.PC
    level: Annotated[int, _bounded(MIN_LEVEL, MAX_LEVEL, "レベル", "level", "UM-LEVEL-01")] = 1
    abilities: dict[str, Ability]
    skills: Skills = Field(default_factory=Skills)
    max_hp: Annotated[int, _bounded(0, 99999, "最大HP", "max HP")] = 0
    ac: ArmourClass = 0
    rc: ResistClass = 0
    action_points: Annotated[int, _bounded(1, 20, "行動力", "action points", "UM-TURN-01")] = 1
    school: str = ""
    spells: list[Spell] = Field(default_factory=list)
    weapons: list[Weapon] = Field(default_factory=list)
    shield: bool = False
    #: Weapons in hand at the start (names from ``weapons``); omitted: the first weapon
    #: (UM-EQUIP-01, UM-SWITCH-01).
    held: list[str] | None = None
    mounted: bool = False
    fate_uses_left: int | None = None
    formula_table: FormulaTable = Field(default_factory=FormulaTable)

    #: The form's fields the model cannot list (``abilities`` maps any ability the GM adds).
    form_paths: ClassVar[dict[str, str]] = {f"abilities.{a}.value": "int" for a in CORE_ABILITIES}

    #: pydantic's own errors (a missing field, a wrong type, …) name these rules.
    field_rules: ClassVar[dict[str, str]] = {
        "level": "UM-LEVEL-01",
        "abilities": "UM-LEVEL-02",
        "skills": "UM-CHECK-01",
        "ac": "UM-MELEE-01",
        "rc": "UM-MAGIC-03",
        "action_points": "UM-TURN-01",
        "school": "UM-MAGIC-02",
        "spells": "UM-MAGIC-02",
        "weapons": "UM-DMG-01",
        "shield": "UM-SWITCH-01",
        "held": "UM-EQUIP-01",
        "mounted": "UM-MOVE-01",
        "fate_uses_left": "UM-FATE-01",
        "kind": "UM-FATE-03",
        "formula_table": "UM-LEVEL-03",
    }

    @field_validator("system")
    @classmethod
    def _check_system(cls, value: str) -> str:
        if value != "UnmeiD100":
            raise _error(
                f"system は UnmeiD100 です ({value})", f"system must be UnmeiD100 ({value})"
            )
        return value

    @field_validator("abilities")
    @classmethod
    def _check_abilities(cls, value: dict[str, Ability]) -> dict[str, Ability]:
        missing = [a for a in CORE_ABILITIES if a not in value]
        if missing:
            raise _error(
                f"{'・'.join(missing)} がありません (必須: {'・'.join(CORE_ABILITIES)})",
                f"missing {', '.join(missing)} (required: {', '.join(CORE_ABILITIES)})",
            )
        return value

    @field_validator("held")
    @classmethod
    def _check_held(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        weapons = info.data.get("weapons")
        if value is None or weapons is None:
            return value
        names = [w.name for w in weapons]
        unknown = [n for n in value if n not in names]
        if unknown:
            raise _error(
                f"held の {'・'.join(unknown)} は weapons にありません ({'・'.join(names)})",
                f"held {', '.join(unknown)} not in weapons ({', '.join(names)})",
                "UM-EQUIP-01",
            )
        return value

    @field_validator("max_hp")
    @classmethod
    def _check_max_hp(cls, value: int, info: ValidationInfo) -> int:
        hp = info.data.get("hp")
        if isinstance(hp, int) and hp > value:
            raise _error(
                f"HP ({hp}) が最大HP ({value}) を超えています",
                f"hp ({hp}) exceeds max_hp ({value})",
            )
        return value

    @field_validator("fate_uses_left")
    @classmethod
    def _check_fate_uses(cls, value: int | None, info: ValidationInfo) -> int | None:
        kind, level = info.data.get("kind"), info.data.get("level")
        if value is None or kind is None or level is None:
            return value
        most = fate_uses_per_session(kind, level).uses
        if not 0 <= value <= most:
            raise _error(
                f"運命判定の残り回数は 0〜{most} です ({value})",
                f"fate uses left must be 0 to {most} ({value})",
                "UM-FATE-01",
            )
        return value

    @field_validator("formula_table")
    @classmethod
    def _check_formulas(cls, value: FormulaTable, info: ValidationInfo) -> FormulaTable:
        abilities = info.data.get("abilities")
        if not value.enabled or abilities is None:
            return value
        values = {name: a.value for name, a in abilities.items()}
        for name, formula in value.formulas.items():
            if name not in DERIVABLE:
                raise _error(
                    f"{name} は導出できません ({'/'.join(DERIVABLE)})",
                    f"cannot derive {name} ({'/'.join(DERIVABLE)})",
                    "UM-LEVEL-03",
                )
            try:
                evaluate_formula(formula, values)
            except FormulaError as error:
                raise _error(error.message.ja, error.message.en, "UM-LEVEL-03") from None
        return value

    # ------------------------------------------------------------ derived values
    @property
    def fate_uses_max(self) -> int:
        """UM-FATE-01/03: the level for PCs and named NPCs, 1 for a mob."""
        return fate_uses_per_session(self.kind, self.level).uses

    @property
    def fate_uses(self) -> int:
        """Fate checks left (the full count when ``fate_uses_left`` is not set)."""
        return self.fate_uses_max if self.fate_uses_left is None else self.fate_uses_left

    def ability_values(self) -> dict[str, int]:
        return {name: a.value for name, a in self.abilities.items()}

    def derived(self) -> dict[str, int]:
        """UM-LEVEL-03: the formula table's values (empty when the table is off)."""
        if not self.formula_table.enabled:
            return {}
        return dict(derive(self.formula_table.formulas, self.ability_values()).values)

    def effective(self) -> dict[str, int]:
        """Skills and sub-values as used in play: entered, or derived when the table is on."""
        values = {
            "戦闘": self.skills.combat,
            "盗賊": self.skills.thief,
            "魔術": self.skills.magic,
            "最大HP": self.max_hp,
            "AC": self.ac,
            "RC": self.rc,
            "行動力": self.action_points,
        }
        values.update(self.derived())
        return values

    def references(self) -> dict[str, int]:
        """``{…}`` labels: abilities, skills (戦闘 / 戦闘スキル …), HP, AC, RC, 行動力, レベル."""
        eff = self.effective()
        refs = dict(super().references())
        refs.update(self.ability_values())
        for label in ("戦闘", "盗賊", "魔術"):
            refs[label] = eff[label]
            refs[label + "スキル"] = eff[label]
        refs.update(
            {
                "MHP": eff["最大HP"],
                "最大HP": eff["最大HP"],
                "AC": eff["AC"],
                "アーマークラス": eff["AC"],
                "RC": eff["RC"],
                "レジストクラス": eff["RC"],
                "行動力": eff["行動力"],
                "レベル": self.level,
                "運命判定": fate_target(self.abilities["運命"].value),
                "運命判定回数": self.fate_uses,
            }
        )
        refs.update(
            {
                f"{name}成長率": min(100, a.growth_rate + a.ritual_bonus)
                for name, a in self.abilities.items()
            }
        )
        return refs
