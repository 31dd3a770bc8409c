"""Chat line → validated against the room state → events (no I/O).

``dispatch(state, line, ctx)`` returns an :class:`Outcome` (events + what to show) or
raises a :class:`~saikoro.errors.SaikoroError` — then nothing changes. Reading files for
``/char add`` and asking the log for ``/undo`` / ``/log`` go through ``ctx``.
``ctx.actor`` is who typed the line (:mod:`saikoro.table.actors`); what they may do is
decided by :mod:`saikoro.table.roles` before anything is carried out.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, get_origin

from pydantic import ValidationError

from saikoro.dice.normalize import MAX_INPUT_LENGTH, InputTooLongError, to_half_width
from saikoro.dice.randomizer import DiceSource, Randomizer
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.sheets import SheetBase, describe_validation_error
from saikoro.systems import manifest
from saikoro.systems.setting_docs import (
    close_settings,
    find_setting,
    setting_default,
    setting_meaning,
)
from saikoro.table import events as ev
from saikoro.table import roles
from saikoro.table.actors import GM_SPEAKER, Actor, find_name, is_gm_name
from saikoro.table.emit import Emit, LineStamp, TableError, fail, roll_summary
from saikoro.table.events import Event, now_iso
from saikoro.table.line_reading import read_structure
from saikoro.table.state import RoomState, public_view
from saikoro.table.tabs import MAIN, checked_tab
from saikoro.table.tracker import Tracker
from saikoro.table.view import PLAYER_NAME, actor_name, revealed_ids, rolled_by, view_event
from saikoro.table.whisper import gm_tab, whisper


class History(Protocol):
    """The room's log, as the dispatcher may read it (the store implements it)."""

    def state_before(self, command_id: str) -> RoomState: ...

    def recent(self, count: int) -> list[tuple[int, Event]]: ...


@dataclass
class Context:
    speaker: str | None = None  # --as NAME
    gm: bool = False
    source: DiceSource | None = None
    history: History | None = None
    base_dir: Path = field(default_factory=Path.cwd)
    #: Who types the line; None: ``saikoro play``'s flags (``gm``: the GM, else a player of
    #: the ``speaker``) — see :func:`saikoro.table.roles.legacy_actor`.
    actor: Actor | None = None
    #: May a line name a file (``/char add PATH``)? Only in ``saikoro play``, never over
    #: the network.
    allow_files: bool = True
    #: The chat tab the line was typed in (:mod:`saikoro.table.tabs`; "" = ``main``).
    tab: str = ""
    #: The line's command id and time; empty: a new random id and the clock's time now (the
    #: simulator numbers its lines and stamps them all with the time its table was set up).
    command_id: str = ""
    at: str = ""

    def but(self, **changes: Any) -> Context:
        """This context with some fields changed (``dataclasses.replace`` without its
        generic pass over every field: each line makes one)."""
        made = object.__new__(Context)
        made.__dict__.update(self.__dict__, **changes)
        return made


@dataclass
class Outcome:
    events: list[Event]
    lines: list[Message]
    secret_lines: list[Message] = field(default_factory=list)
    data: dict[str, Any] | None = None
    command_id: str = ""
    #: The room after the line: what folding ``events`` into the room the line was given
    #: yields (a caller that keeps no other copy may take it instead of folding them).
    state: RoomState | None = None

    def text(self, lang: str | None = None, *, gm: bool = False) -> str:
        shown = list(self.lines) + (list(self.secret_lines) if gm else [])
        return "\n".join(m.text(lang) for m in shown)

    def caller_text(self, lang: str | None = None) -> str:
        """What the one who typed the line is shown: secret rolls in it are their own."""
        return self.text(lang, gm=True)


# -- sheet files: the hook for other formats ---------------------------------------------

#: suffix → loader(path, system) for character files other than saikoro's JSON/YAML sheets.
#: A front end registers more formats explicitly (``saikoro.transfer.register_with_table()``
#: adds Udonarium / CCFOLIA); the table imports no format package itself.
SHEET_IMPORTERS: dict[str, Callable[[Path, str], SheetBase]] = {}


def register_sheet_importer(suffix: str, loader: Callable[[Path, str], SheetBase]) -> None:
    SHEET_IMPORTERS[suffix.lower()] = loader


#: (bytes, system) → the file's characters (an Udonarium room file holds several), or None
#: when not that reader's format: characters sent in a request (joining a shared room).
#: ``saikoro.transfer.register_with_table()`` registers CCFOLIA / Udonarium.
CHARACTER_READERS: list[Callable[[bytes, str], list[SheetBase] | None]] = []


def register_character_reader(reader: Callable[[bytes, str], list[SheetBase] | None]) -> None:
    if reader not in CHARACTER_READERS:
        CHARACTER_READERS.append(reader)


def load_character_file(path: Path, system: str) -> SheetBase:
    """A saikoro sheet (.json/.yaml), or a CCFOLIA .json / Udonarium .zip/.xml export."""
    if "\0" in str(path) or (path.exists() and not path.is_file()):
        # a directory, device or pipe: reading a pipe waits for a writer forever
        raise fail(
            f"{str(path)!r} は普通のファイルではありません", f"{str(path)!r} is not a regular file"
        )
    suffix = path.suffix.lower()
    if suffix in (".json", ".yaml", ".yml"):
        from saikoro.sheets import load_sheet

        try:
            return load_sheet(path, system)
        except SaikoroError:
            if suffix != ".json" or ".json" not in SHEET_IMPORTERS:
                raise
            return SHEET_IMPORTERS[".json"](path, system)
    loader = SHEET_IMPORTERS.get(suffix)
    if loader is None:
        raise fail(
            f"{path.name}: この形式のキャラクターファイルは読めません (.json/.yaml)",
            f"{path.name}: unsupported character file (.json/.yaml)",
            "unsupported file",
        )
    return loader(path, system)


# -- trackers ---------------------------------------------------------------------------

_GENERIC_TRACKER = Tracker()


def tracker_for(system: str) -> Tracker:
    """The system's tracker (its manifest's), else the generic one."""
    try:
        tracker = manifest(system).tracker_object()
    except KeyError:
        tracker = None
    return tracker or _GENERIC_TRACKER


# -- the dispatcher ---------------------------------------------------------------------

