"""``/levelup NAME [ABILITY]`` at the table (UM-LEVEL-01/02/04, UM-LEVEL-05).

A character who survived the session goes up one level (at most 10): the table rolls the
``GROW`` command with the character's growth rates as they are now (the sheet's 成長率 plus
its ほにゃらら儀式 bonus, or the GM's edit of ``{体格成長率}``), raises each ability that rose,
and — when none rose — asks the player for one ability to raise (``/levelup NAME 体格``,
a follow-up line; the level-up is not finished until then). The fate count per session
follows the new level from the next reset (``/gm fate reset``; UM-FATE-01/UM-LEVEL-04).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from saikoro.dice.words import english_text
from saikoro.i18n import Message
from saikoro.sheets import sheet_from_data
from saikoro.systems import get_system
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.sheet import UnmeiSheet
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


PENDING = "levelup_pick"
#: UM-LEVEL-06: level-ups a character is owed, one per session survived (``/gm session end``).
OWED = "levelups_owed"


def growth_label(ability: str) -> str:
    """The ``{…}`` label of an ability's growth rate: ``{体格成長率}``."""
    return f"{ability}成長率"


def current_level(tracker: UnmeiTracker, character: Character) -> int:
    return int(tracker.references(character).get("レベル", 1))


def _raise_ability(
    emit: Emit, tracker: UnmeiTracker, name: str, ability: str, rules: tuple[str, ...]
) -> None:
    character = emit.character(name)
    old = int(tracker.references(character)[ability])
    emit.set_status(
        name,
        ability,
        old + 1,
        old=old,
        rules=rules,
        note=Message(
            f"{name}: {ability} {old} → {old + 1}", f"{name}: {ability} {old} → {old + 1}"
        ),
    )
    tracker.after_status_change(emit, name, ability, old, old + 1)


def _may_level(emit: Emit, name: str, actor: str) -> None:
    if not (emit.gm or actor == name):
        raise fail(
            f"{name} のレベルアップは本人か GM だけが行えます",
            f"only {name}'s player or the GM can level {name} up",
            "forbidden",
        )
    if emit.state.combat is not None:
        raise fail(
            "レベルアップはセッションの終わりに行います (戦闘中はできません)",
            "level-ups happen at the end of a session (not during a combat)",
            "in combat",
        )


def mark_survivors(tracker: UnmeiTracker, emit: Emit, number: int) -> None:
    """UM-LEVEL-06 (``/gm session end``): each character not 死亡 is owed one level-up."""
    survivors, dead = [], []
    for character in list(emit.state.characters.values()):
        if character.condition(um.LifeState.DEAD.value) is not None:
            dead.append(character.name)
            continue
        survivors.append(character.name)
        owed = int(character.fields.get(OWED, 0)) + 1
        emit.set_field(character.name, OWED, owed, rules=("UM-LEVEL-06",))
    shown = "、".join(survivors) or "なし"
    emit.add(
        ev.NOTICE,
        {"session": number, "survivors": survivors, "dead": dead},
        rules=("UM-LEVEL-06",),
        text=Message(
            f"セッション{number}を生き残った: {shown} (それぞれ /levelup 名前 で1回レベルアップ)"
            + (f"; 死亡: {'、'.join(dead)}" if dead else ""),
            f"survived session {number}: {', '.join(survivors) or 'nobody'} (each may level "
            "up once: /levelup NAME)" + (f"; dead: {', '.join(dead)}" if dead else ""),
        ),
    )


def _spend_owed(emit: Emit, name: str, character: Character) -> None:
    """UM-LEVEL-06: a level-up uses one session survived; the GM's line may grant one more
    (a logged ruling); a player's is refused without one."""
    owed = int(character.fields.get(OWED, 0))
    if owed > 0:
        emit.set_field(name, OWED, owed - 1, rules=("UM-LEVEL-06",))
        return
    emit.refuse_or_rule(
        Message(
            f"{name} はレベルアップできません: 生き残ったセッションの分はもう使いました "
            "(セッションの終わりに GM が /gm session end) [UM-LEVEL-06]",
            f"{name} cannot level up: no session survived is left to level up for "
            "(the GM ends a session with /gm session end) [UM-LEVEL-06]",
        ),
        "no session survived",
        Message(
            f"GM裁定: {name} に生き残ったセッションの分を超えるレベルアップを認める",
            f"GM ruling: {name} levels up beyond the sessions survived",
        ),
        {"ruling": "levelup", "name": name},
        ("UM-LEVEL-06",),
    )


