"""Who fights: an :class:`Encounter` from sheet files (one list per side) or from a room's
characters as they are now, and how it is set up on a fresh table — by the GM's own lines
(``/gm setting``, the sheets brought in, ``/gm set``, ``/cond add``), so a replayed fight's
log is an ordinary room."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.sheets import SheetBase, sheet_from_data
from saikoro.simulate.model import SIDES, Playbook
from saikoro.simulate.table import MemoryTable
from saikoro.table.state import Character, RoomState

#: ``goblin.json:3`` — three copies of the sheet (named ゴブリン1…3).
_COUNT = re.compile(r"^(.*):(\d+)$")
#: At most this many characters in one simulated fight.
MAX_FIGHTERS = 40


class SimulationError(SaikoroError):
    """Input the simulator cannot play (bilingual, as every saikoro error)."""

    reason = "bad simulation"


def error(ja: str, en: str) -> SimulationError:
    return SimulationError(Message(ja, en))


@dataclass(frozen=True)
class Fighter:
    """One character: its sheet, its side (``pc``/``npc``) and the GM's lines that bring it
    to the state it starts the fight in: a room's character (HP, conditions, values, tracker
    fields) or None (as the sheet says)."""

    sheet: SheetBase
    side: str
    #: The room's character it copies (None: fresh from its sheet).
    start: Character | None = None

    @property
    def name(self) -> str:
        return self.sheet.name


@dataclass(frozen=True)
class Encounter:
    """A fight to simulate: the system, the fighters, the room's house rules."""

    system: str
    fighters: tuple[Fighter, ...]
    settings: tuple[tuple[str, Any], ...] = ()

    def names(self, side: str) -> list[str]:
        return [f.name for f in self.fighters if f.side == side]

    def set_up(self, table: MemoryTable) -> None:
        """Bring everyone in and start the combat, on an empty table of the system."""
        for key, value in self.settings:
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            table.run(f"/gm setting {key} {shown}")
        for fighter in self.fighters:
            table.add(fighter.sheet, fighter.side)
        for fighter in self.fighters:
            if fighter.start is not None:
                now = table.state.characters[fighter.name]
                for line in catch_up_lines(now, fighter.start):
                    table.run(line)


def playbook_for(system: str) -> Playbook:
    """The system's simulator playbook (its manifest's), or a clear error."""
    from saikoro.systems import manifest

    try:
        found: Playbook | None = manifest(system).playbook()
    except KeyError:
        found = None
    if found is None:
        raise error(
            f"{system} の戦闘はシミュレートできません",
            f"{system} fights cannot be simulated",
        )
    return found


def check(encounter: Encounter) -> Encounter:
    """Refuse what cannot be played: a side without anyone, twice the same name, a name the
    table's lines cannot carry (blanks), too many fighters, a system without a playbook."""
    playbook_for(encounter.system)
    for side, ja, en in (("pc", "味方", "party"), ("npc", "敵", "enemies")):
        if not encounter.names(side):
            raise error(f"{ja}側にキャラクターがいません", f"the {en} side has no character")
    seen: set[str] = set()
    for fighter in encounter.fighters:
        if fighter.side not in SIDES:
            raise error(f"陣営 {fighter.side!r} はありません", f"no side {fighter.side!r}")
        if fighter.name.casefold() in seen:
            raise error(
                f"キャラクター名 {fighter.name!r} が重複しています (ファイル:数 で複製できます)",
                f"the name {fighter.name!r} appears twice (FILE:N makes numbered copies)",
            )
        if re.search(r"\s", fighter.name):
            raise error(
                f"キャラクター名 {fighter.name!r} に空白があります: シミュレートできません",
                f"the name {fighter.name!r} contains a blank: it cannot be simulated",
            )
        seen.add(fighter.name.casefold())
    if len(encounter.fighters) > MAX_FIGHTERS:
        raise error(
            f"キャラクターは {MAX_FIGHTERS} 人までです ({len(encounter.fighters)} 人)",
            f"at most {MAX_FIGHTERS} characters ({len(encounter.fighters)})",
        )
    return encounter


def copies(sheet: SheetBase, count: int) -> list[SheetBase]:
    """``count`` copies of ``sheet``, numbered (ゴブリン1, ゴブリン2, …) when more than one."""
    if count == 1:
        return [sheet]
    return [sheet.model_copy(update={"name": f"{sheet.name}{i}"}) for i in range(1, count + 1)]