_AT = re.compile(r"^[@＠](\S+)\s+(.*)$", re.DOTALL)
#: How a speaker with no character (no --as, no @NAME) is shown: the GM with --gm, else a player.
GM_NAME = Message("GM", "GM")
#: ``:LABEL+N`` / ``:LABEL-N`` (N a plain number: ``:HP--3`` is refused) or ``:LABEL=N``.
_STATUS = re.compile(r"^:\s*([^\s+\-=]+)\s*(?:([+\-])\s*(\d+)|(=)\s*(-?\d+))\s*$")
_REF = re.compile(r"\{([^{}]+)\}")


def dispatch(state: RoomState, line: str, ctx: Context) -> Outcome:
    """Carry out one chat line against ``state``; raises SaikoroError on a bad line."""
    line = typed = line.strip()
    if len(line) > MAX_INPUT_LENGTH:
        raise InputTooLongError(len(line))
    command_id = ctx.command_id or uuid.uuid4().hex
    if not line:
        return Outcome([], [], command_id=command_id)
    line = read_structure(line, state.characters)
    actor = ctx.actor or roles.legacy_actor(ctx.gm, ctx.speaker, state)
    speaker = ctx.speaker or actor.own_character
    match = _AT.match(line)
    if match:
        speaker, line = match.group(1), match.group(2).strip()
    speaker = roles.resolve_speaker(state, actor, speaker)
    if (
        match
        and speaker is not None
        and speaker not in state.characters
        and not is_gm_name(speaker)
        and find_name(speaker, actor.characters) is None
    ):  # a misspelled @NAME (UM-TABLE-02); a player's own character may be still to join
        known = "、".join(state.characters) or "なし"
        raise fail(
            f"@{speaker}: そのキャラクターはいません (いるのは: {known})",
            f"@{speaker}: no such character (present: {', '.join(state.characters) or 'none'})",
            "unknown character",
        )
    roles.authorize(state, actor, speaker, line, allow_files=ctx.allow_files)
    ctx = ctx.but(actor=actor, gm=actor.is_gm, tab=checked_tab(ctx.tab, state.fields))
    speaking = speaker or ("GM" if ctx.gm else "")
    stamp = LineStamp(speaking, command_id, ctx.at or now_iso(), actor.is_gm, ctx.tab, typed)
    emit = Emit(state, Randomizer(ctx.source), gm=False, stamp=stamp)
    data: dict[str, Any] | None = None
    tracker = tracker_for(state.system)
    if line.startswith("/"):
        data = _slash(emit, tracker, line, speaker, ctx)
    elif line.startswith(":"):
        _status_edit(emit, tracker, line, speaker, ctx)
    else:
        _roll_or_chat(emit, tracker, line, speaker, ctx)
    if any(e.kind in _CHANGES for e in emit.events):
        tracker.after_line(emit)
    return _outcome(emit, data)


def _line_emit(state: RoomState, ctx: Context, actor: Actor, speaking: str, typed: str) -> Emit:
    """The working copy of a line that is not typed (a join, a page's edit), stamped."""
    stamp = LineStamp(
        speaking,
        ctx.command_id or uuid.uuid4().hex,
        ctx.at or now_iso(),
        actor.is_gm,
        ctx.tab or MAIN,
        typed,
    )
    return Emit(state, Randomizer(ctx.source), gm=False, stamp=stamp)


def _outcome(emit: Emit, data: dict[str, Any] | None) -> Outcome:
    """The line's events (stamped as they were made), replies and resulting room."""
    return Outcome(
        emit.events, emit.lines, emit.secret_lines, data, emit.stamp.command_id, emit.state
    )


def speaker_name(speaker: str | None, gm: bool) -> Message:
    """How a line's speaker is shown: the character, else GM (--gm) or プレイヤー / player."""
    if speaker:
        return Message(speaker, speaker)
    return GM_NAME if gm else PLAYER_NAME


_CHANGES = frozenset(
    {
        ev.STATUS_SET,
        ev.CONDITION_ADDED,
        ev.CONDITION_REMOVED,
        ev.CHARACTER_ADDED,
        ev.CHARACTER_REMOVED,
        ev.FIELD_SET,
        ev.TURN_STARTED,
        ev.ROUND_STARTED,
        ev.SHEET_SET,
    }
)


def substitute(text: str, refs: dict[str, int] | None) -> str:
    """Replace ``{ラベル}`` by the speaker's values; unknown labels are an error."""

    def one(match: re.Match[str]) -> str:
        label = match.group(1).strip()
        if refs is None:
            raise fail(
                f"{{{label}}} を使うには話者のキャラクターが必要です (--as または @名前)",
                f"{{{label}}} needs a speaking character (--as or @NAME)",
            )
        if label not in refs:
            raise fail(
                f"{{{label}}} はキャラクターの値にありません ({'、'.join(refs)})",
                f"{{{label}}} is not a value of the character ({', '.join(refs)})",
                "unknown reference",
            )
        return str(refs[label])

    return _REF.sub(one, text)


def _speaker_refs(emit: Emit, tracker: Tracker, speaker: str | None) -> dict[str, int] | None:
    if speaker is None or speaker not in emit.state.characters:
        return None
    return tracker.references(emit.state.characters[speaker])


def _roll_or_chat(
    emit: Emit, tracker: Tracker, line: str, speaker: str | None, ctx: Context
) -> None:
    who = speaker_name(speaker, ctx.gm)
    who_ja, who_en = who.ja, who.en
    half = to_half_width(line)  # a dice line typed with an IME: ２Ｄ６＋｛体力｝ (UM-TABLE-01)
    command = substitute(half, _speaker_refs(emit, tracker, speaker)) if "{" in half else half
    result = None
    system = None
    if emit.state.system:
        from saikoro.dice.engine import evaluate
        from saikoro.systems import configured
        from saikoro.systems.hints import why_not_a_command

        # the room's house rules (/gm setting) apply to typed commands as to the tracker's
        system = configured(emit.state.system, emit.state.fields.get("settings"))
        result = evaluate(command, system, emit.randomizer)
        unreadable = (
            why_not_a_command(command, emit.state.system, at_table=True) if result is None else None
        )
        if unreadable is not None:  # it looks like a command: refused, not logged as chat
            raise fail(unreadable.ja, unreadable.en, "unreadable command")
    if result is None:
        emit.add(ev.CHAT, {"text": line}, text=Message(f"{who_ja}: {line}", f"{who_en}: {line}"))
        return
    from saikoro.dice.words import english_text

    english = english_text(result, system)
    comment = roll_comment(line)
    said = f"{comment} " if comment else ""
    emit.add(
        ev.ROLL,
        {
            "command": command,
            "result": roll_summary(result),
            **({"comment": comment} if comment else {}),
        },
        rules=result.rules,
        secret=result.secret,
        text=Message(f"{who_ja}: {said}{result.text}", f"{who_en}: {said}{english}"),
    )
    if speaker is not None and speaker in emit.state.characters:
        tracker.after_roll(emit, speaker, result)
    if result.secret:
        emit.say(f"{who_ja}: シークレットダイス", f"{who_en}: secret dice")


