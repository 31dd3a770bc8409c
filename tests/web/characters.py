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


def portrait(background: tuple[int, int, int], clothes: tuple[int, int, int]) -> bytes:
    """A simple drawn face (a PNG) for the faces tests and the screenshots."""
    import io

    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (192, 192), background)
    draw = ImageDraw.Draw(picture)
    draw.ellipse((36, 132, 156, 252), fill=clothes)  # shoulders
    draw.ellipse((60, 40, 132, 120), fill=(246, 214, 186))  # face
    draw.chord((54, 30, 138, 100), 180, 360, fill=(70, 45, 30))  # hair
    for x in (80, 106):
        draw.ellipse((x, 74, x + 7, 82), fill=(40, 30, 30))  # eyes
    draw.arc((84, 88, 108, 104), 20, 160, fill=(150, 60, 60), width=3)  # smile
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()


#: The players' faces of the fights (LITTLEWORLD_PLAYERS / UNMEID100_PLAYERS, in order).
FACES = [portrait((214, 232, 246), (40, 90, 160)), portrait((246, 226, 210), (150, 50, 60))]
