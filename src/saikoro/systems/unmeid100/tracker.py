"""The 運命判定d100 combat tracker, on the pure rules of ``saikoro.systems.unmeid100.rules``.

Turns: each character has 行動力 turns per round (UM-TURN-01); ``/next [NAME]`` lets the
GM pick who acts (default: the offered order, 敏捷度 first). A turn allows one action
(/melee, /shoot, /aim, /chant, /cast, /defend, /move 5); ``/move 3`` may be followed by a
melee attack and ``/move 1`` by another action in the same turn (UM-MOVE-01). The turn
ends with ``/next``. AC/RC changes (5 m move, full defence) are conditions with absolute
timing: they end when their owner's own turn ``ends_at_own_turn`` starts.

Damage breaks a chant (UM-MAGIC-01); HP ≤ 0 triggers the dying fate check (UM-FATE-04)
→ 気絶 or 死亡. ``/fate EFFECT`` spends a fate use (UM-FATE-01/02) on the speaker's last
failed check (success), or on the damage they last took (half, reroll), or on the
condition they last received (cancel).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from saikoro.dice.words import english_text
from saikoro.i18n import Message
from saikoro.sheets import SheetBase, sheet_from_data
from saikoro.systems import get_system
from saikoro.systems.unmeid100 import distance as dist
from saikoro.systems.unmeid100 import equipment as eq
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100.commands import (
    MELEE,
    SEP,
    attack_texts,
    ranged_text,
    spell_text,
    spell_texts,
)
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS
from saikoro.systems.unmeid100.sheet import UnmeiSheet
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail
from saikoro.table.state import Character, Condition
from saikoro.table.tracker import Tracker

S = DEFAULT_SETTINGS
DOWN_LABELS = (um.LifeState.UNCONSCIOUS.value, um.LifeState.DEAD.value)
#: The conditions the rules of 運命判定d100 give (their English names): the dying check's
#: 気絶 / 死亡 (UM-FATE-04), full defence (UM-DEFEND-01) and the 5 m move (UM-MOVE-01).
CONDITION_NAMES: dict[str, str] = {
    um.LifeState.UNCONSCIOUS.value: "unconscious",
    um.LifeState.DEAD.value: "dead",
    "防御専念": "full defence",
    "5m移動": "5 m move",
}
MOVES = {"3": "attack", "1": "act", "5": "run"}


def _sheet(character: Character) -> Any:
    return sheet_from_data(character.sheet)


def _value(character: Character, refs: dict[str, int], key: str) -> int:
    return int(character.statuses.get(key, refs.get(key, 0)))


def _derived(sheet: Any, statuses: dict[str, int]) -> dict[str, int]:
    """UM-LEVEL-03: the formula table's values from the abilities as they are now."""
    abilities = {n: int(statuses.get(n, a.value)) for n, a in sheet.abilities.items()}
    return dict(um.derive(sheet.formula_table.formulas, abilities).values)


def _held(character: Character) -> eq.Held:
    """What the character holds (rooms from before UM-EQUIP-01: as the sheet starts)."""
    if "held" not in character.fields:
        sheet = _sheet(character)
        return eq.initial_held(sheet.weapons, sheet.held, sheet.shield)
    return eq.Held(tuple(character.fields["held"]), bool(character.fields.get("shield")))


def _distance(emit: Emit, a: str, b: str) -> int | None:
    """UM-RANGE-01: metres between two characters on the track (None: one is not placed)."""
    return dist.distance(emit.character(a).fields.get("pos"), emit.character(b).fields.get("pos"))


def _break_chant(emit: Emit, name: str) -> None:
    """UM-MAGIC-01: taking damage (any HP loss) while chanting breaks the chant."""
    emit.set_field(
        name,
        "chant",
        None,
        rules=("UM-MAGIC-01",),
        text=Message(f"{name} の詠唱が途切れた", f"{name}'s chant is broken"),
    )