#: A repetition before the command (``x3 2D6``, ``Sx2 1D6``: the S may stand before it).
_REPEAT_PREFIX = re.compile(r"^s?(?:x|rep|repeat)\d+\s+", re.IGNORECASE)
#: A choice whose items are in brackets ends at its closing bracket (``choice[A, B] 理由``);
#: the words of ``choice A B C`` are all items.
_BRACKETED_CHOICE = re.compile(r"^s?choice\d*(?:\[[^\]]*\]|\([^)]*\))", re.IGNORECASE)
_SPACED_CHOICE = re.compile(r"^s?choice\d*(?:\s|$)", re.IGNORECASE)


def roll_comment(line: str) -> str:
    """What a player wrote after a dice command (``1D100<=65 目星`` → ``目星``): BCDice reads
    only the command, the table shows the words with the result, as CCFOLIA does. The
    comment keeps the player's own characters (full-width text stays full-width)."""
    rest = to_half_width(line).strip()
    words = 0  # how many of the line's words the command takes
    prefix = _REPEAT_PREFIX.match(rest)
    if prefix is not None:
        words, rest = 1, rest[prefix.end() :]
    if _SPACED_CHOICE.match(rest):
        return ""
    choice = _BRACKETED_CHOICE.match(rest)
    words += len(choice[0].split()) if choice is not None else 1
    # Width folding keeps word boundaries (the ideographic space is a space in both).
    parts = line.strip().split(None, words)
    return parts[words].strip() if len(parts) > words else ""


def _status_edit(
    emit: Emit, tracker: Tracker, line: str, speaker: str | None, ctx: Context
) -> None:
    match = _STATUS.match(line)
    if match is None:
        raise fail(
            f"{line!r}: ステータス変更は :HP-3 / :HP+2 / :HP=10 の形です",
            f"{line!r}: a status edit looks like :HP-3, :HP+2 or :HP=10",
        )
    if speaker is None:
        raise fail(
            "ステータスを変えるキャラクターがいません (--as または @名前)",
            "no character to edit (--as or @NAME)",
        )
    label = match.group(1)
    op, amount = (match.group(2), match.group(3)) if match.group(2) else match.group(4, 5)
    emit.gm = ctx.gm
    change_status(emit, tracker, speaker, label, op, int(amount))


def _capped(value: int, requested: int, at_max_hp: bool) -> Message:
    """`` (最大 8)`` when an edit stopped short of what was asked (``:HP+99`` at max HP)."""
    if value == requested:
        return Message("", "")
    if value < requested:
        if at_max_hp:
            return Message(f" (最大 {value})", f" (max {value})")
        return Message(f" (上限 {value})", f" (capped at {value})")
    return Message(f" (下限 {value})", f" (floor {value})")


def change_status(
    emit: Emit,
    tracker: Tracker,
    name: str,
    label: str,
    op: str,
    amount: int,
    *,
    ruling: bool = False,
) -> int:
    """``:LABEL±N`` / ``:LABEL=N`` (``ruling``: the GM's ``/gm set``), as the system allows
    (:meth:`Tracker.bound_status`); returns the value set, as shown. Labels are read
    case-insensitively and by their English names (``level`` is ``レベル``). Max HP lowered
    below HP brings HP down to it."""
    character = emit.character(name)
    upper = label.upper()
    offset = 0
    if upper in ("HP",):
        key, current = "hp", character.hp
    elif upper in ("MHP", "MAXHP", "MAX_HP") or label == "最大HP":
        key, current = "max_hp", character.max_hp
    else:
        label = tracker.status_label(character, label)
        found = tracker.editable(character, label)
        if found is None:
            refs = tracker.references(character)
            raise fail(
                f"{name} にステータス {label!r} はありません ({'、'.join(refs)})",
                f"{name} has no status {label!r} ({', '.join(refs)})",
                "unknown status",
            )
        key, current, offset = found
    requested = amount if op == "=" else current + amount if op == "+" else current - amount
    value = tracker.bound_status(emit, name, key, current, requested, op, ruling)
    shown = {"hp": ("HP", "HP"), "max_hp": ("最大HP", "max HP")}.get(key, (label, label))
    # A GM's edit says so (the players see who changed it); a capped edit says where it stopped.
    by_gm = emit.gm and not ruling
    who = Message(f"GM: {name} ", f"GM: {name} ") if by_gm else Message(f"{name}: ", f"{name}: ")
    emit.set_status(
        name,
        key,
        value + offset,
        old=current + offset,
        note=who
        + Message(f"{shown[0]} {current} → {value}", f"{shown[1]} {current} → {value}")
        + _capped(value, requested, key == "hp" and value == character.max_hp),
        actor=GM_SPEAKER if by_gm else "",
    )
    tracker.after_status_change(emit, name, key, current + offset, value + offset)
    hp = emit.character(name).hp
    if key == "max_hp" and hp > value:  # HP never stays above max HP
        emit.set_status(
            name,
            "hp",
            value,
            old=hp,
            note=who
            + Message(f"HP {hp} → {value} (最大HP {value})", f"HP {hp} → {value} (max HP {value})"),
            actor=GM_SPEAKER if by_gm else "",
        )
    return value


# -- slash commands -----------------------------------------------------------------------


SlashHandler = Callable[[Emit, Tracker, list[str], "str | None", Context], "dict[str, Any] | None"]


@dataclass(frozen=True)
class Builtin:
    """A slash command every table has: its handler and its /help line."""

    handler: SlashHandler
    usage: str
    help: Message


def _state_verb(
    emit: Emit, tracker: Tracker, args: list[str], speaker: str | None, ctx: Context
) -> dict[str, Any]:
    data = public_view(emit.state)
    emit.lines.append(Message(_json(data), _json(data)))
    return data


