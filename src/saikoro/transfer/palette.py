"""Chat palettes for exported pieces.

The first part works with the stock BCDice in Udonarium and CCFOLIA (generic commands
with ``{ラベル}`` references, which the tool fills in from the piece's own values);
the second part uses saikoro's own system commands, for a table whose BCDice-API
server is ``saikoro serve`` (rules such as criticals, weak actions and attack
resolution are then applied by saikoro).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from saikoro.sheets import SheetBase
from saikoro.transfer.labels import UNPORTABLE, portable

SAIKORO_HEADER = "//---- saikoro サーバー用 (BCDice-API に saikoro serve を指定したとき) ----"


def _littleworld(sheet: SheetBase) -> list[str]:
    abilities = _abilities(sheet, ("体力", "技巧", "理知"))
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


def _unmeid100(sheet: SheetBase) -> list[str]:
    dump: dict[str, Any] = sheet.model_dump(mode="json")
    stock = [
        "//---- 運命判定d100 (標準 BCDice) ----",
        "1D100<={戦闘} 戦闘スキル判定",
        "1D100<={盗賊} 盗賊スキル判定",
        "1D100<={魔術} 魔術スキル判定",
        "1D100<={運命}*5 運命判定",
    ]
    for weapon in dump.get("weapons", []):
        stock.append(f"{_clean(weapon['damage'])} ダメージ ({_clean(weapon['name'])})")
    own = [
        SAIKORO_HEADER,
        "FATE{運命} 運命判定",
        "MA{戦闘},0,{敏捷度} 白兵攻撃 (0 を相手の AC に)",
        "RA{盗賊},0,{敏捷度} 射撃攻撃 (0 を相手の AC に)",
        "RA{盗賊},0,{敏捷度},1 射撃攻撃 狙い1手番",
        "RA{盗賊},0,{敏捷度},2 射撃攻撃 狙い2手番",
    ]
    school = dump.get("school", "")
    for spell in dump.get("spells", []):
        flags = ""
        if school and spell.get("school") and spell["school"] != school:
            flags += ",O"
        if spell.get("half_rate"):
            flags += ",H"
        if spell.get("hostile"):
            own.append(f"MG{{魔術}},0,{{魅力}}{flags} {_clean(spell['name'])} (0 を相手の RC に)")
        else:
            own.append(f"MG{{魔術}}{flags} {_clean(spell['name'])}")
    if not dump.get("spells"):
        own.append("MG{魔術} 魔法発動")
    growth = [a for a in dump.get("abilities", {}) if portable(a) and a == a.strip()]
    if growth:
        rates = ",".join(f"{{{name}成長率}}" for name in growth)
        own.append(f"GROW{rates} 成長判定 ({'/'.join(growth)})")
    return stock + own


def _clean(text: str) -> str:
    """One palette line's worth of a name: no line breaks or characters a tool drops."""
    return UNPORTABLE.sub(" ", text)


def _abilities(sheet: SheetBase, names: tuple[str, ...]) -> dict[str, int]:
    """The sheet's own ability values (what the exported params hold)."""
    abilities = sheet.model_dump(mode="json").get("abilities") or {}
    return {name: int(abilities.get(name, 0) or 0) for name in names}


BUILDERS: dict[str, Callable[[SheetBase], list[str]]] = {
    "LittleWorld": _littleworld,
    "UnmeiD100": _unmeid100,
}


def build_palette(sheet: SheetBase) -> str:
    builder = BUILDERS.get(sheet.system)
    return "\n".join(builder(sheet)) if builder else ""


def _canonical(palette: str) -> list[str]:
    lines = (unicodedata.normalize("NFKC", line).strip() for line in palette.splitlines())
    return [line for line in lines if line]


def same_palette(a: str, b: str) -> bool:
    """Equal up to width, surrounding spaces and blank lines."""
    return _canonical(a) == _canonical(b)
