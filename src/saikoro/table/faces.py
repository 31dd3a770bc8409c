"""Faces: a character's icon, as the table records it (pure).

The image itself is stored beside the room's log (``saikoro.store.images``, by its
SHA-256); the log records which image a character shows with an ``icon_set`` event
(``{"name", "icon": digest | None, "type": content type}``), so every reader of the log —
the page's cards and lines, the HTML log — knows each character's face at each moment.
A face is no line's effect: ``/undo`` never takes it back (the fold keeps faces as they
are), and it goes to the ``info`` tab.

Who may change a face: the character's player and the GM (:meth:`Actor.owns`).
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

from saikoro.i18n import Message
from saikoro.table import events as ev
from saikoro.table.actors import GM_SPEAKER, Actor, find_name
from saikoro.table.dispatch import Outcome
from saikoro.table.emit import fail
from saikoro.table.events import Event, now_iso
from saikoro.table.roles import forbidden
from saikoro.table.state import Character, RoomState
from saikoro.table.tabs import INFO

#: The reason of a refusal naming a character the room does not have (the API: 404).
NO_SUCH_CHARACTER = "no such character"


def icon_url(room: str, character: Character) -> str | None:
    """Where the table API serves the character's face (``GET …/characters/NAME/icon``),
    with the image's digest in the query so the address changes with the image; None
    without a face."""
    if not character.icon:
        return None
    room_part, name_part = quote(room, safe=""), quote(character.name, safe="")
    return f"/api/rooms/{room_part}/characters/{name_part}/icon?v={character.icon}"


def face_owner(state: RoomState, actor: Actor, name: str) -> str:
    """The room's name of the character ``name`` whose face ``actor`` may change; refused
    (bilingual) when there is none or it is someone else's."""
    found = find_name(name, state.characters)
    if found is None:
        present = "、".join(state.characters) or "なし"
        raise fail(
            f"キャラクター {name!r} はいません (いるのは: {present})",
            f"no character {name!r} (present: {present.replace('、', ', ')})",
            NO_SUCH_CHARACTER,
        )
    if not actor.owns(found):
        raise forbidden(
            f"{found} の顔 (アイコン) を変えられるのは {found} のプレイヤーと GM だけです",
            f"only {found}'s player and the GM change {found}'s face (icon)",
        )
    return found


def icon_outcome(
    state: RoomState, actor: Actor, name: str, digest: str | None, content_type: str = ""
) -> Outcome:
    """The event that gives ``name`` the face ``digest`` (None: removes it), by ``actor``.
    Raises SaikoroError (no such character, someone else's)."""
    found = face_owner(state, actor, name)
    removed = digest is None
    text = (
        Message(f"{found} のアイコンを外しました", f"{found}'s icon removed")
        if removed
        else Message(f"{found} のアイコンを変えました", f"{found}'s icon changed")
    )
    if state.characters[found].icon == digest:
        return Outcome([], [text])  # nothing changes: nothing logged
    event = Event(
        ev.ICON_SET,
        {"name": found, "icon": digest, "type": "" if removed else content_type},
        actor=GM_SPEAKER if actor.is_gm else found,
        command_id=uuid.uuid4().hex,
        at=now_iso(),
        text=text,
        by_gm=actor.is_gm,
        tab=INFO,
    )
    return Outcome([event], [text], command_id=event.command_id)


__all__ = ["NO_SUCH_CHARACTER", "face_owner", "icon_outcome", "icon_url"]