def _cond_verb(
    emit: Emit, tracker: Tracker, args: list[str], speaker: str | None, ctx: Context
) -> None:
    emit.gm = ctx.gm
    _cond(emit, tracker, args)


def _combat_verb(
    emit: Emit, tracker: Tracker, args: list[str], speaker: str | None, ctx: Context
) -> None:
    sub = args[0].lower() if args else ""
    if sub == "start":
        if emit.state.combat is not None:
            raise fail("すでに戦闘中です", "a combat is already running")
        tracker.start_combat(emit)
    elif sub == "end":
        if emit.state.combat is None:
            raise fail("戦闘中ではありません", "no combat is running")
        tracker.end_combat(emit)
    else:
        raise fail("/combat start または /combat end です", "use /combat start or /combat end")


def _whisper_verb(
    emit: Emit, tracker: Tracker, args: list[str], speaker: str | None, ctx: Context
) -> None:
    whisper(emit, args, speaker, speaker_name(speaker, ctx.gm), gm=ctx.gm)


def _next_verb(
    emit: Emit, tracker: Tracker, args: list[str], speaker: str | None, ctx: Context
) -> None:
    if len(args) > 1:
        raise fail("/next [名前] です", "use /next [NAME]")
    tracker.advance(emit, args[0] if args else None)


#: The slash commands of every table, in /help's order (the system's own follow them).
BUILTINS: dict[str, Builtin] = {
    "char": Builtin(
        lambda emit, tracker, args, speaker, ctx: _char(emit, tracker, args, ctx),
        "/char add PATH {options} · /char list · /char remove 名前",
        Message("キャラクターの追加・一覧・削除", "add, list or remove characters"),
    ),
    "combat": Builtin(
        _combat_verb,
        "/combat start · /combat end",
        Message("戦闘の開始・終了", "start or end a combat"),
    ),
    "next": Builtin(_next_verb, "/next [名前]", Message("次の手番", "next turn")),
    "cond": Builtin(
        _cond_verb,
        "/cond add 名前 状態 [レベル] · /cond remove 名前 状態",
        Message("状態異常", "conditions"),
    ),
    "undo": Builtin(
        lambda emit, tracker, args, speaker, ctx: _undo(emit, ctx, args),
        "/undo [mine]",
        Message(
            "直前の行の取り消し (プレイヤーは自分の行だけ。mine: GM も自分の行だけ)",
            "undo the last line (a player: only their own; mine: the GM too)",
        ),
    ),
    "log": Builtin(
        lambda emit, tracker, args, speaker, ctx: _log(emit, args, ctx),
        "/log [N]",
        Message("ログ", "the log"),
    ),
    "state": Builtin(_state_verb, "/state", Message("部屋の状態 (JSON)", "the room (JSON)")),
    "reveal": Builtin(
        lambda emit, tracker, args, speaker, ctx: _reveal(emit, args, ctx),
        "/reveal [#番号]",
        Message(
            "シークレットダイスを全員に公開 (振った本人か GM)",
            "reveal a secret roll to all (its roller or the GM)",
        ),
    ),
    "whisper": Builtin(
        _whisper_verb,
        "/whisper 名前 文 · /w 名前 文",
        Message(
            "秘話: 送り手・その名前のキャラクターのプレイヤー・GM だけに届く (/w GM 文: GM へ)",
            "whisper: only you, that character's player and the GM get it (/w GM TEXT: the GM)",
        ),
    ),
    "help": Builtin(
        lambda emit, tracker, args, speaker, ctx: _help(emit, tracker),
        "/help",
        Message("この一覧", "this list"),
    ),
    "gm": Builtin(
        lambda emit, tracker, args, speaker, ctx: _gm(emit, tracker, args, ctx),
        "/gm …",
        Message("GM裁定 (--gm, 下記)", "GM rulings (--gm, below)"),
    ),
}

#: Short forms of the built-in slash commands (CCFOLIA-style ``/w``).
VERB_ALIASES = {"w": "whisper"}

#: ``/gm`` sub-commands of every table (the system's ``gm_verbs`` follow them).
GM_BUILTINS: dict[str, tuple[str, Message]] = {
    "set": ("/gm set 名前 項目 値", Message("値を直接決める", "set a value")),
    "note": ("/gm note 文", Message("裁定をログに残す", "log a ruling")),
    "order": ("/gm order 名前…", Message("手番順を決める", "set the turn order")),
    "session": (
        "/gm session end",
        Message(
            "セッション終了 (生き残ったキャラクターを記録、システムのルールで成長へ)",
            "end the session (marks who survived; the system's growth follows)",
        ),
    ),
    "tab": (
        "/gm tab add 名前 · /gm tab remove 名前",
        Message("チャットタブの追加・削除", "add or remove a chat tab"),
    ),
    "setting": (
        "/gm setting [項目 [値|default]]",
        Message(
            "ハウスルール (一覧・1項目の説明・変更)", "house rules (list / one explained / change)"
        ),
    ),
}


def _slash(
    emit: Emit, tracker: Tracker, line: str, speaker: str | None, ctx: Context
) -> dict[str, Any] | None:
    words = line[1:].split()
    if not words:
        raise fail("コマンドがありません (/help)", "empty command (see /help)")
    verb, args = words[0].lower(), words[1:]
    verb = VERB_ALIASES.get(verb, verb)
    builtin = BUILTINS.get(verb)
    if builtin is not None:
        return builtin.handler(emit, tracker, args, speaker, ctx)
    handler = tracker.verbs.get(verb)
    if handler is None:
        hint = tracker.verb_hints.get(verb)
        raise fail(
            f"/{verb} というコマンドはありません ({hint.ja if hint else '/help'})",
            f"unknown command /{verb} ({hint.en if hint else 'see /help'})",
            "unknown command",
        )
    if verb in tracker.actorless_verbs:
        actor = speaker or ""
    elif verb in tracker.off_turn_verbs:
        if speaker is None:
            raise fail("誰が行うか分かりません (--as または @名前)", "who does it? (--as or @NAME)")
        actor = emit.character(speaker).name
    else:
        actor = acting_character(emit, speaker, ctx)
    emit.gm = ctx.gm
    _gate(emit, tracker, verb, args, actor)
    handler(emit, actor, args)
    return None


