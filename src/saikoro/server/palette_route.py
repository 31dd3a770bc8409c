"""The speaker's chat palette with each line's chance of success, for the web table.

``GET /api/rooms/{room}/palette?name=NAME[&chances=false]`` (Bearer token of the GM or of
NAME's player) answers ``{"name", "items": [{"line", "label", "label_en", "command",
"chance", "edit", "select", "own"}]}`` (``label_en``: the English page's label; a player's
own line keeps its own words):

- first the character's **own** chat palette (``own: true``): the lines its player brought
  with a CCFOLIA / Udonarium piece (kept as the sheet's 「チャットパレット」 note), less the
  lines saikoro writes itself;
- then saikoro's part of the palette (the one ``saikoro export`` writes).

Each line's ``{…}`` references are filled in from the character as it is now (``command``;
None when one cannot be), and its ``chance`` of success comes from ``saikoro odds`` under
the room's house rules (``/gm setting``). ``chance`` is None for a line without success or
failure (a check without a target), for a roll of several checks at once (a growth roll:
the system's ``webtable.json`` lists such commands under ``palette_no_chance``),
and for a line to ``edit`` first: one whose note asks for the opponent's value
(「X を相手の体力に」) or whose references cannot be filled in. ``select`` is the
``[start, end)`` of the value to type over in ``command`` (None: nothing to select).
``chances=false`` answers at once with every chance None (the page shows the lines, then
fills the chances in).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.server.table.errors import TableApiError
from saikoro.table.emit import fail
from saikoro.table.state import Character

router = APIRouter()

#: Time budget of one line's odds, as `saikoro odds` (exact for every palette line of both systems:
#: the exact methods give way to Monte Carlo only past half of it).
ODDS_SECONDS = 2.0
#: Time budget of all the chances of one palette: a player's own palette lines are theirs to
#: write (20 lines of `100D6>=N` took 40 s before), so lines past it get no chance.
PALETTE_SECONDS = 3.0
#: Own palette lines shown at most (an imported piece may bring any number).
OWN_LINES_MAX = 100
#: A palette note asking for the opponent's value: 「X を相手の体力に」「0 を相手の AC に」.
ASKS_FOR_VALUE = re.compile(r"([^\s(（]+) を相手の")


@lru_cache(maxsize=4096)
def _chance(system: str, command: str, settings_key: str, seconds: float) -> float | None:
    from saikoro.odds import odds

    settings = json.loads(settings_key) or None
    try:
        result = odds(command, system, seconds=seconds, settings=settings)
    except SaikoroError:
        return None
    if abs(float(result.success + result.failure) - 1) > 1e-9:
        return None
    return float(result.success)


def chance_of_success(
    system: str, command: str, settings: dict[str, Any] | None = None, seconds: float = ODDS_SECONDS
) -> float | None:
    """The chance ``command`` succeeds under the house rules ``settings``, or None when not
    every outcome is a success or a failure (a check without a target: only its criticals
    and fumbles say one) or when it rolls several checks at once."""
    if _without_chance(system, command):
        return None
    key = json.dumps(settings or {}, sort_keys=True, ensure_ascii=False)
    return _chance(system, command, key, round(seconds, 1))


def _without_chance(system: str, command: str) -> bool:
    """A command the system's ``webtable.json`` lists under ``palette_no_chance``: one that
    rolls several checks at once (a growth roll: one per ability) has no single chance."""
    from saikoro.server.web_routes import webtable_data

    try:
        patterns = webtable_data(system).get("palette_no_chance", [])
    except KeyError:
        return False
    return any(re.match(pattern, command, re.IGNORECASE) for pattern in patterns)


def _value_to_type(command: str, value: str) -> tuple[int, int] | None:
    """Where ``value`` (the one a line's note asks for) stands in ``command``: its first
    standalone occurrence (``LWA5-X`` → the X, ``MA65,0,12`` → the 0, not the 0 of 50)."""
    found = re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", command)
    return (found.start(), found.end()) if found else None


def _asked_values(lines: list[str]) -> dict[str, str]:
    """Command → the value its note asks to replace (「X を相手の体力に」): ``LWA{体力}-X`` →
    ``X``. A line extending such a command (``RA{盗賊},0,{敏捷度},1``, aimed) asks it too."""
    asked = {}
    for line in lines:
        command, _, label = line.partition(" ")
        found = ASKS_FOR_VALUE.search(label)
        if found is not None:
            asked[command] = found.group(1)
    return asked


def _item(
    line: str,
    system: str,
    refs: dict[str, int],
    settings: dict[str, Any] | None,
    asked: dict[str, str],
    *,
    own: bool,
    deadline: float,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """One palette line; its chance under ``settings`` (None: not computed, or the
    palette's time budget, ending at ``deadline``, is spent)."""
    from saikoro.table.dispatch import substitute
    from saikoro.transfer.palette import palette_label_en

    command, _, label = line.partition(" ")
    label = label.strip()
    label_en = label if own or not label else palette_label_en(system, label)
    try:
        resolved: str | None = substitute(command, refs)
    except SaikoroError:
        resolved = None
    value = next((v for base, v in asked.items() if command.startswith(base)), None)
    select = _value_to_type(resolved, value) if resolved and value else None
    edit = resolved is None or value is not None
    chance = None
    left = min(ODDS_SECONDS, deadline - clock())
    if settings is not None and resolved and not edit and left >= 0.1:
        chance = chance_of_success(system, resolved, settings, left)
    return {
        "line": line,
        "label": label or command,
        "label_en": label_en or command,
        "command": resolved,
        "chance": chance,
        "edit": edit,
        "select": list(select) if select else None,
        "own": own,
    }


def own_palette_lines(character: Character, generated: list[str]) -> list[str]:
    """The character's own palette lines (:func:`saikoro.transfer.palette.own_palette_lines`)."""
    from saikoro.transfer.palette import own_palette_lines as own_lines

    return own_lines(character.sheet.get("notes") or {}, generated)


def palette_items(
    system: str,
    character: Character,
    settings: dict[str, Any],
    *,
    chances: bool = True,
    clock: Callable[[], float] = time.monotonic,
) -> list[dict[str, Any]]:
    """The character's own palette lines, then saikoro's part of its palette, resolved,
    each with its chance under the house rules ``settings`` (without ``chances``: None).
    ``clock`` measures the palette's time budget (tests inject one)."""
    from saikoro.sheets import sheet_from_data
    from saikoro.table.dispatch import tracker_for
    from saikoro.transfer.palette import SAIKORO_HEADER, build_palette

    lines = build_palette(sheet_from_data(character.sheet, system)).splitlines()
    generated = lines[lines.index(SAIKORO_HEADER) + 1 :] if SAIKORO_HEADER in lines else lines
    refs = tracker_for(system).references(character)
    odds_settings = settings if chances else None
    mine = own_palette_lines(character, lines)[:OWN_LINES_MAX]
    asked = _asked_values(generated) | _asked_values(mine)
    deadline = clock() + PALETTE_SECONDS
    # saikoro's own lines first, so the budget always reaches them; shown after the player's
    ours = [
        _item(line, system, refs, odds_settings, asked, own=False, deadline=deadline, clock=clock)
        for line in generated
        if not line.startswith("//")
    ]
    own = [
        _item(line, system, refs, odds_settings, asked, own=True, deadline=deadline, clock=clock)
        for line in mine
    ]
    return own + ours


@router.get("/api/rooms/{room:path}/palette")
async def palette(room: str, name: str, request: Request, chances: bool = True) -> dict[str, Any]:
    """The chat palette of character ``name`` with each line's chance of success."""
    from saikoro.server.table_api import actor_for_request

    actor = await actor_for_request(request, room)
    if actor.role != "gm" and name not in actor.characters:
        raise fail(
            f"{name} のチャットパレットは見られません",
            f"not allowed to see {name}'s palette",
            "forbidden",
        )
    return await run_in_threadpool(_palette_of, request.app.state.table_store, room, name, chances)


def _palette_of(store: Any, room: str, name: str, chances: bool) -> dict[str, Any]:
    record = store.get_room(room)
    state = store.load_state(record) if record else None
    character = state.characters.get(name) if state else None
    if record is None or state is None or character is None:
        raise TableApiError(
            404,
            "no such character",
            Message(f"キャラクター {name!r} はいません", f"no character {name!r}"),
        )
    settings = dict(state.fields.get("settings") or {})
    return {
        "name": name,
        "items": palette_items(record.system, character, settings, chances=chances),
    }
