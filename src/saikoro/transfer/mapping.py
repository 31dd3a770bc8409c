"""Sheet ⇄ :class:`PortableCharacter`, by label, with a report of what went where.

Export writes every labelled field as a resource (HP) or a param (体力 3); what no
label can carry (skill cards, weapons, spells, conditions, …) goes into saikoro's own
block (``extras``), which each format stores where the tool keeps it untouched.
Import reads labels first and the block second: a value edited in the tool wins over
the block. A label no slot knows becomes a note (``notes[label]``); nothing is dropped.
"""

from __future__ import annotations

import copy
from typing import Any

from saikoro.i18n import Message
from saikoro.sheets import MEMO_NOTE, PALETTE_NOTE, SheetBase, sheet_from_data
from saikoro.transfer.labels import (
    UNPORTABLE,
    TransferError,
    bad_file,
    dump_json,
    format_value,
    norm_label,
    portable,
)
from saikoro.transfer.model import (
    ImportReport,
    Param,
    PortableCharacter,
    Resource,
    is_tool_field,
    note_key,
    note_place,
)
from saikoro.transfer.palette import export_palette, same_palette
from saikoro.transfer.profiles import Path, Profile, Slot, profile_for

MAX_ITEMS = 2000  # resources + params of one piece
ORDER_KEY = "_order"  # in saikoro's block: key order of the profile's ordered mappings
NOTE_SECTION = "メモ"


# -- paths ---------------------------------------------------------------------------------


