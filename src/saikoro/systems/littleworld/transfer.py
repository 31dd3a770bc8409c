"""帽子世界TRPG in Udonarium and CCFOLIA: the labels of a piece and its chat palette."""

from __future__ import annotations

import re

from saikoro.sheets import SheetBase
from saikoro.transfer.palette import SAIKORO_HEADER, LabelRule, english_label, sheet_abilities
from saikoro.transfer.profiles import Profile, Slot, hp_slot

# -- 帽子世界TRPG ---------------------------------------------------------------------------

LW_ABILITIES = ("体力", "技巧", "理知")


def _lw_slots() -> tuple[Slot, ...]:
    return (
        hp_slot(),
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


PROFILE = Profile(
    system="LittleWorld",
    title="帽子世界TRPG",
    slots=_lw_slots(),
    initiative=lambda dump: int((dump.get("abilities") or {}).get("技巧", 0) or 0),
    # HP has no formula in the rules (LW-ABIL-06; UM's max HP is entered): a file without
    # it is refused, naming it, on every front end — never a silent HP 0.
    required=(("HP", ("max_hp",)), *((name, ("abilities", name)) for name in LW_ABILITIES)),
)


def palette(sheet: SheetBase) -> list[str]:
    abilities = sheet_abilities(sheet, LW_ABILITIES)
    stock = ["//---- 帽子世界TRPG (標準 BCDice) ----"]
    for name, value in abilities.items():
        dice = "1D6" if value == 1 else "2D6"  # LW-CHECK-02: an ability of 1 rolls 1D6
        stock.append(f"{dice}+{{{name}}} 【{name}】判定")
        stock.append(f"{dice}+{{{name}}}>=10 【{name}】判定 目標値10")
    stock.append("2D6 ダメージ計算用")
    own = [SAIKORO_HEADER]
    own += [f"LW{{{name}}} 【{name}】判定" for name in abilities]
    own += [f"LW{{{name}}}>=10 【{name}】判定 目標値10" for name in abilities]
    own += [
        f"LWA{{{name}}}-X 【{name}】で攻撃 (X を相手の{name}に。X のままなら防御不能)"
        for name in abilities
    ]
    own += [f"LWO{{{name}}}-3 【{name}】で対抗判定 (3 を相手の値に)" for name in abilities]
    return stock + own


def _en(term: str) -> str:
    from saikoro.systems.littleworld.english import english

    return english(term)


#: The English of :func:`palette`'s labels (the web page in English; the lines stay as they are).
PALETTE_EN: tuple[LabelRule, ...] = (
    (re.compile(r"【(.+)】判定"), lambda m: f"{_en(m[1])} check"),
    (re.compile(r"【(.+)】判定 目標値(\d+)"), lambda m: f"{_en(m[1])} check, target {m[2]}"),
    (
        re.compile(r"【(.+)】で攻撃 \(X を相手の(.+)に。X のままなら防御不能\)"),
        lambda m: f"Attack with {_en(m[1])} (X: the opponent's {_en(m[2])}; left as X, no defence)",
    ),
    (
        re.compile(r"【(.+)】で対抗判定 \((\d+) を相手の値に\)"),
        lambda m: f"Opposed {_en(m[1])} check ({m[2]}: the opponent's value)",
    ),
    (re.compile(r"ダメージ計算用"), lambda m: "for damage"),
)


def palette_label_en(label: str) -> str:
    return english_label(label, PALETTE_EN)