def _not_self(name: str, target: str) -> None:
    """An attack or a hostile spell needs someone else as its target."""
    if target == name:
        raise fail(
            f"{name} は自分自身を攻撃の目標にできません",
            f"{name} cannot target themselves with an attack",
            "self",
        )


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
        self.verbs = {
            "melee": self.melee,
            "shoot": self.shoot,
            "aim": self.aim,
            "chant": self.chant,
            "cast": self.cast,
            "defend": self.defend,
            "move": self.move,
            "fate": self.fate,
            "switch": self.switch,
            "mount": lambda emit, actor, args: self.mount(emit, actor, args, True),
            "dismount": lambda emit, actor, args: self.mount(emit, actor, args, False),
            "levelup": lambda emit, actor, args: levelup(self, emit, actor, args),
        }
        self.off_turn_verbs = {"fate"}
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
            "dying": self.gm_dying,
            "fate": self.gm_fate_reset,
            "place": self.gm_place,
            "hold": self.gm_hold,
            "cond": self.gm_cond,
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
        abilities as they are now (UM-LEVEL-03) unless the GM edited the value itself."""
        refs = super().references(character)
        sheet = _sheet(character)
        if not sheet.formula_table.enabled:
            return refs
        derived = _derived(sheet, character.statuses)
        for label, value in derived.items():
            names = [label, *(a for a, key in self.aliases.items() if key == label)]
            if label == "最大HP" or any(n in character.statuses for n in names):
                continue  # max HP is the character's own (after_status_change)
            for n in names:
                refs[n] = value
        return refs

    def bound_status(
        self, emit: Emit, name: str, key: str, current: int, value: int, op: str, ruling: bool
    ) -> int:
        """レベル stays 1–10 (UM-LEVEL-01), a growth rate 0–100 (UM-LEVEL-02), for anyone."""
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

    def after_status_change(self, emit: Emit, name: str, key: str, old: int, new: int) -> None:
        """UM-LEVEL-03: with the formula table on, a raised ability raises a derived max HP."""
        character = emit.character(name)
        sheet = _sheet(character)
        if not sheet.formula_table.enabled or key not in sheet.abilities:
            return
        before = _derived(sheet, {**character.statuses, key: old}).get("最大HP")
        after = _derived(sheet, character.statuses).get("最大HP")
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
        character = emit.character(speaker)
        if result.failure:
            english = english_text(result, get_system(self.system))
            emit.set_field(
                speaker,
                "_last_check",
                {"kind": "check", "command": result.text, "command_en": english},
            )
        elif result.success and character.fields.get("_last_check"):
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

    def ac(self, character: Character, refs: dict[str, int] | None = None) -> int:
        refs = refs if refs is not None else self.base_references(character)
        return _value(character, refs, "AC") + sum(
            c.mods.get("AC", 0) for c in character.conditions
        )

    def rc(self, character: Character, refs: dict[str, int] | None = None) -> int:
        refs = refs if refs is not None else self.base_references(character)
        return _value(character, refs, "RC") + sum(
            c.mods.get("RC", 0) for c in character.conditions
        )

    def combatant(self, character: Character) -> um.CombatantState:
        refs = self.base_references(character)
        chant = character.fields.get("chant")
        return um.CombatantState(
            name=character.name,
            agility=_value(character, refs, "敏捷度"),
            action_points=_value(character, refs, "行動力"),
            ac=_value(character, refs, "AC"),
            rc=_value(character, refs, "RC"),
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
    def can_take_turn(self, emit: Emit, name: str) -> bool:
        character = emit.state.characters.get(name)
        return (
            character is not None
            and not character.down
            and not any(character.condition(label) for label in DOWN_LABELS)
        )

    def _fighters(self, emit: Emit) -> list[um.CombatantState]:
        return [self.combatant(c) for c in emit.state.characters.values()]

    def round_order(self, emit: Emit) -> list[str]:
        return list(um.default_order(self._fighters(emit), self.cfg(emit)))

    def _round_state(self, emit: Emit) -> um.RoundState:
        combat = emit.state.combat
        assert combat is not None
        remaining = {
            n: (v if self.can_take_turn(emit, n) else 0)
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
    def _moved_this_turn(self, emit: Emit, character: Character) -> bool:
        """Has the character moved in the turn being played (``/move 3`` or ``/move 1``)?"""
        used: list[Any] = character.fields.get("_used") or []
        return (
            emit.state.combat is not None
            and len(used) == 3
            and used[:2] == self.turn_key(emit, character.name)
            and used[2] in ("attack", "act")
        )

    def _use_turn(self, emit: Emit, name: str, kind: str, follow: str = "done") -> None:
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

    def _roll_damage(self, emit: Emit, expr: str, times: int = 1) -> int:
        from saikoro.dice.sums import roll_sum

        total = 0
        for _ in range(times):
            rolled = roll_sum(expr, emit.randomizer)
            if rolled is None:
                raise fail(f"ダメージダイス {expr!r} を振れません", f"cannot roll damage {expr!r}")
            total += rolled
        return total

    def apply_damage(
        self, emit: Emit, target: str, damage: int, source: str, expr: str | None = None
    ) -> None:
        """UM-DMG-01: damage off HP; breaks a chant (UM-MAGIC-01); HP ≤ 0 → dying check."""
        character = emit.character(target)
        outcome = um.take_damage(
            character.hp,
            damage,
            chanting=bool(character.fields.get("chant")),
            settings=self.cfg(emit),
        )
        emit.set_status(
            target,
            "hp",
            outcome.hp,
            rules=outcome.rules,
            note=Message(
                f"{target} に {outcome.damage} ダメージ (HP {character.hp} → {outcome.hp})",
                f"{target} takes {outcome.damage} damage (HP {character.hp} → {outcome.hp})",
            ),
        )
        emit.set_field(
            target,
            "_incoming",
            {
                "damage": outcome.damage,
                "hp_before": outcome.hp + outcome.damage,
                "expr": expr,
                "from": source,
            },
        )
        if outcome.chant_broken:
            _break_chant(emit, target)
        if outcome.dying_check_due:
            self.dying(emit, target)

    def dying(self, emit: Emit, name: str) -> None:
        character = emit.character(name)
        refs = self.base_references(character)
        roll = emit.randomizer.roll_once(100)
        out = um.dying_check(
            roll,
            _value(character, refs, "運命"),
            int(character.fields.get("fate_left", 0)),
            self.cfg(emit),
        )
        if out.used_fate:
            emit.set_field(name, "fate_left", out.uses_left)
        label = out.state.value
        emit.add_condition(
            name,
            Condition(label=label, rules=list(out.rules)),
            text=Message(
                f"{name} の運命判定 (1D100<={out.check.target}) ＞ {roll} "
                f"＞ {'成功: 気絶' if out.check.success else '失敗: 死亡'}",
                f"{name}'s fate check (1D100<={out.check.target}) > {roll} > "
                f"{'success: unconscious' if out.check.success else 'failure: dead'}",
            ),
        )

    def _last_check(self, emit: Emit, name: str, data: dict[str, Any] | None) -> None:
        emit.set_field(name, "_last_check", data)

    # -- actions -----------------------------------------------------------
    def _target(self, emit: Emit, args: list[str], usage: Message) -> Character:
        if not args:
            raise fail(usage.ja, usage.en)
        return emit.character(args[0])

    def melee(self, emit: Emit, name: str, args: list[str]) -> None:
        target = self._target(
            emit, args, Message("/melee 目標 [武器] です", "use /melee TARGET [WEAPON]")
        )
        _not_self(name, target.name)
        attacker = emit.character(name)
        weapon = eq.melee_weapon(
            _sheet(attacker).weapons,
            _held(attacker),
            args[1] if len(args) > 1 else None,
            self.cfg(emit),
        )
        dist.check_melee_reach(
            _distance(emit, name, target.name),
            target.name,
            self.cfg(emit),
            moved=self._moved_this_turn(emit, attacker),
        )
        self._use_turn(emit, name, "melee")
        refs = self.references(attacker)
        before = self.combatant(attacker)
        after = um._other_action(before, self.cfg(emit))
        self.save(emit, before, after, ("UM-AIM-01",))
        roll = emit.randomizer.roll_once(100)
        out = um.melee_attack(
            roll, refs.get("戦闘", 0), self.ac(target), refs.get("敏捷度", 0), self.cfg(emit)
        )
        self._attack_result(emit, name, target.name, out, weapon, MELEE, "melee")

    def shoot(self, emit: Emit, name: str, args: list[str]) -> None:
        target = self._target(
            emit, args, Message("/shoot 目標 [武器] です", "use /shoot TARGET [WEAPON]")
        )
        _not_self(name, target.name)
        attacker = emit.character(name)
        weapon = eq.bow(
            _sheet(attacker).weapons, _held(attacker), args[1] if len(args) > 1 else None
        )
        dist.check_bow_range(_distance(emit, name, target.name), target.name, self.cfg(emit))
        self._use_turn(emit, name, "shoot")
        refs = self.references(attacker)
        before = self.combatant(attacker)
        roll = emit.randomizer.roll_once(100)
        out = um.ranged_attack(
            roll,
            refs.get("盗賊", 0),
            self.ac(target),
            refs.get("敏捷度", 0),
            before.aim,
            settings=self.cfg(emit),
        )
        self.save(emit, before, um.shoot(before), ("UM-AIM-01",))
        label = ranged_text(before.aim)
        self._attack_result(emit, name, target.name, out, weapon, label, "shot")

    def _attack_result(
        self,
        emit: Emit,
        name: str,
        target: str,
        out: um.AttackOutcome,
        weapon: eq.UsedWeapon,
        label: Message,
        en: str,
    ) -> None:
        shown = Message.join(SEP, attack_texts(label, out))  # as MA / RA show it
        emit.add(
            ev.ROLL,
            {
                "action": en,
                "target": target,
                "roll": out.roll,
                "target_value": out.target,
                "ac": out.ac,
                "result": out.result,
            },
            rules=out.rules,
            text=Message(f"{name} → {target}{SEP}", f"{name} → {target}{SEP}") + shown,
        )
        expr = weapon.damage
        if not out.hit:
            self._last_check(
                emit,
                name,
                {
                    "kind": en,
                    "target": target,
                    "expr": expr,
                    "abilities": list(weapon.abilities),
                },
            )
            return
        self._last_check(emit, name, None)
        self._hit(emit, name, target, expr, list(weapon.abilities), out.critical)

    def _hit(
        self, emit: Emit, name: str, target: str, expr: str, abilities: list[str], critical: bool
    ) -> None:
        times = 1
        rules: tuple[str, ...] = ("UM-DMG-01",)
        if critical:
            effects = um.critical_effects(abilities, self.cfg(emit))
            times = effects.damage_rolls
            if effects.extra_attacks or effects.gm_defined:
                extra = "、".join(
                    [
                        *(["連続: もう一度攻撃できる"] if effects.extra_attacks else []),
                        *effects.gm_defined,
                    ]
                )
                emit.add(
                    ev.NOTICE,
                    {"critical_effects": list(abilities)},
                    rules=effects.rules,
                    text=Message(
                        f"クリティカル効果 (GM裁定): {extra}",
                        f"critical effects (GM's ruling): {extra}",
                    ),
                )
        damage = self._roll_damage(emit, expr, times)
        emit.add(
            ev.NOTICE,
            {"damage": damage, "expr": expr, "times": times},
            rules=rules,
            text=Message(
                f"ダメージ {expr}{'×' + str(times) if times > 1 else ''} ＞ {damage}",
                f"damage {expr}{'x' + str(times) if times > 1 else ''} > {damage}",
            ),
        )
        self.apply_damage(emit, target, damage, name, expr)

    def aim(self, emit: Emit, name: str, args: list[str]) -> None:
        self._use_turn(emit, name, "aim")
        before = self.combatant(emit.character(name))
        out = um.take_aim(before)
        self.save(emit, before, out.state, out.rules)
        emit.add(
            ev.NOTICE,
            {"aim": out.state.aim},
            rules=out.rules,
            text=Message(f"{name}: {out.note.ja}", f"{name}: {out.note.en}"),
        )

    def chant(self, emit: Emit, name: str, args: list[str]) -> None:
        if len(args) != 1:
            raise fail("/chant 魔法名 です", "use /chant SPELL")
        character = emit.character(name)
        spells = {s.name: s for s in getattr(_sheet(character), "spells", [])}
        if args[0] not in spells:
            raise fail(
                f"{name} は魔法 {args[0]!r} を知りません ({'、'.join(spells) or 'なし'})",
                f"{name} does not know {args[0]!r}",
            )
        self._use_turn(emit, name, "chant")
        before = self.combatant(character)
        out = um.start_chant(before, args[0], self.cfg(emit))
        self.save(emit, before, out.state, out.rules)
        emit.add(
            ev.NOTICE,
            {"chant": args[0]},
            rules=out.rules,
            text=Message(f"{name}: {out.note.ja}", f"{name}: {out.note.en}"),
        )

    def cast(self, emit: Emit, name: str, args: list[str]) -> None:
        target = self._target(emit, args, Message("/cast 目標 です", "use /cast TARGET"))
        caster = emit.character(name)
        before = self.combatant(caster)
        if not um.can_activate(before):
            raise fail(
                "魔法は前の手番に詠唱し、詠唱中のときだけ発動できます (UM-MAGIC-02)",
                "a spell can be activated only while chanting "
                "it since an earlier turn (UM-MAGIC-02)",
                "not chanting",
            )
        self._use_turn(emit, name, "cast")
        sheet = _sheet(caster)
        assert before.chant is not None
        spell = next(s for s in sheet.spells if s.name == before.chant.spell)
        refs = self.references(caster)
        hostile = spell.hostile
        if hostile:
            _not_self(name, target.name)
        off_school = bool(spell.school) and spell.school != sheet.school
        roll = emit.randomizer.roll_once(100)
        out = um.activate_spell(
            roll,
            refs.get("魔術", 0),
            off_school=off_school,
            halved=spell.half_rate,
            rc=self.rc(target) if hostile else None,
            charm=refs.get("魅力") if hostile else None,
            settings=self.cfg(emit),
        )
        turn = um.activation_attempt(before, out)
        self.save(emit, before, turn.state, turn.rules)
        shown = Message.join(SEP, spell_texts(spell_text(off_school, spell.half_rate), out))  # MG
        emit.add(
            ev.ROLL,
            {
                "action": "cast",
                "spell": spell.name,
                "target": target.name,
                "roll": roll,
                "result": out.result,
            },
            rules=out.rules,
            text=Message(
                f"{name} の「{spell.name}」→ {target.name}{SEP}",
                f"{name}'s {spell.name} → {target.name}{SEP}",
            )
            + shown,
        )
        self._last_check(
            emit,
            name,
            {"kind": "cast", "target": target.name, "spell": spell.name}
            if not out.activated
            else None,
        )

    def defend(self, emit: Emit, name: str, args: list[str]) -> None:
        self._use_turn(emit, name, "defend")
        before = self.combatant(emit.character(name))
        out = um.full_defence(before, self.cfg(emit))
        self.save(emit, before, out.state, out.rules)

    def move(self, emit: Emit, name: str, args: list[str]) -> None:
        """UM-MOVE-01 (+UM-RANGE-01): ``/move 3|1|5 [TARGET | away TARGET | to M]``."""
        usage = fail(
            "/move 3|1|5 [目標 | away 目標 | to 位置m] です",
            "use /move 3|1|5 [TARGET | away TARGET | to M]",
        )
        if not args or args[0].rstrip("m") not in MOVES or len(args) > 3:
            raise usage
        option = MOVES[args[0].rstrip("m")]
        direction, other, to = _move_target(emit, name, args[1:], usage)
        self._use_turn(emit, name, "move", option if option != "run" else "done")
        character = emit.character(name)
        before = self.combatant(character)
        out = um.move(before, option, self.cfg(emit))  # type: ignore[arg-type]
        pos = character.fields.get("pos")
        if direction is not None and pos is None:
            raise fail(
                f"{name} の位置が決まっていません (GM: /gm place {name} m)",
                f"{name} has no position (GM: /gm place {name} M)",
                "not placed",
            )
        where = dist.step(
            pos,
            int(out.detail["distance_m"]),  # type: ignore[call-overload]
            direction,
            other=emit.character(other).fields.get("pos") if other else None,
            to=to,
        )
        self.save(emit, before, out.state, out.rules)
        note_ja, note_en = f"{name}: {out.note.ja}", f"{name}: {out.note.en}"
        if where.end != pos:
            emit.set_field(name, "pos", where.end, rules=("UM-RANGE-01",))
            note_ja += f" 位置 {pos}m → {where.end}m"
            note_en += f" position {pos} m → {where.end} m"
            if other:
                gap = _distance(emit, name, other)
                note_ja += f" ({other}まで {gap}m)"
                note_en += f" ({gap} m from {other})"
        emit.add(
            ev.NOTICE,
            {"move": option, **dict(out.detail), "pos": where.end},
            rules=(*out.rules, "UM-RANGE-01") if direction else out.rules,
            text=Message(note_ja, note_en),
        )

    def switch(self, emit: Emit, name: str, args: list[str]) -> None:
        """UM-SWITCH-01: changing equipment takes the turn; dropping the shield does not.
        ``/switch WEAPON`` takes that weapon in hand (UM-EQUIP-01)."""
        if len(args) > 1:
            raise fail("/switch [武器|shield] です", "use /switch [WEAPON|shield]")
        character = emit.character(name)
        held = _held(character)
        drop = args in (["shield"], ["盾"])
        new_held = (
            eq.drop_shield(held)
            if drop
            else eq.take_in_hand(_sheet(character).weapons, held, args[0])
            if args
            else held
        )
        before = self.combatant(character)
        out = um.switch_equipment(before, drop, self.cfg(emit))
        if out.uses_turn:
            self._use_turn(emit, name, "switch")
        else:
            emit.set_field(name, "two_handed_ready", True, rules=out.rules)
        self.save(emit, before, out.state, out.rules)
        if new_held != held:
            emit.set_field(name, "held", list(new_held.weapons), rules=out.rules)
            if new_held.shield != held.shield:
                emit.set_field(name, "shield", new_held.shield, rules=out.rules)
        holding = "・".join(new_held.weapons) or "なし"
        shield = "、盾" if new_held.shield else ""
        emit.add(
            ev.NOTICE,
            {"switch": "shield" if drop else (args[0] if args else "equipment")},
            rules=out.rules,
            text=Message(
                f"{name}: {out.note.ja} (手に: {holding}{shield})",
                f"{name}: {out.note.en} (in hand: {', '.join(new_held.weapons) or 'nothing'}"
                f"{', shield' if new_held.shield else ''})",
            ),
        )

    def mount(self, emit: Emit, name: str, args: list[str], on: bool) -> None:
        """``/mount`` · ``/dismount``: the character gets on or off a mount; mounted, every
        move goes twice as far (UM-MOVE-01). *default*: it takes no turn (the seed is silent);
        the GM may rule it with ``/gm set NAME mounted on|off``."""
        verb = "mount" if on else "dismount"
        if args:
            raise fail(f"/{verb} です (引数なし)", f"use /{verb} (no arguments)")
        character = emit.character(name)
        if bool(self.combatant(character).mounted) == on:
            raise fail(
                f"{name} はすでに{'騎乗しています' if on else '騎乗していません'}",
                f"{name} is {'already' if on else 'not'} mounted",
            )
        emit.set_field(
            name,
            "mounted",
            on,
            rules=("UM-MOVE-01",),
            text=Message(
                f"{name}: {'騎乗 (移動距離×2)' if on else '下馬 (移動距離は通常)'}",
                f"{name}: {'mounted (moves ×2)' if on else 'dismounted (normal moves)'}",
            ),
        )

    # -- fate ----------------------------------------------------------------
    def fate(self, emit: Emit, name: str, args: list[str]) -> None:
        effects = {
            "success": um.Rescue.CHECK_SUCCESS,
            "half": um.Rescue.HALVE_DAMAGE,
            "cancel": um.Rescue.CANCEL_CONDITION,
            "reroll": um.Rescue.REROLL_DAMAGE,
            "a": um.Rescue.CHECK_SUCCESS,
            "b": um.Rescue.HALVE_DAMAGE,
            "c": um.Rescue.CANCEL_CONDITION,
            "d": um.Rescue.REROLL_DAMAGE,
        }
        if len(args) != 1 or args[0].lower() not in effects:
            raise fail(
                "/fate success|half|cancel|reroll です (UM-FATE-02)",
                "use /fate success, half, cancel or reroll (UM-FATE-02)",
            )
        effect = effects[args[0].lower()]
        character = emit.character(name)
        incoming: Any = character.fields.get("_incoming")
        last: Any = character.fields.get("_last_check")
        last_condition: Any = character.fields.get("_last_condition")
        # Refuse before rolling when there is nothing to rescue (the use is not spent).
        if effect is um.Rescue.CHECK_SUCCESS and not last:
            raise fail(
                "成功にする失敗した判定がありません", "no failed check to turn into a success"
            )
        if effect in (um.Rescue.HALVE_DAMAGE, um.Rescue.REROLL_DAMAGE) and not incoming:
            raise fail("軽減するダメージがありません", "no damage taken to rescue")
        if effect is um.Rescue.CANCEL_CONDITION and not (
            last_condition and character.condition(last_condition)
        ):
            raise fail("無効にする状態異常がありません", "no condition to cancel")
        if int(character.fields.get("fate_left", 0)) <= 0:
            raise fail(
                "運命判定の残り回数がありません (UM-FATE-01)", "no fate checks left (UM-FATE-01)"
            )
        refs = self.base_references(character)
        roll = emit.randomizer.roll_once(100)
        spent = um.spend_fate(
            int(character.fields.get("fate_left", 0)), roll, _value(character, refs, "運命")
        )
        emit.set_field(name, "fate_left", spent.uses_left, rules=spent.rules)
        ok = spent.check.success
        emit.add(
            ev.ROLL,
            {"action": "fate", "roll": roll, "success": ok},
            rules=spent.rules,
            text=Message(
                f"{name} の運命判定 (1D100<={spent.check.target}) ＞ {roll} "
                f"＞ {'成功' if ok else '失敗'} (残り{spent.uses_left}回)",
                f"{name}'s fate check (1D100<={spent.check.target}) > {roll} "
                f"> {'success' if ok else 'failure'} ({spent.uses_left} left)",
            ),
        )
        if not ok:
            return
        rules = ("UM-FATE-02",)
        if effect is um.Rescue.CHECK_SUCCESS:
            emit.set_field(name, "_last_check", None)
            emit.add(
                ev.NOTICE,
                {"rescue": effect.value},
                rules=rules,
                text=Message(
                    f"運命: 「{last['command']}」を成功にした"
                    if last.get("command")
                    else "運命: 判定を成功にした",
                    f"fate: {last.get('command_en', last['command'])} becomes a success"
                    if last.get("command")
                    else "fate: the check succeeds",
                ),
            )
            if last["kind"] in ("melee", "shot"):
                self._hit(
                    emit, name, last["target"], last["expr"], last.get("abilities", []), False
                )
            return
        if effect is um.Rescue.CANCEL_CONDITION:
            res = um.apply_rescue(spent.check, effect, incoming_condition=last_condition)
            emit.remove_condition(
                name,
                last_condition,
                rules=res.rules,
                text=Message(
                    f"運命: {last_condition} を無効にした", f"fate: {last_condition} cancelled"
                ),
            )
            return
        hp_before = int(incoming["hp_before"])
        if effect is um.Rescue.HALVE_DAMAGE:
            res = um.apply_rescue(
                spent.check,
                effect,
                incoming_damage=int(incoming["damage"]),
                settings=self.cfg(emit),
            )
            new_damage = int(res.damage or 0)
        else:
            new_damage = self._roll_damage(emit, incoming.get("expr") or "1D6")
            res = um.apply_rescue(spent.check, effect, new_damage_rolls=[new_damage])
        new_hp = hp_before - new_damage
        emit.set_field(name, "_incoming", None)
        emit.set_status(
            name,
            "hp",
            new_hp,
            rules=res.rules,
            note=Message(
                f"運命: ダメージ {incoming['damage']} → {new_damage} (HP {new_hp})",
                f"fate: damage {incoming['damage']} → {new_damage} (HP {new_hp})",
            ),
        )
        character = emit.character(name)
        if new_hp > 0:
            for label in DOWN_LABELS:
                if character.condition(label):
                    emit.remove_condition(name, label, rules=res.rules)

    def after_line(self, emit: Emit) -> None:
        """Any HP loss breaks a chant (UM-MAGIC-01: ``:HP-3``, poison-like effects, …);
        UM-FATE-04 also after an HP edit (``:HP-20``, ``/gm set``) that drops HP to 0 or less."""
        hurt = [
            e.data["name"]
            for e in emit.events
            if e.kind == ev.STATUS_SET
            and e.data.get("key") == "hp"
            and e.data.get("old") is not None
            and int(e.data["value"]) < int(e.data["old"])
        ]
        for name in dict.fromkeys(hurt):
            character = emit.state.characters.get(name)
            if character is not None and character.fields.get("chant"):
                _break_chant(emit, name)
        dropped = [
            e.data["name"]
            for e in emit.events
            if e.kind == ev.STATUS_SET
            and e.data.get("key") == "hp"
            and (e.data.get("old") or 0) > 0 >= int(e.data["value"])
        ]
        for name in dict.fromkeys(dropped):
            character = emit.state.characters.get(name)
            if (
                character is not None
                and character.down
                and not any(character.condition(label) for label in DOWN_LABELS)
            ):
                self.dying(emit, name)

    # -- GM ----------------------------------------------------------------
    def gm_dying(self, emit: Emit, args: list[str]) -> None:
        """``/gm dying NAME 気絶|死亡|none``: the GM decides (UM-FATE-04: how soon is theirs)."""
        if len(args) != 2 or args[1] not in (*DOWN_LABELS, "none"):
            raise fail("/gm dying 名前 気絶|死亡|none です", "use /gm dying NAME 気絶|死亡|none")
        character = emit.character(args[0])
        for label in DOWN_LABELS:
            if character.condition(label):
                emit.remove_condition(args[0], label, rules=("UM-FATE-04",))
        if args[1] != "none":
            emit.add_condition(
                args[0],
                Condition(label=args[1], rules=["UM-FATE-04"]),
                text=Message(
                    f"GM裁定: {args[0]} は{args[1]}",
                    f"GM ruling: {args[0]} is {self.condition_name(args[1]).en}",
                ),
            )

    def gm_fate_reset(self, emit: Emit, args: list[str]) -> None:
        """``/gm fate reset``: a new session refills every fate count (UM-FATE-01)."""
        if args != ["reset"]:
            raise fail("/gm fate reset です", "use /gm fate reset")
        for character in list(emit.state.characters.values()):
            sheet = _sheet(character)
            level = int(self.references(character).get("レベル", sheet.level))
            uses = um.fate_uses_per_session(sheet.kind, level).uses
            emit.set_field(character.name, "fate_left", uses, rules=("UM-FATE-01",))
        emit.add(
            ev.NOTICE,
            {"ruling": "fate reset"},
            rules=("UM-FATE-01",),
            text=Message(
                "GM裁定: 運命判定の回数を回復 (セッション開始)",
                "GM ruling: fate uses refilled (new session)",
            ),
        )

    def gm_place(self, emit: Emit, args: list[str]) -> None:
        """``/gm place NAME M|none``: put a character on the track (UM-RANGE-01)."""
        if len(args) != 2 or not (args[1] == "none" or args[1].rstrip("m").lstrip("-").isdecimal()):
            raise fail("/gm place 名前 位置m|none です", "use /gm place NAME M|none")
        emit.character(args[0])
        pos = None if args[1] == "none" else dist.check_position(int(args[1].rstrip("m")))
        others = [
            f"{c.name} {dist.distance(pos, c.fields.get('pos'))}m"
            for c in emit.state.characters.values()
            if c.name != args[0] and dist.distance(pos, c.fields.get("pos")) is not None
        ]
        shown = "、".join(others)
        emit.set_field(
            args[0],
            "pos",
            pos,
            rules=("UM-RANGE-01",),
            text=Message(
                f"GM裁定: {args[0]} の位置 {args[1]}" + (f" (距離: {shown})" if shown else ""),
                f"GM ruling: {args[0]} at {args[1]}" + (f" (distances: {shown})" if shown else ""),
            ),
        )

    def gm_hold(self, emit: Emit, args: list[str]) -> None:
        """``/gm hold NAME [WEAPON…] [shield]``: what a character holds, by ruling (UM-EQUIP-01)."""
        if not args:
            raise fail(
                "/gm hold 名前 [武器…] [shield] です", "use /gm hold NAME [WEAPON…] [shield]"
            )
        character = emit.character(args[0])
        names = [a for a in args[1:] if a not in ("shield", "盾")]
        weapons = _sheet(character).weapons
        for weapon in names:
            eq.find_weapon(weapons, weapon)
        shield = len(names) < len(args) - 1
        emit.set_field(args[0], "held", names, rules=("UM-EQUIP-01",))
        emit.set_field(
            args[0],
            "shield",
            shield,
            rules=("UM-EQUIP-01",),
            text=Message(
                f"GM裁定: {args[0]} の手に {'・'.join(names) or 'なし'}{'、盾' if shield else ''}",
                f"GM ruling: {args[0]} holds {', '.join(names) or 'nothing'}"
                f"{', shield' if shield else ''}",
            ),
        )

    def condition_name(self, label: str) -> Message:
        return Message(label, CONDITION_NAMES.get(label, label))

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
        emit.set_field(name, "_last_condition", label)
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

    def gm_cond(self, emit: Emit, args: list[str]) -> None:
        """``/gm cond NAME LABEL``: a condition whose effect the GM rules (a spell's); the
        table keeps it and ``/fate cancel`` can nullify it (UM-FATE-02 c)."""
        if len(args) != 2:
            raise fail("/gm cond 名前 状態異常 です", "use /gm cond NAME CONDITION")
        name, label = args
        if emit.character(name).condition(label) is not None:
            raise fail(f"{name} はすでに {label} です", f"{name} is already {label}")
        emit.set_field(name, "_last_condition", label)
        emit.add_condition(
            name,
            self.rule_condition(emit.character(name), label) or Condition(label=label),
            text=Message(
                f"GM裁定: {name} は {label} (効果は GM が決める)",
                f"GM ruling: {name} is {self.condition_name(label).en} (its effect is the GM's)",
            ),
        )


def _move_target(
    emit: Emit, name: str, args: list[str], usage: Exception
) -> tuple[dist.Direction | None, str | None, int | None]:
    """``[TARGET | away TARGET | to M]`` of /move: (direction, the other character, position)."""
    if not args:
        return None, None, None
    if args[0] == "to" and len(args) == 2 and args[1].rstrip("m").lstrip("-").isdecimal():
        return "to", None, int(args[1].rstrip("m"))
    if args[0] == "away" and len(args) == 2:
        other = emit.character(args[1]).name
    elif len(args) == 1:
        other = emit.character(args[0]).name
    else:
        raise usage
    if other == name:
        raise usage
    return ("away" if args[0] == "away" else "toward"), other, None


# -- /levelup NAME at the table (UM-LEVEL-01/02/04, UM-LEVEL-05) ---------------------------
#
# A character who survived the session goes up one level (at most 10): the table rolls the
# ``GROW`` command with the character's growth rates as they are now (the sheet's 成長率 plus
# its ほにゃらら儀式 bonus, or the GM's edit of ``{体格成長率}``), raises each ability that rose,
# and — when none rose — asks the player for one ability to raise (``/levelup NAME 体格``,
# a follow-up line; the level-up is not finished until then). The fate count per session
# follows the new level from the next reset (``/gm fate reset``; UM-FATE-01/UM-LEVEL-04).

PENDING = "levelup_pick"


def growth_label(ability: str) -> str:
    """The ``{…}`` label of an ability's growth rate: ``{体格成長率}``."""
    return f"{ability}成長率"


def current_level(tracker: UnmeiTracker, character: Character) -> int:
    return int(tracker.references(character).get("レベル", 1))


def _raise_ability(
    emit: Emit, tracker: UnmeiTracker, name: str, ability: str, rules: tuple[str, ...]
) -> None:
    character = emit.character(name)
    old = int(tracker.references(character)[ability])
    emit.set_status(
        name,
        ability,
        old + 1,
        old=old,
        rules=rules,
        note=Message(
            f"{name}: {ability} {old} → {old + 1}", f"{name}: {ability} {old} → {old + 1}"
        ),
    )
    tracker.after_status_change(emit, name, ability, old, old + 1)


def _may_level(emit: Emit, name: str, actor: str) -> None:
    if not (emit.gm or actor == name):
        raise fail(
            f"{name} のレベルアップは本人か GM だけが行えます",
            f"only {name}'s player or the GM can level {name} up",
            "forbidden",
        )
    if emit.state.combat is not None:
        raise fail(
            "レベルアップはセッションの終わりに行います (戦闘中はできません)",
            "level-ups happen at the end of a session (not during a combat)",
            "in combat",
        )


def levelup(tracker: UnmeiTracker, emit: Emit, actor: str, args: list[str]) -> None:
    """``/levelup NAME`` rolls the growth; ``/levelup NAME ABILITY`` is the player's pick."""
    if len(args) not in (1, 2):
        raise fail(
            "/levelup 名前 [能力値] です (UM-LEVEL-02)",
            "use /levelup NAME [ABILITY] (UM-LEVEL-02)",
        )
    name = args[0]
    character = emit.character(name)
    _may_level(emit, name, actor)
    sheet = sheet_from_data(character.sheet)
    assert isinstance(sheet, UnmeiSheet)
    pending = bool(character.fields.get(PENDING))
    if len(args) == 2:
        _pick(tracker, emit, name, sheet, args[1], pending)
        return
    if pending:
        raise fail(
            f"{name} は上げる能力値を選ぶところです (/levelup {name} 能力値)",
            f"{name} still has to pick an ability to raise (/levelup {name} ABILITY)",
            "pick pending",
        )
    dead = any(c.label == um.LifeState.DEAD.value for c in character.conditions)
    level = current_level(tracker, character)
    try:
        up = um.level_up(level, survived=not dead, kind=sheet.kind)
    except um.UnmeiRuleError as error:
        raise fail(
            f"{name}: {error.message.ja} (UM-LEVEL-01)",
            f"{name}: {error.message.en} (UM-LEVEL-01)",
            error.reason,
        ) from None
    refs = tracker.references(character)
    rates = ",".join(f"{a}{refs[growth_label(a)]}" for a in sheet.abilities)
    from saikoro.dice.engine import evaluate

    result = evaluate(f"GROW{rates}", get_system(tracker.system), emit.randomizer)
    assert result is not None and result.detail is not None
    emit.add(
        ev.ROLL,
        {"action": "levelup", "command": f"GROW{rates}", "result": dict(result.detail)},
        rules=result.rules,
        text=Message(
            f"{name} のレベルアップ: {result.text}",
            f"{name} levels up: {english_text(result, get_system(tracker.system))}",
        ),
    )
    for ability, rose in zip(result.detail["abilities"], result.detail["raised"], strict=True):
        if rose:
            _raise_ability(emit, tracker, name, ability, ("UM-LEVEL-02",))
    before = um.fate_uses_per_session(sheet.kind, level).uses
    emit.set_status(
        name,
        "レベル",
        up.level,
        old=level,
        rules=up.rules,
        note=Message(
            f"{name}: レベル {level} → {up.level} (運命判定 {before} → {up.fate_uses} 回/"
            "セッション、次の /gm fate reset から)",
            f"{name}: level {level} → {up.level} (fate checks {before} → {up.fate_uses} "
            "per session, from the next /gm fate reset)",
        ),
    )
    if result.detail["player_chooses"]:
        emit.set_field(
            name,
            PENDING,
            True,
            rules=("UM-LEVEL-02",),
            text=Message(
                f"{name}: どの能力値も上がらなかったので、好きな能力値を1つ選んで+1 "
                f"(/levelup {name} {'|'.join(sheet.abilities)})",
                f"{name}: no ability rose, so raise one of your choice by 1 "
                f"(/levelup {name} {'|'.join(sheet.abilities)})",
            ),
        )


def _pick(
    tracker: UnmeiTracker, emit: Emit, name: str, sheet: UnmeiSheet, ability: str, pending: bool
) -> None:
    if not pending:
        raise fail(
            f"{name} が選んで上げる能力値はありません (どれかが成長したときは選べません)",
            f"{name} has no ability to pick (only when no ability rose)",
            "no pick pending",
        )
    if ability not in sheet.abilities:
        raise fail(
            f"{ability!r} は {name} の能力値ではありません ({'、'.join(sheet.abilities)})",
            f"{ability!r} is not an ability of {name} ({', '.join(sheet.abilities)})",
        )
    _raise_ability(emit, tracker, name, ability, ("UM-LEVEL-02",))
    emit.set_field(name, PENDING, None, rules=("UM-LEVEL-02",))


def replace_turn(character: Character, own_turns: int) -> Character:
    copy = character.model_copy()
    copy.own_turns = own_turns
    return copy


__all__ = ["UnmeiTracker", "replace"]
