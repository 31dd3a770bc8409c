"""Which label means which sheet field, per game system.

A :class:`Slot` ties a label (体力, HP, 戦闘 …) to a path in the sheet's JSON form.
A :class:`Profile` lists a system's slots (some depend on the sheet, such as
運命判定d100's extra abilities) and the initiative a piece shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from saikoro.transfer.labels import norm_label, parse_bool, parse_int

Path = tuple[str, ...]


@dataclass(frozen=True)
class Slot:
    label: str  # the label written on export
    path: Path  # where the value lives in the sheet's JSON form
    kind: str = "int"  # "int", "str", "bool"
    aliases: tuple[str, ...] = ()  # more labels accepted on import
    #: Labels accepted on import that other games use for other values (生命力 is an
    #: ability in some games): a match through them is reported as ambiguous.
    loose: tuple[str, ...] = ()
    max_path: Path | None = None  # a resource: where its maximum lives
    optional: bool = False  # not exported while the value is None
    choices: dict[str, str] = field(default_factory=dict)  # normalized text → stored value

    def labels(self) -> tuple[str, ...]:
        return (self.label, *self.aliases, *self.loose)

    def convert(self, text: str) -> Any:
        """The stored value for a tool's text; ValueError when it does not fit."""
        if self.kind == "int":
            return parse_int(text)
        if self.kind == "bool":
            return parse_bool(text)
        if self.choices:
            key = norm_label(text)
            if key not in self.choices:
                raise ValueError(text)
            return self.choices[key]
        return str(text)

    @property
    def target(self) -> str:
        where = ".".join(self.path)
        return f"{where} / {'.'.join(self.max_path)}" if self.max_path else where


@dataclass(frozen=True)
class Profile:
    system: str
    title: str
    slots: tuple[Slot, ...]
    #: Slots that exist because of this sheet's data (e.g. extra abilities).
    sheet_slots: Callable[[dict[str, Any]], list[Slot]] = lambda dump: []
    #: A slot for a label no fixed slot knows, given every label of the piece (normalized).
    claim: Callable[[str, set[str]], Slot | None] = lambda label, labels: None
    initiative: Callable[[dict[str, Any]], int] = lambda dump: 0
    #: Mappings whose key order matters (it shapes the chat palette): kept through a round-trip.
    ordered: tuple[Path, ...] = ()
    #: (label, path) of what a file must give: an import without them names them.
    required: tuple[tuple[str, Path], ...] = ()

    def export_slots(self, dump: dict[str, Any]) -> list[Slot]:
        return [*self.slots, *self.sheet_slots(dump)]

    @cached_property
    def by_label(self) -> dict[str, Slot]:
        """Normalized label → fixed slot (the first slot naming it)."""
        table: dict[str, Slot] = {}
        for slot in self.slots:
            for name in slot.labels():
                table.setdefault(norm_label(name), slot)
        return table

    @cached_property
    def loose_labels(self) -> frozenset[str]:
        strict = {norm_label(n) for slot in self.slots for n in (slot.label, *slot.aliases)}
        return frozenset(
            norm_label(n) for slot in self.slots for n in slot.loose if norm_label(n) not in strict
        )

    def is_loose(self, label: str) -> bool:
        """Whether ``label`` names its field only loosely (see :attr:`Slot.loose`)."""
        return norm_label(label) in self.loose_labels

    def find(self, label: str, labels: set[str]) -> Slot | None:
        return self.by_label.get(norm_label(label)) or self.claim(label, labels)

    def is_known(self, label: str) -> bool:
        return norm_label(label) in self.by_label or (
            self.claim(label, {norm_label(label)}) is not None
        )


def _hp() -> Slot:
    return Slot(
        "HP",
        ("hp",),
        max_path=("max_hp",),
        aliases=("ＨＰ", "ヒットポイント"),
        loose=("耐久力", "生命力"),
    )


# -- 帽子世界TRPG ---------------------------------------------------------------------------

LW_ABILITIES = ("体力", "技巧", "理知")


