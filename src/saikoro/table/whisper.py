"""Whispers (秘話) and the GM's chat tabs: two table verbs of the chat itself.

``/whisper NAME text`` (``/w``) logs a chat line that only its sender, the player of the
character NAME and the GM receive (``/whisper GM text``: the sender and the GM); everyone
else gets nothing of it, not even a redacted line (:func:`saikoro.table.view.view_event`).
``/gm tab add NAME`` / ``/gm tab remove NAME`` keep the room's extra tabs
(:mod:`saikoro.table.tabs`).
"""

from __future__ import annotations

from saikoro.i18n import Message
from saikoro.table import events as ev
from saikoro.table.actors import GM_SPEAKER, find_name, is_gm_name
from saikoro.table.emit import Emit, fail
from saikoro.table.tabs import (
    BUILTIN_TABS,
    MAX_ROOM_TABS,
    TAB_NAME_LENGTH,
    TABS_FIELD,
    room_tabs,
)


def whisper(emit: Emit, args: list[str], speaker: str | None, who: Message, *, gm: bool) -> None:
    """``/whisper NAME text``: a chat event addressed to ``NAME`` (a character, or GM)."""
    if len(args) < 2:
        raise fail(
            "/whisper 名前 文 です (GM へは /whisper GM 文)",
            "use /whisper NAME TEXT (to the GM: /whisper GM TEXT)",
            "bad whisper",
        )
    if not gm and not speaker:
        raise fail(
            "秘話を送るにはキャラクターが必要です (@名前 で話してください)",
            "a whisper needs a character to send it (speak as @NAME)",
            "bad whisper",
        )
    target, text = args[0], " ".join(args[1:])
    if is_gm_name(target):
        to = GM_SPEAKER
    else:
        found = find_name(target, emit.state.characters)
        if found is None:
            emit.character(target)  # raises: no such character (the names present)
        to = str(found)
    emit.add(
        ev.CHAT,
        {"text": text, "to": to},
        text=Message(f"{who.ja} → {to} (秘話): {text}", f"{who.en} → {to} (whisper): {text}"),
        whisper=to,
    )


def gm_tab(emit: Emit, args: list[str]) -> None:
    """``/gm tab add NAME`` / ``/gm tab remove NAME``: the room's own chat tabs."""
    sub = args[0].lower() if args else ""
    if sub not in ("add", "remove") or len(args) != 2:
        raise fail(
            "/gm tab add 名前 · /gm tab remove 名前 です",
            "use /gm tab add NAME or /gm tab remove NAME",
        )
    name = args[1]
    extra = [t for t in room_tabs(emit.state.fields) if t not in BUILTIN_TABS]
    if sub == "add":
        if name in room_tabs(emit.state.fields):
            raise fail(f"タブ {name} はもうあります", f"there is a tab {name} already")
        if len(name) > TAB_NAME_LENGTH or not name.isprintable():
            raise fail(
                f"タブの名前は {TAB_NAME_LENGTH} 文字までの普通の文字です",
                f"a tab name is at most {TAB_NAME_LENGTH} printable characters",
            )
        if len(extra) >= MAX_ROOM_TABS:
            raise fail(
                f"追加できるタブは {MAX_ROOM_TABS} 個までです",
                f"a room has at most {MAX_ROOM_TABS} added tabs",
            )
        tabs, said = [*extra, name], Message(f"タブ {name} を追加", f"tab {name} added")
    else:
        if name not in extra:
            raise fail(
                f"GM が追加したタブ {name} はありません",
                f"no tab {name} added by the GM",
            )
        tabs = [t for t in extra if t != name]
        said = Message(f"タブ {name} を削除", f"tab {name} removed")
    emit.add(ev.ROOM_SET, {"key": TABS_FIELD, "value": tabs or None}, text=said)
