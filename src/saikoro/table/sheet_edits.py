"""Characters made and edited from the page (issue 24): the names of quick NPCs made by a
count (``ゴブリン`` × 3 → ゴブリンA, ゴブリンB, ゴブリンC) and edits of a character's sheet
fields, as one ``sheet_set`` event (pure: they work on an :class:`~saikoro.table.emit.Emit`).

A field is named by its dotted path in the sheet's JSON form (``abilities.体力``,
``notes.メモ``, ``abilities.体格.value``); ``palette`` is the character's own chat palette
lines (kept as its sheet's 「チャットパレット」 note). The GM edits any field of any
character; a player only their own character's memo and palette lines (:data:`PLAYER_FIELDS`).
``hp`` and ``max_hp`` are the character's live values: an edit of them is a status edit
(``:HP=N``, bounded by the system). Every other edit is validated by the system's sheet model
(nothing is changed when it fails); a value the table kept apart from the sheet (``:体力=4``)
gives way to the sheet's when the edit changes it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from saikoro.i18n import Message
from saikoro.sheets import MEMO_NOTE, PALETTE_NOTE, SheetBase, sheet_from_data
from saikoro.table import events as ev
from saikoro.table import roles
from saikoro.table.actors import Actor, find_name
from saikoro.table.emit import Emit, fail

#: The most characters one quick add makes (one letter each, A to Z).
MAX_COUNT = 26
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The field of a character's own chat palette lines (a list of lines, or one text).
PALETTE_FIELD = "palette"
#: What a player may edit of their own character (the GM: every field).
PLAYER_FIELDS = (f"notes.{MEMO_NOTE}", PALETTE_FIELD)
#: Fields nobody edits: a character's name is its identity at the table (links, the log).
FIXED_FIELDS = ("system", "name")
#: The live values, edited as statuses.
LIVE_FIELDS = ("max_hp", "hp")
#: Most fields one edit may change, and the longest path.
MAX_FIELDS = 100
MAX_PATH = 200
#: Most own palette lines a character keeps, and the longest line.
MAX_PALETTE_LINES = 100
MAX_PALETTE_LINE = 500


def quick_names(base: str, count: int, present: Iterable[str]) -> list[str]:
    """The names of ``count`` new characters called ``base``: ``base`` itself for one
    (when free), else ``base`` + the next free letters (A, B, …) — a name already at the
    table is never taken (names compare as the table compares them: ゴブリンＡ is ゴブリンA).
    A ``base`` ending in a capital letter after other text (ゴブリンA, to copy) letters on
    from its stem. Refused (nothing made) past :data:`MAX_COUNT` or without free letters."""
    base = base.strip()
    if not 1 <= count <= MAX_COUNT:
        raise fail(
            f"数は 1〜{MAX_COUNT} です ({count})",
            f"the count is 1 to {MAX_COUNT} (not {count})",
            "bad count",
        )
    taken = list(present)
    if count == 1 and find_name(base, taken) is None:
        return [base]
    stem = base[:-1] if len(base) > 1 and base[-1] in LETTERS and base[-2] not in LETTERS else base
    free = [f"{stem}{letter}" for letter in LETTERS if find_name(f"{stem}{letter}", taken) is None]
    if len(free) < count:
        raise fail(
            f"{stem}A〜{stem}Z の空きが {len(free)} しかありません ({count} 体は作れません)",
            f"only {len(free)} of {stem}A to {stem}Z are free (cannot make {count})",
            "duplicate",
        )
    return free[:count]


def named_copies(data: dict[str, Any], names: list[str], system: str) -> list[SheetBase]:
    """The sheet ``data`` once per name, each validated by the system's sheet model."""
    return [sheet_from_data({**data, "name": name}, system) for name in names]


def _label(path: str) -> str:
    """How a field is named in the log: its last part (``abilities.体格.value`` → 体格)."""
    if path == PALETTE_FIELD:
        return PALETTE_NOTE
    parts = [p for p in path.split(".") if p != "value"]
    return parts[-1] if parts else path


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    node = data
    for key in parts[:-1]:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise fail(
                f"{path}: {key} の中には項目がありません",
                f"{path}: {key} has no fields inside",
                "bad field",
            )
        node = child
    if value is None or (parts[0] == "notes" and value == ""):
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = value