def _gate(emit: Emit, tracker: Tracker, verb: str, args: list[str], actor: str) -> None:
    """The system's one action gate (:meth:`Tracker.action_refusal`): a player's action the
    actor's state forbids is refused, nothing changed; a GM's line passes as a logged ruling."""
    kind = tracker.action_kind(verb, args)
    if kind is None or actor not in emit.state.characters:
        return
    refusal = tracker.action_refusal(emit, actor, kind)
    if refusal is None:
        return
    emit.refuse_or_rule(
        refusal,
        "cannot act",
        Message(
            f"GM裁定: {refusal.ja} が、GM の行として行う",
            f"GM ruling: {refusal.en}, but the GM's line does it",
        ),
        {"ruling": "action gate", "name": actor, "verb": verb, "kind": kind},
    )


def acting_character(emit: Emit, speaker: str | None, ctx: Context) -> str:
    """Who does a combat action: the speaker, or (for the GM) the current actor."""
    combat = emit.state.combat
    if speaker is not None and speaker in emit.state.characters:
        name = speaker
    elif ctx.gm and combat is not None and combat.current is not None:
        name = combat.current
    elif speaker is not None:
        emit.character(speaker)  # raises: unknown character
        name = speaker
    else:
        raise fail(
            "行動するキャラクターがいません (--as または @名前)",
            "no acting character (--as or @NAME)",
        )
    if combat is not None and combat.current != name:
        raise fail(
            f"いまは {combat.current} の手番です ({name} ではありません)",
            f"it is {combat.current}'s turn, not {name}'s",
            "not your turn",
        )
    return name


def _line_help(tracker: Tracker) -> list[tuple[str, Message]]:
    """Lines that are not slash commands, first in /help (the dice example is the system's)."""
    return [
        (
            tracker.line_example,
            Message("ダイス (話者の値で {} を置換)", "dice, {} from the speaker's sheet"),
        ),
        (
            "@名前 …",
            Message("その1行だけ名前のキャラクターとして話す", "speak as NAME for one line"),
        ),
        (":HP-3 · :HP+2 · :HP=10", Message("話者のステータス変更", "edit the speaker's status")),
    ]


_LEAVE_HELP = ("/quit · /exit · Ctrl-D", Message("終了 (saikoro play)", "leave (saikoro play)"))


def _described(verb: str, table: dict[str, Message], handler: Any) -> tuple[str, Message]:
    """A system verb's /help line: its ``verb_help`` entry (keyed by its usage), else the
    handler's docstring, so that a verb without help is still listed."""
    for usage, text in table.items():
        if usage.split()[:1] == [verb] or usage.split()[:2] == verb.split():
            return f"/{usage}", text
    doc = " ".join((getattr(handler, "__doc__", None) or "").split())
    documented = re.match(r"^``(/[^`]+)``:?\s*(.*?)(?:(?<=\.)\s|$)", doc)
    if documented:  # "``/gm fate reset``: what it does. More…"
        return documented.group(1), Message(documented.group(2), documented.group(2))
    first = doc.split(". ")[0]
    return f"/{verb}", Message(first, first)


def help_entries(tracker: Tracker) -> list[tuple[str, Message]]:
    """Every line the table accepts, generated from the verb tables (:data:`BUILTINS`,
    :data:`GM_BUILTINS`, the tracker's ``verbs`` and ``gm_verbs``), so it cannot drift."""
    entries = _line_help(tracker)
    options = " ".join(f"[{option}]" for option in tracker.char_options)
    entries += [(b.usage.replace("{options}", options), b.help) for b in BUILTINS.values()]
    entries += list(GM_BUILTINS.values())
    table = dict(getattr(tracker, "verb_help", {}))
    for verb, handler in getattr(tracker, "gm_verbs", {}).items():
        entries.append(_described(f"gm {verb}", table, handler))
    for verb, handler in tracker.verbs.items():
        entries.append(_described(verb, table, handler))
    entries.append(_LEAVE_HELP)
    return entries


def _help(emit: Emit, tracker: Tracker) -> None:
    entries = help_entries(tracker)
    ja = [f"{usage}  {text.ja}".rstrip() for usage, text in entries]
    en = [f"{usage}  {text.en}".rstrip() for usage, text in entries]
    emit.lines.append(Message("\n".join(ja), "\n".join(en)))


def _log(emit: Emit, args: list[str], ctx: Context) -> None:
    count = 20
    if args:
        if not args[0].isdecimal() or int(args[0]) < 1:
            raise fail("/log N の N は正の整数です", "N in /log N must be a positive integer")
        count = min(int(args[0]), 1000)
    if ctx.history is None:
        raise fail("ログがありません", "no log available")
    window = ctx.history.recent(count * 4)
    undone = {e.data.get("command_id") for _, e in window if e.kind == ev.UNDONE}
    revealed = revealed_ids(e for _, e in ctx.history.recent(_REVEAL_WINDOW))
    assert ctx.actor is not None
    viewed = [(seq, view_event(e, ctx.actor, revealed)) for seq, e in window if e.text is not None]
    entries = [(seq, e) for seq, e in viewed if e is not None]
    ja, en = [], []
    for seq, event in entries[-count:]:
        if event.command_id in undone:
            ja.append(f"#{seq} [取消] {event.text.ja if event.text else ''}")
            en.append(f"#{seq} [undone] {event.text.en if event.text else ''}")
            continue
        mark = " [GM]" if event.gm else ""
        assert event.text is not None
        ja.append(f"#{seq}{mark} {event.text.ja}")
        en.append(f"#{seq}{mark} {event.text.en}")
    emit.lines.append(Message("\n".join(ja) or "(ログなし)", "\n".join(en) or "(empty log)"))


def _undo(emit: Emit, ctx: Context, args: list[str]) -> None:
    """Take back the newest line that changed the table; a player only their own line, and
    with ``mine`` the GM too (the page's undo button: never someone else's line)."""
    if args not in ([], ["mine"]):
        raise fail("/undo または /undo mine です", "use /undo or /undo mine")
    stack = emit.state.undo_stack
    if not stack:
        raise fail("取り消せるコマンドがありません", "nothing to undo", "nothing to undo")
    if ctx.history is None:
        raise fail("ログがないので取り消せません", "no log: cannot undo")
    target, actor = stack[-1][0], stack[-1][1]
    typed = stack[-1][2] if len(stack[-1]) > 2 else ""
    assert ctx.actor is not None
    mine = actor == GM_SPEAKER if ctx.actor.is_gm else ctx.actor.owns(actor)
    if not mine and (args or not ctx.actor.is_gm):
        who = actor_name(actor)
        raise roles.forbidden(
            f"直前のコマンドは {who.ja} のものです: "
            "取り消せるのは自分のコマンドだけです (GM は /undo で誰のものでも)",
            f"the last command is {who.en}'s: you undo only your own (the GM any, with /undo)",
        )
    before = ctx.history.state_before(target)
    if typed and actor and actor != "GM" and not typed.startswith("@"):
        typed = f"@{actor} {typed}"
    emit.add(
        ev.UNDONE,
        {"command_id": target, "restore": before.to_json()},
        text=Message(f"取り消し: {typed}", f"undone: {typed}")
        if typed
        else Message("直前のコマンドを取り消しました", "the last command was undone"),
        gm=ctx.gm,
    )


