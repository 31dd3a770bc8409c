"""The 運命判定d100 combat tracker, on the pure rules of ``saikoro.systems.unmeid100.rules``.

Turns: each character has 行動力 turns per round (UM-TURN-01); ``/next [NAME]`` lets the
GM pick who acts (default: the offered order, 敏捷度 first). A turn allows one action
(/melee, /shoot, /aim, /chant, /cast, /defend, /move 5); ``/move 3`` may be followed by a
melee attack and ``/move 1`` by another action in the same turn (UM-MOVE-01). The turn
ends with ``/next``. AC/RC changes (5 m move, full defence) are conditions with absolute
timing: they end when their owner's own turn ``ends_at_own_turn`` starts.

This module keeps the character, its values and the turns; each verb lives in the module
named after it: ``tracker_attack`` (/melee /shoot /aim /defend), ``tracker_magic`` (/chant
/cast), ``tracker_move`` (/move /switch /mount), ``tracker_damage`` (damage, the dying check,
/gm dying), ``tracker_fate`` (/fate, /gm fate reset), ``tracker_growth`` (/levelup),
``tracker_gm`` (/gm place, hold, cond); ``tracker_common`` what they share.

Damage breaks a chant (UM-MAGIC-01); HP ≤ 0 triggers the dying fate check (UM-FATE-04)
→ 気絶 or 死亡. ``/fate EFFECT`` spends a fate use (UM-FATE-01/02) on the speaker's last
failed check (success), or on the damage they last took (half, reroll), or on the
condition they last received (cancel).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from saikoro.dice.words import english_text
from saikoro.i18n import Message
from saikoro.sheets import SheetBase
from saikoro.systems import get_system
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import (
    gate,
    tracker_attack,
    tracker_damage,
    tracker_fate,
    tracker_gm,
    tracker_growth,
    tracker_magic,
    tracker_move,
)
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.tracker_common import (
    CONDITION_NAMES,
    DOWN_LABELS,
    RULED_CONDITION_NAMES,
    acts,
    break_chant,
    derived,
    exclusive_down,
    mark_action,
    out_of_fight,
    sheet_of,
    value_of,
)
from saikoro.table import events as ev
from saikoro.table.counters import Counter
from saikoro.table.emit import Emit, fail
from saikoro.table.kept import KeptByName
from saikoro.table.roles import forbidden
from saikoro.table.state import Character, Condition
from saikoro.table.tracker import Tracker, Verb


class UnmeiTracker(Tracker):
    system = "UnmeiD100"
    aliases: ClassVar[dict[str, str]] = {
        "戦闘スキル": "戦闘",
        "盗賊スキル": "盗賊",
        "魔術スキル": "魔術",
        "アーマークラス": "AC",
        "レジストクラス": "RC",
    }
    line_example: ClassVar[str] = "1D100<={戦闘}"
    #: The sheet's English field names (``/gm set NAME level 5``).
    english_labels: ClassVar[dict[str, str]] = {
        "level": "レベル",
        "combat": "戦闘",
        "thief": "盗賊",
        "magic": "魔術",
        "ac": "AC",
        "rc": "RC",
        "action_points": "行動力",
    }

    def __init__(self) -> None:
        self._base_refs: KeptByName[dict[str, int]] = KeptByName()
        self.verbs = {
            "melee": partial(tracker_attack.melee, self),
            "shoot": partial(tracker_attack.shoot, self),
            "aim": partial(tracker_attack.aim, self),
            "chant": partial(tracker_magic.chant, self),
            "cast": partial(tracker_magic.cast, self),
            "defend": partial(tracker_attack.defend, self),
            "move": partial(tracker_move.move, self),
            "fate": partial(tracker_fate.fate, self),
            "switch": partial(tracker_move.switch, self),
            "mount": partial(tracker_move.mount, self, on=True),
            "dismount": partial(tracker_move.mount, self, on=False),
            "levelup": partial(tracker_growth.levelup, self),
        }
        for verb, kind in gate.ACTION_KINDS.items():
            if kind != "fate":  # UM-FATE-06: an action ends what a rescue may still change
                self.verbs[verb] = _acting(self.verbs[verb])
        self.off_turn_verbs = {"fate"}
        #: UM-TABLE-08: the kind of action each verb is; :meth:`action_refusal` gates them
        self.action_kinds = dict(gate.ACTION_KINDS)
        #: verbs that need no acting character (the GM may type them for anyone)
        self.actorless_verbs = {"levelup"}
        #: other systems' verbs typed here: what this system calls them (UM-TABLE-02)
        self.verb_hints = {
            "attack": Message(
                "運命判定d100 では白兵攻撃は /melee 目標、射撃は /shoot 目標 です",
                "in UnmeiD100 a melee attack is /melee TARGET, a shot /shoot TARGET",
            ),
        }
        self.verb_help = {
            "melee 目標 [武器]": Message("白兵攻撃 (UM-MELEE-01)", "melee attack"),
            "shoot 目標 [武器]": Message("射撃攻撃 (UM-RANGED-01)", "ranged attack"),
            "aim": Message("狙う (UM-AIM-01)", "aim"),
            "chant 魔法": Message("詠唱 (UM-MAGIC-01)", "chant a spell"),
            "cast 目標": Message("発動 (UM-MAGIC-02/03)", "activate the chanted spell"),
            "defend": Message("防御専念 AC・RC+20 (UM-DEFEND-01)", "full defence"),
            "move 3|1|5 [目標|away 目標|to 位置m]": Message(
                "移動 (UM-MOVE-01; 目標へ近づく・離れる・位置へ UM-RANGE-01)",
                "move (toward or away from TARGET, or to a position, UM-RANGE-01)",
            ),
            "switch [武器|shield]": Message(
                "装備持ち替え (1手番; shield = 盾を捨てて両手持ち、手番消費なし) "
                "UM-SWITCH-01/UM-EQUIP-01",
                "switch equipment (a turn; shield: drop it for two hands, no turn)",
            ),
            "mount": Message(
                "騎乗する (移動距離×2 UM-MOVE-01; 手番は使わない)",
                "get on a mount (moves ×2, UM-MOVE-01; takes no turn)",
            ),
            "dismount": Message("騎乗をやめる (手番は使わない)", "get off the mount (no turn)"),
            "levelup 名前 [能力値]": Message(
                "レベルアップ: 成長判定 (能力値が上がらなければ選んだ1つ+1) UM-LEVEL-05",
                "level up: growth rolls (none rose: raise the one picked) UM-LEVEL-05",
            ),
            "fate success|half|cancel|reroll": Message(
                "運命判定 (UM-FATE-01/02)", "fate check + rescue"
            ),
            "gm dying 名前 気絶|死亡|none": Message(
                "HP 0以下の結果を GM が決める (UM-FATE-04: どれだけ差し迫るかは GM 次第)",
                "the GM rules the outcome of HP <= 0 (UM-FATE-04: how soon is the GM's call)",
            ),
            "gm fate reset": Message(
                "運命判定の回数を全員回復 (セッション開始、UM-FATE-01)",
                "refill everyone's fate uses (a new session, UM-FATE-01)",
            ),
            "gm place 名前 位置m|none": Message(
                "キャラクターを一直線上の位置に置く (UM-RANGE-01)",
                "put a character on the track (UM-RANGE-01)",
            ),
            "gm hold 名前 [武器…] [shield]": Message(
                "手に持っているものを決める (UM-EQUIP-01)",
                "rule what a character holds (UM-EQUIP-01)",
            ),
            "gm cond 名前 状態": Message(
                "効果を GM が決める状態異常 (呪文など、UM-TABLE-05)",
                "a condition whose effect the GM rules (a spell's, UM-TABLE-05)",
            ),
        }
        self.gm_verbs = {
            "dying": partial(tracker_damage.gm_dying, self),
            "fate": partial(tracker_fate.gm_fate_reset, self),
            "place": partial(tracker_gm.gm_place, self),
            "hold": partial(tracker_gm.gm_hold, self),
            "cond": partial(tracker_gm.gm_cond, self),
        }

    # -- characters --------------------------------------------------------
    def default_side(self, sheet: SheetBase) -> str:
        return "pc" if str(getattr(sheet, "kind", "PC")) == "PC" else "npc"

    def initial_fields(self, sheet: SheetBase, row: str | None) -> dict[str, Any]:
        held = eq.initial_held(
            getattr(sheet, "weapons", []),
            getattr(sheet, "held", None),
            bool(getattr(sheet, "shield", False)),
        )
        return {
            "fate_left": int(getattr(sheet, "fate_uses", 0)),
            "aim": 0,
            "chant": None,
            "held": list(held.weapons),
            "shield": held.shield,
            "pos": None,
            "mounted": bool(getattr(sheet, "mounted", False)),
        }

    def base_references(self, character: Character) -> dict[str, int]:
        """Sheet values and edits; with the formula table on, the derived values follow the
        abilities as they are now (UM-LEVEL-03) unless the GM edited the value itself.

        They follow from the sheet (never edited in place), HP and the statuses, so the last
        ones worked out for a character's name are given again (a copy) while those are the
        same: a line reads them several times, and a character it does not change is read
        again on the next."""
        values = (character.sheet, character.hp, character.max_hp)
        kept = self._base_refs.get(character.name, (*values, character.statuses))
        if kept is None:
            kept = self._base_refs.put(
                character.name,
                (*values, dict(character.statuses)),  # a session changes its room's in place
                self._work_out_base_references(character),
            )
        return dict(kept)

    def _work_out_base_references(self, character: Character) -> dict[str, int]:
        refs = super().references(character)
        sheet = sheet_of(character)
        if not sheet.formula_table.enabled:
            return refs
        values = derived(sheet, character.statuses)
        for label, value in values.items():
            names = [label, *(a for a, key in self.aliases.items() if key == label)]
            if label == "最大HP" or any(n in character.statuses for n in names):
                continue  # max HP is the character's own (after_status_change)
            for n in names:
                refs[n] = value
        return refs

    def bound_status(
        self, emit: Emit, name: str, key: str, current: int, value: int, op: str, ruling: bool
    ) -> int:
        """レベル stays 1–10 (UM-LEVEL-01), a growth rate 0–100 (UM-LEVEL-02), for anyone;
        UM-LEVEL-06: only the GM edits レベル and the growth rates (a player grows by
        ``/levelup`` after a session survived)."""
        if (key == "レベル" or key.endswith("成長率")) and not emit.gm:
            raise forbidden(
                f"{key} はレベルアップ (/levelup、生き残ったセッションごとに1回) で上がります: "
                "直接変えられるのは GM だけです [UM-LEVEL-06]",
                f"{key} rises by levelling up (/levelup, once per session survived): only "
                "the GM edits it [UM-LEVEL-06]",
            )
        bounds = {"レベル": (um.MIN_LEVEL, um.MAX_LEVEL, "UM-LEVEL-01")}.get(
            key, (0, 100, "UM-LEVEL-02") if key.endswith("成長率") else None
        )
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            lo, hi, rule = bounds
            raise fail(
                f"{name} の {key} は {lo}〜{hi} です ({value} にはできません) [{rule}]",
                f"{name}'s {key} must be {lo} to {hi} (not {value}) [{rule}]",
                "out of range",
            )
        return super().bound_status(emit, name, key, current, value, op, ruling)

    def end_session(self, emit: Emit, number: int) -> None:
        """UM-LEVEL-06: everyone not 死亡 survived the session and may level up once more."""
        tracker_growth.mark_survivors(self, emit, number)

    def after_status_change(self, emit: Emit, name: str, key: str, old: int, new: int) -> None:
        """UM-LEVEL-03: with the formula table on, a raised ability raises a derived max HP."""
        character = emit.character(name)
        sheet = sheet_of(character)
        if not sheet.formula_table.enabled or key not in sheet.abilities:
            return
        before = derived(sheet, {**character.statuses, key: old}).get("最大HP")
        after = derived(sheet, character.statuses).get("最大HP")
        if before is not None and after is not None and after != before:
            emit.set_status(
                name,
                "max_hp",
                character.max_hp + after - before,
                rules=("UM-LEVEL-03",),
                note=Message(
                    f"{name}: 最大HP {character.max_hp} → {character.max_hp + after - before} "
                    "(計算式)",
                    f"{name}: max HP {character.max_hp} → "
                    f"{character.max_hp + after - before} (formula)",
                ),
            )

    def after_roll(self, emit: Emit, speaker: str, result: Any) -> None:
        """UM-FATE-02 (a): a failed action check typed at the table (``1D100<={戦闘}``, ``MA…``)
        is the character's last check, which ``/fate success`` can turn into a success; a
        successful one replaces it. Fate and growth rolls are not action checks."""
        if result.secret or any(r.startswith(("UM-FATE", "UM-LEVEL")) for r in result.rules):
            return
        emit.character(speaker)  # refused when there is no such character
        if result.failure or result.success:
            mark_action(emit, speaker)  # an action check is an action (UM-FATE-06)
        if result.failure:
            english = english_text(result, get_system(self.system))
            emit.set_field(
                speaker,
                "_last_check",
                {
                    "kind": "check",
                    "command": result.text,
                    "command_en": english,
                    "at": acts(emit.character(speaker)),
                },
            )
        elif result.success and emit.character(speaker).fields.get("_last_check"):
            emit.set_field(speaker, "_last_check", None)

    def references(self, character: Character) -> dict[str, int]:
        refs = self.base_references(character)
        refs["AC"] = refs["アーマークラス"] = self.ac(character, refs)
        refs["RC"] = refs["レジストクラス"] = self.rc(character, refs)
        refs["運命判定回数"] = int(character.fields.get("fate_left", 0))
        if "運命" in character.statuses and "運命判定" not in character.statuses:
            refs["運命判定"] = um.fate_target(int(character.statuses["運命"]))
        return refs

    def editable(self, character: Character, label: str) -> tuple[str, int, int] | None:
        if label in ("運命判定", "運命判定回数"):
            raise fail(
                f"{label} は 運命 と残り回数から決まります (:運命=N、/gm set 名前 fate_left N)",
                f"{label} follows 運命 and the uses left (:運命=N, /gm set NAME fate_left N)",
                "derived value",
            )
        return super().editable(character, label)

    def counters(self, character: Character, refs: dict[str, int]) -> list[Counter]:
        """HP and the fate checks left this session (UM-FATE-01: at most the level, a mob 1),
        which the GM sets (``/gm set NAME fate_left N``; a check spends one by ``/fate``)."""
        sheet = sheet_of(character)
        level = int(refs.get("レベル", sheet.level))
        most = um.fate_uses_per_session(sheet.kind, level).uses
        fate = Counter(
            "運命判定回数", refs["運命判定回数"], most, line="/gm set {name} fate_left {value}"
        )
        return [*super().counters(character, refs), fate]

    def ac(self, character: Character, refs: dict[str, int] | None = None) -> int:
        refs = refs if refs is not None else self.base_references(character)
        return value_of(character, refs, "AC") + sum(
            c.mods.get("AC", 0) for c in character.conditions
        )

    def rc(self, character: Character, refs: dict[str, int] | None = None) -> int:
        refs = refs if refs is not None else self.base_references(character)
        return value_of(character, refs, "RC") + sum(
            c.mods.get("RC", 0) for c in character.conditions
        )

    def combatant(
        self, character: Character, refs: dict[str, int] | None = None
    ) -> um.CombatantState:
        """The turn rules' view of ``character`` (``refs``: its :meth:`base_references`,
        when the caller has them)."""
        refs = refs if refs is not None else self.base_references(character)
        chant = character.fields.get("chant")
        return um.CombatantState(
            name=character.name,
            agility=value_of(character, refs, "敏捷度"),
            action_points=value_of(character, refs, "行動力"),
            ac=value_of(character, refs, "AC"),
            rc=value_of(character, refs, "RC"),
            mounted=bool(character.fields.get("mounted", character.sheet.get("mounted", False))),
            own_turn=character.own_turns,
            chant=um.Chant(chant["spell"], chant["since_own_turn"]) if chant else None,
            aim=int(character.fields.get("aim", 0)),
            modifiers=tuple(
                um.Modifier(
                    c.label,
                    c.mods.get("AC", 0),
                    c.mods.get("RC", 0),
                    c.ends_at_own_turn or 0,
                    c.rules[0] if c.rules else "",
                )
                for c in character.conditions
                if c.mods
            ),
        )

    def save(
        self,
        emit: Emit,
        before: um.CombatantState,
        after: um.CombatantState,
        rules: tuple[str, ...],
    ) -> None:
        """Emit the tracker fields that an action changed."""
        name = after.name
        if after.chant != before.chant:
            chant = (
                None
                if after.chant is None
                else {"spell": after.chant.spell, "since_own_turn": after.chant.since_own_turn}
            )
            emit.set_field(name, "chant", chant, rules=rules)
        if after.aim != before.aim:
            emit.set_field(name, "aim", after.aim, rules=rules)
        old = {m.source for m in before.modifiers}
        for m in after.modifiers:
            if m.source not in old:
                emit.add_condition(
                    name,
                    Condition(
                        label=m.source,
                        ends_at_own_turn=m.until_own_turn,
                        mods={"AC": m.ac, "RC": m.rc},
                        rules=[m.rule],
                    ),
                    text=Message(
                        f"{name}: {m.source} (AC{m.ac:+} RC{m.rc:+}, 次の手番まで)",
                        f"{name}: {self.condition_name(m.source).en} "
                        f"(AC{m.ac:+} RC{m.rc:+} until next turn)",
                    ),
                )

    # -- turns -------------------------------------------------------------
    def action_refusal(self, emit: Emit, actor: str, kind: str) -> Message | None:
        """UM-TABLE-08: HP ≤ 0, 気絶 or 死亡 stop every action (a fate check is none)."""
        character = emit.character(actor)
        return gate.refusal(actor, kind, character.hp, [c.label for c in character.conditions])

    def can_take_turn(self, emit: Emit, name: str) -> bool:
        character = emit.state.characters.get(name)
        return character is not None and not out_of_fight(character)

    def _fighters(self, emit: Emit) -> list[um.CombatantState]:
        """What the turn order reads of every character: its name, 敏捷度 and 行動力."""
        found = []
        for character in emit.state.characters.values():
            refs = self.base_references(character)
            found.append(
                um.CombatantState(
                    name=character.name,
                    agility=value_of(character, refs, "敏捷度"),
                    action_points=value_of(character, refs, "行動力"),
                )
            )
        return found

    def round_order(self, emit: Emit) -> list[str]:
        return list(um.default_order(self._fighters(emit), self.cfg(emit)))

    def _round_state(self, emit: Emit) -> um.RoundState:
        combat = emit.state.combat
        assert combat is not None
        remaining = {
            n: (v if v and self.can_take_turn(emit, n) else 0)
            for n, v in combat.fields.get("remaining", {}).items()
            if n in emit.state.characters
        }
        return um.RoundState(
            combat.round,
            remaining,
            tuple(n for n in combat.order if n in remaining),
            tuple(combat.acted),
        )

    def start_combat(self, emit: Emit) -> None:
        fighters = self._fighters(emit)
        if not fighters:
            raise fail("戦闘に参加するキャラクターがいません", "no characters to fight")
        state = um.start_round(fighters, 1, settings=self.cfg(emit))
        emit.add(
            ev.COMBAT_STARTED,
            {"order": list(state.order), "fields": {"remaining": dict(state.remaining)}},
            rules=state.rules,
            text=Message(
                f"戦闘開始: ラウンド1 (提示順: {' → '.join(state.order)}; 手番は行動力の回数)",
                "combat starts: round 1 (offered order: "
                f"{' → '.join(state.order)}; turns = action points)",
            ),
        )
        self.advance(emit, None)

    def new_round(self, emit: Emit) -> None:
        combat = emit.state.combat
        assert combat is not None
        state = um.start_round(self._fighters(emit), combat.round + 1, settings=self.cfg(emit))
        self.announce_round(emit, state.round, state.order, state.rules, offered=True)
        emit.set_combat("remaining", dict(state.remaining), rules=state.rules)

    def next_actor(self, emit: Emit, pick: str | None) -> str | None:
        rs = self._round_state(emit)
        if rs.over:
            return None
        after = um.next_turn(rs, pick)
        emit.set_combat("remaining", dict(after.remaining), rules=after.rules)
        return after.taken[-1]

    def advance(self, emit: Emit, pick: str | None) -> None:
        self.end_current_turn(emit)
        if pick is not None:
            emit.character(pick)
        for _ in range(2):
            name = self.next_actor(emit, pick)
            if name is not None:
                self.begin_turn(emit, name)
                return
            self.new_round(emit)
        raise fail("手番を取れるキャラクターがいません", "nobody can take a turn")

    def begin_turn(self, emit: Emit, name: str) -> None:
        super().begin_turn(emit, name)
        character = emit.state.characters[name]
        if not any(c.mods for c in character.conditions):
            return  # no modifier to end (a turn starts for each character every round)
        before = self.combatant(replace_turn(character, character.own_turns - 1))
        after = um.begin_own_turn(before)
        kept = {m.source for m in after.modifiers}
        for c in character.conditions:
            if c.mods and c.label not in kept:
                shown = self.condition_name(c.label)
                emit.remove_condition(
                    name,
                    c.label,
                    rules=(c.rules[0],) if c.rules else (),
                    text=Message(f"{name}: {shown.ja} が解けた", f"{name}: {shown.en} ended"),
                )

    # -- action bookkeeping --------------------------------------------------
    def moved_this_turn(self, emit: Emit, character: Character) -> bool:
        """Has the character moved in the turn being played (``/move 3`` or ``/move 1``)?"""
        used: list[Any] = character.fields.get("_used") or []
        return (
            emit.state.combat is not None
            and len(used) == 3
            and used[:2] == self.turn_key(emit, character.name)
            and used[2] in ("attack", "act")
        )

    def use_turn(self, emit: Emit, name: str, kind: str, follow: str = "done") -> None:
        """One action per turn; /move 3 leaves a melee, /move 1 another action (UM-MOVE-01)."""
        character = emit.character(name)
        if emit.state.combat is None:
            return
        used = character.fields.get("_used")
        key = self.turn_key(emit, name)
        if used and used[:2] == key:
            follow = used[2]
            allowed = (follow == "attack" and kind == "melee") or (
                follow == "act" and kind not in ("move",)
            )
            if not allowed:
                raise fail(
                    f"{name} はこの手番ですでに行動しました (/next)",
                    f"{name} already acted this turn (/next)",
                    "turn used",
                )
        emit.set_field(name, "_used", [*key, follow])

    def set_last_check(self, emit: Emit, name: str, data: dict[str, Any] | None) -> None:
        emit.set_field(name, "_last_check", data)

    # -- actions -----------------------------------------------------------

    # -- fate ----------------------------------------------------------------

    def after_line(self, emit: Emit) -> None:
        """Any HP loss breaks a chant (UM-MAGIC-01: ``:HP-3``, poison-like effects, …);
        UM-FATE-04 also after an HP edit (``:HP-20``, ``/gm set``) that drops HP to 0 or less."""
        hurt: dict[str, None] = {}
        dropped: dict[str, None] = {}
        for e in emit.events:
            if e.kind != ev.STATUS_SET or e.data.get("key") != "hp":
                continue
            old, value = e.data.get("old"), int(e.data["value"])
            if old is not None and value < int(old):
                hurt[e.data["name"]] = None
            if (old or 0) > 0 >= value:
                dropped[e.data["name"]] = None
        for name in hurt:
            character = emit.state.characters.get(name)
            if character is not None and character.fields.get("chant"):
                break_chant(emit, name)
        for name in dropped:
            character = emit.state.characters.get(name)
            if (
                self.cfg(emit).dying_check_mandatory
                and character is not None
                and character.down
                and not any(character.condition(label) for label in DOWN_LABELS)
            ):
                tracker_damage.dying(self, emit, name)

    # -- GM ----------------------------------------------------------------

    def condition_name(self, label: str) -> Message:
        english = CONDITION_NAMES.get(label) or RULED_CONDITION_NAMES.get(label, label)
        return Message(label, english)

    def make_condition(self, emit: Emit, name: str, label: str, level: int) -> Condition:
        """``/cond add NAME LABEL``: only the conditions the rules give, with what they do
        (気絶/死亡: no turns, UM-FATE-04; 防御専念 AC/RC +20 and 5m移動 AC/RC −20 until the
        next own turn). Another system's condition (毒 …) is refused; a condition whose effect
        the GM rules (a spell's) is ``/gm cond NAME LABEL``."""
        made = self.rule_condition(emit.character(name), label)
        if made is None:
            known = "、".join(CONDITION_NAMES)
            raise fail(
                f"運命判定d100 に状態異常「{label}」のルールはありません "
                f"(ルールのある状態異常: {known}; 効果を GM が決める状態異常は /gm cond 名前 {label})",
                f"UnmeiD100 has no rule for the condition {label!r} "
                f"(conditions with rules: {', '.join(f'{j} ({e})' for j, e in CONDITION_NAMES.items())}; "
                f"one whose effect the GM rules: /gm cond NAME {label})",
                "unknown condition",
            )
        if level:
            raise fail(
                f"{label} にレベルはありません", f"{label} has no level", "bad condition level"
            )
        emit.set_field(name, "_last_condition", {"label": label, "at": acts(emit.character(name))})
        exclusive_down(emit, name, label, self.cfg(emit))
        return made

    def rule_condition(self, character: Character, label: str) -> Condition | None:
        """The condition ``label`` as the rules give it, or None when they give none."""
        if label in DOWN_LABELS:
            return Condition(label=label, rules=["UM-FATE-04"])
        change = {"防御専念": (um.FULL_DEFENCE_BONUS, "UM-DEFEND-01")}.get(
            label, (-um.MOVE_PENALTY, "UM-MOVE-01") if label == "5m移動" else None
        )
        if change is None:
            return None
        amount, rule = change
        return Condition(
            label=label,
            ends_at_own_turn=character.own_turns + 1,
            mods={"AC": amount, "RC": amount},
            rules=[rule],
        )


def _acting(handler: Verb) -> Verb:
    """The verb ``handler``, counted as one action of its actor first (UM-FATE-06)."""

    def act(emit: Emit, actor: str, args: list[str]) -> None:
        mark_action(emit, actor)
        handler(emit, actor, args)

    act.__doc__ = handler.__doc__
    return act


def replace_turn(character: Character, own_turns: int) -> Character:
    copy = character.model_copy()
    copy.own_turns = own_turns
    return copy


__all__ = ["UnmeiTracker", "replace"]