def _get_path(data: dict[str, Any], path: str) -> Any:
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _palette_lines(value: Any) -> list[str]:
    lines = value.splitlines() if isinstance(value, str) else value
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise fail(
            "palette はチャットパレットの行 (文字列のリスト) です",
            "palette is the chat palette's lines (a list of texts)",
            "bad field",
        )
    kept = [" ".join(line.split()) for line in lines if line.strip()]
    if len(kept) > MAX_PALETTE_LINES or any(len(line) > MAX_PALETTE_LINE for line in kept):
        raise fail(
            f"チャットパレットは {MAX_PALETTE_LINES} 行、1行 {MAX_PALETTE_LINE} 文字までです",
            f"a chat palette has at most {MAX_PALETTE_LINES} lines of "
            f"{MAX_PALETTE_LINE} characters",
            "bad field",
        )
    return kept


def _palette_notes(sheet: dict[str, Any]) -> dict[str, Any]:
    notes = sheet.get("notes") or {}
    return {key: text for key, text in notes.items() if key.startswith(PALETTE_NOTE)}


def check_fields(actor: Actor, name: str, changes: dict[str, Any]) -> None:
    """Refuse what ``actor`` may not edit of character ``name`` (nothing is changed)."""
    if actor.is_spectator:
        raise roles.forbidden("観戦者は編集できません", "spectators cannot edit")
    roles.check_owner(actor, name, "編集できる", "edit")
    if not changes:
        raise fail("変える項目がありません", "no field to change", "bad field")
    if len(changes) > MAX_FIELDS or any(len(path) > MAX_PATH for path in changes):
        raise fail(
            f"一度に変えられるのは {MAX_FIELDS} 項目までです",
            f"at most {MAX_FIELDS} fields at once",
            "bad field",
        )
    for path in changes:
        if path.split(".")[0] in FIXED_FIELDS:
            raise fail(
                f"{path} は変えられません (名前を変えるには複製して元を退場させます)",
                f"{path} cannot be changed (to rename, duplicate and remove the old one)",
                "bad field",
            )
        if not actor.is_gm and path not in PLAYER_FIELDS:
            raise roles.forbidden(
                f"{path} を変えられるのは GM だけです (プレイヤーはメモとチャットパレット)",
                f"only the GM changes {path} (a player: the memo and the chat palette)",
            )


def edit_sheet(emit: Emit, name: str, changes: dict[str, Any], actor: Actor) -> list[str]:
    """Emit the ``sheet_set`` of ``changes`` to character ``name``'s sheet fields (not the
    live values: see :data:`LIVE_FIELDS`); the paths it changed (none: nothing emitted)."""
    character = emit.character(name)
    old = character.sheet
    new = copy.deepcopy(old)
    for path, value in changes.items():
        if path == PALETTE_FIELD:
            notes = new.setdefault("notes", {})
            for key in [k for k in notes if k.startswith(PALETTE_NOTE)]:
                del notes[key]
            lines = _palette_lines(value)
            if lines:
                notes[PALETTE_NOTE] = "\n".join(lines)
        else:
            _set_path(new, path, value)
    sheet = sheet_from_data(new, emit.state.system)
    new = sheet.model_dump(mode="json")
    changed = [
        path
        for path in changes
        if (
            _palette_notes(old) != _palette_notes(new)
            if path == PALETTE_FIELD
            else _get_path(old, path) != _get_path(new, path)
        )
    ]
    if not changed:
        return []
    before = sheet_from_data(old, emit.state.system).references()
    after = sheet.references()
    moved = {label for label, value in after.items() if before.get(label) != value}
    clear = [key for key in character.statuses if key in moved]
    shown_ja, shown_en = [], []
    for path in changed:
        label = _label(path)
        was, now = _get_path(old, path), _get_path(new, path)
        if path.startswith("notes.") or path == PALETTE_FIELD or isinstance(now, (dict, list)):
            shown_ja.append(label)
            shown_en.append(label)
        else:
            shown_ja.append(f"{label} {was} → {now}")
            shown_en.append(f"{label} {was} → {now}")
    who = "GM: " if actor.is_gm else ""
    emit.add(
        ev.SHEET_SET,
        {"name": name, "sheet": new, "changed": changed, "clear": clear},
        text=Message(
            f"{who}{name} の {'、'.join(shown_ja)} を変更",
            f"{who}{name}: changed {', '.join(shown_en)}",
        ),
        gm=actor.is_gm,
    )
    return changed


__all__ = [
    "FIXED_FIELDS",
    "LIVE_FIELDS",
    "MAX_COUNT",
    "PALETTE_FIELD",
    "PLAYER_FIELDS",
    "check_fields",
    "edit_sheet",
    "named_copies",
    "quick_names",
]
