"""What a combat tracker provides to the dispatcher, and the generic one (DiceBot rooms).

A tracker is stateless: it reads the room state through an :class:`Emit` and emits
events. Per-system trackers live beside this module (``littleworld_tracker``,
``unmeid100_tracker``) and call their system's pure rule functions.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, ClassVar

from saikoro.i18n import Message
from saikoro.sheets import SheetBase
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character

Verb = Callable[[Emit, str, list[str]], None]  # (emit, actor, args)


class Tracker:
    """The generic tracker: listed order, one turn each, no rules of its own."""

    system = "DiceBot"
    #: Slash commands of this system: name → handler(emit, actor, args).
    verbs: ClassVar[dict[str, Verb]] = {}
    #: One help line per verb (Japanese, English).
    verb_help: ClassVar[dict[str, Message]] = {}

    #: Other labels of one value: alias → the label its edits are kept under (``{戦闘スキル}``
    #: is ``{戦闘}``); an edit of either changes both.
    aliases: ClassVar[dict[str, str]] = {}

    #: "module:class" of the system's GM house-rule settings (pydantic), or None.
    settings_location: ClassVar[str | None] = None

    def settings_class(self) -> Any:
        if self.settings_location is None:
            return None
        import importlib

        module, _, name = self.settings_location.partition(":")
        return getattr(importlib.import_module(module), name)

    def cfg(self, emit: Emit) -> Any:
        """The room's settings: the system's defaults with the GM's ``/gm setting`` changes."""
        overrides = emit.state.fields.get("settings") or {}
        return self._settings(json.dumps(overrides, sort_keys=True, ensure_ascii=False))

    @functools.lru_cache(maxsize=64)  # noqa: B019 (trackers are long-lived singletons)
    def _settings(self, overrides: str) -> Any:
        cls = self.settings_class()
        return cls.model_validate(json.loads(overrides)) if cls is not None else None

    # -- characters --------------------------------------------------------
    def new_character(self, sheet: SheetBase, side: str | None, row: str | None) -> Character:
        fields_set = sheet.model_fields_set
        hp = sheet.hp if "hp" in fields_set else sheet.max_hp
        return Character(
            name=sheet.name,
            side=side or self.default_side(sheet),
            sheet=sheet.model_dump(mode="json"),
            hp=hp,
            max_hp=sheet.max_hp,
            fields=self.initial_fields(sheet, row),
        )

    def default_side(self, sheet: SheetBase) -> str:
        for attr in ("kind", "side"):
            value = getattr(sheet, attr, None)
            if value is not None:
                return "pc" if str(value).lower() in ("pc", "player") else "npc"
        if getattr(sheet, "npc", False) or getattr(sheet, "is_npc", False):
            return "npc"
        return "pc"

    def initial_fields(self, sheet: SheetBase, row: str | None) -> dict[str, Any]:
        return {}

    def references(self, character: Character) -> dict[str, int]:
        """``{ラベル}`` values of a character as they are now (sheet + current statuses)."""
        from saikoro.sheets import sheet_from_data

        refs = dict(sheet_from_data(character.sheet).references())
        refs.update({"HP": character.hp, "MHP": character.max_hp, "最大HP": character.max_hp})
        refs.update(character.statuses)
        for alias, label in self.aliases.items():
            if label in character.statuses:
                refs[alias] = character.statuses[label]
        return refs

    def editable(self, character: Character, label: str) -> tuple[str, int, int] | None:
        """Where ``:LABEL±N`` / ``/gm set NAME LABEL N`` goes: (the status key it is kept
        under, the value now, what the kept value differs by from the value shown), or None
        when the character has no such value. The value is ``{LABEL}``'s without the passing
        effects of conditions (sleep, full defence, …), which apply on top of it."""
        key = self.aliases.get(label, label)
        if key in character.statuses:
            return key, int(character.statuses[key]), 0
        refs = Tracker.references(self, character)
        if key in refs:
            return key, int(refs[key]), 0
        return None

    def status_bounds(self, character: Character, key: str) -> tuple[int, int, str] | None:
        """The range a status edit (``:LABEL=N``, ``/gm set``) must stay in: (lowest, highest,
        rule ID), or None when the system sets no bounds on ``key``."""
        return None

    def after_roll(self, emit: Emit, speaker: str, result: Any) -> None:
        """A system's bookkeeping after a dice line of character ``speaker`` (a RollResult)."""

    def after_status_change(self, emit: Emit, name: str, key: str, old: int, new: int) -> None:
        """A system's consequences of an edited value (``:禁忌値+10`` …); none by default."""

    # -- combat ------------------------------------------------------------
    def round_order(self, emit: Emit) -> list[str]:
        return [c.name for c in emit.state.characters.values()]

    def start_combat(self, emit: Emit) -> None:
        order = self.round_order(emit)
        if not order:
            raise fail("戦闘に参加するキャラクターがいません", "no characters to fight")
        emit.add(
            ev.COMBAT_STARTED,
            {"order": order},
            text=Message(
                f"戦闘開始 (手番順: {' → '.join(order)})",
                f"combat starts (order: {' → '.join(order)})",
            ),
        )
        self.advance(emit, None)

    def end_combat(self, emit: Emit) -> None:
        emit.add(ev.COMBAT_ENDED, text=Message("戦闘終了", "combat ends"))

    def can_take_turn(self, emit: Emit, name: str) -> bool:
        character = emit.state.characters.get(name)
        return character is not None and not character.down

    def next_actor(self, emit: Emit, pick: str | None) -> str | None:
        combat = emit.state.combat
        assert combat is not None
        waiting = [n for n in combat.order if n not in combat.acted and self.can_take_turn(emit, n)]
        if pick is not None:
            if pick not in waiting:
                raise fail(
                    f"{pick} はこのラウンドに手番がありません",
                    f"{pick} has no turn left this round",
                )
            return pick
        return waiting[0] if waiting else None

    def end_turn(self, emit: Emit, name: str) -> None:
        emit.add(ev.TURN_ENDED, {"name": name})

    def begin_turn(self, emit: Emit, name: str) -> None:
        combat = emit.state.combat
        assert combat is not None
        emit.add(
            ev.TURN_STARTED,
            {"name": name},
            text=Message(
                f"ラウンド{combat.round}: {name} の手番", f"round {combat.round}: {name}'s turn"
            ),
        )

    def new_round(self, emit: Emit) -> None:
        combat = emit.state.combat
        assert combat is not None
        self.announce_round(emit, combat.round + 1, self.round_order(emit))

    def announce_round(
        self,
        emit: Emit,
        number: int,
        order: list[str] | tuple[str, ...],
        rules: tuple[str, ...] | list[str] = (),
        *,
        offered: bool = False,
    ) -> None:
        """The ROUND_STARTED event; ``offered`` orders are only proposed (players pick)."""
        ja, en = ("提示順", "offered") if offered else ("手番順", "order")
        shown = " → ".join(order)
        emit.add(
            ev.ROUND_STARTED,
            {"round": number, "order": list(order)},
            rules=rules,
            text=Message(
                f"ラウンド{number} 開始 ({ja}: {shown})", f"round {number} starts ({en}: {shown})"
            ),
        )

    def end_current_turn(self, emit: Emit) -> None:
        """End the turn being played, if any; there must be a combat."""
        combat = emit.state.combat
        if combat is None:
            raise fail("戦闘中ではありません (/combat start)", "no combat (use /combat start)")
        if combat.current is not None:
            self.end_turn(emit, combat.current)

    def advance(self, emit: Emit, pick: str | None) -> None:
        """End the current turn (if any) and start the next one, opening rounds as needed."""
        self.end_current_turn(emit)
        for _ in range(3):
            name = self.next_actor(emit, pick)
            if name is not None:
                self.begin_turn(emit, name)
                return
            if pick is not None:
                break
            self.new_round(emit)
        raise fail("手番を取れるキャラクターがいません", "nobody can take a turn")

    def turn_key(self, emit: Emit, name: str) -> list[int]:
        """Identifies a character's current turn: [combat serial, own-turn count]."""
        combat = emit.state.combat
        serial = int(combat.fields.get("serial", 0)) if combat is not None else -1
        return [serial, emit.state.characters[name].own_turns]

    def after_line(self, emit: Emit) -> None:
        """Checks run after every line that changed the table (row collapse, party down, …)."""
        return None
