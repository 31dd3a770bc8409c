"""What each actor may do at the table (pure): the GM everything, a player their own
characters, a spectator only read.

The dispatcher asks here before it carries a line out, so every front end obeys the same
rules. A refusal is a :class:`~saikoro.table.emit.TableError` with reason ``"forbidden"``
and a bilingual message; nothing is changed.

A player:
- speaks only as their own characters (``@NAME`` / ``--as``), never as ``GM`` (any width);
- edits only their own characters' statuses and conditions, removes only their own
  characters, adds (``/char add``) only a sheet of their own character;
- undoes only their own lines (checked by ``/undo`` itself);
- cannot use ``/gm``, start or end a combat, or pick whose turn it is (``/next NAME``); a
  plain ``/next`` ends only their own character's turn;
- reveals only their own secret rolls (checked by ``/reveal``).
A spectator may only read: ``/help``, ``/state``, ``/log``, ``/char list``.
Over the network (``allow_files`` false) no line may name a file: ``/char add PATH`` is
refused for everyone.
"""

from __future__ import annotations

from saikoro.table.actors import GM_SPEAKER, Actor, find_name, is_gm_name
from saikoro.table.emit import TableError, fail
from saikoro.table.state import RoomState

#: The reason every role refusal carries (the API answers 403).
FORBIDDEN = "forbidden"

#: Slash commands that only read the table (``/char list`` too).
READ_ONLY_VERBS = frozenset({"help", "state", "log"})


def forbidden(ja: str, en: str) -> TableError:
    return fail(ja, en, FORBIDDEN)


def gm_only(command_line: bool) -> tuple[str, str]:
    """Why ``/gm`` was refused, as the front end makes one the GM (``--gm`` on the command
    line; the GM's own link on the web table, which reads no files)."""
    if command_line:
        return "/gm は GM だけが使えます (--gm)", "/gm is for the GM only (--gm)"
    return (
        "/gm は GM だけが使えます (GM のリンクで開いたページから)",
        "/gm is for the GM only (from the page of the GM's link)",
    )


def legacy_actor(gm: bool, speaker: str | None, state: RoomState) -> Actor:
    """The actor of ``saikoro play`` without a link: ``--gm`` is the GM, else a player of
    the ``--as`` character as the room names it (or of none)."""
    if gm:
        return Actor.gm()
    if not speaker:
        return Actor.player()
    found = find_name(speaker, state.characters)
    return Actor.player(found if found is not None else speaker)


def resolve_speaker(state: RoomState, actor: Actor, typed: str | None) -> str | None:
    """The name a line speaks as (``@NAME``, ``--as`` or the player's character), checked.

    A character's name is matched after normalisation (``@ｱﾘｽ`` is アリス's, if she is
    here); ``GM`` in any width is the GM's unless a character has that name.
    """
    if typed is None:
        return None
    found = find_name(typed, state.characters)
    if actor.is_spectator:
        raise forbidden(
            "観戦者は発言できません (読み取り専用のリンク)",
            "spectators cannot speak (a read-only link)",
        )
    if found is None and is_gm_name(typed):
        if not actor.is_gm:
            raise forbidden(
                "GM として話せるのは GM だけです (自分のキャラクターとして話してください)",
                "only the GM speaks as GM (speak as your own character)",
            )
        return GM_SPEAKER
    if actor.is_gm:
        return found if found is not None else typed
    # In the room: that character must be the player's; not (yet) in the room: one of theirs.
    name = found if found is not None else find_name(typed, actor.characters)
    if name is None or not actor.owns(name):
        shown = found if found is not None else typed
        raise forbidden(
            f"{shown} はあなたのキャラクターではありません"
            "(プレイヤーが話せるのは自分のキャラクターとしてだけです)",
            f"{shown} is not your character (a player speaks only as their own characters)",
        )
    return name


def authorize(
    state: RoomState, actor: Actor, speaker: str | None, line: str, *, allow_files: bool = True
) -> None:
    """Raise a ``forbidden`` TableError when ``actor`` may not carry out ``line``.

    ``line`` is the line without its ``@NAME``; ``speaker`` is already resolved
    (:func:`resolve_speaker`). Checks that need the line's result (``/char add``'s sheet,
    ``/undo``'s target, ``/reveal``'s roll) are made by those commands (:func:`check_owner`).
    """
    verb, args = _verb(line)
    if verb == "char" and args[:1] == ["add"] and not allow_files:
        raise forbidden(
            "ここではサーバーのファイルを読めません: キャラクターは参加リンク"
            "(シートの中身)で追加してください",
            "this table cannot read files on the server: add a character through the "
            "invite link (the sheet's text)",
        )
    if actor.is_gm:
        return
    reading = verb in READ_ONLY_VERBS or (verb == "char" and args[:1] == ["list"])
    if actor.is_spectator:
        if not reading:
            raise forbidden(
                "観戦者は読むだけです (/help /state /log /char list)",
                "spectators can only read (/help /state /log /char list)",
            )
        return
    if verb == "gm":
        raise forbidden(*gm_only(allow_files))
    if verb == "combat":
        raise forbidden(
            "戦闘を始めたり終えたりできるのは GM だけです",
            "only the GM starts or ends a combat",
        )
    if verb == "next":
        if args:
            raise forbidden(
                "次の手番を選べるのは GM だけです (/next だけなら自分の手番を終えます)",
                "only the GM picks whose turn it is (a plain /next ends your own turn)",
            )
        current = state.combat.current if state.combat is not None else None
        if current is not None and not actor.owns(current):
            raise forbidden(
                f"いまは {current} の手番です: 手番を終えられるのは本人と GM だけです",
                f"it is {current}'s turn: only they or the GM end it",
            )
    if verb == "char" and args[:1] == ["remove"] and len(args) == 2:
        check_owner(actor, _name_in(state, args[1]), "退場させられる", "remove")
    if verb == "cond" and len(args) >= 2 and args[0] in ("add", "remove"):
        check_owner(actor, _name_in(state, args[1]), "状態を変えられる", "change the conditions of")


def check_owner(actor: Actor, name: str, what_ja: str, what_en: str) -> None:
    """Refuse unless ``actor`` owns the character ``name`` (the GM owns them all)."""
    if not actor.owns(name):
        raise forbidden(
            f"{name} はあなたのキャラクターではありません ({what_ja}のは自分のキャラクターだけ)",
            f"{name} is not your character (you can {what_en} only your own characters)",
        )


def _name_in(state: RoomState, typed: str) -> str:
    found = find_name(typed, state.characters)
    return found if found is not None else typed


def _verb(line: str) -> tuple[str, list[str]]:
    if not line.startswith("/"):
        return "", []
    words = line[1:].split()
    if not words:
        return "", []
    return words[0].lower(), words[1:]


__all__ = [
    "FORBIDDEN",
    "READ_ONLY_VERBS",
    "authorize",
    "check_owner",
    "forbidden",
    "legacy_actor",
    "resolve_speaker",
]