def _char(emit: Emit, tracker: Tracker, args: list[str], ctx: Context) -> None:
    sub = args[0].lower() if args else ""
    if sub == "list":
        if not emit.state.characters:
            emit.say("キャラクターはいません", "no characters")
            return
        rows: list[Message] = []
        for c in emit.state.characters.values():
            head = f"{c.name} [{c.side}] HP {c.hp}/{c.max_hp}"
            names = [tracker.condition_name(x.label) for x in c.conditions]
            levels = [f"{x.level or ''}" for x in c.conditions]
            conds = Message(
                "・".join(n.ja + lv for n, lv in zip(names, levels, strict=True)),
                ", ".join(n.en + lv for n, lv in zip(names, levels, strict=True)),
            )
            rows.append(
                Message.same(head) + Message.same(" ") + conds if names else Message.same(head)
            )
        emit.lines.append(Message.join("\n", rows))
        return
    if sub == "add" and len(args) >= 2:
        try:
            path = Path(args[1]).expanduser()
        except RuntimeError:  # ~NAME of no user
            raise fail(
                f"{args[1]}: ホームディレクトリが分かりません",
                f"{args[1]}: unknown home directory",
            ) from None
        if not path.is_absolute():
            path = ctx.base_dir / path
        side = row = None
        has_rows = "front|back" in tracker.char_options
        for extra in args[2:]:
            if extra.lower() in ("pc", "npc"):
                side = extra.lower()
            elif has_rows and extra.lower() in ("front", "back", "前衛", "後衛"):
                row = {"前衛": "front", "後衛": "back"}.get(extra, extra.lower())
            else:
                words = "/".join("|".join(tracker.char_options).split("|"))
                raise fail(
                    f"{extra!r} は {words} ではありません",
                    f"{extra!r}: expected {words}",
                )
        sheet = load_character_file(path, emit.state.system)
        add_sheet(emit, tracker, sheet, side, row, ctx)
        return
    if sub == "remove" and len(args) == 2:
        emit.character(args[1])
        emit.gm = ctx.gm
        emit.add(
            ev.CHARACTER_REMOVED,
            {"name": args[1]},
            text=Message(f"{args[1]} が退場", f"{args[1]} leaves"),
        )
        return
    raise fail(
        "/char add PATH · /char list · /char remove 名前 です",
        "use /char add PATH, /char list or /char remove NAME",
    )


def add_sheet(
    emit: Emit, tracker: Tracker, sheet: SheetBase, side: str | None, row: str | None, ctx: Context
) -> None:
    """Bring the character of ``sheet`` into the room (a player: only their own)."""
    if sheet.system != emit.state.system:
        raise fail(
            f"{sheet.name} は {sheet.system} のシートです (この部屋は {emit.state.system})",
            f"{sheet.name} is a {sheet.system} sheet (this room is {emit.state.system})",
        )
    assert ctx.actor is not None
    roles.check_owner(ctx.actor, sheet.name, "追加できる", "add")
    if is_gm_name(sheet.name):
        raise fail(
            f"{sheet.name!r} はキャラクター名に使えません (GM の名前です)",
            f"{sheet.name!r} cannot be a character's name (it is the GM's)",
            "reserved name",
        )
    present = find_name(sheet.name, emit.state.characters)
    if present is not None:  # also ゴブリン１ next to ゴブリン1: one name at the table
        same = "" if present == sheet.name else f" ({present} と同じ名前になります)"
        same_en = "" if present == sheet.name else f" (the same name as {present})"
        raise fail(
            f"{sheet.name} はすでにいます{same}",
            f"{sheet.name} is already here{same_en}",
            "duplicate",
        )
    if not {"hp", "max_hp"} & sheet.model_fields_set:
        raise fail(
            f"{sheet.name} のシートに HP がありません: 最大HP (max_hp) を書いてください",
            f"{sheet.name}'s sheet has no HP: give its max HP (max_hp)",
            "no hp",
        )
    character = tracker.new_character(sheet, side, row, emit)
    emit.gm = ctx.gm
    emit.add(
        ev.CHARACTER_ADDED,
        {"character": character.model_dump(mode="json")},
        text=Message(
            f"{character.name} が参加 (HP {character.hp}/{character.max_hp})",
            f"{character.name} joins (HP {character.hp}/{character.max_hp})",
        ),
    )
    tracker.joined(emit, emit.state.characters[character.name])


def dispatch_sheet(
    state: RoomState, sheet: SheetBase, ctx: Context, side: str | None = None
) -> Outcome:
    """Bring a character in from a sheet the caller sent (not a file): joining through an
    invite link, or the GM adding one over the network. Raises SaikoroError."""
    return dispatch_sheets(state, [sheet], ctx, side)


def dispatch_sheets(
    state: RoomState, sheets: list[SheetBase], ctx: Context, side: str | None = None
) -> Outcome:
    """Bring in every character of ``sheets`` as one line (all of them or none): a join,
    the GM's character from a file, or quick NPCs made by a count. Raises SaikoroError."""
    actor = ctx.actor or roles.legacy_actor(ctx.gm, ctx.speaker, state)
    ctx = ctx.but(actor=actor, gm=actor.is_gm)
    if actor.is_spectator:
        roles.authorize(state, actor, None, "/char add")
    speaking = "GM" if actor.is_gm else sheets[0].name
    names = ", ".join(sheet.name for sheet in sheets)
    emit = _line_emit(state, ctx, actor, speaking, f"/char add {names}")
    tracker = tracker_for(state.system)
    for sheet in sheets:
        add_sheet(emit, tracker, sheet, side, None, ctx)
    tracker.after_line(emit)
    return _outcome(emit, None)


