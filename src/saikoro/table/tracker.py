"""What a combat tracker provides to the dispatcher, and the generic one (DiceBot rooms).

A tracker is stateless: it reads the room state through an :class:`Emit` and emits
events. A game system's own tracker lives in its folder (``saikoro/systems/<id>/``, named
by its manifest) and calls the system's pure rule functions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from saikoro.i18n import Message
from saikoro.sheets import SheetBase, table_sheet_references
from saikoro.systems import settings
from saikoro.table import events as ev
from saikoro.table.counters import Counter, maxed_counters
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character, Condition

Verb = Callable[[Emit, str, list[str]], None]  # (emit, actor, args)
GmVerb = Callable[[Emit, list[str]], None]  # (emit, args) of ``/gm <verb> …``


class Tracker:
    """The generic tracker: listed order, one turn each, no rules of its own."""

    system = "DiceBot"
    # A system's tracker sets these per instance (its handlers are bound methods).
    #: Slash commands of this system: name → handler(emit, actor, args).
    verbs: Mapping[str, Verb] = MappingProxyType({})
    #: One help line per verb (Japanese, English).
    verb_help: Mapping[str, Message] = MappingProxyType({})
    #: Verbs a character may use outside their own turn (``/card``, ``/fate``).
    off_turn_verbs: Collection[str] = frozenset()
    #: The system's own GM rulings: ``/gm <verb> …`` → handler(emit, args).
    gm_verbs: Mapping[str, GmVerb] = MappingProxyType({})
    #: Verbs that need no acting character (``/levelup NAME``): the actor is the speaker or "".
    actorless_verbs: Collection[str] = frozenset()
    #: Other systems' verbs typed here → what this system calls them (``/attack`` → ``/melee``).
    verb_hints: Mapping[str, Message] = MappingProxyType({})
    #: What kind of action each verb is (``"attack"``, ``"move"``, ``"card"``, ``"check"``, …;
    #: the system names its kinds): :meth:`action_refusal` decides from it whether the actor
    #: may act. A verb not listed is not gated (bookkeeping such as ``/levelup``).
    action_kinds: Mapping[str, str] = MappingProxyType({})

    #: A dice line of this system with a ``{…}`` of the speaker's sheet, for ``/help`` and the
    #: web page's input placeholder.
    line_example: ClassVar[str] = "2D6>=8"
    #: The options of ``/char add PATH …`` (a system with rows adds ``front|back``).
    char_options: ClassVar[tuple[str, ...]] = ("pc|npc",)

    #: Other labels of one value: alias → the label its edits are kept under (``{戦闘スキル}``
    #: is ``{戦闘}``); an edit of either changes both.
    aliases: ClassVar[dict[str, str]] = {}

    def settings_class(self) -> Any:
        """The system's house-rule settings model (its manifest's), or None."""
        from saikoro.systems import manifest

        try:
            return manifest(self.system).settings_class()
        except KeyError:
            return None

    def cfg(self, emit: Emit) -> Any:
        """The room's settings: the system's defaults with the GM's ``/gm setting`` changes
        (the same object typed commands play by, see ``saikoro.systems.configured``)."""
        return settings(self.system, emit.state.fields.get("settings"))

    # -- characters --------------------------------------------------------
    def new_character(
        self, sheet: SheetBase, side: str | None, row: str | None, emit: Emit | None = None
    ) -> Character:
        """The table's character for a sheet; ``emit`` (the room) gives its house rules."""
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
        refs = table_sheet_references(character.sheet)
        refs.update({"HP": character.hp, "MHP": character.max_hp, "最大HP": character.max_hp})
        refs.update(character.statuses)
        for alias, label in self.aliases.items():
            if label in character.statuses:
                refs[alias] = character.statuses[label]
        return refs

    #: English names of values the sheet has, lower case → the label (``level`` → ``レベル``).
    english_labels: ClassVar[dict[str, str]] = {}

    def status_label(self, character: Character, label: str) -> str:
        """The label ``:LABEL…`` / ``/gm set NAME LABEL`` means: as typed when the character
        has it, else its English name (``level``) or the same label in other case (``hp``,
        ``ac``); unknown labels are returned as typed (:meth:`editable` refuses them)."""
        refs = self.references(character)
        if label in refs or label in character.statuses or label in self.aliases:
            return label
        english = self.english_labels.get(label.lower())
        if english is not None:
            return english
        folded = [known for known in refs if known.lower() == label.lower()]
        return folded[0] if len(folded) == 1 else label

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

    def counters(self, character: Character, refs: dict[str, int]) -> list[Counter]:
        """The character's numeric statuses as the page's cards show them (``refs``: its
        :meth:`references`): HP and every value with a maximum (``MP`` / ``最大MP``); a
        system adds its own (its resources without a maximum, …)."""
        return maxed_counters(character, refs)

    # -- the action gate ----------------------------------------------------
    def action_kind(self, verb: str, args: list[str]) -> str | None:
        """The kind of action ``/verb args`` is (None: not an action, never gated); a system
        may look at the arguments (``/swim off`` is no action where ``/swim`` is)."""
        return self.action_kinds.get(verb)

    def action_refusal(self, emit: Emit, actor: str, kind: str) -> Message | None:
        """Why ``actor`` may not take a ``kind`` action now (conditions, HP), or None: the
        one gate every verb of the system passes through. A GM's line passes it as a ruling
        (the dispatcher logs that). The generic table gates nothing."""
        return None

    def end_session(self, emit: Emit, number: int) -> None:
        """``/gm session end`` (session ``number``, already logged): the system's
        consequences (who survived, growth owed); none on the generic table."""

    def after_roll(self, emit: Emit, speaker: str, result: Any) -> None:
        """A system's bookkeeping after a dice line of character ``speaker`` (a RollResult)."""

    #: The least max HP a character may have (sheets refuse less).
    min_max_hp: ClassVar[int] = 0
    #: ``:HP=N`` above max HP: "refuse", or "clamp" where healing stops at max HP.
    hp_above_max: ClassVar[str] = "refuse"

    def bound_status(
        self, emit: Emit, name: str, key: str, current: int, value: int, op: str, ruling: bool
    ) -> int:
        """The value an edit of ``key`` (``hp``, ``max_hp`` or a status) from ``current`` to
        ``value`` really sets, or :func:`fail` when the system does not allow it. ``ruling``:
        the GM's ``/gm set`` (already logged as a ruling). ``emit.gm``: a GM's line."""
        character = emit.character(name)
        if key == "max_hp" and value < self.min_max_hp:
            raise fail(
                f"最大HPは{self.min_max_hp}以上です ({value} は使えません)",
                f"max HP is at least {self.min_max_hp} (not {value})",
                "bad value",
            )
        if key == "hp" and value > character.max_hp and value > current:
            if op == "+" or self.hp_above_max == "clamp":
                return max(current, character.max_hp)  # healing stops at max HP
            raise fail(
                f"HP は最大HP ({character.max_hp}) を超えられません ({value} は使えません)",
                f"HP cannot exceed max HP ({character.max_hp}; not {value})",
                "bad value",
            )
        return value

    def joined(self, emit: Emit, character: Character) -> None:
        """A character was just added (``/char add``); a system's consequences, none here."""

    def condition_name(self, label: str) -> Message:
        """How a condition's label is shown (a system names its own conditions in English)."""
        return Message(label, label)

    def make_condition(self, emit: Emit, name: str, label: str, level: int) -> Condition | None:
        """The condition ``/cond add NAME LABEL [LEVEL]`` gives (None: nothing to add; a
        system may apply its rules or refuse); by default the label and level as they are."""
        return Condition(label=label, level=level)

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
