"""A short session per registered game system that uses every verb of its tracker.

The log tests play these (in-process and in Chromium) and download the log afterwards:
``log.html`` must render every event kind a system's verbs produce (issue 19: 運命判定d100's
``/melee`` once made it answer 500). Each script is the sheets the GM brings in and the lines
typed by the GM (``@NAME`` speaks as a character), every line accepted with the browser
tests' fixed dice (d6 → 4, d100 → 30, see tests/web/conftest.FIXED_FACES).
:func:`verbs_used` reads which tracker verbs a script types, so a new verb fails the
coverage test until its script uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LW = ROOT / "examples" / "littleworld"
SHEETS = ROOT / "tests" / "table" / "sheets"


@dataclass(frozen=True)
class VerbScript:
    sheets: tuple[Path, ...]  # saikoro sheets, as the GM drops them on the page
    lines: tuple[str, ...]


#: Lines every table takes (the dispatcher's own verbs and the core event kinds).
COMMON = (
    "こんにちは",
    "2D6>=7 力試し",
    "S2D6",
    "/reveal",  # the last secret roll: shown to all
)

SCRIPTS: dict[str, VerbScript] = {
    "DiceBot": VerbScript(sheets=(), lines=COMMON),  # no sheets, no tracker: dice and chat
    "Cthulhu7th": VerbScript(sheets=(), lines=(*COMMON, "CC1<=50 目星", "SCC<=30", "/reveal")),
    "LittleWorld": VerbScript(
        sheets=(
            LW / "pc_gin_fighter.yaml",
            LW / "pc_mimi_scout.json",
            LW / "pc_lily_keeper.yaml",
            LW / "enemy_goblin.yaml",
        ),
        lines=(
            *COMMON,
            "@ギン /act 錠前を外す 技巧 5",
            "@ミミ /herb 野山",
            "/gm item ミミ 中和剤",
            "@ミミ /cure ミミ 中和剤",
            "@ミミ /use 薬草",
            "@ギン /device スマホ",
            "@ギン /drive 車 10",
            "@ギン /ride 馬 8",
            "@ギン /ride off",
            "@ギン /swim",
            "@ギン /swim off",
            "@リリィ /language 古代語 10",
            "@リリィ /reward exp 2",
            "@リリィ /hat on",
            "@リリィ /hat off",
            "@ギン /card 剣術",
            "/gm row リリィ 後衛",
            "/undo",
            "/gm row ミミ 後衛",
            "/combat start",
            "/gm tie ギン リリィ",
            "/gm lock ミミ ギン リリィ ゴブリン",
            "@ミミ /pass",
            "@ギン /attack ゴブリン 体力",
            "/next",
            "@ゴブリン /attack ギン 体力",
            "@ギン :HP-30",
            "@ミミ :HP-30",
            "@リリィ :HP-30",
            "/combat end",
            "/gm setting critical_sixes 1",
            "/gm time 20",
            "/gm rest 1",
            "/gm scenario end",
            "/char remove ゴブリン",
        ),
    ),
    "UnmeiD100": VerbScript(
        sheets=(
            SHEETS / "ken.json",
            SHEETS / "mia.json",
            SHEETS / "rin.json",
            SHEETS / "knight.json",
            SHEETS / "orc.json",
        ),
        lines=(
            *COMMON,
            "/gm place オーク 4",
            "/gm hold ケン 弓",
            "/undo",
            "/gm hold ケン 剣",
            "/combat start",  # ケン → リン → オーク (2 turns) → 騎士 → ミア
            "@ケン /move 3",
            "@ケン /melee オーク",  # 30 ≤ 60: hit, 2D6 = 8 → オーク 15 → 7
            "/next",
            "@リン /switch 弓",
            "/next",
            "@オーク /defend",
            "/next",
            "/next",
            "@騎士 /dismount",
            "/next",
            "@ミア /chant 火球",
            "/next",  # round 2
            "@ケン /aim",
            "/next",
            "@リン /shoot オーク",  # 30 > 25: a miss …
            "@リン /fate success",  # … made a hit: 1D6 = 4 → オーク 7 → 3
            "/next",
            "/next",
            "/next",
            "@騎士 /mount",
            "/next",
            "@ミア /cast オーク",
            "/gm cond オーク 魅了",
            "/gm dying オーク 気絶",
            "/gm dying オーク none",
            "/combat end",
            "/gm setting melee_reach_m 2",
            "/levelup ケン",
            "/gm fate reset",
            "/char remove オーク",
        ),
    ),
}

_VERB = re.compile(r"^(?:@\S+\s+)?/(gm\s+)?(\w+)")


def verbs_used(lines: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The slash verbs and the ``/gm`` verbs the lines type."""
    verbs: set[str] = set()
    gm_verbs: set[str] = set()
    for line in lines:
        match = _VERB.match(line)
        if match:
            (gm_verbs if match.group(1) else verbs).add(match.group(2))
    return verbs, gm_verbs
