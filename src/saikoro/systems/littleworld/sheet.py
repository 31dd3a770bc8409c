"""The 帽子世界TRPG character sheet (pydantic): PCs, NPCs and keepers (管理人).

Loaded and saved as JSON or YAML through :mod:`saikoro.sheets`. Every validation
error names the field and the rule it breaks, in Japanese and English (ctx ``ja``,
``en``, ``rule`` of a :class:`PydanticCustomError`, rendered by
:func:`saikoro.sheets.describe_validation_error`, which also translates pydantic's
own errors and names the rule of their field from :data:`FIELD_RULES`). Per LW-ABIL-06
the sheet stores abilities and max HP as entered and only rejects impossible values.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from saikoro.sheets import SheetBase, sheet_error
from saikoro.systems.littleworld.conditions import Conditions, effective_ability
from saikoro.systems.littleworld.special import is_kanazuchi, is_machine_onchi

AbilityName = Literal["体力", "技巧", "理知"]
ABILITY_NAMES: tuple[AbilityName, ...] = ("体力", "技巧", "理知")


def _integer(rule: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise sheet_error(
                "lw_not_integer",
                f"整数で書いてください ({value!r})",
                f"must be a whole number (got {value!r})",
                rule,
            )
        return value

    return BeforeValidator(check)


def _at_least(low: int, rule: str, what_ja: str, what_en: str):  # type: ignore[no-untyped-def]
    def check(value: int) -> int:
        if value < low:
            raise sheet_error(
                "lw_too_small",
                f"{what_ja}は{low}以上です ({value})",
                f"{what_en} must be at least {low} (got {value})",
                rule,
            )
        return value

    return check


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Abilities(_Model):
    """【体力】【技巧】【理知】 (LW-ABIL-01), each at least 1 (LW-ABIL-06)."""

    体力: Annotated[int, _integer("LW-ABIL-06")]
    技巧: Annotated[int, _integer("LW-ABIL-06")]
    理知: Annotated[int, _integer("LW-ABIL-06")]

    _positive = field_validator("体力", "技巧", "理知")(
        _at_least(1, "LW-ABIL-06", "能力値", "an ability")
    )

    def get(self, name: AbilityName) -> int:
        return int(getattr(self, name))


class AbilityModifier(_Model):
    """LW-ABIL-04: a named temporary change of an ability (lost equipment, …)."""

    reason: str
    ability: AbilityName
    amount: Annotated[int, _integer("LW-ABIL-04")]

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        if not value.strip():
            raise sheet_error(
                "lw_modifier_reason",
                "能力値修正には理由を書いてください",
                "an ability modifier needs a reason",
                "LW-ABIL-04",
            )
        return value


class Keeper(_Model):
    """管理人: 【価値観】 1–99 % (LW-ABIL-05) and the hat (LW-KEEPER-01)."""

    values_percent: Annotated[int, _integer("LW-ABIL-05")] = 99
    world: str = ""
    hat_worn: bool = True
    hat_released: bool = False

    @field_validator("values_percent")
    @classmethod
    def _range(cls, value: int) -> int:
        if not 1 <= value <= 99:
            raise sheet_error(
                "lw_values_range",
                f"価値観は1〜99%です ({value})",
                f"価値観 must be 1 to 99 % (got {value})",
                "LW-ABIL-05",
            )
        return value

    @model_validator(mode="after")
    def _hat(self) -> Keeper:
        if self.hat_released and not self.hat_worn:
            raise _line_error(
                ("hat_released",),
                self.hat_released,
                sheet_error(
                    "lw_hat_release",
                    "帽子解放は帽子を被っていないとできません",
                    "the hat can only be released while worn",
                    "LW-KEEPER-01",
                ),
                "Keeper",
            )
        return self


class SheetConditions(_Model):
    """Conditions (LW-COND-02…05) with their recovery progress."""

    poison: Annotated[int, _integer("LW-COND-02")] = 0
    paralysis: bool = False
    sleep: bool = False
    confusion: bool = False
    paralysis_turns: Annotated[int, _integer("LW-COND-03")] = 0
    sleep_turns: Annotated[int, _integer("LW-COND-04")] = 0
    poison_minutes: Annotated[int, _integer("LW-COND-02")] = 0
    paralysis_minutes: Annotated[int, _integer("LW-COND-03")] = 0
    sleep_minutes: Annotated[int, _integer("LW-COND-04")] = 0

    _poison = field_validator("poison", "poison_minutes")(
        _at_least(0, "LW-COND-02", "毒レベル・経過時間", "poison level and time")
    )
    _para = field_validator("paralysis_turns", "paralysis_minutes")(
        _at_least(0, "LW-COND-03", "麻痺の経過", "paralysis progress")
    )
    _sleep = field_validator("sleep_turns", "sleep_minutes")(
        _at_least(0, "LW-COND-04", "睡眠の経過", "sleep progress")
    )

    def to_rules(self) -> Conditions:
        return Conditions(**self.model_dump())


class Item(_Model):
    """LW-ABIL-07: an item with a free-text effect; ``scenario_only`` marks gathered herbs
    that are lost at the end of the scenario (LW-SPECIAL-08)."""

    name: str = Field(min_length=1)
    quantity: Annotated[int, _integer("LW-ABIL-07")] = 1
    effect: str = ""
    scenario_only: bool = False

    _qty = field_validator("quantity")(_at_least(0, "LW-ABIL-07", "個数", "quantity"))


def _line_error(
    loc: tuple[str, ...], value: Any, error: PydanticCustomError, title: str
) -> ValidationError:
    return ValidationError.from_exception_data(title, [{"type": error, "loc": loc, "input": value}])


#: The rule each top-level field belongs to (named in validation messages).
FIELD_RULES: dict[str, str] = {
    "name": "LW-ABIL-06",
    "kind": "LW-ABIL-06",
    "player": "LW-ABIL-06",
    "life_path": "LW-ABIL-06",
    "hp": "LW-ABIL-01",
    "max_hp": "LW-ABIL-06",
    "abilities": "LW-ABIL-01",
    "skill_cards": "LW-ABIL-06",
    "keeper": "LW-ABIL-05",
    "taboo": "LW-ABIL-05",
    "cr": "LW-ABIL-07",
    "items": "LW-ABIL-07",
    "row": "LW-COMBAT-16",
    "conditions": "LW-COND-01",
    "modifiers": "LW-ABIL-04",
    "kanazuchi_opt_in": "LW-SPECIAL-04",
    "consciousness": "LW-HP-03",
}


class LittleWorldSheet(SheetBase):
    """A 帽子世界TRPG character: PC or NPC, optionally a keeper (管理人)."""

    system: Literal["LittleWorld"] = "LittleWorld"
    kind: Literal["PC", "NPC"] = "PC"
    player: str = ""
    hp: Annotated[int, _integer("LW-ABIL-01")] = 0
    max_hp: Annotated[int, _integer("LW-ABIL-06")] = 1
    abilities: Abilities
    skill_cards: list[str] = Field(default_factory=list)
    keeper: Keeper | None = None
    taboo: Annotated[int, _integer("LW-ABIL-05")] = 0
    cr: Annotated[int, _integer("LW-ABIL-07")] = 0
    row: Literal["前衛", "後衛"] = "前衛"
    conditions: SheetConditions = Field(default_factory=SheetConditions)
    modifiers: list[AbilityModifier] = Field(default_factory=list)
    items: list[Item] = Field(default_factory=list)
    life_path: str = ""
    kanazuchi_opt_in: bool = False
    consciousness: str = ""

    #: Left out of the page's form: conditions are the table's (/cond), the rest is rare.
    form_hidden: ClassVar[tuple[str, ...]] = ("conditions", "kanazuchi_opt_in", "consciousness")

    #: pydantic's own errors (a missing field, a wrong type, …) name these rules.
    field_rules: ClassVar[dict[str, str]] = FIELD_RULES
    default_rule: ClassVar[str] = "LW-ABIL-06"

    @model_validator(mode="before")
    @classmethod
    def _default_hp(cls, data: Any) -> Any:
        """A sheet without ``hp`` starts at full HP."""
        if isinstance(data, dict) and "hp" not in data and "max_hp" in data:
            return {**data, "hp": data["max_hp"]}
        return data

    _max_hp = field_validator("max_hp")(_at_least(1, "LW-ABIL-06", "最大HP", "max HP"))
    _taboo = field_validator("taboo")(_at_least(0, "LW-ABIL-05", "禁忌値", "禁忌値"))
    _cr = field_validator("cr")(_at_least(0, "LW-ABIL-07", "所持金(cr)", "money (cr)"))

    @model_validator(mode="after")
    def _hp_cap(self) -> LittleWorldSheet:
        if self.hp > self.max_hp:
            raise _line_error(
                ("hp",),
                self.hp,
                sheet_error(
                    "lw_hp_above_max",
                    f"HP({self.hp})は最大HP({self.max_hp})を超えられません",
                    f"HP ({self.hp}) cannot exceed max HP ({self.max_hp})",
                    "LW-HP-01",
                ),
                "LittleWorldSheet",
            )
        return self

    # -- derived values --------------------------------------------------------
    @property
    def is_pc(self) -> bool:
        return self.kind == "PC"

    @property
    def is_keeper(self) -> bool:
        return self.keeper is not None

    @property
    def can_act(self) -> bool:
        """LW-ABIL-01/LW-HP-02: HP ≤ 0 is 行動不能."""
        return self.hp > 0

    def modifier_total(self, ability: AbilityName) -> int:
        return sum(m.amount for m in self.modifiers if m.ability == ability)

    def effective(self, ability: AbilityName) -> int:
        """LW-ABIL-04/LW-COND-04: ability + modifiers, halved (rounded down) while asleep."""
        return effective_ability(
            self.abilities.get(ability), self.modifier_total(ability), self.conditions.to_rules()
        )

    def effective_abilities(self) -> dict[str, int]:
        return {name: self.effective(name) for name in ABILITY_NAMES}

    @property
    def kanazuchi(self) -> bool:
        """LW-SPECIAL-04: 体力 1 (or opted in)."""
        return is_kanazuchi(self.abilities.体力, self.kanazuchi_opt_in)

    @property
    def machine_onchi(self) -> bool:
        """LW-SPECIAL-06: 理知 1."""
        return is_machine_onchi(self.abilities.理知)

    def references(self) -> dict[str, int]:
        """``{体力}`` etc. are the effective values (sleep, modifiers); ``{基本体力}`` the
        sheet's own; plus HP, MHP, 価値観, 禁忌値, cr, 毒."""
        refs = super().references()
        for name in ABILITY_NAMES:
            refs[name] = self.effective(name)
            refs[f"基本{name}"] = self.abilities.get(name)
        refs["禁忌値"] = self.taboo
        refs["cr"] = self.cr
        refs["CR"] = self.cr
        refs["毒"] = self.conditions.poison
        if self.keeper is not None:
            refs["価値観"] = self.keeper.values_percent
        return refs

    # -- edits that return a new, validated sheet ----------------------------------
    def updated(self, **changes: Any) -> LittleWorldSheet:
        return type(self).model_validate({**self.model_dump(), **changes})

    def with_modifier(self, reason: str, ability: AbilityName, amount: int) -> LittleWorldSheet:
        mods = [*(m.model_dump() for m in self.modifiers)]
        mods.append({"reason": reason, "ability": ability, "amount": amount})
        return self.updated(modifiers=mods)

    def without_modifier(self, reason: str) -> LittleWorldSheet:
        return self.updated(
            modifiers=[m.model_dump() for m in self.modifiers if m.reason != reason]
        )
