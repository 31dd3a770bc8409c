"""運命判定d100 in Udonarium and CCFOLIA: the labels of a piece and its chat palette."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

from saikoro.sheets import SheetBase
from saikoro.transfer.labels import norm_label, portable
from saikoro.transfer.palette import SAIKORO_HEADER, LabelRule, clean, english_label
from saikoro.transfer.profiles import Profile, Slot, hp_slot

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

PROFILE = Profile(
    system="UnmeiD100",
    title="運命判定d100",
    slots=(
        hp_slot(),
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
    # HP has no formula in the rules (LW-ABIL-06; UM's max HP is entered): a file without
    # it is refused, naming it, on every front end — never a silent HP 0.
    required=(("HP", ("max_hp",)), *((name, ("abilities", name, "value")) for name in UM_CORE)),
)


#: The skills every 運命判定d100 sheet has (UM-CHECK-01), by their table labels.
SKILL_LABELS = ("戦闘", "盗賊", "魔術")


def palette(sheet: SheetBase) -> list[str]:
    dump: dict[str, Any] = sheet.model_dump(mode="json")
    stock = [
        "//---- 運命判定d100 (標準 BCDice) ----",
        "1D100<={運命}*5 運命判定",
    ]
    for weapon in dump.get("weapons", []):
        stock.append(f"{clean(weapon['damage'])} ダメージ ({clean(weapon['name'])})")
    own = [
        SAIKORO_HEADER,
        # a plain check of every skill (what a thief rolls most): the web table shows this part
        *(f"1D100<={{{label}}} {label}スキル判定" for label in SKILL_LABELS),
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
            own.append(f"MG{{魔術}},0,{{魅力}}{flags} {clean(spell['name'])} (0 を相手の RC に)")
        else:
            own.append(f"MG{{魔術}}{flags} {clean(spell['name'])}")
    if not dump.get("spells"):
        own.append("MG{魔術} 魔法発動")
    growth = [a for a in dump.get("abilities", {}) if portable(a) and a == a.strip()]
    if growth:
        rates = ",".join(f"{{{name}成長率}}" for name in growth)
        own.append(f"GROW{rates} 成長判定 ({'/'.join(growth)})")
    return stock + own


@cache
def _terms() -> dict[str, str]:
    """The system's English game terms (webtable.json's ``terms_en``, as the page uses)."""
    data = json.loads((files(__package__) / "webtable.json").read_text("utf-8"))
    return dict(data.get("terms_en", {}))


def _en(term: str) -> str:
    return _terms().get(term, term)


_OPPONENTS = "(0: the opponent's {})"
#: The English of :func:`palette`'s labels (the web page in English; the lines stay as they
#: are). A spell's name is the sheet's own and stays as it is.
PALETTE_EN: tuple[LabelRule, ...] = (
    (re.compile(r"(.+)スキル判定"), lambda m: f"{_en(m[1])} skill check"),
    (re.compile(r"運命判定"), lambda m: "Fate check"),
    (
        re.compile(r"白兵攻撃 \(0 を相手の AC に\)"),
        lambda m: "Melee attack " + _OPPONENTS.format("AC"),
    ),
    (
        re.compile(r"射撃攻撃 \(0 を相手の AC に\)"),
        lambda m: "Ranged attack " + _OPPONENTS.format("AC"),
    ),
    (
        re.compile(r"射撃攻撃 狙い(\d+)手番"),
        lambda m: f"Ranged attack, aimed {m[1]} turn{'s' if m[1] != '1' else ''}",
    ),
    (re.compile(r"(.+) \(0 を相手の RC に\)"), lambda m: f"{m[1]} " + _OPPONENTS.format("RC")),
    (re.compile(r"魔法発動"), lambda m: "Cast a spell"),
    (
        re.compile(r"成長判定 \((.+)\)"),
        lambda m: f"Growth check ({'/'.join(_en(a) for a in m[1].split('/'))})",
    ),
    (re.compile(r"ダメージ \((.+)\)"), lambda m: f"Damage ({m[1]})"),
)


def palette_label_en(label: str) -> str:
    return english_label(label, PALETTE_EN)
