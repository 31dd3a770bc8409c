"""Characters for the browser tests: the players' as CCFOLIA clipboard JSON, the GM's enemies as
saikoro sheets (the repository's examples)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from tests.transfer.conftest import CCFOLIA_UNMEI

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ccfolia(name: str, hp: int, params: dict[str, int | str]) -> str:
    """A piece as CCFOLIA's "copy character" puts it on the clipboard (the keys of the
    transfer tests' example, with this name, HP and params; no icon or link elsewhere)."""
    piece = copy.deepcopy(CCFOLIA_UNMEI)
    piece["data"].update(
        name=name,
        memo="",
        status=[{"label": "HP", "value": hp, "max": hp}],
        params=[{"label": k, "value": str(v)} for k, v in params.items()],
        iconUrl=None,
        externalUrl="",
        commands="",
    )
    return json.dumps(piece, ensure_ascii=False)


LITTLEWORLD_PLAYERS = [
    ccfolia("ミナ", 14, {"体力": 5, "技巧": 4, "理知": 2}),
    ccfolia("ソラ", 12, {"体力": 2, "技巧": 3, "理知": 5}),
]
UNMEID100_PLAYERS = [
    ccfolia(
        "ガルド",
        20,
        {
            "体格": 15,
            "敏捷度": 12,
            "魅力": 9,
            "運命": 10,
            "戦闘スキル": 65,
            "盗賊スキル": 30,
            "魔術スキル": 5,
            "アーマークラス": 35,
            "レジストクラス": 20,
            "行動力": 2,
            "Lv": 2,
        },
    ),
    ccfolia(
        "リナ",
        14,
        {
            "体格": 8,
            "敏捷度": 14,
            "魅力": 16,
            "運命": 11,
            "戦闘スキル": 35,
            "盗賊スキル": 55,
            "魔術スキル": 70,
            "アーマークラス": 15,
            "レジストクラス": 30,
            "行動力": 1,
            "Lv": 2,
        },
    ),
]
ENEMIES = {
    "LittleWorld": (EXAMPLES / "littleworld" / "enemy_goblin.yaml").read_text("utf-8"),
    "UnmeiD100": (EXAMPLES / "unmeid100" / "mob_goblin.json").read_text("utf-8"),
}