def get_path(data: dict[str, Any], path: Path) -> Any:
    node: Any = data
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def set_path(data: dict[str, Any], path: Path, value: Any) -> None:
    node = data
    for key in path[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    node[path[-1]] = value


def remove_paths(data: dict[str, Any], paths: set[Path]) -> dict[str, Any]:
    """A copy without ``paths``; dicts left empty by a removal are removed too."""
    result = copy.deepcopy(data)
    for path in paths:
        trail = []
        node: Any = result
        for key in path[:-1]:
            if not isinstance(node, dict) or key not in node:
                break
            trail.append((node, key))
            node = node[key]
        else:
            if isinstance(node, dict) and path[-1] in node:
                del node[path[-1]]
                for parent, key in reversed(trail):
                    if parent[key] == {}:
                        del parent[key]
    return result


# -- export --------------------------------------------------------------------------------


def export_sheet(sheet: SheetBase) -> PortableCharacter:
    profile = profile_for(sheet.system)
    dump = sheet.model_dump(mode="json")
    covered: set[Path] = {("system",), ("name",), ("notes",)}
    resources: list[Resource] = []
    params: list[Param] = []
    slots = profile.export_slots(dump)
    labels = {norm_label(slot.label) for slot in slots}
    for slot in slots:
        found = profile.find(slot.label, labels)
        if found is None or found.path != slot.path or not portable(slot.label):
            continue  # its label would not come back as this field: the block keeps it
        value = get_path(dump, slot.path)
        if isinstance(value, str) and not portable(value):
            continue  # stays in saikoro's block, exactly
        covered.add(slot.path)
        if slot.max_path:
            covered.add(slot.max_path)
            maximum = get_path(dump, slot.max_path)
            resources.append(Resource(slot.label, format_value(value), format_value(maximum)))
        elif not (slot.optional and value is None):
            params.append(Param(slot.label, format_value(value)))

    if not portable(sheet.name):
        covered.discard(("name",))  # the block keeps it exactly; the tools get a cleaned copy
    kept_notes: dict[str, str] = {}
    fields: dict[str, str] = {}
    memo = ""
    for key, text in sheet.notes.items():
        if key == MEMO_NOTE and text and text == text.strip() and portable(text.replace("\n", "")):
            memo = text  # the memo a player reads in the tool (CCFOLIA memo, Udonarium note)
        elif is_tool_field(key):
            fields[key] = text  # back into the tool's own field
        elif not (portable(text) and portable(key) and key == key.strip() and key) or (
            profile.is_known(key) or _reserved(key)
        ):
            kept_notes[key] = text  # would not come back as the same note
        elif (place := note_place(key)) is not None:
            if profile.is_known(place[1]) or _reserved(place[1]):
                kept_notes[key] = text  # its label alone would be read as a field
            else:
                params.append(Param(place[1], text, where=place[0]))  # back into its section
        else:
            params.append(Param(key, text, where=NOTE_SECTION))
    extras = remove_paths(dump, covered)
    if kept_notes:
        extras["notes"] = kept_notes
    order = {
        ".".join(path): list(keys)
        for path in profile.ordered
        if isinstance(keys := get_path(dump, path), dict) and len(keys) > 1
    }
    if order:
        extras[ORDER_KEY] = order
    return PortableCharacter(
        name=sheet.name,
        resources=resources,
        params=params,
        memo=memo,
        palette=export_palette(sheet),
        initiative=profile.initiative(dump),
        dicebot=sheet.system,
        extras=extras,
        extras_system=sheet.system,
        fields=fields,
    )


def _cleaned(text: str) -> str:
    return UNPORTABLE.sub("", text).strip()


#: Udonarium palette ``dicebot`` values that name no game system.
GENERIC_DICEBOTS = frozenset({"", "DiceBot"})


def _declared_system(character: PortableCharacter, system: str) -> str | None:
    """The other game system the file says it is for (its palette's dicebot, or saikoro's
    block), or None: then labels such as HP may mean another game's value."""
    if character.extras is not None and character.extras_system not in (None, system):
        return character.extras_system
    if character.dicebot.strip() not in GENERIC_DICEBOTS | {system}:
        return character.dicebot.strip()
    return None


def _reserved(label: str) -> bool:
    return norm_label(label) in {norm_label(MEMO_NOTE), norm_label(PALETTE_NOTE)}


# -- import --------------------------------------------------------------------------------


def import_character(
    character: PortableCharacter, system: str, source_format: str
) -> tuple[SheetBase, ImportReport]:
    """The sheet of ``system`` for ``character``; SheetError when the values do not validate."""
    profile = profile_for(system)
    items = len(character.resources) + len(character.params)
    if items > MAX_ITEMS:
        raise bad_file(
            f"項目が多すぎます ({items} 個; {MAX_ITEMS} 個まで)",
            f"too many values ({items}; at most {MAX_ITEMS})",
        )
    report = ImportReport(system=system, source_format=source_format, name=character.name)
    data: dict[str, Any] = {}
    if character.extras is not None:
        if character.extras_system == system:
            data = copy.deepcopy(character.extras)
            report.add("saikoro", ", ".join(sorted(data)) or "-", "saikoro")
        else:
            report.warnings.append(
                Message(
                    f"{character.extras_system} 用の saikoro データはメモに保存しました",
                    f"saikoro data for {character.extras_system} was kept in notes",
                )
            )
    order = data.pop(ORDER_KEY, None)
    book = NoteBook(data.pop("notes", {}) or {})
    if character.extras is not None and character.extras_system != system:
        book.add("saikoro", dump_json(character.extras))
    exact_name = data.pop("name", None)
    if isinstance(exact_name, str) and _cleaned(exact_name) == _cleaned(character.name):
        data["name"] = exact_name  # the tool showed a cleaned copy of it, unchanged
    else:
        data["name"] = character.name if character.name.strip() else "?"
    report.add("name", "name", "mapped")

    labels = {norm_label(r.label) for r in character.resources}
    labels |= {norm_label(p.label) for p in character.params}
    foreign = _declared_system(character, system)
    assigned: dict[Path, tuple[str, Any, bool]] = {}  # path → (label, value, loosely)

    def keep_note(source: str, label: str, shown: str, status: str = "note") -> None:
        key = book.add(label.strip() or "?", shown)
        report.add(source, f"notes.{key}", status)

    def place(
        source: str, label: str, text: str, maximum: str | None = None, key: str | None = None
    ) -> None:
        """Put a value in its field, or in the note ``key`` (default: its label)."""
        note = key or label

        def keep_as_note(source: str, _label: str, shown: str, status: str = "note") -> None:
            keep_note(source, note, shown, status)

        # a value without a maximum is kept as the value ("3", not "3/")
        shown = text if maximum is None or not maximum.strip() else f"{text}/{maximum}"
        slot = profile.find(label, labels)
        if slot is None:
            keep_as_note(source, label, shown)
            return
        loose = profile.is_loose(label)
        if slot.max_path and maximum is None and "/" in text:  # a param "10/15"
            text, maximum = (part.strip() for part in text.split("/", 1))
        if slot.max_path and not text.strip() and maximum and maximum.strip():
            text = maximum  # only a maximum: at full
        try:
            value = slot.convert(text)
            top = slot.convert(maximum) if slot.max_path and maximum and maximum.strip() else None
        except ValueError:
            keep_as_note(source, label, shown)
            report.warnings.append(
                Message(
                    f"{label} の値 {text!r} は {slot.target} に使えないのでメモに保存しました",
                    f"{label} value {text!r} does not fit {slot.target}; kept in notes",
                )
            )
            return
        if slot.path in assigned:
            first_label, first, first_loose = assigned[slot.path]
            doubtful = first != value and not (loose and not first_loose)
            keep_as_note(source, label, shown, "ambiguous" if doubtful else "note")
            if doubtful:
                both = f"{first_label} {first}", f"{label} {value}"
                report.doubts.append(
                    Message(
                        f"{slot.target} に {both[0]} と {both[1]} の両方 ({both[0]} を使用)",
                        f"{slot.target} is given twice: {both[0]} and {both[1]} ({both[0]} used)",
                    )
                )
            return
        set_path(data, slot.path, value)
        assigned[slot.path] = (label, value, loose)
        target = slot.target
        if slot.max_path is not None:
            existing = get_path(data, slot.max_path)
            if top is None and isinstance(existing, int) and existing >= value:
                top = existing  # saikoro's block has it
            if top is None:
                top = value
                target += (
                    f" (最大値がないので {value} を最大値に / no maximum: {value} taken as it)"
                )
            set_path(data, slot.max_path, top)
        elif maximum is not None:
            target += f" (最大値 {maximum} は無視 / max ignored)"
        if loose or foreign:
            report.add(source, target, "ambiguous")
            why_ja = f"{foreign} 用のファイル" if foreign else f"{label} は別の意味かもしれません"
            why_en = f"a file for {foreign}" if foreign else f"{label} may mean something else"
            report.doubts.append(
                Message(
                    f"{label} → {slot.target} ({why_ja})", f"{label} → {slot.target} ({why_en})"
                )
            )
        else:
            report.add(source, target, "mapped")

    # (source, label, value, maximum, note key)
    entries: list[tuple[str, str, str, str | None, str | None]] = []
    for resource in character.resources:
        if not (resource.value.strip() or resource.max.strip()):
            report.add(f"resource {resource.label}", "(空 / empty)", "ignored")
            continue
        entries.append(
            (f"resource {resource.label}", resource.label, resource.value, resource.max, None)
        )
    for param in character.params:
        where = f"{param.where}/" if param.where else ""
        key = note_key(param.where, param.label)
        entries.append((f"param {where}{param.label}", param.label, param.value, None, key))
    entries.sort(key=lambda entry: profile.is_loose(entry[1]))  # exact labels win
    for entry in entries:
        place(*entry)
    for label, value in _palette_variables(character.palette):
        slot = profile.find(label, labels | {norm_label(label)})
        if slot is not None and slot.path not in assigned:
            place(f"palette //{label}", label, value)
    for key, text in character.fields.items():
        keep_note(f"field {key}", key, text)
    missing = [label for label, path in profile.required if get_path(data, path) is None]
    if missing:
        raise TransferError(
            Message(
                f"{profile.title} に必要な項目がファイルにありません: {'・'.join(missing)}"
                " (この名前のステータスか能力値を追加してください)",
                f"the file lacks what a {system} sheet needs: {', '.join(missing)}"
                " (add a status or param with that label)",
            )
        )

    memo = character.memo.strip()
    if memo:
        key = book.add(MEMO_NOTE, memo)
        report.add("memo", f"notes.{key}", "note")
    data["notes"] = book.notes
    if isinstance(order, dict):
        _restore_order(data, order)
    sheet = sheet_from_data(data, system)

    if character.palette.strip() and not same_palette(character.palette, export_palette(sheet)):
        key = book.add(PALETTE_NOTE, character.palette.strip())
        sheet.notes = dict(book.notes)
        report.add("chat palette", f"notes.{key}", "note")
    elif character.palette.strip():
        report.add("chat palette", "(saikoro が同じものを作ります / regenerated)", "ignored")
    if character.initiative:
        report.add(f"initiative {character.initiative}", "(能力値から / derived)", "ignored")
    return sheet, report


def _restore_order(data: dict[str, Any], order: dict[str, Any]) -> None:
    """Put the keys of each recorded mapping back in their exported order (new keys last)."""
    for dotted, keys in order.items():
        path = tuple(dotted.split("."))
        mapping = get_path(data, path)
        if not isinstance(mapping, dict) or not isinstance(keys, list):
            continue
        ranked = {key: i for i, key in enumerate(keys) if isinstance(key, str)}
        items = sorted(mapping.items(), key=lambda kv: ranked.get(kv[0], len(ranked)))
        set_path(data, path, dict(items))


class NoteBook:
    """The notes being built: a taken key gets ``key (2)``, ``key (3)``… (linear, not quadratic)."""

    def __init__(self, notes: dict[str, str]) -> None:
        self.notes = dict(notes)
        self._next: dict[str, int] = {}

    def add(self, key: str, text: str) -> str:
        name = key
        if name in self.notes:
            n = self._next.get(key, 2)
            while (name := f"{key} ({n})") in self.notes:
                n += 1
            self._next[key] = n + 1
        self.notes[name] = text
        return name


def _palette_variables(palette: str) -> list[tuple[str, str]]:
    """Udonarium palette variables: lines ``//体力=3`` (split by hand: a regular expression
    with spaces around the label backtracked cubically on a long line of spaces)."""
    found = []
    for line in palette.splitlines():
        text = line.strip()
        if not text.startswith("//"):
            continue
        body = text[2:]
        cuts = [i for i in (body.find("="), body.find("＝")) if i >= 0]
        if not cuts:
            continue
        label, value = body[: min(cuts)].strip(), body[min(cuts) + 1 :].strip()
        if label:
            found.append((label, value))
    return found


__all__ = ["Profile", "Slot", "export_sheet", "import_character"]
