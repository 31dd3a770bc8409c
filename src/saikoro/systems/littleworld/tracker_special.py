"""帽子世界TRPG special situations and the keeper's hat and ledger as table lines.

The rules are the pure gates of :mod:`saikoro.systems.littleworld.special` and
:mod:`saikoro.systems.littleworld.keeper`; this module only reads the speaker's character,
asks the gate, rolls the check it needs (as ``LW<a>>=<t>`` prints it) and records what
changes (``mounted``, ``swimming``, gathered ``herbs`` on the character; the room's
``herb_fields`` ledger). A refused action rolls nothing and changes nothing.

- ``/act 行動 [体力|技巧|理知] [目標]`` specialist actions (LW-SPECIAL-01) and any task
- ``/ride [動物] 目標`` · ``/ride off`` (LW-SPECIAL-02); no attack while mounted
- ``/drive 乗り物 目標`` (LW-SPECIAL-03): the check must exceed (上回る) the target
- ``/swim [目標]`` · ``/swim off`` (LW-SPECIAL-04/05); no attack while swimming
- ``/device 機器 [目標]`` (LW-SPECIAL-06) · ``/language 言語 [目標]`` (LW-SPECIAL-07)
- ``/herb 場所 [薬草|解毒草] [目標]`` (LW-SPECIAL-08) · ``/gm scenario end`` (herbs lost)
- ``/cure 名前 手段`` (LW-COND-01/02/05): 治癒魔法 (the card), 中和剤, 解毒草 (one held is
  used up; none held: refused, LW-TABLE-08), 病院, 教会
- ``/use アイテム`` · ``/gm item 名前 アイテム [±N|=N]`` consumables (LW-TABLE-08)
- ``/hat release|on|off`` (LW-KEEPER-01) · ``/reward 種類 量 [名前] [発見目標]`` (LW-KEEPER-02)

A GM's line (``--gm``) may do what the gate refuses (the seed's "GM decides"); the line
says so and is marked as a ruling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from saikoro.i18n import Message
from saikoro.sheets import table_sheet
from saikoro.systems.littleworld import commands as lwcmd
from saikoro.systems.littleworld import conditions as lwc
from saikoro.systems.littleworld import inventory, keeper, special
from saikoro.systems.littleworld.english import CURE_EN, english, english_list, with_article
from saikoro.systems.littleworld.tasks import find_task
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail, roll_summary
from saikoro.table.state import Character

if TYPE_CHECKING:
    from saikoro.systems.littleworld.tracker import LittleWorldTracker

ABILITIES = ("体力", "技巧", "理知")
REWARD_KINDS = {
    "exp": "exp",
    "経験点": "exp",
    "money": "money",
    "お金": "money",
    "cr": "money",
    "item": "item",
    "アイテム": "item",
    "artifact": "artifact",
    "オーパーツ": "artifact",
}
HERB_FIELDS = "herb_fields"  # room field: the fields (野山) gathered this scenario


def _number(text: str, what: Message) -> int:
    if not text.lstrip("-").isdecimal():
        raise fail(f"{what.ja}は整数です ({text!r})", f"{what.en} must be an integer ({text!r})")
    return int(text)


class SpecialSituations:
    """The verbs of the special situations, on a :class:`LittleWorldTracker`."""

    def __init__(self, tracker: LittleWorldTracker) -> None:
        self.tracker = tracker
        self.verbs = {
            "act": self.act,
            "ride": self.ride,
            "drive": self.drive,
            "swim": self.swim,
            "device": self.device,
            "language": self.language,
            "herb": self.herb,
            "hat": self.hat,
            "reward": self.reward,
            "cure": self.cure,
            "use": self.use,
        }
        self.gm_verbs = {"scenario": self.gm_scenario, "item": self.gm_item}
        self.verb_help = {
            "act 行動 [体力|技巧|理知] [目標]": Message(
                "行動判定 (罠設置・開錠・偵察・潜入・足音を立てない歩行・尾行・読心は、"
                "鍵開け・忍び足などの別名でもスキルカードが必要 LW-SPECIAL-01)",
                "a task check (specialist actions, under any of their names, need their "
                "skill card)",
            ),
            "ride [動物] 目標 · /ride off": Message(
                "騎乗: 【技巧】判定、騎乗中は攻撃できない (LW-SPECIAL-02)",
                "ride: a Skill check; no attack while mounted, no mounting while swimming",
            ),
            "drive 乗り物 目標": Message(
                "車・バイク: 【技巧】判定で目標値を上回る; 船・飛行機は不可 (LW-SPECIAL-03)",
                "drive a car or bike (the Skill check must exceed the target); no ships, "
                "aircraft or other licence vehicles",
            ),
            "swim [目標] · /swim off": Message(
                "水泳: カナヅチ不可、潜水限界 体力×30秒、水中では攻撃不可 (LW-SPECIAL-04/05)",
                "swim: not for a non-swimmer (Body 1); breath limit Body × 30 s; no attack "
                "in water",
            ),
            "device 機器 [目標]": Message(
                "電子機器の操作 (機械オンチ不可 LW-SPECIAL-06)",
                "operate electronics (not if hopeless with machines: Intellect 1)",
            ),
            "language 言語 [目標]": Message(
                "特殊言語は【理知】判定 (LW-SPECIAL-07)", "a special language: an Intellect check"
            ),
            "herb 場所 [薬草|解毒草] [目標]": Message(
                "野草採取 (スカウト・錬金術師・農民、同じ野山は1シナリオ1回 LW-SPECIAL-08)",
                "gather herbs (skill card スカウト Scout, 錬金術師 Alchemist or 農民 Farmer; "
                "once per field per scenario)",
            ),
            "hat release|on|off": Message("帽子解放・帽子 (LW-KEEPER-01)", "hat release / hat"),
            "reward 種類 量 [名前] [発見目標]": Message(
                "管理人の報酬を価値観で支払う (exp|money|item|artifact, LW-KEEPER-02)",
                "a keeper pays a reward (exp, money, item, artifact) with Values",
            ),
            "cure 名前 治癒魔法|中和剤|解毒草|病院|教会": Message(
                "治療: 治癒魔法は全状態異常、中和剤・解毒草は毒、病院・教会は混乱 (LW-COND-01/02/05)",
                "cure: 治癒魔法 (healing magic) every condition, 中和剤/解毒草 (a neutraliser, "
                "an antidote herb) poison, 病院/教会 (a hospital, a church) confusion",
            ),
            "use アイテム": Message(
                "消耗品を使う (1個減る、効果はGMが判断 LW-TABLE-08)",
                "use a consumable (one is used up; its effect is the GM's)",
            ),
            "gm item 名前 アイテム [±N|=N]": Message(
                "アイテムを渡す・買う・見つける (既定 +1; LW-TABLE-08)",
                "give, sell or find an item (default +1)",
            ),
            "gm scenario end": Message(
                "シナリオ終了: 野草は失われる (LW-SPECIAL-08)", "scenario end: herbs are lost"
            ),
        }

    # -- helpers ---------------------------------------------------------------
    def _sheet(self, character: Character) -> Any:
        return table_sheet(character.sheet)

    def _gate(self, emit: Emit, name: str, permission: special.Permission) -> None:
        """Refuse what the rules refuse; a GM's line overrides it, logged as a ruling."""
        if permission.allowed and not permission.gm_override:
            return
        reason = permission.reason or Message("できません", "not allowed")
        if not permission.allowed:
            raise fail(f"{name}: {reason.ja}", f"{name}: {reason.en}", "special situation")
        emit.add(
            ev.NOTICE,
            {"ruling": "special", "name": name},
            rules=permission.rules,
            gm=True,
            text=Message(
                f"GM裁定: {reason.ja} — {name} に許可",
                f"GM ruling: {reason.en} — allowed for {name}",
            ),
        )

    def _check(
        self,
        emit: Emit,
        name: str,
        what: Message,
        ability: str,
        target: int | None,
        rules: tuple[str, ...],
        *,
        exceed: bool = False,
        free: Message | None = None,
    ) -> bool | None:
        """Roll ``ability``'s check as ``LW<a>>=<t>`` shows it (``exceed``: the target must be
        exceeded, so ``>=t+1``); logged as a roll. Success, or None without a target.
        ``free``: without a target the action needs no check; this line is logged instead."""
        if target is None and free is not None:
            emit.add(ev.NOTICE, {"action": what.ja, "by": name}, rules=rules, text=free)
            return None
        character = emit.character(name)
        value = self.tracker.ability(character, ability)
        goal = None if target is None else target + 1 if exceed else target
        command = f"LW{value}" + ("" if goal is None else f">={goal}")
        result = lwcmd.check_command(command, value, goal, emit.randomizer, self.tracker.cfg(emit))
        over = Message(f", 目標値{target}を上回る", f", must exceed {target}") if exceed else None
        head_ja = f"{name}: {what.ja} ({ability}{over.ja if over else ''})"
        head_en = f"{name}: {what.en} ({english(ability)}{over.en if over else ''})"
        result_en = result.text_en or result.text  # LW commands make their own English
        emit.add(
            ev.ROLL,
            {
                "action": "special",
                "what": what.ja,
                "ability": ability,
                "target": target,
                "result": roll_summary(result),
            },
            rules=tuple(dict.fromkeys((*rules, *result.rules))),
            text=Message(f"{head_ja}{lwcmd.SEP}{result.text}", f"{head_en}{lwcmd.SEP}{result_en}"),
        )
        return None if target is None else result.success

    def _split_target(self, args: list[str]) -> tuple[list[str], int | None]:
        """The arguments and a trailing target number (None when there is none)."""
        if args and args[-1].lstrip("-").isdecimal():
            return args[:-1], _number(args[-1], Message("目標値", "the target"))
        return args, None

    # -- LW-SPECIAL-01 ---------------------------------------------------------
    def act(self, emit: Emit, name: str, args: list[str]) -> None:
        """A task check; specialist actions are refused without their skill card."""
        usage = Message("/act 行動 [体力|技巧|理知] [目標]", "/act TASK [ABILITY] [TARGET]")
        rest, target = self._split_target(args)
        ability = rest.pop() if len(rest) >= 2 and rest[-1] in ABILITIES else None
        if len(rest) != 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        action = rest[0]
        character = emit.character(name)
        cards = list(self._sheet(character).skill_cards)
        gate = special.specialist_action(
            action, cards, gm_override=emit.gm, settings=self.tracker.cfg(emit)
        )
        self._gate(emit, name, gate)
        rules = gate.rules
        if ability is None:
            cfg = self.tracker.cfg(emit)
            ability = cfg.specialist_abilities.get(special.specialist_key(action, cfg))
        if ability is None:
            task = find_task(action)
            if task is None:
                raise fail(
                    f"「{action}」に使う能力値が分かりません: /act {action} 体力|技巧|理知 [目標]",
                    f"which ability does '{action}' use? /act {action} ABILITY [TARGET]",
                )
            ability = max(task.abilities, key=lambda a: self.tracker.ability(character, a))
            rules = (*rules, *task.rules)
        self._check(emit, name, Message(action, action), ability, target, rules)

    # -- LW-SPECIAL-02 ---------------------------------------------------------
    def ride(self, emit: Emit, name: str, args: list[str]) -> None:
        """Mount (a 技巧 check) or dismount; no attack while mounted."""
        if args in (["off"], ["降りる"]):
            if not emit.character(name).fields.get("mounted"):
                raise fail(f"{name} は騎乗していません", f"{name} is not mounted")
            self._dismount(emit, name)
            return
        usage = Message("/ride [動物] 目標 · /ride off", "/ride [ANIMAL] TARGET or /ride off")
        rest, target = self._split_target(args)
        if target is None or len(rest) > 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        animal = rest[0] if rest else "馬"
        cfg = self.tracker.cfg(emit)
        swimming = bool(emit.character(name).fields.get("swimming")) and cfg.ride_swim_exclusive
        gate = special.riding(
            animal,
            in_combat=emit.state.combat is not None and not cfg.mount_in_combat,
            swimming=swimming,
            gm_override=emit.gm,
        )
        self._gate(emit, name, gate)
        what = Message(f"騎乗 ({animal})", f"riding ({english(animal)})")
        if self._check(emit, name, what, "技巧", target, gate.rules):
            if swimming:  # a GM's ruling: out of the water onto the animal
                self._leave_water(emit, name)
            emit.set_field(
                name,
                "mounted",
                animal,
                rules=gate.rules,
                text=Message(
                    f"{name} は{animal}に乗った (騎乗中は戦闘できません)",
                    f"{name} rides the {english(animal)} (no combat while mounted)",
                ),
            )

    def _dismount(self, emit: Emit, name: str) -> None:
        emit.set_field(
            name,
            "mounted",
            "",
            rules=("LW-SPECIAL-02",),
            text=Message(f"{name} は降りた", f"{name} dismounts"),
        )

    def _leave_water(self, emit: Emit, name: str) -> None:
        emit.set_field(
            name,
            "swimming",
            False,
            rules=("LW-SPECIAL-05",),
            text=Message(f"{name} は水から上がった", f"{name} leaves the water"),
        )

    # -- LW-SPECIAL-03 ---------------------------------------------------------
    def drive(self, emit: Emit, name: str, args: list[str]) -> None:
        """Drive a car or a bike: the 技巧 check must exceed the target."""
        usage = Message("/drive 乗り物 目標", "/drive VEHICLE TARGET")
        rest, target = self._split_target(args)
        if target is None or len(rest) != 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        cfg = self.tracker.cfg(emit)
        gate = special.vehicle(rest[0], gm_override=emit.gm, settings=cfg)
        self._gate(emit, name, gate)
        exceed = cfg.vehicle_must_exceed
        what = Message(f"{rest[0]}の運転", f"driving the {rest[0]}")
        self._check(emit, name, what, "技巧", target, gate.rules, exceed=exceed)

    # -- LW-SPECIAL-04/05 ------------------------------------------------------
    def swim(self, emit: Emit, name: str, args: list[str]) -> None:
        """Go into the water (a カナヅチ cannot), show the breath limit, or leave it."""
        if args in (["off"], ["上がる"]):
            if not emit.character(name).fields.get("swimming"):
                raise fail(f"{name} は水中にいません", f"{name} is not in the water")
            self._leave_water(emit, name)
            return
        usage = Message("/swim [目標] · /swim off", "/swim [TARGET] or /swim off")
        rest, target = self._split_target(args)
        if rest:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        character = emit.character(name)
        sheet = self._sheet(character)
        cfg = self.tracker.cfg(emit)
        body = self.tracker.real_ability(character, "体力")
        mounted = character.fields.get("mounted") and cfg.ride_swim_exclusive
        gate = special.swimming(
            body,
            kanazuchi_opt_in=sheet.kanazuchi_opt_in,
            mounted=bool(mounted),
            gm_override=emit.gm,
            settings=cfg,
        )
        self._gate(emit, name, gate)
        if mounted:  # a GM's ruling: off the animal into the water
            self._dismount(emit, name)
        now = emit.character(name)  # as it is now (an event replaces the working copy)
        limit = special.breath_limit_seconds(self.tracker.ability(now, "体力"), cfg)
        emit.set_field(
            name,
            "swimming",
            True,
            rules=gate.rules,
            text=Message(
                f"{name} は水中へ: 潜水限界 約{limit}秒 (水中では戦闘できません)"
                if limit is not None
                else f"{name} は水中へ (この世界に水中ペナルティはありません)",
                f"{name} is in the water: breath limit about {limit} s (no combat in water)"
                if limit is not None
                else f"{name} is in the water (this world has no water penalty)",
            ),
        )
        if target is not None:
            self._check(emit, name, Message("水泳", "swimming"), "体力", target, gate.rules)

    # -- LW-SPECIAL-06/07 ------------------------------------------------------
    def device(self, emit: Emit, name: str, args: list[str]) -> None:
        """Operate an electronic device (a 機械オンチ cannot); a 理知 check with a target."""
        usage = Message("/device 機器 [目標]", "/device DEVICE [TARGET]")
        rest, target = self._split_target(args)
        if len(rest) != 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        character = emit.character(name)
        gate = special.electronics(
            self.tracker.real_ability(character, "理知"), gm_override=emit.gm
        )
        self._gate(emit, name, gate)
        what = Message(f"{rest[0]}の操作", f"operating the {rest[0]}")
        free = Message(f"{name}: {what.ja} (簡単な操作は判定なし)", f"{name}: {what.en}")
        self._check(emit, name, what, "理知", target, gate.rules, free=free)

    def language(self, emit: Emit, name: str, args: list[str]) -> None:
        """Read or speak a language: common needs nothing, a special one a 理知 check."""
        usage = Message("/language 言語 [目標]", "/language LANGUAGE [TARGET]")
        rest, target = self._split_target(args)
        if len(rest) != 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        emit.character(name)
        gate = special.language(special=target is not None)
        what = Message(f"{rest[0]}の読解", f"reading {rest[0]}")
        free = Message(
            f"{name}: {rest[0]} は世界間の共通語 (判定なし; 特殊言語なら /language {rest[0]} 目標)",
            f"{name}: {rest[0]} is the common language (no check; a special one: add a target)",
        )
        self._check(emit, name, what, "理知", target, gate.rules, free=free)

    # -- LW-SPECIAL-08 ---------------------------------------------------------
    def herb(self, emit: Emit, name: str, args: list[str]) -> None:
        """Gather herbs at a field: card holders only, once per field per scenario."""
        usage = Message("/herb 場所 [薬草|解毒草] [目標]", "/herb FIELD [薬草|解毒草] [TARGET]")
        rest, target = self._split_target(args)
        herb = rest.pop() if len(rest) == 2 and rest[-1] in ("薬草", "解毒草") else "薬草"
        if len(rest) != 1:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        place = rest[0]
        character = emit.character(name)
        cfg = self.tracker.cfg(emit)
        ledger = special.HerbLedger(frozenset(emit.state.fields.get(HERB_FIELDS) or ()))
        cards = list(self._sheet(character).skill_cards)
        gate = special.herb_gathering(cards, place, ledger, gm_override=emit.gm, settings=cfg)
        self._gate(emit, name, gate)
        goal = cfg.herb_target if target is None else target
        what = Message(f"野草採取 ({place})", f"herb gathering ({place})")
        self._check(emit, name, what, "技巧", goal, gate.rules)
        rolled = emit.events[-1].data["result"]
        attempt = special.gather_herbs(
            int(rolled["value"]),
            place,
            ledger,
            herb=herb,
            target=goal,
            critical=bool(rolled["critical"]),
            fumble=bool(rolled["fumble"]),
            settings=cfg,
        )
        emit.add(
            ev.ROOM_SET,
            {"key": HERB_FIELDS, "value": sorted(attempt.ledger.fields)},
            rules=attempt.rules,
        )
        if attempt.herb is not None:
            herbs = [*emit.character(name).fields.get("herbs", []), attempt.herb]
            emit.set_field(
                name,
                "herbs",
                herbs,
                rules=attempt.rules,
                text=Message(
                    f"{name} は{attempt.herb}を入手 (この世界から持ち出せず、シナリオ終了時に失う)",
                    f"{name} gets {with_article(attempt.herb)} (cannot leave this world; lost "
                    "at the end of the scenario)",
                ),
            )

    def gm_scenario(self, emit: Emit, args: list[str]) -> None:
        """``/gm scenario end``: the scenario ends; herbs are lost (LW-SPECIAL-08): those
        gathered at the table and the sheet's ``scenario_only`` items (listed in the
        character's ``items_lost``); every field may be gathered again in the next one."""
        if args != ["end"] and args != ["終了"]:
            raise fail("/gm scenario end です", "use /gm scenario end")
        for character in list(emit.state.characters.values()):
            gathered = list(character.fields.get("herbs") or [])
            already = set(character.fields.get("items_lost") or [])
            items = [i for i in self._sheet(character).items if i.name not in already]
            _, lost_items = special.herbs_at_scenario_end(items)  # the sheet's scenario_only
            lost = gathered + [i.name for i in lost_items]
            if not lost:
                continue
            if lost_items:
                emit.set_field(
                    character.name,
                    "items_lost",
                    sorted(already | {i.name for i in lost_items}),
                    rules=("LW-SPECIAL-08",),
                )
                stored = emit.character(character.name).fields.get("inventory")
                if stored is not None:
                    gone = {i.name for i in lost_items}
                    kept = {k: v for k, v in stored.items() if k not in gone}
                    emit.set_field(character.name, "inventory", kept, rules=("LW-SPECIAL-08",))
            emit.set_field(
                character.name,
                "herbs",
                [],
                rules=("LW-SPECIAL-08",),
                text=Message(
                    f"{character.name} の{'・'.join(lost)}は失われた",
                    f"{character.name} loses {english_list(lost)}",
                ),
            )
        emit.add(
            ev.ROOM_SET,
            {"key": HERB_FIELDS, "value": None},
            rules=("LW-SPECIAL-08",),
            text=Message("シナリオ終了", "the scenario ends"),
        )

    # -- LW-COND-01/02/05 ------------------------------------------------------
    def cure(self, emit: Emit, name: str, args: list[str]) -> None:
        """Cure a character's conditions: 治癒魔法 all of them (its card is needed), 中和剤 or
        解毒草 poison (a gathered 解毒草 is used up), 病院 or 教会 confusion."""
        means = ("治癒魔法", "中和剤", "解毒草", "病院", "教会")
        if len(args) != 2 or args[1] not in means:
            raise fail(f"/cure 名前 {'|'.join(means)} です", f"use /cure NAME {'|'.join(means)}")
        target, how = args
        healer = emit.character(name)
        patient = emit.character(target)
        if how == "治癒魔法" and how not in self._sheet(healer).skill_cards and not emit.gm:
            raise fail(
                f"{name} はスキルカード「治癒魔法」を持っていません",
                f"{name} has no skill card 治癒魔法 (healing magic)",
            )
        if how in ("病院", "教会") and not self.tracker.cfg(emit).cure_place_anywhere:
            self.tracker.refuse_or_rule(
                emit,
                name,
                Message(
                    f"{name}: {how}での治療はGMの裁定で (/gm setting cure_place_anywhere)",
                    f"{name}: a cure at a {CURE_EN[how]} is the GM's ruling (/gm setting "
                    "cure_place_anywhere)",
                ),
                ("LW-COND-05", "LW-TABLE-10"),
                "special situation",
            )
        have = self._holding(healer)
        if how in ("中和剤", "解毒草") and not have.count(how):
            self.tracker.refuse_or_rule(
                emit,
                name,
                Message(
                    f"{name}: {how}を持っていません (GMが /gm item {name} {how} で渡せます)",
                    f"{name} holds no {CURE_EN[how]} (the GM gives one: /gm item {name} {how})",
                ),
                ("LW-COND-02", "LW-TABLE-08"),
                "no item",
            )
        from saikoro.systems.littleworld.tracker import rule_conditions

        before = rule_conditions(patient)
        after, rules = lwc.cure(before, how)  # type: ignore[arg-type]
        gone = [
            (label, english(key))
            for label, key, was, now in (
                ("毒", "毒", before.poison, after.poison),
                ("麻痺", "麻痺", before.paralysis, after.paralysis),
                ("睡眠", "睡眠", before.sleep, after.sleep),
                (self.tracker.cfg(emit).confusion_label, "混乱", before.confusion, after.confusion),
            )
            if was and not now
        ]
        if not gone:
            raise fail(
                f"{target} には{how}で治る状態異常がありません",
                f"{target} has no condition {CURE_EN[how]} cures",
            )
        if how in ("中和剤", "解毒草") and have.count(how):
            self._store(emit, name, have, inventory.take_one(have, how))
        for label, label_en in gone:
            emit.remove_condition(
                target,
                label,
                rules=rules,
                text=Message(
                    f"{target}: {how}で{label}が治った",
                    f"{target}: {CURE_EN[how]} cures {label_en}",
                ),
            )

    # -- LW-TABLE-08: consumables ---------------------------------------------------
    def _holding(self, character: Character) -> inventory.Holding:
        return inventory.holding(character.fields, self._sheet(character).items)

    def _store(
        self,
        emit: Emit,
        name: str,
        old: inventory.Holding,
        new: inventory.Holding,
        text: Message | None = None,
    ) -> None:
        """Write what changed: the herbs gathered (LW-SPECIAL-08) and the counted items."""
        if new.herbs != old.herbs:
            emit.set_field(name, "herbs", list(new.herbs), rules=("LW-SPECIAL-08",))
        if new.counts != old.counts or emit.character(name).fields.get("inventory") is None:
            emit.set_field(name, "inventory", dict(new.counts), rules=("LW-TABLE-08",), text=text)
        elif text is not None:
            emit.add(ev.NOTICE, {"inventory": name}, rules=("LW-TABLE-08",), text=text)

    def use(self, emit: Emit, name: str, args: list[str]) -> None:
        """``/use ITEM``: one consumable held is used up; its effect is the GM's (a cure of
        poison is ``/cure NAME 中和剤|解毒草``)."""
        if len(args) != 1:
            raise fail("/use アイテム です", "use /use ITEM")
        item = args[0]
        have = self._holding(emit.character(name))
        if not have.count(item):
            raise fail(f"{name} は{item}を持っていません", f"{name} holds no {item}", "no item")
        after = inventory.take_one(have, item)
        left = after.count(item)
        self._store(
            emit,
            name,
            have,
            after,
            Message(
                f"{name} は{item}を使った (残り{left}; 効果はGMが判断)",
                f"{name} uses {item} ({left} left; the GM decides its effect)",
            ),
        )

    def gm_item(self, emit: Emit, args: list[str]) -> None:
        """``/gm item NAME ITEM [±N|=N]``: the GM gives, sells or lets a character find an
        item (+1 by default), takes some away (−N) or sets the count (=N)."""
        usage = Message("/gm item 名前 アイテム [±N|=N]", "/gm item NAME ITEM [±N|=N]")
        if len(args) not in (2, 3):
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        name, item = args[0], args[1]
        change = args[2] if len(args) == 3 else "+1"
        op, digits = (change[0], change[1:]) if change[:1] in "+-=" else ("+", change)
        if not digits.isdecimal() or len(digits) > 4:
            raise fail(
                f"個数は +N・-N・=N (0〜9999) です ({change!r})",
                f"the count is +N, -N or =N (0 to 9999; not {change!r})",
            )
        character = emit.character(name)
        have = self._holding(character)
        now = int(have.counts.get(item, 0))
        count = {"+": now + int(digits), "-": now - int(digits), "=": int(digits)}[op]
        if count < 0:
            raise fail(
                f"{name} の{item}は{now}個です ({change} はできません)",
                f"{name} holds {now} {item} (cannot {change})",
                "no item",
            )
        counts = {**have.counts, item: count}
        if not count:
            del counts[item]
        self._store(
            emit,
            character.name,
            have,
            inventory.Holding(counts, have.herbs),
            Message(f"GM: {name} の{item} {now} → {count}", f"GM: {name}'s {item} {now} → {count}"),
        )

    # -- LW-KEEPER-01/02 -------------------------------------------------------
    def hat(self, emit: Emit, name: str, args: list[str]) -> None:
        """帽子解放 (only with the hat on), or put the hat on / take it off."""
        if len(args) != 1 or args[0] not in ("release", "解放", "on", "off"):
            raise fail("/hat release|on|off です", "use /hat release, on or off")
        character = emit.character(name)
        sheet = self._sheet(character)
        if sheet.keeper is None:
            raise fail(f"{name} は管理人ではありません", f"{name} is not a keeper")
        state = keeper.HatState(
            bool(character.fields.get("hat_worn", sheet.keeper.hat_worn)),
            bool(character.fields.get("hat_released", sheet.keeper.hat_released)),
        )
        try:
            if args[0] in ("release", "解放"):
                new = keeper.release_hat(state)
                said = Message(f"{name}: 帽子解放 (効果はGMが判断)", f"{name}: hat release")
            elif args[0] == "on":
                new = keeper.put_on_hat(state)
                said = Message(f"{name} は帽子を被った", f"{name} puts the hat on")
            else:
                new = keeper.take_off_hat(state)
                said = Message(f"{name} は帽子を脱いだ", f"{name} takes the hat off")
        except keeper.KeeperError as error:
            raise fail(f"{name}: {error.message.ja}", f"{name}: {error.message.en}") from None
        emit.set_field(name, "hat_worn", new.worn, rules=new.rules)
        emit.set_field(name, "hat_released", new.released, rules=new.rules, text=said)

    def reward(self, emit: Emit, name: str, args: list[str]) -> None:
        """A keeper pays a reward with 価値観 (refused when it would overspend)."""
        usage = Message(
            "/reward exp|money|item|artifact 量 [名前] [発見目標]",
            "/reward exp|money|item|artifact AMOUNT [NAME] [FOUND-TARGET]",
        )
        if len(args) < 2 or args[0] not in REWARD_KINDS:
            raise fail(f"{usage.ja} です", f"use {usage.en}")
        amount = _number(args[1], Message("量", "the amount"))
        label, found = "", None
        for extra in args[2:]:
            if extra.isdecimal():
                found = int(extra)
            else:
                label = extra
        character = emit.character(name)
        sheet = self._sheet(character)
        if sheet.keeper is None:
            raise fail(f"{name} は管理人ではありません", f"{name} is not a keeper")
        value = int(character.statuses.get("価値観", sheet.keeper.values_percent))
        cfg = self.tracker.cfg(emit)
        try:
            reward = keeper.Reward(REWARD_KINDS[args[0]], amount, label, found)  # type: ignore[arg-type]
            plan = keeper.plan_reward(keeper.KeeperLedger(value), reward, cfg)
        except keeper.KeeperError as error:
            raise fail(error.message.ja, error.message.en) from None
        if not plan.allowed:
            assert plan.reason is not None
            raise fail(f"{name}: {plan.reason.ja}", f"{name}: {plan.reason.en}", "overspending")
        cost = plan.cost
        off = f", 発見割引{cost.discount}%" if cost.discount else ""
        emit.set_status(
            name,
            "価値観",
            plan.balance_after,
            rules=plan.rules,
            note=Message(
                f"{name}: 報酬 {args[0]} {amount}{' ' + label if label else ''} "
                f"= 価値観{cost.cost}% ({cost.base}%{off}) 価値観 {value} → {plan.balance_after}",
                f"{name}: reward {REWARD_KINDS[args[0]]} {amount}{' ' + label if label else ''} "
                f"costs {cost.cost}% of Values ({value} → {plan.balance_after})",
            ),
        )

    # -- what other lines must respect -------------------------------------------
    def refuse_attack(self, emit: Emit, character: Character) -> None:
        """LW-SPECIAL-02/05: no attack while mounted, or in water where the penalty holds."""
        if character.fields.get("mounted"):
            raise fail(
                f"{character.name} は騎乗中なので戦闘できません (/ride off)",
                f"{character.name} is mounted: no combat (/ride off)",
                "special situation",
            )
        if character.fields.get("swimming") and self.tracker.cfg(emit).water_penalty:
            raise fail(
                f"{character.name} は水中なので戦闘できません (/swim off)",
                f"{character.name} is in the water: no combat (/swim off)",
                "special situation",
            )