def dispatch_edit(state: RoomState, name: str, changes: dict[str, Any], ctx: Context) -> Outcome:
    """Edit character ``name``'s fields from the page (:mod:`saikoro.table.sheet_edits`):
    the GM any field, a player their own memo and palette lines; ``hp`` / ``max_hp`` as
    ``:HP=N`` would. One line, all of it or nothing. Raises SaikoroError."""
    from saikoro.table.sheet_edits import LIVE_FIELDS, check_fields, edit_sheet

    actor = ctx.actor or roles.legacy_actor(ctx.gm, ctx.speaker, state)
    name = find_name(name, state.characters) or name
    check_fields(actor, name, changes)
    speaker = "GM" if actor.is_gm else name
    emit = _line_emit(state, ctx, actor, speaker, f"/char edit {name}")
    emit.gm = actor.is_gm
    emit.character(name)
    tracker = tracker_for(state.system)
    rest = {path: value for path, value in changes.items() if path not in LIVE_FIELDS}
    if rest:
        edit_sheet(emit, name, rest, actor)
    for key, label in zip(LIVE_FIELDS, ("MHP", "HP"), strict=True):
        if key not in changes:
            continue
        value = changes[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"{key} は整数です ({value!r})", f"{key} is a whole number ({value!r})")
        character = emit.character(name)
        if value != (character.max_hp if key == "max_hp" else character.hp):
            change_status(emit, tracker, name, label, "=", value)
    if emit.events:
        tracker.after_line(emit)
    return _outcome(emit, None)


#: How far back ``/reveal`` and ``/log`` look for secret rolls and their reveals.
_REVEAL_WINDOW = 2000


def _reveal(emit: Emit, args: list[str], ctx: Context) -> None:
    """``/reveal [#SEQ|COMMAND_ID]``: show a secret roll to everyone (the GM or its roller);
    without an argument the newest one the caller may reveal."""
    if len(args) > 1:
        raise fail("/reveal [#番号] です", "use /reveal [#SEQ]")
    if ctx.history is None:
        raise fail("ログがありません", "no log available")
    assert ctx.actor is not None
    window = ctx.history.recent(_REVEAL_WINDOW)
    revealed = revealed_ids(e for _, e in window)
    wanted = args[0].removeprefix("#") if args else None
    secrets = [
        (seq, e)
        for seq, e in window
        if e.secret and e.kind == ev.ROLL and (wanted is None or wanted in (str(seq), e.command_id))
    ]
    if wanted is None:
        secrets = [(s, e) for s, e in secrets if e.command_id not in revealed]
        secrets = [(s, e) for s, e in secrets if rolled_by(e, ctx.actor)]
    if not secrets:
        raise fail(
            "公開できるシークレットダイスがありません",
            "no secret roll to reveal",
            "nothing to reveal",
        )
    seq, roll = secrets[-1]
    if not rolled_by(roll, ctx.actor):
        raise roles.forbidden(
            "シークレットダイスを公開できるのは振った本人と GM だけです",
            "only the roller or the GM reveals a secret roll",
        )
    if roll.command_id in revealed:
        raise fail(
            "このシークレットダイスはもう公開されています", "that secret roll is already revealed"
        )
    shown = roll.text or Message("", "")
    emit.add(
        ev.REVEALED,
        {"command_id": roll.command_id, "seq": seq, "actor": roll.actor, "roll": roll.data},
        text=Message(
            f"シークレットダイス公開: {shown.ja}",
            f"secret dice revealed: {shown.en}",
        ),
        gm=ctx.gm,
    )


def _cond(emit: Emit, tracker: Tracker, args: list[str]) -> None:
    if len(args) >= 3 and args[0] == "add":
        name, label = args[1], args[2]
        level = 0
        if len(args) >= 4:
            if not args[3].isdecimal():
                raise fail("レベルは整数です", "the level must be an integer")
            level = int(args[3])
        emit.character(name)
        made = tracker.make_condition(emit, name, label, level)
        if made is not None:
            shown = tracker.condition_name(made.label)
            at = f"{made.level or ''}"
            emit.add_condition(
                name,
                made,
                text=Message(
                    f"{name}: {shown.ja}{at} を受けた",
                    f"{name}: now {shown.en}{f' {at}' if at else ''}",
                ),
            )
        return
    if len(args) == 3 and args[0] == "remove":
        character = emit.character(args[1])
        if character.condition(args[2]) is None:
            raise fail(f"{args[1]} は {args[2]} ではありません", f"{args[1]} is not {args[2]}")
        shown = tracker.condition_name(args[2])
        emit.remove_condition(
            args[1],
            args[2],
            text=Message(f"{args[1]}: {shown.ja} が解けた", f"{args[1]}: {shown.en} ended"),
        )
        return
    raise fail(
        "/cond add 名前 状態 [レベル] · /cond remove 名前 状態 です",
        "use /cond add NAME LABEL [LEVEL] or /cond remove NAME LABEL",
    )


#: How ``/gm set NAME FIELD VALUE`` reads an on/off field.
_ON_OFF = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}


