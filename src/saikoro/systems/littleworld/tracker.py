"""The 帽子世界TRPG combat tracker, on the pure rules of ``saikoro.systems.littleworld``.

Order by current 技巧 (sleep halves it), PCs first on ties (LW-COMBAT-01/02), fixed for
the round (LW-COMBAT-13), kept for the rest of the combat after 行動順操作 (``/lock``,
LW-COMBAT-14). ``/pass`` moves the actor to the end of the round (LW-COMBAT-03).
When a character's turn comes, poison takes its level in HP and paralysis / sleep count
the turn (LW-COND-02/03/04); a paralysed character's turn passes by itself; characters at
HP ≤ 0 are skipped (LW-HP-02). ``/attack TARGET ABILITY`` resolves a whole attack
(LW-COMBAT-05…11), applies the damage and ends the turn (LW-COMBAT-12). After every
change rows collapse (LW-COMBAT-16) and, when every PC is unable to act, a party-down
event is raised (LW-HP-03).

Conditions are kept with absolute timing: ``since_own_turn`` (the character's own-turn
count when they began); the rules' relative counters are derived from it.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, ClassVar

from pydantic import ValidationError

from saikoro.i18n import Message
from saikoro.sheets import SheetBase, table_sheet
from saikoro.systems.littleworld import actions as lwa
from saikoro.systems.littleworld import conditions as lwc
from saikoro.systems.littleworld import keeper
from saikoro.systems.littleworld import rules as lw
from saikoro.systems.littleworld import turn_order as lwt
from saikoro.systems.littleworld.commands import SEP, attack_texts
from saikoro.systems.littleworld.english import ROW_EN, VALUE_EN, english
from saikoro.systems.littleworld.settings import (
    DEFAULT_SETTINGS,
    MAX_ELAPSED_MINUTES,
    MAX_REST_NIGHTS,
)
from saikoro.systems.littleworld.tracker_special import SpecialSituations
from saikoro.table import events as ev
from saikoro.table.counters import Counter
from saikoro.table.emit import Emit, fail
from saikoro.table.roles import forbidden
from saikoro.table.state import Character, Condition
from saikoro.table.tracker import Tracker, Verb

S = DEFAULT_SETTINGS
ABILITIES = ("体力", "技巧", "理知")
POISON, PARALYSIS, SLEEP = "毒", "麻痺", "睡眠"
#: LW-COND-05's state has no name in the seed: the room's ``confusion_label`` setting names it,
#: and the condition is known by this rule ID, so renaming it mid-game keeps it working.
CONFUSION_RULE = "LW-COND-05"
ROWS = {"front": "前衛", "back": "後衛", "前衛": "前衛", "後衛": "後衛"}
TABOO_MAX = 100  # LW-ABIL-05: 禁忌値 stays within 0–100 at the table
#: LW-ABIL-05: the special values PCs cannot set freely (only the GM edits them).
GM_ONLY_VALUES = tuple(VALUE_EN)
#: Why back-liners moved up by the collapse go back (LW-COMBAT-16), in Japanese.
REASONS_JA = {
    "combat over": "戦闘終了",
    "a front-liner joins": "前衛が参加",
    "a front-liner can act again": "前衛が復帰",
}


_NO_CONDITIONS = lwc.Conditions()


def rule_conditions(character: Character, own_turns: int | None = None) -> lwc.Conditions:
    """The rules' view of a character's conditions (turn counters from absolute timing)."""
    if not character.conditions:  # most characters most of the time: asked on every line
        return _NO_CONDITIONS
    turns = character.own_turns if own_turns is None else own_turns
    poison = character.condition(POISON)
    para = character.condition(PARALYSIS)
    sleep = character.condition(SLEEP)
    return lwc.Conditions(
        poison=poison.level if poison else 0,
        paralysis=para is not None,
        sleep=sleep is not None,
        confusion=any(CONFUSION_RULE in c.rules for c in character.conditions),
        paralysis_turns=max(0, turns - (para.since_own_turn or 0)) if para else 0,
        sleep_turns=max(0, turns - (sleep.since_own_turn or 0)) if sleep else 0,
    )


def _bounded(text: str, lo: int, hi: int, what: Message) -> int:
    """``text`` as an integer within lo–hi, else refused naming the bound (a huge number is
    never converted: it could not be in range anyway)."""
    digits = text.isdecimal() and len(text) <= len(str(hi))
    if not digits or not lo <= int(text) <= hi:
        shown = repr(text if len(text) <= 12 else text[:12] + "…")
        raise fail(
            f"{what.ja}は{lo}〜{hi}の整数です ({shown} は使えません)",
            f"{what.en} must be an integer from {lo} to {hi} (not {shown})",
            "out of range",
        )
    return int(text)


def _elapsed(character: Character, label: str, clock: int) -> int:
    """Game minutes since the condition began (0 when absent)."""
    cond = character.condition(label)
    return clock - (cond.since_minute or 0) if cond is not None else 0


class LittleWorldTracker(Tracker):
    system = "LittleWorld"
    aliases: ClassVar[dict[str, str]] = {"CR": "cr"}
    line_example: ClassVar[str] = "2D6+{体力}>=10"
    char_options: ClassVar[tuple[str, ...]] = ("pc|npc", "front|back")  # rows (LW-COMBAT-16)
    #: The sheet's English field names (``/gm set NAME taboo 10``).
    english_labels: ClassVar[dict[str, str]] = {"taboo": "禁忌値", "values_percent": "価値観"}
    min_max_hp = 1  # LW-ABIL-06: the sheet's least max HP
    hp_above_max = "clamp"  # LW-HP-01: healing stops at max HP

    def __init__(self) -> None:
        self.verbs = {"attack": self.attack, "pass": self.pass_turn, "card": self.card}
        self.off_turn_verbs = {"card"}
        self.verb_help = {
            "attack 目標 能力 [不意打ち]": Message(
                "攻撃 (LW-COMBAT-05…12; 不意打ちは防御なし LW-COND-06)",
                "attack with an ability (体力 Body, 技巧 Skill, 理知 Intellect); "
                "不意打ち or surprise: no defence",
            ),
            "pass": Message(
                "手番をパスしてラウンドの最後に行動 (LW-COMBAT-03)", "pass: act last this round"
            ),
            "gm lock [名前…]": Message(
                "行動順操作: 以後の手番順を固定 (LW-COMBAT-14)",
                "lock the turn order for the rest of the combat (order manipulation)",
            ),
            "gm row 名前 前衛|後衛": Message(
                "隊列 (LW-COMBAT-16)", "set a character's row: 前衛/front or 後衛/back"
            ),
            "gm rest [泊数]": Message(
                "休息: 1〜30泊、1泊ごとに 体力+6 回復 (LW-HP-01)",
                "rest 1 to 30 nights: each heals Body + 6 HP",
            ),
            "gm time 分 [rest|explore]": Message(
                "時間経過: 毒・麻痺・睡眠 (LW-COND-02…04)", "time passes out of combat"
            ),
            "gm tie 名前…": Message("同値PCの順番 (LW-COMBAT-02)", "order tied PCs"),
        }
        self.gm_verbs = {
            "lock": self.gm_lock,
            "row": self.gm_row,
            "tie": self.gm_tie,
            "rest": self.gm_rest,
            "time": self.gm_time,
        }
        self.verb_help["card カード名"] = Message(
            "スキルカードの宣言 (行動前・防御判定前 LW-COMBAT-04)", "declare a skill card"
        )
        # special situations, 帽子解放 and the 価値観 ledger (LW-SPECIAL-*, LW-KEEPER-*)
        self.special = SpecialSituations(self)
        self.verbs.update(self.special.verbs)
        self.off_turn_verbs |= set(self.special.verbs)
        self.gm_verbs.update(self.special.gm_verbs)
        self.verb_help.update(self.special.verb_help)
        # LW-TABLE-07/09/10: every verb asks the one action gate first
        self.verbs = {verb: self._gated(verb, handler) for verb, handler in self.verbs.items()}

    # -- the action gate (issue 21) -------------------------------------------
    def _gated(self, verb: str, handler: Verb) -> Verb:
        @wraps(handler)
        def gated(emit: Emit, name: str, args: list[str]) -> None:
            self.gate(emit, name, verb, args)
            handler(emit, name, args)
            self.after_action(emit, name, verb, args)

        return gated

    def action_kind(self, verb: str, args: list[str]) -> str | None:
        """LW-TABLE-07: the kind of ``/verb args`` (:func:`actions.action_kind`; ``free``,
        passing the turn, is no action: never gated). The table core asks
        :meth:`action_refusal` with it before every verb."""
        kind = lwa.action_kind(verb, args)
        return None if kind == "free" else kind

    def action_refusal(self, emit: Emit, actor: str, kind: str) -> Message | None:
        """LW-TABLE-07: the one gate of every verb, :func:`conditions.may_act` on the actor's
        HP and conditions (a GM's line passes it as a ruling)."""
        character = emit.character(actor)
        allowed = lwc.may_act(
            kind,  # type: ignore[arg-type]
            rule_conditions(character),
            character.hp,
            self.cfg(emit),
        )
        if allowed.allowed or allowed.reason is None:
            return None
        return Message(f"{actor}: {allowed.reason.ja}", f"{actor}: {allowed.reason.en}")

    def gate(self, emit: Emit, name: str, verb: str, args: list[str]) -> None:
        """After the table core's gate: the kind as the room's settings read it (a specialist
        action named by ``specialist_names`` is a card's use), and LW-TABLE-09: on another's
        combat turn ``off_turn_actions`` (``off_turn_cards`` for /card) refuses the line or
        spends the actor's next turn. A GM's line passes what is refused, logged as a
        ruling."""
        cfg = self.cfg(emit)
        character = emit.character(name)
        kind = lwa.action_kind(verb, args, cfg)
        if kind != self.action_kind(verb, args) and kind != "free":
            refusal = self.action_refusal(emit, name, kind)
            if refusal is not None:
                self.refuse_or_rule(emit, name, refusal, ("LW-TABLE-07",), "cannot act")
        combat = emit.state.combat
        if combat is None or combat.current in (None, name):
            return
        how = lwa.off_turn(verb, args, cfg)
        key = "off_turn_cards" if verb == "card" else "off_turn_actions"
        if how == "cost" and character.fields.get("_owes_turn"):
            refusal = Message(
                f"{name}: 手番外の行動で次の手番をすでに使っています (/gm setting {key})",
                f"{name}: their next turn is already spent by an action out of turn "
                f"(/gm setting {key})",
            )
            self.refuse_or_rule(emit, name, refusal, ("LW-TABLE-09",), "not your turn")
        elif how == "cost":
            emit.set_field(
                name,
                "_owes_turn",
                True,
                rules=("LW-TABLE-09",),
                text=Message(
                    f"{name}: {combat.current} の手番に行動 — 自分の次の手番を消費",
                    f"{name} acts on {combat.current}'s turn: their own next turn is spent",
                ),
            )
        elif how == "refuse":
            refusal = Message(
                f"{name}: いまは {combat.current} の手番です: 他人の手番には行動できません "
                f"(/gm setting {key})",
                f"{name}: it is {combat.current}'s turn: no action on another's turn "
                f"(/gm setting {key})",
            )
            self.refuse_or_rule(emit, name, refusal, ("LW-TABLE-09",), "not your turn")

    def refuse_or_rule(
        self, emit: Emit, name: str, refusal: Message, rules: tuple[str, ...], why: str
    ) -> None:
        """A player's line is refused (nothing changes); a GM's passes as a logged ruling."""
        emit.refuse_or_rule(
            refusal,
            why,
            Message(f"GM裁定: {refusal.ja} — 許可", f"GM ruling: {refusal.en} — allowed"),
            {"ruling": "action", "name": name},
            rules,
        )

    def after_action(self, emit: Emit, name: str, verb: str, args: list[str]) -> None:
        """LW-TABLE-10: with ``minor_actions_cost_action`` a minor line (/swim off, /ride
        off, /hat) ends the actor's own combat turn."""
        combat = emit.state.combat
        if combat is None or combat.current != name or not lwa.is_minor(verb, args):
            return
        if self.cfg(emit).minor_actions_cost_action:
            self.after_line(emit)
            self.advance(emit, None)

    def cfg(self, emit: Emit) -> Any:
        """The room's settings. A change stored before a bound existed (``night_minutes``
        above 1440 from an older version) no longer validates: that setting plays by its
        default, so the room stays playable and ``/gm setting KEY default`` can clear it
        (typed dice lines name the bad setting until then)."""
        try:
            return super().cfg(emit)
        except ValidationError as error:
            bad = {str(problem["loc"][0]) for problem in error.errors() if problem["loc"]}
            stored = emit.state.fields.get("settings") or {}
            kept = {key: value for key, value in stored.items() if key not in bad}
            return self.settings_class().model_validate(kept)

    # -- characters --------------------------------------------------------
    def default_side(self, sheet: SheetBase) -> str:
        return "pc" if getattr(sheet, "kind", "PC") == "PC" else "npc"

    def initial_fields(self, sheet: SheetBase, row: str | None) -> dict[str, Any]:
        return {"row": ROWS.get(row or "", getattr(sheet, "row", "前衛"))}

    def new_character(
        self, sheet: SheetBase, side: str | None, row: str | None, emit: Emit | None = None
    ) -> Character:
        character = super().new_character(sheet, side, row, emit)
        sc = getattr(sheet, "conditions", None)
        if sc is not None:
            conds = []
            if sc.poison:
                conds.append(Condition(label=POISON, level=sc.poison, rules=["LW-COND-02"]))
            if sc.paralysis:
                conds.append(
                    Condition(
                        label=PARALYSIS, since_own_turn=-sc.paralysis_turns, rules=["LW-COND-03"]
                    )
                )
            if sc.sleep:
                conds.append(
                    Condition(label=SLEEP, since_own_turn=-sc.sleep_turns, rules=["LW-COND-04"])
                )
            if sc.confusion:
                label = (self.cfg(emit) if emit is not None else S).confusion_label
                conds.append(Condition(label=label, rules=[CONFUSION_RULE]))
            character.conditions = conds
        return character

    def _sheet(self, character: Character) -> Any:
        return table_sheet(character.sheet)

    def ability(self, character: Character, name: str) -> int:
        """LW-ABIL-04/LW-COND-04: ability (GM-set value or sheet) + modifiers, halved asleep."""
        sheet = self._sheet(character)
        base = int(character.statuses.get(name, sheet.abilities.get(name)))
        return lwc.effective_ability(base, sheet.modifier_total(name), rule_conditions(character))

    def real_ability(self, character: Character, name: str) -> int:
        """The ability as set (sheet or GM edit) with its modifiers, not halved by sleep: what
        a night's rest heals by and what makes a カナヅチ or a 機械オンチ."""
        sheet = self._sheet(character)
        base = int(character.statuses.get(name, sheet.abilities.get(name)))
        return max(base + int(sheet.modifier_total(name)), 0)

    def references(self, character: Character) -> dict[str, int]:
        refs = super().references(character)
        sheet = self._sheet(character)
        for name in ABILITIES:
            refs[name] = self.ability(character, name)
            refs[f"基本{name}"] = int(character.statuses.get(name, sheet.abilities.get(name)))
        poison = character.condition(POISON)
        refs["毒"] = poison.level if poison else 0
        return refs

    def editable(self, character: Character, label: str) -> tuple[str, int, int] | None:
        """An ability is kept as its base value (``{基本体力}``, what the GM sets); ``:体力=4``
        sets ``{体力}`` (the base with the sheet's modifiers) to 4, sleep halves it on top."""
        base_label = label.removeprefix("基本")
        if base_label in ABILITIES:
            sheet = self._sheet(character)
            base = int(character.statuses.get(base_label, sheet.abilities.get(base_label)))
            if label.startswith("基本"):
                return base_label, base, 0
            modifier = sheet.modifier_total(base_label)
            return base_label, base + modifier, -modifier
        if label == POISON:
            return None  # a condition (/cond add NAME 毒 LEVEL), not a status
        return super().editable(character, label)

    def counters(self, character: Character, refs: dict[str, int]) -> list[Counter]:
        """HP, a keeper's 価値観 (1–99 %), 禁忌値 (0–100) and money (cr, no maximum)."""
        out = super().counters(character, refs)
        if "価値観" in refs:
            out.append(Counter("価値観", refs["価値観"], 99))
        out.append(Counter("禁忌値", refs["禁忌値"], TABOO_MAX))
        out.append(Counter("cr", refs["cr"]))
        return out

    def bound_status(
        self, emit: Emit, name: str, key: str, current: int, value: int, op: str, ruling: bool
    ) -> int:
        """LW-HP-02: HP ≤ 0 does not recover (only a GM ruling, logged as one, may change it);
        LW-ABIL-05: 価値観 stays within 1–99 %, 禁忌値 within 0–100 (an edit above 100 stops
        at 100, the event is raised), and both are the GM's to change (「PCが自由に決められない
        特別な能力値」: a player's edit is refused; /reward spends 価値観 by the rules);
        LW-ABIL-07: money (cr) is never negative."""
        if key in GM_ONLY_VALUES and not emit.gm:
            raise forbidden(
                f"{key}はPCが自由に決められない特別な能力値です: 変更できるのはGMだけです "
                "(価値観は /reward で消費; LW-ABIL-05)",
                f"{VALUE_EN[key]} ({key}) is a special value PCs cannot set freely: only "
                "the GM changes it (/reward spends Values by the rules; LW-ABIL-05)",
            )
        if key == "hp" and current <= 0 and value > current:
            if not emit.gm:
                raise fail(
                    f"{name} は HP {current} (行動不能) なので回復できません: GMの裁定だけが変えられます",
                    f"{name} is at HP {current} (unable to act) and cannot recover: "
                    "only a GM ruling can change it",
                    "cannot recover",
                )
            if not ruling:
                emit.add(
                    ev.NOTICE,
                    {"ruling": "hp", "name": name, "value": value},
                    rules=("LW-HP-02",),
                    text=Message(
                        f"GM裁定: HP {current} の {name} の HP を変更",
                        f"GM ruling: {name}'s HP changed from {current}",
                    ),
                )
        if key == "価値観" and not 1 <= value <= 99:
            raise fail(
                f"価値観は1〜99%です ({value} は使えません)",
                f"Values (価値観) are 1 to 99 % (not {value})",
                "bad value",
            )
        if key == "禁忌値":
            if value < 0:
                raise fail(
                    f"禁忌値は0以上です ({value} は使えません)",
                    f"Taboo (禁忌値) is at least 0 (not {value})",
                    "bad value",
                )
            value = min(value, TABOO_MAX)
        if key == "cr" and value < 0:
            raise fail(
                f"所持金(cr)は0以上です ({value} は使えません)",
                f"money (cr) is at least 0 (not {value})",
                "bad value",
            )
        return super().bound_status(emit, name, key, current, value, op, ruling)

    def caps(self, emit: Emit, character: Character) -> lwc.Capabilities:
        return lwc.capabilities(rule_conditions(character), character.hp, self.cfg(emit))

    def condition_name(self, label: str) -> Message:
        return Message(label, english(label))

    def make_condition(self, emit: Emit, name: str, label: str, level: int) -> Condition | None:
        """``/cond add``: poison keeps the higher level (LW-COND-02); paralysis/sleep start
        their recovery count now (absolute: the character's current own-turn count)."""
        character = emit.character(name)
        current = rule_conditions(character)
        clock = int(emit.state.fields.get("minutes", 0))
        if label == POISON:
            new = lwc.inflict_poison(current, max(level, 1), self.cfg(emit))
            old = character.condition(POISON)
            since = old.since_minute if old is not None else clock
            return Condition(
                label=POISON, level=new.poison, since_minute=since, rules=["LW-COND-02"]
            )
        if label in (PARALYSIS, SLEEP):
            rule = "LW-COND-03" if label == PARALYSIS else "LW-COND-04"
            turns = (
                self.cfg(emit).paralysis_recovery_turns
                if label == PARALYSIS
                else self.cfg(emit).sleep_recovery_turns
            )
            since = character.own_turns
            return Condition(
                label=label,
                since_own_turn=since,
                ends_at_own_turn=since + turns,
                since_minute=clock,
                rules=[rule],
            )
        if label == self.cfg(emit).confusion_label:
            return Condition(label=label, rules=[CONFUSION_RULE])
        return Condition(label=label, level=level)

    # -- order -------------------------------------------------------------
    def combatants(self, emit: Emit) -> list[lwt.Combatant]:
        return [
            lwt.Combatant(
                id=c.name, skill=self.ability(c, "技巧"), is_pc=c.side == "pc", name=c.name
            )
            for c in emit.state.characters.values()
        ]

    def round_order(self, emit: Emit) -> list[str]:
        combat = emit.state.combat
        pc_order = combat.fields.get("pc_order", []) if combat else []
        if combat is not None:
            rs = lwt.RoundState(
                combat.round, tuple(combat.order), (), locked=bool(combat.fields.get("locked"))
            )
            return list(lwt.next_round(rs, self.combatants(emit), pc_order, self.cfg(emit)).order)
        return list(lwt.turn_order(self.combatants(emit), pc_order, self.cfg(emit)).order)

    def start_combat(self, emit: Emit) -> None:
        combatants = self.combatants(emit)
        if not combatants:
            raise fail("戦闘に参加するキャラクターがいません", "no characters to fight")
        rs = lwt.start_combat(combatants, (), self.cfg(emit))
        emit.add(
            ev.COMBAT_STARTED,
            {"order": list(rs.order), "fields": {"delayed": []}},
            rules=rs.rules,
            text=Message(
                f"戦闘開始: ラウンド1 (手番順: {' → '.join(rs.order)})",
                f"combat starts: round 1 (order: {' → '.join(rs.order)})",
            ),
        )
        self.advance(emit, None)

    def new_round(self, emit: Emit) -> None:
        combat = emit.state.combat
        assert combat is not None
        rs = lwt.RoundState(
            combat.round, tuple(combat.order), (), locked=bool(combat.fields.get("locked"))
        )
        new = lwt.next_round(
            rs, self.combatants(emit), combat.fields.get("pc_order", []), self.cfg(emit)
        )
        self.announce_round(emit, new.round, new.order, new.rules)
        emit.set_combat("delayed", [])

    def next_actor(self, emit: Emit, pick: str | None) -> str | None:
        combat = emit.state.combat
        assert combat is not None
        delayed = list(combat.fields.get("delayed", []))
        queue = [n for n in combat.order if n not in combat.acted and n not in delayed]
        queue += [n for n in delayed if n not in combat.acted]
        waiting = [n for n in queue if self.can_take_turn(emit, n)]
        if pick is not None:
            raise fail(
                "帽子世界TRPGの手番順は【技巧】で決まります (/gm order で変更)",
                "the order follows Skill (the GM may use /gm order)",
            )
        return waiting[0] if waiting else None

    def advance(self, emit: Emit, pick: str | None) -> None:
        for _ in range(4 * max(1, len(emit.state.characters)) + 4):
            super().advance(emit, pick)
            combat = emit.state.combat
            assert combat is not None and combat.current is not None
            character = emit.state.characters[combat.current]
            caps = self.caps(emit, character)
            spent = character.fields.get("_spent") == self.turn_key(emit, character.name)
            if character.down or spent or not (caps.can_act or caps.can_move):
                emit.add(
                    ev.NOTICE,
                    {"skipped": character.name},
                    rules=caps.rules,
                    text=Message(
                        f"{character.name} は行動できない (手番終了)",
                        f"{character.name} cannot act (turn over)",
                    ),
                )
                continue
            return
        raise fail("手番を取れるキャラクターがいません", "nobody can take a turn")

    def begin_turn(self, emit: Emit, name: str) -> None:
        combat = emit.state.combat
        assert combat is not None
        resume = name in combat.fields.get("delayed", [])
        emit.add(
            ev.TURN_STARTED,
            {"name": name, "resume": resume},
            rules=("LW-COMBAT-03",) if resume else ("LW-COMBAT-01",),
            text=Message(
                f"ラウンド{combat.round}: {name} の手番", f"round {combat.round}: {name}'s turn"
            ),
        )
        if resume:
            return
        character = emit.state.characters[name]
        if character.fields.get("_owes_turn"):  # LW-TABLE-09: spent by an action out of turn
            emit.set_field(name, "_owes_turn", False)
            emit.set_field(
                name,
                "_spent",
                self.turn_key(emit, name),
                rules=("LW-TABLE-09",),
                text=Message(
                    f"{name}: この手番は手番外の行動で使用済み",
                    f"{name}: this turn was spent by an action out of turn",
                ),
            )
        before = rule_conditions(character, character.own_turns - 1)
        change = lwc.on_own_turn(before, character.hp, self.cfg(emit))
        if change.poison_damage:
            emit.set_status(
                name,
                "hp",
                change.hp,
                rules=("LW-COND-02",),
                note=Message(
                    f"{name}: 毒で {change.poison_damage} ダメージ "
                    f"(HP {character.hp} → {change.hp})",
                    f"{name}: poison deals {change.poison_damage} "
                    f"(HP {character.hp} → {change.hp})",
                ),
            )
        for label in change.recovered:
            rule = "LW-COND-03" if label == PARALYSIS else "LW-COND-04"
            emit.remove_condition(
                name,
                label,
                rules=(rule,),
                text=Message(f"{name}: {label} から回復", f"{name} recovers from {english(label)}"),
            )
        # A paralysed character's turn passes; the recovery turn is spent too (LW-COND-03).
        if PARALYSIS in change.recovered and not change.may_act:
            emit.set_field(name, "_spent", self.turn_key(emit, name))

    def can_take_turn(self, emit: Emit, name: str) -> bool:
        """HP ≤ 0 skips the turn; with ``poison_ticks_on_skipped_turns`` a poisoned
        character's turn still comes (the poison ticks, then it passes: LW-COND-02)."""
        character = emit.state.characters.get(name)
        if character is None:
            return False
        if character.down:
            poisoned = character.condition(POISON) is not None
            return poisoned and self.cfg(emit).poison_ticks_on_skipped_turns
        return True

    def end_turn(self, emit: Emit, name: str) -> None:
        """LW-COND-04: the turn ends; a sleeper who has now spent three own turns asleep
        wakes (the third turn was still played asleep)."""
        super().end_turn(emit, name)
        character = emit.state.characters.get(name)
        if character is None or character.condition(SLEEP) is None:
            return
        change = lwc.after_own_turn(rule_conditions(character), character.hp, self.cfg(emit))
        for label in change.recovered:
            emit.remove_condition(
                name,
                label,
                rules=change.rules,
                text=Message(
                    f"{name}: {label} から回復 (自身の行動を3回消費)",
                    f"{name} wakes up (three own turns spent asleep)",
                ),
            )

    # -- actions -----------------------------------------------------------
    def pass_turn(self, emit: Emit, name: str, args: list[str]) -> None:
        combat = emit.state.combat
        if combat is None:
            raise fail("戦闘中ではありません", "no combat is running")
        delayed = list(combat.fields.get("delayed", []))
        rest = [n for n in combat.order if n not in combat.acted and n not in delayed and n != name]
        rs = lwt.RoundState(
            combat.round,
            tuple(combat.order),
            (name, *rest, *[d for d in delayed if d != name]),
            tuple(combat.acted),
            tuple(delayed),
        )
        new = lwt.delay_turn(rs, self.cfg(emit))
        emit.set_combat(
            "delayed",
            list(new.delayed),
            rules=new.rules,
            text=Message(
                f"{name} は手番をパス (ラウンドの最後に行動)",
                f"{name} passes (acts last this round)",
            ),
        )
        emit.add(ev.TURN_ENDED, {"name": name, "passed": True})
        self.advance(emit, None)

    def attack(self, emit: Emit, name: str, args: list[str]) -> None:
        surprise = len(args) == 3 and args[2] in ("不意打ち", "surprise")
        if len(args) not in (2, 3) or args[1] not in ABILITIES or (len(args) == 3 and not surprise):
            raise fail(
                "/attack 目標 体力|技巧|理知 [不意打ち] です",
                "use /attack TARGET 体力|技巧|理知 [surprise]",
            )
        target_name, ability = args[:2]
        attacker = emit.character(name)
        defender = emit.character(target_name)
        if target_name == name:
            raise fail(
                f"{name} は自分自身を攻撃できません", f"{name} cannot attack themselves", "self"
            )
        if attacker.fields.get("_spent") == self.turn_key(emit, name):
            raise fail(f"{name} は行動できません", f"{name} cannot act", "cannot act")
        self.special.refuse_attack(emit, attacker)
        defend_ok, defend_rules = lwc.can_defend(
            rule_conditions(defender), surprised=surprise, settings=self.cfg(emit)
        )
        downed = defender.down and not self.cfg(emit).downed_target_can_defend
        defender_ability = self.ability(defender, ability) if defend_ok and not downed else None
        if downed:
            defend_rules = ("LW-HP-02", "LW-COMBAT-11")
        out = lw.roll_attack(
            self.ability(attacker, ability), defender_ability, emit.randomizer, self.cfg(emit)
        )
        a = out.attack
        shown = Message.join(SEP, attack_texts(out))  # as LWA… shows it
        rules = tuple(
            dict.fromkeys((*out.rules, *(defend_rules if defender_ability is None else ())))
        )
        emit.add(
            ev.ROLL,
            {
                "action": "attack",
                "target": target_name,
                "ability": ability,
                "attack": a.total,
                "defence": out.defence_value,
                "damage": out.damage,
            },
            rules=rules,
            text=Message(
                f"{name} の攻撃 ({ability}) → {target_name}{SEP}",
                f"{name} attacks ({english(ability)}) → {target_name}{SEP}",
            )
            + shown,
        )
        if out.damage:
            old_hp = defender.hp
            new_hp = old_hp - out.damage
            emit.set_status(target_name, "hp", new_hp, rules=("LW-COMBAT-10",))
            if new_hp <= 0 < old_hp:
                emit.add(
                    ev.NOTICE,
                    {"down": target_name},
                    rules=("LW-ABIL-01", "LW-HP-02"),
                    text=Message(
                        f"{target_name} は行動不能 (HP {new_hp})",
                        f"{target_name} is unable to act (HP {new_hp})",
                    ),
                )
        if emit.state.combat is not None:
            self.after_line(emit)
            self.advance(emit, None)  # LW-COMBAT-12

    def card(self, emit: Emit, name: str, args: list[str]) -> None:
        """LW-COMBAT-04: a skill card is declared (before acting / before the defence roll);
        the log records it. Its effect is the GM's, except 行動順操作 (LW-COMBAT-14)."""
        if len(args) != 1:
            raise fail("/card カード名 です", "use /card CARD")
        character = emit.character(name)
        cards = list(self._sheet(character).skill_cards)
        if args[0] not in cards:
            raise fail(
                f"{name} はスキルカード {args[0]!r} を持っていません "
                f"({'、'.join(cards) or 'なし'})",
                f"{name} has no skill card {args[0]!r}",
            )
        emit.add(
            ev.NOTICE,
            {"card": args[0], "by": name},
            rules=("LW-COMBAT-04",),
            text=Message(f"{name}: スキルカード「{args[0]}」を宣言", f"{name} declares {args[0]}"),
        )
        if args[0] == "行動順操作" and emit.state.combat is not None:
            self.gm_lock(emit, [])

    def after_status_change(self, emit: Emit, name: str, key: str, old: int, new: int) -> None:
        """LW-ABIL-05: 禁忌値 reaching 100 raises a clear event; what happens is the GM's."""
        if key != "禁忌値":
            return
        change = keeper.raise_taboo(old, new - old, self.cfg(emit))
        if change.newly_reached:
            emit.add(
                ev.NOTICE,
                {"taboo": name, "value": new},
                rules=change.rules,
                text=Message(
                    f"{name} の禁忌値が {new} に達した: 何か恐ろしいことが起こる (GMが判断)",
                    f"{name}'s Taboo reached {new}: something terrible happens (the GM decides)",
                ),
            )

    # -- after every change ---------------------------------------------------
    def after_line(self, emit: Emit) -> None:
        self.settle_rows(emit)
        party = [
            lwc.PartyMember(c.name, c.hp, c.side == "pc", rule_conditions(c))
            for c in emit.state.characters.values()
        ]
        status = lwc.party_status(party, self.cfg(emit))
        was = bool(emit.state.fields.get("party_down"))
        if status.down and not was:
            emit.add(
                ev.PARTY_DOWN,
                {"down": True},
                rules=status.rules,
                text=Message(
                    "PC全員が行動不能です: GMが運命を決めます",
                    "every PC is unable to act: the GM decides their fate",
                ),
            )
        elif was and not status.down:
            emit.add(ev.PARTY_DOWN, {"down": False}, rules=status.rules)

    def settle_rows(self, emit: Emit) -> None:
        """LW-COMBAT-16 in combat only: a side whose front row is empty or all 行動不能 moves
        its back row to the front (they remember the row they were set to, ``row_set``).
        They go back when a front-liner able to act joins the combat, and when it ends;
        out of combat rows stay as set (``/char add … back``, ``/gm row``)."""
        if emit.state.combat is None:
            if self.cfg(emit).rows_return_when_combat_ends:
                self.restore_rows(emit, ("pc", "npc"), "combat over")
            else:  # LW-TABLE-10: the rows stay as they were moved
                for c in list(emit.state.characters.values()):
                    if c.fields.get("row_set"):
                        emit.set_field(c.name, "row_set", "", rules=("LW-COMBAT-16",))
            return
        counts_conditions = self.cfg(emit).rows_collapse_counts_conditions
        for side in ("pc", "npc"):
            members = [
                lwt.RowMember(
                    c.name,
                    c.fields.get("row", "前衛"),
                    not c.down and (self.caps(emit, c).can_act or not counts_conditions),
                )
                for c in emit.state.characters.values()
                if c.side == side
            ]
            if self.cfg(emit).rows_return_when_front_recovers and any(
                m.row == "前衛" and m.can_act and not emit.character(m.id).fields.get("row_set")
                for m in members
            ):
                self.restore_rows(emit, (side,), "a front-liner can act again")
                continue
            collapse = lwt.collapse_rows(members)
            for moved in collapse.moved:
                emit.set_field(moved, "row_set", "後衛")
                emit.set_field(
                    moved,
                    "row",
                    "前衛",
                    rules=collapse.rules,
                    text=Message(
                        f"{moved} は前衛へ (前衛が全滅)", f"{moved} moves to the front row"
                    ),
                )

    def restore_rows(self, emit: Emit, sides: tuple[str, ...], why: str) -> None:
        """Characters moved up by the collapse go back to the row they were set to."""
        for c in list(emit.state.characters.values()):
            if c.side in sides and c.fields.get("row_set"):
                row = c.fields["row_set"]
                emit.set_field(c.name, "row_set", "")
                emit.set_field(
                    c.name,
                    "row",
                    row,
                    rules=("LW-COMBAT-16",),
                    text=Message(
                        f"{c.name} は{row}に戻る ({REASONS_JA.get(why, why)})",
                        f"{c.name} goes back to the {english(row)} ({why})",
                    ),
                )

    def joined(self, emit: Emit, character: Character) -> None:
        """LW-COMBAT-16: a front-liner able to act joining a combat ends the collapse of
        their side (re-evaluated by :meth:`settle_rows` after the line)."""
        if emit.state.combat is None or character.fields.get("row") != "前衛":
            return
        if character.down or not self.caps(emit, character).can_act:
            return
        self.restore_rows(emit, (character.side,), "a front-liner joins")

    # -- GM ----------------------------------------------------------------
    def gm_lock(self, emit: Emit, args: list[str]) -> None:
        combat = emit.state.combat
        if combat is None:
            raise fail("戦闘中ではありません", "no combat is running")
        rs = lwt.RoundState(combat.round, tuple(combat.order), (), locked=False)
        new = lwt.use_order_manipulation(rs, args or None)
        if args:
            emit.set_combat("order", list(new.order), rules=new.rules)
        emit.set_combat(
            "locked",
            True,
            rules=new.rules,
            text=Message(
                f"行動順操作: 手番順を固定 ({' → '.join(new.order)})",
                f"order manipulation: the order is locked ({' → '.join(new.order)})",
            ),
        )

    def gm_row(self, emit: Emit, args: list[str]) -> None:
        if len(args) != 2 or args[1] not in ROWS:
            raise fail("/gm row 名前 前衛|後衛 です", "use /gm row NAME front|back")
        if emit.character(args[0]).fields.get("row_set"):
            emit.set_field(args[0], "row_set", "")  # the GM's row is the one set now
        emit.set_field(
            args[0],
            "row",
            ROWS[args[1]],
            rules=("LW-COMBAT-16",),
            text=Message(f"{args[0]} は{ROWS[args[1]]}", f"{args[0]}: {ROW_EN[ROWS[args[1]]]}"),
        )

    def end_combat(self, emit: Emit) -> None:
        super().end_combat(emit)
        for c in list(emit.state.characters.values()):
            if c.fields.get("_owes_turn"):
                emit.set_field(c.name, "_owes_turn", False)
        self.settle_rows(emit)

    def gm_rest(self, emit: Emit, args: list[str]) -> None:
        """``/gm rest [NIGHTS]`` (1 to ``MAX_REST_NIGHTS``, 30): each night in a safe place is
        安静状態 for its whole length (setting ``night_minutes``, at most a day): poison ticks
        (one HP event per night, however many ticks), paralysis and sleep wear off
        (LW-COND-02…04); then 体力 + 6 HP with the real 体力 of the rested (awake) character,
        never above max HP, nothing at HP ≤ 0 (LW-HP-01/02)."""
        if len(args) > 1:
            raise fail("/gm rest [泊数] です", "use /gm rest [NIGHTS]")
        nights = (
            _bounded(args[0], 1, MAX_REST_NIGHTS, Message("泊数", "the number of nights"))
            if args
            else 1
        )
        if emit.state.combat is not None:
            raise fail("戦闘中は休めません", "no rest during a combat")
        cfg = self.cfg(emit)
        for night in range(1, nights + 1):
            if cfg.night_minutes:
                self.pass_time(emit, cfg.night_minutes, at_rest=True)
            for c in list(emit.state.characters.values()):
                result = lwc.rest(c.hp, c.max_hp, self.real_ability(c, "体力"), 1, cfg)
                label = f"{night}泊目" if nights > 1 else "休息"
                if result.recovered:
                    emit.set_status(
                        c.name,
                        "hp",
                        result.hp,
                        rules=result.rules,
                        note=Message(
                            f"{c.name}: {label}で HP {c.hp} → {result.hp}",
                            f"{c.name}: {f'night {night}' if nights > 1 else 'rest'}, "
                            f"HP {c.hp} → {result.hp}",
                        ),
                    )
                elif c.down:
                    emit.add(
                        ev.NOTICE,
                        {"no_rest": c.name},
                        rules=result.rules,
                        text=Message(
                            f"{c.name} は HP 0 以下なので休息で回復しない",
                            f"{c.name} is at HP ≤ 0: rest does not heal",
                        ),
                    )

    def gm_time(self, emit: Emit, args: list[str]) -> None:
        """``/gm time MINUTES [rest|explore]``: game time passes out of combat — poison ticks
        every 30 minutes at rest, paralysis ends after about 30, sleep after about 60
        (LW-COND-02/03/04). Counts are kept on the room's clock (absolute minutes)."""
        if (
            not args
            or len(args) > 2
            or args[1:] not in ([], ["rest"], ["explore"], ["休息"], ["探索"])
        ):
            raise fail("/gm time 分 [rest|explore] です", "use /gm time MINUTES [rest|explore]")
        minutes = _bounded(args[0], 0, MAX_ELAPSED_MINUTES, Message("経過時間(分)", "the minutes"))
        if emit.state.combat is not None:
            raise fail("戦闘中の時間は手番で進みます", "in combat, time passes by turns")
        self.pass_time(emit, minutes, at_rest=args[1:] in ([], ["rest"], ["休息"]))

    def pass_time(self, emit: Emit, minutes: int, *, at_rest: bool) -> None:
        """``minutes`` of game time out of combat, on the room's clock (LW-COND-02…05)."""
        clock = int(emit.state.fields.get("minutes", 0))
        cfg = self.cfg(emit)
        for c in list(emit.state.characters.values()):
            if not c.conditions:
                continue
            base = rule_conditions(c)
            before = lwc.Conditions(
                poison=base.poison,
                paralysis=base.paralysis,
                sleep=base.sleep,
                confusion=base.confusion,
                poison_minutes=_elapsed(c, POISON, clock) % cfg.poison_interval_minutes,
                paralysis_minutes=_elapsed(c, PARALYSIS, clock),
                sleep_minutes=_elapsed(c, SLEEP, clock),
            )
            change = lwc.time_passes(before, c.hp, minutes, at_rest=at_rest, settings=cfg)
            hp = change.hp if cfg.poison_below_zero_at_rest else max(change.hp, min(c.hp, 0))
            if hp != c.hp:  # LW-TABLE-10: poison_below_zero_at_rest false stops it at 0
                lost = c.hp - hp
                emit.set_status(
                    c.name,
                    "hp",
                    hp,
                    rules=("LW-COND-02",),
                    note=Message(
                        f"{c.name}: 毒で {lost} ダメージ (HP {c.hp} → {hp})",
                        f"{c.name}: poison deals {lost} (HP {c.hp} → {hp})",
                    ),
                )
            for label in change.recovered:
                emit.remove_condition(
                    c.name,
                    label,
                    rules=change.rules,
                    text=Message(
                        f"{c.name}: {label} が解けた", f"{c.name}: {english(label)} ended"
                    ),
                )
        emit.add(
            ev.CLOCK_SET,
            {"minutes": clock + minutes},
            text=Message(f"{minutes}分経過", f"{minutes} minutes pass"),
        )

    def gm_tie(self, emit: Emit, args: list[str]) -> None:
        combat = emit.state.combat
        if combat is None:
            raise fail("戦闘中ではありません", "no combat is running")
        new = lwt.reorder_tied_pcs(
            self.combatants(emit), args, combat.fields.get("pc_order", []), self.cfg(emit)
        )
        emit.set_combat(
            "pc_order",
            [n for n in new.order if n in set(args) or n in combat.fields.get("pc_order", [])],
            rules=new.rules,
            text=Message(
                f"同値PCの順番: {' → '.join(args)} (次のラウンドから)",
                f"tied PCs: {' → '.join(args)} (from next round)",
            ),
        )