def levelup(tracker: UnmeiTracker, emit: Emit, actor: str, args: list[str]) -> None:
    """``/levelup NAME`` rolls the growth; ``/levelup NAME ABILITY`` is the player's pick."""
    if len(args) not in (1, 2):
        raise fail(
            "/levelup 名前 [能力値] です (UM-LEVEL-02)",
            "use /levelup NAME [ABILITY] (UM-LEVEL-02)",
        )
    name = args[0]
    character = emit.character(name)
    _may_level(emit, name, actor)
    sheet = sheet_from_data(character.sheet)
    assert isinstance(sheet, UnmeiSheet)
    pending = bool(character.fields.get(PENDING))
    if len(args) == 2:
        _pick(tracker, emit, name, sheet, args[1], pending)
        return
    if pending:
        raise fail(
            f"{name} は上げる能力値を選ぶところです (/levelup {name} 能力値)",
            f"{name} still has to pick an ability to raise (/levelup {name} ABILITY)",
            "pick pending",
        )
    dead = any(c.label == um.LifeState.DEAD.value for c in character.conditions)
    level = current_level(tracker, character)
    try:
        up = um.level_up(level, survived=not dead, kind=sheet.kind)
    except um.UnmeiRuleError as error:
        raise fail(
            f"{name}: {error.message.ja} (UM-LEVEL-01)",
            f"{name}: {error.message.en} (UM-LEVEL-01)",
            error.reason,
        ) from None
    refs = tracker.references(character)
    rates = ",".join(f"{a}{refs[growth_label(a)]}" for a in sheet.abilities)
    if tracker.cfg(emit).no_growth_rates == "refuse" and not any(
        int(refs[growth_label(a)]) > 0 for a in sheet.abilities
    ):
        raise fail(
            f"{name} には成長率がありません (どれも0): GM が決めてください "
            f"(/gm set {name} 体格成長率 N) [UM-LEVEL-07]",
            f"{name} has no growth rates (all 0): the GM sets them "
            f"(/gm set {name} 体格成長率 N) [UM-LEVEL-07]",
            "no growth rates",
        )
    _spend_owed(emit, name, character)
    from saikoro.dice.engine import evaluate

    result = evaluate(f"GROW{rates}", get_system(tracker.system), emit.randomizer)
    assert result is not None and result.detail is not None
    emit.add(
        ev.ROLL,
        {"action": "levelup", "command": f"GROW{rates}", "result": dict(result.detail)},
        rules=result.rules,
        text=Message(
            f"{name} のレベルアップ: {result.text}",
            f"{name} levels up: {english_text(result, get_system(tracker.system))}",
        ),
    )
    for ability, rose in zip(result.detail["abilities"], result.detail["raised"], strict=True):
        if rose:
            _raise_ability(emit, tracker, name, ability, ("UM-LEVEL-02",))
    before = um.fate_uses_per_session(sheet.kind, level).uses
    emit.set_status(
        name,
        "レベル",
        up.level,
        old=level,
        rules=up.rules,
        note=Message(
            f"{name}: レベル {level} → {up.level} (運命判定 {before} → {up.fate_uses} 回/"
            "セッション、次の /gm fate reset から)",
            f"{name}: level {level} → {up.level} (fate checks {before} → {up.fate_uses} "
            "per session, from the next /gm fate reset)",
        ),
    )
    if result.detail["player_chooses"]:
        emit.set_field(
            name,
            PENDING,
            True,
            rules=("UM-LEVEL-02",),
            text=Message(
                f"{name}: どの能力値も上がらなかったので、好きな能力値を1つ選んで+1 "
                f"(/levelup {name} {'|'.join(sheet.abilities)})",
                f"{name}: no ability rose, so raise one of your choice by 1 "
                f"(/levelup {name} {'|'.join(sheet.abilities)})",
            ),
        )


def _pick(
    tracker: UnmeiTracker, emit: Emit, name: str, sheet: UnmeiSheet, ability: str, pending: bool
) -> None:
    if not pending:
        raise fail(
            f"{name} が選んで上げる能力値はありません (どれかが成長したときは選べません)",
            f"{name} has no ability to pick (only when no ability rose)",
            "no pick pending",
        )
    if ability not in sheet.abilities:
        raise fail(
            f"{ability!r} は {name} の能力値ではありません ({'、'.join(sheet.abilities)})",
            f"{ability!r} is not an ability of {name} ({', '.join(sheet.abilities)})",
        )
    _raise_ability(emit, tracker, name, ability, ("UM-LEVEL-02",))
    emit.set_field(name, PENDING, None, rules=("UM-LEVEL-02",))