def _lw_slots() -> tuple[Slot, ...]:
    return (
        _hp(),
        *(Slot(name, ("abilities", name)) for name in LW_ABILITIES),
        Slot("禁忌値", ("taboo",)),
        Slot("cr", ("cr",), aliases=("所持金", "お金")),
        Slot("種別", ("kind",), kind="str", choices={"pc": "PC", "npc": "NPC"}),
        Slot("PL", ("player",), kind="str", aliases=("プレイヤー", "プレイヤー名")),
        Slot("隊列", ("row",), kind="str", aliases=("列",), choices=_ROWS),
        Slot("ライフパス", ("life_path",), kind="str"),
        Slot("価値観", ("keeper", "values_percent"), optional=True),
        Slot("毒", ("conditions", "poison"), aliases=("毒レベル",)),
        Slot("麻痺", ("conditions", "paralysis"), kind="bool"),
        Slot("睡眠", ("conditions", "sleep"), kind="bool"),
        Slot("混乱", ("conditions", "confusion"), kind="bool"),
    )


_ROWS = {"前衛": "前衛", "front": "前衛", "後衛": "後衛", "back": "後衛"}


LITTLEWORLD = Profile(
    system="LittleWorld",
    title="帽子世界TRPG",
    slots=_lw_slots(),
    initiative=lambda dump: int((dump.get("abilities") or {}).get("技巧", 0) or 0),
    required=tuple((name, ("abilities", name)) for name in LW_ABILITIES),
)


# -- 運命判定d100 ---------------------------------------------------------------------------

UM_CORE = ("体格", "敏捷度", "魅力", "運命")
_GROWTH = "成長率"
_GROWTH_LABEL = re.compile(r"(.+?)(?:の)?成長率$")


def _um_ability_slots(name: str) -> list[Slot]:
    return [
        Slot(name, ("abilities", name, "value")),
        Slot(name + _GROWTH, ("abilities", name, "growth_rate")),
    ]


def _um_sheet_slots(dump: dict[str, Any]) -> list[Slot]:
    return [
        slot
        for name in dump.get("abilities", {})
        if name not in UM_CORE
        for slot in _um_ability_slots(name)
    ]


def _um_claim(label: str, labels: set[str]) -> Slot | None:
    """An extra ability: ``筋力`` with a ``筋力成長率`` beside it, or ``筋力成長率`` itself."""
    text = label.strip()
    match = _GROWTH_LABEL.fullmatch(text)
    if match:
        return Slot(text, ("abilities", match[1].strip("【】 "), "growth_rate"))
    if norm_label(text + _GROWTH) in labels:
        return Slot(text, ("abilities", text.strip("【】 "), "value"))
    return None


_KINDS = {
    "pc": "PC",
    "プレイヤーキャラクター": "PC",
    "mob": "mob",
    "モブ": "mob",
    "named": "named",
    "ネームド": "named",
    "ネームドnpc": "named",
    "npc": "named",
}

UNMEID100 = Profile(
    system="UnmeiD100",
    title="運命判定d100",
    slots=(
        _hp(),
        *(slot for name in UM_CORE for slot in _um_ability_slots(name)),
        Slot("戦闘", ("skills", "combat"), aliases=("戦闘スキル",)),
        Slot("盗賊", ("skills", "thief"), aliases=("盗賊スキル",)),
        Slot("魔術", ("skills", "magic"), aliases=("魔術スキル",)),
        Slot("AC", ("ac",), aliases=("アーマークラス",)),
        Slot("RC", ("rc",), aliases=("レジストクラス",)),
        Slot("行動力", ("action_points",)),
        Slot("レベル", ("level",), aliases=("Lv", "Level")),
        Slot("種別", ("kind",), kind="str", choices=_KINDS),
        Slot("門", ("school",), kind="str", aliases=("魔術の門",), loose=("系統",)),
        Slot("盾", ("shield",), kind="bool"),
        Slot("騎乗", ("mounted",), kind="bool"),
        Slot("運命判定残り", ("fate_uses_left",), optional=True, aliases=("運命判定回数",)),
    ),
    sheet_slots=_um_sheet_slots,
    claim=_um_claim,
    initiative=lambda dump: int(dump.get("abilities", {}).get("敏捷度", {}).get("value", 0) or 0),
    ordered=(("abilities",),),
    required=tuple((name, ("abilities", name, "value")) for name in UM_CORE),
)

PROFILES: dict[str, Profile] = {p.system: p for p in (LITTLEWORLD, UNMEID100)}


def profile_for(system: str) -> Profile:
    from saikoro.sheets import sheet_class

    sheet_class(system)  # a clear SheetError for an unknown system
    return PROFILES[system]
