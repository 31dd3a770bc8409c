"""Sheets for the simulator's tests, written to a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from saikoro.simulate import Encounter, from_files

LW = "LittleWorld"
UM = "UnmeiD100"


def lw_sheet(name: str, hp: int, body: int, skill: int, wits: int, kind: str = "PC") -> dict:
    return {
        "system": LW,
        "name": name,
        "kind": kind,
        "max_hp": hp,
        "abilities": {"体力": body, "技巧": skill, "理知": wits},
    }


def um_sheet(
    name: str,
    hp: int,
    combat: int,
    agility: int,
    ac: int,
    damage: str = "2D6",
    kind: str = "PC",
    **extra: Any,
) -> dict:
    return {
        "system": UM,
        "name": name,
        "kind": kind,
        "max_hp": hp,
        "abilities": {
            "体格": {"value": 10},
            "敏捷度": {"value": agility},
            "魅力": {"value": 8},
            "運命": {"value": 10},
        },
        "skills": {"combat": combat},
        "ac": ac,
        "action_points": 1,
        "weapons": [{"name": "剣", "damage": damage}],
        **extra,
    }


def write(folder: Path, sheet: dict) -> str:
    path = folder / f"{sheet['name']}.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False), encoding="utf-8")
    return str(path)


def encounter(folder: Path, party: list[dict], enemies: list[dict]) -> Encounter:
    return from_files([write(folder, s) for s in party], [write(folder, s) for s in enemies])
