"""A character's counters: its numeric statuses (HP, and what the system's sheet has —
価値観, 禁忌値, cr, 運命判定回数, MP …) as the web table's cards show them, a bar with a
maximum or a plain counter, each with the lines its − and + buttons send.

Which buttons a reader gets is decided by the table itself, not here: each button's line
(``@NAME :LABEL-1`` / ``@NAME :LABEL+1``, or the system's own line for a value no ``:`` edit
sets) is carried out on a throwaway copy of the character, as the GM and as the character's
player, through :func:`saikoro.table.dispatch.dispatch` — the path a typed line takes, with
its permission checks and the system's bounds. A button is offered only where that line
would be accepted (pure; nothing is stored).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from typing import Any

from saikoro.dice.randomizer import ScriptedSource
from saikoro.errors import SaikoroError
from saikoro.table.actors import Actor
from saikoro.table.state import Character, RoomState


@dataclass(frozen=True)
class Counter:
    """One numeric status: its label, value and maximum (None: a counter without a bar)."""

    label: str
    value: int
    max: int | None = None
    #: The line that sets it to ``{value}`` (``{name}`` the character), for a value no
    #: ``:LABEL±1`` edit changes (運命判定d100's 運命判定回数: ``/gm set {name} fate_left
    #: {value}``); None: ``@NAME :LABEL-1`` and ``@NAME :LABEL+1``.
    line: str | None = None

    def lines(self, name: str) -> tuple[str | None, str | None]:
        """The (−, +) buttons' lines; a value set by the system's own line stays within 0
        and its maximum (None: no such button)."""
        if self.line is not None:
            down, up = self.value - 1, self.value + 1
            return (
                self.line.format(name=name, value=down) if down >= 0 else None,
                self.line.format(name=name, value=up)
                if self.max is None or up <= self.max
                else None,
            )
        return f"@{name} :{self.label}-1", f"@{name} :{self.label}+1"


def maxed_counters(character: Character, refs: dict[str, int]) -> list[Counter]:
    """HP, then every value whose maximum the character also has (``MP`` with ``MMP`` or
    ``最大MP``): what any system's counters are, before its own."""
    out = [Counter("HP", character.hp, character.max_hp)]
    for label, value in refs.items():
        if label in ("HP", "MHP") or label.startswith("最大"):
            continue
        most = refs.get(f"最大{label}", refs.get(f"M{label}"))
        if most is not None:
            out.append(Counter(label, int(value), int(most)))
    return out


def _accepted(state: RoomState, character: Character, line: str | None, actor: Actor) -> bool:
    """Would ``line`` be carried out for ``actor``? Run on a copy of the room holding only
    this character (no combat): permissions and bounds, never another character's state."""
    from saikoro.table.dispatch import Context, dispatch

    if line is None:
        return False
    alone = RoomState(
        room=state.room,
        system=state.system,
        version=state.version,
        characters={character.name: character},
        fields=state.fields,
    )
    context = Context(source=ScriptedSource([]), actor=actor, allow_files=False)
    try:
        dispatch(alone, line, context)
    except SaikoroError:
        return False
    except Exception:  # a system's hook that needs more of the room: offer no button
        return False
    return True


#: Counter views kept, by what decides them (the character, its counters, the room's fields:
#: house rules): a room's rows are made again on every change, most of them unchanged.
MAX_CACHED_VIEWS = 4096
_views: OrderedDict[str, dict[str, list[dict[str, Any]]]] = OrderedDict()
_views_lock = threading.Lock()


def counter_views(
    state: RoomState, character: Character, counters: list[Counter]
) -> dict[str, list[dict[str, Any]]]:
    """The counters as the GM (``gm``) and as the character's player (``owner``) get them:
    ``[{"label", "value", "max", "down", "up"}]``, ``down`` / ``up`` the line of a button
    the table would accept from that reader, else None. The same character, counters and
    room fields give the same answer (kept: the lines are not carried out again)."""
    key = json.dumps(
        [
            state.system,
            state.fields,
            character.model_dump(mode="json"),
            [asdict(c) for c in counters],
        ],
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    with _views_lock:
        known = _views.get(key)
        if known is not None:
            _views.move_to_end(key)
            return known
    views = _probe(state, character, counters)
    with _views_lock:
        _views[key] = views
        if len(_views) > MAX_CACHED_VIEWS:
            _views.popitem(last=False)
    return views


def _probe(
    state: RoomState, character: Character, counters: list[Counter]
) -> dict[str, list[dict[str, Any]]]:
    views: dict[str, list[dict[str, Any]]] = {"gm": [], "owner": []}
    readers = {"gm": Actor.gm(), "owner": Actor.player(character.name)}
    for counter in counters:
        down, up = counter.lines(character.name)
        for key, actor in readers.items():
            views[key].append(
                {
                    "label": counter.label,
                    "value": counter.value,
                    "max": counter.max,
                    "down": down if _accepted(state, character, down, actor) else None,
                    "up": up if _accepted(state, character, up, actor) else None,
                }
            )
    return views


__all__ = ["Counter", "counter_views", "maxed_counters"]