def read_sheet_spec(spec: str, system: str | None) -> list[SheetBase]:
    """``PATH`` or ``PATH:N`` (N copies) → sheets; any format ``/char add`` reads."""
    from saikoro.table.dispatch import load_character_file

    count = 1
    path = Path(spec)
    match = _COUNT.match(spec)
    if match and not path.exists():
        path, count = Path(match.group(1)), int(match.group(2))
        if not 1 <= count <= MAX_FIGHTERS:
            raise error(
                f"{spec}: 数は 1〜{MAX_FIGHTERS} です", f"{spec}: the count is 1 to {MAX_FIGHTERS}"
            )
    if not path.is_file():
        raise error(f"{path}: ファイルがありません", f"{path}: no such file")
    if system is None:
        from saikoro.sheets import load_sheet

        try:
            sheet = load_sheet(path)
        except SaikoroError:
            if _names_a_system(path):
                raise  # a saikoro sheet that is wrong: its own message says how
            raise error(  # another format (CCFOLIA, Udonarium) needs the system
                f"{path}: ゲームシステムが分かりません (--system で指定してください)",
                f"{path}: which game system? (give --system)",
            ) from None
    else:
        sheet = load_character_file(path, system)
    return copies(sheet, count)


def _names_a_system(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return path.suffix.lower() in (".yaml", ".yml")
    return isinstance(data, dict) and isinstance(data.get("system"), str)


def from_files(
    party: Sequence[str], enemies: Sequence[str], system: str | None = None
) -> Encounter:
    """The party's and the enemies' sheet files (``PATH`` or ``PATH:N``)."""
    if not party or not enemies:
        raise error(
            "--party と --enemy にそれぞれ1つ以上のシートが必要です",
            "give at least one sheet to --party and one to --enemy",
        )
    fighters: list[Fighter] = []
    for side, specs in (("pc", party), ("npc", enemies)):
        for spec in specs:
            for sheet in read_sheet_spec(spec, system):
                system = system or sheet.system
                if sheet.system != system:
                    raise error(
                        f"{spec}: {sheet.system} のシートです ({system} の戦闘)",
                        f"{spec}: a {sheet.system} sheet in a {system} fight",
                    )
                fighters.append(Fighter(sheet, side))
    assert system is not None
    return check(Encounter(system, tuple(fighters)))


def from_state(
    state: RoomState,
    *,
    only: Iterable[str] | None = None,
    extra: Sequence[tuple[SheetBase, str]] = (),
) -> Encounter:
    """A room's characters as they are now (HP, conditions, edited values, tracker fields
    the GM may set), plus ``extra`` sheets (``(sheet, side)``, e.g. chosen NPCs), under the
    room's house rules. ``only``: just these characters of the room."""
    wanted = None if only is None else set(only)
    fighters = [
        _fighter_of(character)
        for name, character in state.characters.items()
        if wanted is None or name in wanted
    ]
    fighters += [Fighter(sheet, side) for sheet, side in extra]
    settings = tuple(sorted((state.fields.get("settings") or {}).items()))
    return check(Encounter(state.system, tuple(fighters), settings))


def _fighter_of(character: Character) -> Fighter:
    return Fighter(sheet_from_data(character.sheet), character.side, character)


def catch_up_lines(now: Character, wanted: Character) -> list[str]:
    """The GM's lines that bring ``now`` (just brought in from its sheet) to ``wanted``
    (the room's character): edited values, tracker fields, HP, conditions."""
    name = now.name
    lines = [
        f"/gm set {name} {key} {value}"
        for key, value in sorted(wanted.statuses.items())
        if now.statuses.get(key) != value
    ]
    for key, value in sorted(wanted.fields.items()):
        if key.startswith("_") or key == "row" or now.fields.get(key) == value:
            continue  # bookkeeping of turns gone by; rows follow the side
        if isinstance(value, int) and not isinstance(value, bool):
            lines.append(f"/gm set {name} {key} {value}")
    if wanted.hp != now.hp:
        lines.append(f"/gm set {name} HP {wanted.hp}")
    for condition in wanted.conditions:
        if now.condition(condition.label) is None:
            level = f" {condition.level}" if condition.level else ""
            lines.append(f"/cond add {name} {condition.label}{level}")
    return lines
