"""What a reader may see of the log and the room (pure; one rule for every front end).

A secret roll is seen by its roller (a player owning the character it was rolled as) and
the GM; everyone else — other players, spectators — gets it *redacted* (the same event
without its dice, data or result: "アリス: シークレットダイス") until a ``revealed``
event names its ``command_id`` (``/reveal``, by the GM or the roller). From then on it is
shown to all, in the log as it was rolled.

A whisper (``/whisper NAME text``) is stronger: only its sender, the player of the
character it is addressed to and the GM receive it; everyone else gets *nothing* —
:func:`view_event` answers None and the reader's sequence numbers skip it. ``/log``, ``/events``, the WebSocket, the HTML
log and ``/state`` all read through here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from saikoro.i18n import Message
from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.events import Event
from saikoro.table.state import Character, RoomState, public_character, public_view

#: How a speaker with no character is shown (the GM speaks as "GM").
PLAYER_NAME = Message("プレイヤー", "player")


def actor_name(actor: str) -> Message:
    """How a logged event's actor is shown (events of a player without a character: "")."""
    return Message(actor, actor) if actor else PLAYER_NAME


def revealed_ids(events: Iterable[Event]) -> set[str]:
    """The command ids of the secret rolls that ``events`` reveal."""
    return {str(e.data.get("command_id")) for e in events if e.kind == ev.REVEALED and e.data}


def rolled_by(event: Event, actor: Actor) -> bool:
    """Is ``actor`` the roller of ``event`` (or the GM)? A player rolled it when they typed
    it as their own character; the GM's lines — also ``@NAME`` as a player's character —
    are the GM's."""
    if actor.is_gm:
        return True
    return (
        actor.role == "player" and not event.by_gm and bool(event.actor) and actor.owns(event.actor)
    )


def may_see(event: Event, actor: Actor, revealed: set[str] | frozenset[str]) -> bool:
    """Does ``actor`` see ``event`` in full? (Every event but an unrevealed secret roll.)"""
    if not event.secret or event.command_id in revealed:
        return True
    return rolled_by(event, actor)


def redacted(event: Event) -> Event:
    """A secret event as others see it: who rolled and when, not what."""
    who = actor_name(event.actor)
    return Event(
        kind=event.kind,
        data={},
        actor=event.actor,
        command_id=event.command_id,
        at=event.at,
        text=Message(f"{who.ja}: シークレットダイス", f"{who.en}: secret dice"),
        secret=True,
        gm=event.gm,
        by_gm=event.by_gm,
        tab=event.tab,
    )


def receives(event: Event, actor: Actor) -> bool:
    """Does ``actor`` get ``event`` at all? Every event but a whisper to someone else: a
    whisper reaches the GM, its sender (the player who typed it as their character) and
    the player of the character it is addressed to."""
    if not event.whisper or actor.is_gm:
        return True
    if actor.role != "player":
        return False
    sent = not event.by_gm and bool(event.actor) and actor.owns(event.actor)
    return sent or actor.owns(event.whisper)


def view_event(event: Event, actor: Actor, revealed: set[str] | frozenset[str]) -> Event | None:
    """``event`` as ``actor`` sees it: itself, :func:`redacted`, without the sheets it
    carries, or None — a whisper to someone else, of which the reader gets nothing (every
    other event is kept, redacted if need be)."""
    if not receives(event, actor):
        return None
    if not may_see(event, actor, revealed):
        return redacted(event)
    return event if actor.is_gm else _without_sheets(event, actor)


def _without_sheets(event: Event, actor: Actor) -> Event:
    """A joining character's sheet is shown only to its player (and the GM) — others see
    what ``/state`` shows them; an undo's saved room (every sheet) to nobody but the GM."""
    if event.kind == ev.UNDONE and "restore" in event.data:
        data = {k: v for k, v in event.data.items() if k != "restore"}
        return replace(event, data=data)
    if event.kind == ev.SHEET_SET and not actor.owns(str(event.data.get("name", ""))):
        return replace(event, data={k: v for k, v in event.data.items() if k != "sheet"})
    if event.kind == ev.CHARACTER_ADDED and "character" in event.data:
        character = Character.model_validate(event.data["character"])
        if not actor.owns(character.name):
            return replace(event, data={**event.data, "character": public_character(character)})
    return event


def view_state(state: RoomState, actor: Actor) -> dict[str, Any]:
    """``/state`` for ``actor``: :func:`public_view`, who the reader is (``you``), and each
    character's current values (``values``: ``{ラベル}`` → number) for the GM and for the
    character's own player."""
    data = public_view(state)
    rows, values = character_rows(state, list(state.characters))
    data["characters"] = [reader_row(row, values.get(name), actor) for name, row in rows.items()]
    data["you"] = actor.to_json()
    return data


def character_rows(
    state: RoomState, names: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The public rows of ``names`` (as :func:`public_character`) and what only the GM and
    each one's player read (``{"values": Tracker.references, "gm": counters, "owner":
    counters}``), each made once for every reader."""
    from saikoro.table.counters import counter_views
    from saikoro.table.dispatch import tracker_for
    from saikoro.table.faces import icon_url

    tracker = tracker_for(state.system)
    rows: dict[str, dict[str, Any]] = {}
    private: dict[str, dict[str, Any]] = {}
    for name in names:
        character = state.characters.get(name)
        if character is None:
            continue
        rows[name] = {**public_character(character), "icon": icon_url(state.room, character)}
        refs = tracker.references(character)
        counters = counter_views(state, character, tracker.counters(character, refs))
        private[name] = {"values": refs, **counters}
    return rows, private


def reader_row(row: dict[str, Any], private: dict[str, Any] | None, actor: Actor) -> dict[str, Any]:
    """A character's row as ``actor`` reads it: ``mine``, and for the GM and the
    character's own player its ``values`` and ``counters`` (with the buttons the table
    accepts from that reader: :mod:`saikoro.table.counters`)."""
    mine = actor.role == "player" and actor.owns(row["name"])
    shown = {**row, "mine": mine}
    if (actor.is_gm or mine) and private is not None:
        shown["values"] = private["values"]
        shown["counters"] = private["gm" if actor.is_gm else "owner"]
    return shown


__all__ = [
    "PLAYER_NAME",
    "actor_name",
    "character_rows",
    "may_see",
    "reader_row",
    "receives",
    "redacted",
    "revealed_ids",
    "rolled_by",
    "view_event",
    "view_state",
]