def _gm(emit: Emit, tracker: Tracker, args: list[str], ctx: Context) -> None:
    if not ctx.gm:
        raise fail(*roles.gm_only(ctx.allow_files), "not gm")
    emit.gm = True
    sub = args[0].lower() if args else ""
    if sub == "set" and len(args) == 4:
        name, key, value = args[1], args[2], args[3]
        character = emit.character(name)
        if key in ("row",) or key in character.fields:
            current = character.fields.get(key, "")
            parsed: Any = int(value) if value.lstrip("-").isdecimal() else value
            if isinstance(current, bool):  # an on/off field (a mount, …)
                parsed = _ON_OFF.get(value.lower(), value)
            if type(parsed) is not type(current) and not (key == "row" and current == ""):
                # the tracker reads its fields by kind: a string in `aim` broke every later line
                kind = {
                    int: ("整数", "an integer"),
                    str: ("文字列", "text"),
                    bool: ("on/off", "on or off"),
                }.get(type(current))
                raise fail(
                    f"{name} の {key} は{kind[0]}です ({value!r} は使えません)"
                    if kind
                    else f"{name} の {key} は GM が値で直接変えられません",
                    f"{name}'s {key} is {kind[1]} (not {value!r})"
                    if kind
                    else f"{name}'s {key} cannot be set to a value by the GM",
                )
            emit.set_field(
                name,
                key,
                parsed,
                text=Message(
                    f"GM裁定: {name} の {key} = {value}", f"GM ruling: {name}'s {key} = {value}"
                ),
            )
            return
        if not value.lstrip("-").isdecimal():
            raise fail(f"{value!r} は整数ではありません", f"{value!r} is not an integer")
        applied = change_status(emit, tracker, name, key, "=", int(value), ruling=True)
        capped = (
            Message(f" ({value} は範囲外)", f" ({value} is out of range)")
            if applied != int(value)
            else Message("", "")
        )
        emit.add(
            ev.NOTICE,
            {"ruling": "set", "name": name, "key": key, "value": applied, "asked": int(value)},
            text=Message(
                f"GM裁定: {name} の {key} を {applied} に",
                f"GM ruling: {name}'s {key} set to {applied}",
            )
            + capped,
        )
        return
    if sub == "note" and len(args) >= 2:
        text = " ".join(args[1:])
        emit.add(
            ev.NOTICE,
            {"ruling": "note", "text": text},
            text=Message(f"GM裁定: {text}", f"GM ruling: {text}"),
        )
        return
    if sub == "order" and len(args) >= 2:
        combat = emit.state.combat
        if combat is None:
            raise fail("戦闘中ではありません", "no combat is running")
        names = args[1:]
        if sorted(names) != sorted(combat.order):
            raise fail(
                f"手番順には参加者全員を一度ずつ並べてください ({' '.join(combat.order)})",
                f"list every combatant once ({' '.join(combat.order)})",
            )
        emit.set_combat(
            "order",
            names,
            text=Message(
                f"GM裁定: 手番順 {' → '.join(names)}", f"GM ruling: order {' → '.join(names)}"
            ),
        )
        return
    if sub == "setting":
        _gm_setting(emit, tracker, args[1:])
        return
    if sub == "tab":
        gm_tab(emit, args[1:])
        return
    if sub == "session":
        _gm_session(emit, tracker, args[1:])
        return
    special = tracker.gm_verbs.get(sub)
    if special is not None:
        special(emit, args[1:])
        return
    raise fail(
        "/gm set 名前 項目 値 · /gm note 文 · /gm order 名前… です",
        "use /gm set NAME KEY VALUE, /gm note TEXT or /gm order NAME…",
    )


#: The room field counting the sessions the GM has ended (``/gm session end``).
SESSIONS = "sessions"


def _gm_session(emit: Emit, tracker: Tracker, args: list[str]) -> None:
    """``/gm session end``: the GM ends a session (not during a combat); the room counts it
    and the system marks who survived it (:meth:`Tracker.end_session`)."""
    if [a.lower() for a in args] != ["end"]:
        raise fail("/gm session end です", "use /gm session end")
    if emit.state.combat is not None:
        raise fail(
            "戦闘中はセッションを終えられません (先に /combat end)",
            "a combat is running: end it first (/combat end)",
            "in combat",
        )
    number = int(emit.state.fields.get(SESSIONS, 0)) + 1
    emit.add(
        ev.ROOM_SET,
        {"key": SESSIONS, "value": number, "ruling": "session end"},
        text=Message(f"GM裁定: セッション{number} 終了", f"GM ruling: session {number} ends"),
    )
    tracker.end_session(emit, number)


def _gm_setting(emit: Emit, tracker: Tracker, args: list[str]) -> None:
    """``/gm setting`` lists the house rules (value, default, meaning); ``/gm setting KEY``
    shows one; ``/gm setting KEY VALUE|default`` changes one. Keys in any case; the value
    is the rest of the line (``大 混乱``); a list is JSON or words separated by commas
    (``船, 大型 ボート``)."""
    cls = tracker.settings_class()
    if cls is None:
        raise fail("このシステムには設定がありません", "this system has no settings")
    current = tracker.cfg(emit)
    changed = emit.state.fields.get("settings") or {}
    if not args:
        rows = [_setting_row(cls, key, current, changed) for key in cls.model_fields]
        emit.lines.append(
            Message.join("\n", rows) + Message("\n(* GMが変更)", "\n(* changed by the GM)")
        )
        return
    key = find_setting(cls, args[0])
    if key is None:
        close = close_settings(cls, args[0])
        known = ", ".join(cls.model_fields)
        raise fail(
            f"設定 {args[0]!r} はありません"
            + (f" ({' / '.join(close)} のことですか?)" if close else "")
            + f" — 設定: {known}",
            f"no setting {args[0]!r}"
            + (f" (did you mean {' / '.join(close)}?)" if close else "")
            + f" — settings: {known}",
            "unknown setting",
        )
    if len(args) == 1:
        emit.lines.append(_setting_row(cls, key, current, changed))
        return
    raw = " ".join(args[1:])
    value: Any = None
    if raw != "default":
        value = _setting_value(
            raw, is_list=get_origin(cls.model_fields[key].annotation) in (list, tuple)
        )
        overrides = {**changed, key: value}
        try:
            cls.model_validate(overrides)
        except ValidationError as error:
            problems = describe_validation_error(error)
            raise fail(
                f"{key} に {raw!r} は使えません: {'; '.join(p.ja for p in problems)}",
                f"{key} cannot be {raw!r}: {'; '.join(p.en for p in problems)}",
            ) from None
    emit.add(
        ev.SETTING_SET,
        {"key": key, "value": value},
        text=Message(f"GM裁定: 設定 {key} = {raw}", f"GM ruling: setting {key} = {raw}"),
    )


def _setting_value(raw: str, *, is_list: bool) -> Any:
    """What the GM typed as a setting's value: JSON (``3``, ``true``, ``["船"]``), else the
    text — for a list, its items between commas (``船, 大型 ボート`` or ``船、飛行機``)."""
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    if is_list and isinstance(value, str):
        return [item.strip() for item in re.split(r"[,、，]", value) if item.strip()]
    return value


def _setting_row(cls: Any, key: str, current: Any, changed: dict[str, Any]) -> Message:
    """``key = value [*]  (既定: default) meaning`` of one setting."""
    value = _json(getattr(current, key))
    default = _json(setting_default(cls, key))
    mark = " *" if key in changed else ""
    meaning = setting_meaning(cls, key)
    return Message(
        f"{key} = {value}{mark}  (既定: {default}) {meaning.ja}",
        f"{key} = {value}{mark}  (default: {default}) {meaning.en}",
    )


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


__all__ = ["Context", "History", "Outcome", "TableError", "dispatch", "register_sheet_importer"]
