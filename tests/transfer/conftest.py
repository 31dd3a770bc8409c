"""Example characters in Udonarium's and CCFOLIA's own formats, built here, and sample sheets."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from saikoro.systems.littleworld.sheet import LittleWorldSheet
from saikoro.systems.unmeid100.sheet import UnmeiSheet

# A piece as Udonarium saves it (character made in Udonarium by hand): the default
# sections リソース / 能力値 / 情報, a note, an image, palette variables.
UDONARIUM_LW_XML = """<?xml version="1.0" encoding="UTF-8"?>
<character location.name="table" location.x="350" location.y="250" posZ="0" rotate="0" roll="0">
  <data name="character">
    <data name="image">
      <data type="image" name="imageIdentifier">4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b</data>
    </data>
    <data name="common">
      <data name="name">ミナ・クロックワーク</data>
      <data name="size">1</data>
    </data>
    <data name="detail">
      <data name="リソース">
        <data type="numberResource" currentValue="11" name="HP">14</data>
        <data type="numberResource" currentValue="1" name="ヒーローポイント">3</data>
      </data>
      <data name="能力値">
        <data name="【体力】">3</data>
        <data name="【技巧】">５</data>
        <data name="【理知】">2</data>
      </data>
      <data name="情報">
        <data name="PL">さとう</data>
        <data name="職業">時計職人</data>
        <data type="note" name="説明">街の時計塔に住む。
歯車の音で眠る。</data>
      </data>
    </data>
  </data>
  <chat-palette dicebot="DiceBot">2D6+{体力} 体力判定
2D6+{技巧} 技巧判定
//体力=3
</chat-palette>
</character>
"""

# CCFOLIA's clipboard copy of a piece (ココフォリア「キャラクターをコピー」), with the keys it writes.
CCFOLIA_UNMEI = {
    "kind": "character",
    "data": {
        "name": "ガルド",
        "memo": "元傭兵の戦士。\n左目に傷。",
        "initiative": 12,
        "externalUrl": "https://example.org/sheet/garudo",
        "status": [
            {"label": "HP", "value": 20, "max": 24},
            {"label": "MP", "value": 3, "max": 5},
        ],
        "params": [
            {"label": "体格", "value": "15"},
            {"label": "敏捷度", "value": "12"},
            {"label": "魅力", "value": "9"},
            {"label": "運命", "value": "10"},
            {"label": "戦闘スキル", "value": "65"},
            {"label": "盗賊スキル", "value": "30"},
            {"label": "魔術スキル", "value": "5"},
            {"label": "アーマークラス", "value": "35"},
            {"label": "レジストクラス", "value": "20"},
            {"label": "行動力", "value": "2"},
            {"label": "Lv", "value": "2"},
            {"label": "出身", "value": "北の山岳"},
        ],
        "iconUrl": "https://example.org/icon.png",
        "faces": [],
        "x": 0,
        "y": 0,
        "angle": 0,
        "width": 4,
        "height": 4,
        "active": True,
        "secret": False,
        "invisible": False,
        "hideStatus": False,
        "color": "#e0e0e0",
        "commands": "1D100<={戦闘スキル} 戦闘\n2D6 ロングソード",
        "owner": None,
    },
}


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def udonarium_lw_zip() -> bytes:
    """A Udonarium character zip: data.xml plus the piece's image."""
    return zip_bytes(
        {
            "data.xml": UDONARIUM_LW_XML.encode("utf-8"),
            "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b.png": b"\x89PNG\r\n",
        }
    )


@pytest.fixture
def ccfolia_unmei_json() -> bytes:
    return json.dumps(CCFOLIA_UNMEI, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def ccfolia_unmei() -> dict:
    """A fresh copy of :data:`CCFOLIA_UNMEI` to edit."""
    return json.loads(json.dumps(CCFOLIA_UNMEI))


@pytest.fixture
def lw_sheet() -> LittleWorldSheet:
    return sample_littleworld()


@pytest.fixture
def unmei_sheet() -> UnmeiSheet:
    return sample_unmei()


def sample_littleworld() -> LittleWorldSheet:
    return LittleWorldSheet(
        name="アリス",
        player="たなか",
        max_hp=15,
        hp=12,
        abilities={"体力": 3, "技巧": 1, "理知": 4},
        skill_cards=["スカウト", "罠設置"],
        keeper={"values_percent": 40, "world": "図書館の国", "hat_worn": True},
        taboo=12,
        cr=300,
        row="後衛",
        conditions={"poison": 2, "sleep": True, "sleep_turns": 1},
        modifiers=[{"reason": "盾を失った", "ability": "体力", "amount": -1}],
        items=[{"name": "薬草", "quantity": 2, "scenario_only": True}],
        life_path="時計塔の見習い",
        notes={"出身": "霧の街", "日記": "一行目\n二行目", "体力": "名前が能力と同じメモ"},
    )


def sample_unmei() -> UnmeiSheet:
    return UnmeiSheet(
        name="リナ",
        kind="named",
        level=3,
        abilities={
            "体格": {"value": 8, "growth_rate": 20},
            "敏捷度": {"value": 14, "growth_rate": 40},
            "魅力": {"value": 16, "growth_rate": 50},
            "運命": {"value": 11, "growth_rate": 30},
            "知力": {"value": 13, "growth_rate": 25},
        },
        skills={"combat": 35, "thief": 55, "magic": 70},
        hp=9,
        max_hp=18,
        ac=25,
        rc=40,
        action_points=2,
        school="炎",
        spells=[{"name": "ファイアボルト", "school": "炎", "hostile": True}],
        weapons=[{"name": "ショートソード", "damage": "1D8", "abilities": ["連続"]}],
        shield=True,
        fate_uses_left=2,
        notes={"背景": "魔術学院を抜け出した見習い"},
    )
