"""Shared rooms: create one with its links, join through the invite, manage the links.

The service the HTTP API and ``saikoro room`` both call; the I/O is the store's. A room
made here has three links (:mod:`saikoro.store.links`): the GM's, the player invite and
the spectator's. Whoever opens the invite brings a character (a saikoro sheet as JSON or
YAML text, CCFOLIA clipboard JSON, an Udonarium zip/XML as bytes — or the name of a player
character already in the room nobody holds) and gets a personal link that speaks as it.

Errors are :class:`~saikoro.errors.SaikoroError` with bilingual messages and reasons the
API maps to statuses: ``unauthorized`` (unknown or revoked token — never echoed),
``forbidden``, ``no such room``, ``no such link``, ``room exists``, ``conflict``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeGuard
from urllib.parse import quote

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.sheets import SheetBase, parse_sheet_text
from saikoro.table.actors import Actor, find_name
from saikoro.table.capabilities import LINK_ROLES, Link, LinkRegistry, LinkTaken
from saikoro.table.dispatch import CHARACTER_READERS
from saikoro.table.emit import fail
from saikoro.table.roles import forbidden
from saikoro.table.session import TableSession, create_room_record, usable_room_name
from saikoro.table.storage import RoomRecord, SharedRoomStore

#: Where the printed links point when no ``--base-url`` is given (``saikoro serve``'s).
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
#: The largest character a caller may send (an Udonarium zip with its images included).
MAX_CHARACTER_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class CreatedRoom:
    """A new room and its three links; the tokens are shown this once."""

    room: str
    system: str
    gm_link: Link
    gm_token: str
    invite_link: Link
    invite_token: str
    spectator_link: Link
    spectator_token: str

    def urls(self, base_url: str = DEFAULT_BASE_URL) -> dict[str, str]:
        return {
            "gm_url": room_url(base_url, self.room, self.gm_token),
            "invite_url": room_url(base_url, self.room, self.invite_token, invite=True),
            "spectator_url": room_url(base_url, self.room, self.spectator_token),
        }


def room_url(base_url: str, room: str, token: str, *, invite: bool = False) -> str:
    """The page's link: the token in the fragment, which browsers never send to a server
    (so it stays out of access logs and Referer headers)."""
    key = "invite" if invite else "token"
    return f"{base_url.rstrip('/')}/#room={quote(room, safe='')}&{key}={quote(token, safe='')}"


def unauthorized() -> SaikoroError:
    """The one answer for a bad token (unknown, revoked, another room's): says nothing of it."""
    return SaikoroError(
        Message(
            "リンクが無効です (知らないリンクか、取り消されたリンク)",
            "the link is not valid (unknown or revoked)",
        ),
        reason="unauthorized",
    )


def _room(store: SharedRoomStore, room: str) -> RoomRecord:
    record = store.get_room(room)
    if record is None:
        raise fail(f"部屋 {room!r} はありません", f"no room {room!r}", "no such room")
    return record


def create_room(store: SharedRoomStore, name: str, system: str) -> CreatedRoom:
    """A new room with its GM, invite and spectator links; an existing name is refused
    (minting a GM link for someone else's room would hand it over)."""
    name = usable_room_name(name)
    if store.get_room(name) is not None:
        raise _exists(name)
    record, created = create_room_record(store, name, system)
    if not created:
        raise _exists(name)
    links = store.links
    gm, gm_token = links.create(record.name, "gm")
    invite, invite_token = links.create(record.name, "invite")
    spectator, spectator_token = links.create(record.name, "spectator")
    return CreatedRoom(
        record.name, record.system, gm, gm_token, invite, invite_token, spectator, spectator_token
    )


def _exists(name: str) -> SaikoroError:
    return fail(
        f"部屋 {name!r} はもうあります (別の名前にしてください)",
        f"room {name!r} already exists (choose another name)",
        "room exists",
    )


def authenticate(store: SharedRoomStore, room: str, token: str) -> Link:
    """The live link of ``room`` this token is, else :func:`unauthorized`."""
    link = store.links.resolve(room, token)
    if link is None:
        raise unauthorized()
    return link


def actor_for(link: Link) -> Actor:
    """The actor a link makes its holder. An invite holder only reads until they join."""
    if link.role == "gm":
        return Actor.gm()
    if link.role == "player" and link.character:
        return Actor.player(link.character)
    return Actor.spectator(label=link.role)


def open_session(store: SharedRoomStore, room: str, link: Link, **kwargs: Any) -> TableSession:
    """A session of ``room`` acting as the link's holder, for a network front end: no line
    may name a file on the server."""
    _room(store, room)
    return TableSession.open(store, room, actor=actor_for(link), allow_files=False, **kwargs)


class SeveralCharacters(SaikoroError):
    """A file with several characters (an Udonarium room file) and no choice among them."""

    reason = "several characters"

    def __init__(self, names: list[str]) -> None:
        listed_ja, listed_en = "、".join(names), ", ".join(names)
        super().__init__(
            Message(
                f"このファイルには {len(names)} 人のキャラクターがいます ({listed_ja}):"
                " 取り込むキャラクターを名前で選ぶか (names)、全員を NPC として取り込んでください"
                " (all_npcs)。プレイヤーは 1 人を選んで参加します (name)",
                f"the file holds {len(names)} characters ({listed_en}): choose the ones to"
                " bring in by name (names) or bring them all in as NPCs (all_npcs); a player"
                " joins with one of them (name)",
            )
        )
        self.names = names


def choose_characters(
    sheets: list[SheetBase], names: list[str] | None = None, all_npcs: bool = False
) -> list[SheetBase]:
    """The characters chosen from a file's: those ``names`` (in that order), or all of them
    (``all_npcs``); a file of one character needs no choice. Raises SaikoroError."""
    if names:
        by_name = {sheet.name: sheet for sheet in sheets}
        missing = [name for name in names if name not in by_name]
        if missing:
            have = [sheet.name for sheet in sheets]
            raise fail(
                f"ファイルに {'、'.join(missing)} はいません (いるのは: {'、'.join(have)})",
                f"the file has no {', '.join(missing)} (it has: {', '.join(have)})",
                "no such character",
            )
        return [by_name[name] for name in dict.fromkeys(names)]
    if all_npcs or len(sheets) == 1:
        return list(sheets)
    raise SeveralCharacters([sheet.name for sheet in sheets])


def read_character(content: str | bytes, system: str) -> SheetBase:
    """The one character of what a caller sent (see :func:`read_characters`); a file with
    several is refused, naming them (:class:`SeveralCharacters`)."""
    return choose_characters(read_characters(content, system))[0]


def read_characters(content: str | bytes, system: str) -> list[SheetBase]:
    """The sheets of what a caller sent: saikoro JSON/YAML text, or a tool's export that a
    registered reader knows (``saikoro.transfer.register_with_table()``, which the front
    ends call: CCFOLIA clipboard JSON, an Udonarium zip/XML as bytes — a room file holds
    several characters). Raises SaikoroError (a bilingual reason) when it is none."""
    raw = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    if len(raw) > MAX_CHARACTER_BYTES:
        raise fail(
            f"キャラクターが大きすぎます ({MAX_CHARACTER_BYTES // 1024 // 1024} MiB まで)",
            f"the character is too large (at most {MAX_CHARACTER_BYTES // 1024 // 1024} MiB)",
        )
    for reader in CHARACTER_READERS:
        sheets = reader(raw, system)
        if sheets is not None:
            return sheets
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise fail(
            "キャラクターが読めません (saikoro のシート、CCFOLIA の JSON、ユドナリウムの zip/xml)",
            "cannot read the character (a saikoro sheet, CCFOLIA JSON, or an Udonarium zip/xml)",
        ) from None
    suffix = ".json" if text.lstrip().startswith(("{", "[")) else ".yaml"
    return [parse_sheet_text(text, suffix, system)]


def join(
    store: SharedRoomStore,
    room: str,
    invite_token: str,
    character: str | bytes,
    name: str | None = None,
) -> tuple[Link, str, str]:
    """Join ``room`` through its invite: ``(personal link, its token, the character's name)``.

    ``character`` is a character to bring (see :func:`read_characters`; ``name`` chooses
    one from a file of several, an Udonarium room file) or the name of a player character
    already in the room that no live personal link holds.
    """
    invite = authenticate(store, room, invite_token)
    if invite.role != "invite":
        raise forbidden("参加には招待リンクを使ってください", "join with the room's invite link")
    _room(store, room)
    session = TableSession.open(store, room, allow_files=False)
    links = store.links
    if not character or (isinstance(character, str) and not character.strip()):
        raise fail(
            "キャラクターがありません: キャラクターのデータを貼り付けるかドロップするか、"
            "部屋にいるキャラクターの名前を書いてください",
            "no character: paste or drop a character, or write the name of one in the room",
            "no character",
        )
    named = _existing_name(session, character)
    if named is not None:
        if session.state.characters[named].side != "pc":
            raise forbidden(
                f"{named} は NPC です (GM のキャラクター)", f"{named} is an NPC (the GM's)"
            )
        _not_held(links, room, named)
        name = named
    elif _looks_like_a_name(character):
        present = "、".join(n for n, c in session.state.characters.items() if c.side == "pc")
        raise fail(
            f"部屋にキャラクター {character.strip()!r} はいません (いるPC: {present or 'なし'})",
            f"no character {character.strip()!r} in the room (PCs: "
            f"{present.replace('、', ', ') or 'none'})",
            "no such character",
        )
    else:
        sheets = read_characters(character, session.state.system)
        sheet = choose_characters(sheets, [name] if name else None)[0]
        _not_held(links, room, sheet.name)
        session.add_sheet(sheet, actor=Actor.player(sheet.name))
        name = sheet.name
    link, token = links.create(room, "player", name)
    return link, token, name


def _existing_name(session: TableSession, character: str | bytes) -> str | None:
    if not isinstance(character, str) or "\n" in character.strip() or len(character) > 200:
        return None
    return find_name(character.strip(), session.state.characters)


#: Marks of a sentence, never of a character's name (pasted prose is no name).
_PROSE = re.compile(r"[。．！？!?、，]|\.\s|,\s")
#: A name is short (the longest ordinary names are far below this).
NAME_LENGTH = 40


def _looks_like_a_name(character: str | bytes) -> TypeGuard[str]:
    """One short line that is no JSON or YAML mapping and no sentence: a character's name."""
    if not isinstance(character, str):
        return False
    text = character.strip()
    return (
        0 < len(text) <= NAME_LENGTH
        and "\n" not in text
        and not text.startswith(("{", "[", "<"))
        and ":" not in text
        and _PROSE.search(text) is None
    )


def _not_held(links: LinkRegistry, room: str, name: str) -> None:
    """Checked before a sheet is added; the store's unique index decides a race."""
    if links.has_live(room, "player", name):
        raise LinkTaken(name)


def add_character(
    store: SharedRoomStore,
    room: str,
    by: Link,
    character: str | bytes,
    side: str | None = None,
    *,
    names: list[str] | None = None,
    all_npcs: bool = False,
) -> list[str]:
    """The GM brings characters (NPCs, or PCs for players) in from what they sent: its one
    character, those ``names`` of a file of several (an Udonarium room file), or all of
    them as NPCs (``all_npcs``). The names brought in; none when one cannot be."""
    _require_gm(by)
    if side not in (None, "pc", "npc"):
        raise fail(f"{side!r} は pc/npc ではありません", f"{side!r}: expected pc or npc")
    _room(store, room)
    session = TableSession.open(store, room, allow_files=False)
    chosen = choose_characters(read_characters(character, session.state.system), names, all_npcs)
    if all_npcs and not names:
        side = "npc"
    for sheet in chosen:  # checked first: a file brings all its chosen characters or none
        present = find_name(sheet.name, session.state.characters)
        if present is not None:
            raise fail(f"{sheet.name} はすでにいます", f"{sheet.name} is already here", "duplicate")
    for sheet in chosen:
        session.add_sheet(sheet, actor=Actor.gm(), side=side)
    return [sheet.name for sheet in chosen]


def add_quick(
    store: SharedRoomStore,
    room: str,
    by: Link,
    *,
    fields: dict[str, Any] | None = None,
    copy_of: str | None = None,
    count: int = 1,
    side: str | None = None,
) -> list[str]:
    """The GM makes ``count`` characters at once (one line: all or none), from the sheet
    ``fields`` the page's form gives (``name`` is the base of their names) or as copies of
    the character ``copy_of``; named by :func:`saikoro.table.sheet_edits.quick_names`.
    Every sheet is validated by the system's model before anything is written."""
    from saikoro.table.sheet_edits import named_copies, quick_names

    _require_gm(by)
    if side not in (None, "pc", "npc"):
        raise fail(f"{side!r} は pc/npc ではありません", f"{side!r}: expected pc or npc")
    _room(store, room)
    session = TableSession.open(store, room, allow_files=False)
    state = session.state
    if copy_of is not None:
        name = find_name(copy_of, state.characters)
        if name is None:
            raise fail(f"{copy_of} はいません", f"no character {copy_of!r}", "unknown character")
        original = state.characters[name]
        data = dict(original.sheet)
        side = side or original.side
    else:
        if not isinstance(fields, dict) or not str(fields.get("name") or "").strip():
            raise fail("名前 (name) を書いてください", "give the character a name", "invalid sheet")
        data = {**fields, "name": str(fields["name"]).strip()}
    names = quick_names(str(data["name"]), count, state.characters)
    sheets = named_copies(data, names, state.system)
    session.add_sheets(sheets, actor=Actor.gm(), side=side)
    return names


def edit_character(
    store: SharedRoomStore, room: str, by: Link, name: str, changes: dict[str, Any]
) -> list[str]:
    """Edit character ``name``'s fields as the link's holder may (the GM any field, a
    player their own memo and palette lines): the events it logged."""
    _room(store, room)
    session = TableSession.open(store, room, allow_files=False)
    outcome = session.edit(name, changes, actor=actor_for(by))
    return [event.kind for event in outcome.events]


def character_sheet(store: SharedRoomStore, room: str, by: Link, name: str) -> dict[str, Any]:
    """The sheet of character ``name`` as the GM or its player may read it (to edit)."""
    from saikoro.table.roles import check_owner

    _room(store, room)
    state = TableSession.open(store, room, allow_files=False).state
    found = find_name(name, state.characters)
    if found is None:
        raise fail(f"{name} はいません", f"no character {name!r}", "unknown character")
    check_owner(actor_for(by), found, "シートを見られる", "read the sheet of")
    character = state.characters[found]
    return {**character.sheet, "hp": character.hp, "max_hp": character.max_hp}


def _require_gm(by: Link) -> None:
    if by.role != "gm":
        raise forbidden("リンクを管理できるのは GM だけです", "only the GM manages the links")


def list_links(store: SharedRoomStore, room: str, by: Link | None = None) -> list[Link]:
    """Every link of ``room`` (never a token); ``by`` (a network caller) must be the GM."""
    if by is not None:
        _require_gm(by)
    _room(store, room)
    return store.links.list(room)


def issue(
    store: SharedRoomStore,
    room: str,
    role: str,
    character: str | None = None,
    by: Link | None = None,
) -> tuple[Link, str]:
    """A new link of ``role`` (``player`` names its character); ``by`` must be the GM."""
    if by is not None:
        _require_gm(by)
    _room(store, room)
    if role not in LINK_ROLES or (role == "player") != bool(character):
        raise fail(
            "役割は gm / invite / spectator / player (キャラクター名つき) です",
            "the role is gm, invite, spectator or player (with a character's name)",
        )
    if character is not None:  # the room's spelling: a link owns its character exactly
        present = TableSession.open(store, room, allow_files=False).state.characters
        character = find_name(character, present) or character
    return store.links.create(room, role, character)


def revoke(
    store: SharedRoomStore,
    room: str,
    link_id: str,
    *,
    reissue: bool = False,
    by: Link | None = None,
) -> tuple[Link, str] | None:
    """Revoke a link of ``room`` (and, with ``reissue``, make one of the same role and
    character in its place: returned with its token). ``by`` must be the GM."""
    if by is not None:
        _require_gm(by)
    _room(store, room)
    links = store.links
    old = links.get(room, link_id)
    if old is None or old.revoked:
        raise fail(
            f"部屋 {room!r} に有効なリンク {link_id!r} はありません",
            f"room {room!r} has no live link {link_id!r}",
            "no such link",
        )
    if reissue:
        return links.reissue(room, link_id)
    links.revoke(room, link_id)
    return None


__all__ = [
    "DEFAULT_BASE_URL",
    "CreatedRoom",
    "SeveralCharacters",
    "actor_for",
    "add_character",
    "authenticate",
    "choose_characters",
    "create_room",
    "issue",
    "join",
    "list_links",
    "open_session",
    "read_character",
    "read_characters",
    "revoke",
    "room_url",
    "unauthorized",
    "usable_room_name",
]
