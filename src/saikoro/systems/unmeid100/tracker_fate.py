"""``/fate EFFECT`` (UM-FATE-01/02) and ``/gm fate reset``: a fate use spent on the
speaker's last failed check (success), the damage they last took (half, reroll) or the
condition they last received (cancel) — only while it is happening now, before the speaker
acts again (UM-FATE-06); a rescued check finishes what it was for (UM-FATE-05: a hit's
damage, a spell's activation and resistance, and its chant ends)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from saikoro.i18n import Message
from saikoro.systems.unmeid100 import rules as um
from saikoro.systems.unmeid100 import tracker_attack, tracker_damage, tracker_magic
from saikoro.systems.unmeid100.tracker_common import DOWN_LABELS, acts, sheet_of, value_of
from saikoro.table import events as ev
from saikoro.table.emit import Emit, fail

if TYPE_CHECKING:
    from saikoro.systems.unmeid100.tracker import UnmeiTracker


def fate(tracker: UnmeiTracker, emit: Emit, name: str, args: list[str]) -> None:
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
    condition_slot: Any = character.fields.get("_last_condition")
    last_condition: Any = (
        condition_slot.get("label") if isinstance(condition_slot, dict) else condition_slot
    )
    # Refuse before rolling when there is nothing to rescue (the use is not spent).
    if effect is um.Rescue.CHECK_SUCCESS and not last:
        raise fail("成功にする失敗した判定がありません", "no failed check to turn into a success")
    if effect in (um.Rescue.HALVE_DAMAGE, um.Rescue.REROLL_DAMAGE) and not incoming:
        raise fail("軽減するダメージがありません", "no damage taken to rescue")
    if effect is um.Rescue.CANCEL_CONDITION and not (
        last_condition and character.condition(last_condition)
    ):
        raise fail("無効にする状態異常がありません", "no condition to cancel")
    slot = {
        um.Rescue.CHECK_SUCCESS: last,
        um.Rescue.HALVE_DAMAGE: incoming,
        um.Rescue.REROLL_DAMAGE: incoming,
        um.Rescue.CANCEL_CONDITION: condition_slot,
    }[effect]
    _happening_now(emit, name, slot)
    if int(character.fields.get("fate_left", 0)) <= 0:
        raise fail(
            "運命判定の残り回数がありません (UM-FATE-01)", "no fate checks left (UM-FATE-01)"
        )
    refs = tracker.base_references(character)
    roll = emit.randomizer.roll_once(100)
    spent = um.spend_fate(
        int(character.fields.get("fate_left", 0)), roll, value_of(character, refs, "運命")
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
        if last["kind"] in ("melee", "shot"):  # UM-FATE-05: the hit's damage, once
            tracker_attack.hit(
                tracker, emit, name, last["target"], last["expr"], last.get("abilities", []), False
            )
        elif last["kind"] == "cast" and "roll" in last:  # UM-FATE-05: the spell resolves
            tracker_magic.finish_rescued_cast(tracker, emit, name, last)
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
            settings=tracker.cfg(emit),
        )
        new_damage = int(res.damage or 0)
    else:
        new_damage = tracker_damage.roll_damage(tracker, emit, incoming.get("expr") or "1D6")
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


def _happening_now(emit: Emit, name: str, slot: Any) -> None:
    """UM-FATE-06 (seed 「直前に失敗した」「今まさに受ける」): a rescue acts on what is happening
    now: the latest check, damage or condition, before ``name`` acts again. A player's rescue
    of an older one is refused (nothing spent); the GM's line may rule it (logged)."""
    at = slot.get("at") if isinstance(slot, dict) else None
    now = acts(emit.character(name))
    if at is None or int(at) == now:
        return  # (a room from before the count: as it was)
    emit.refuse_or_rule(
        Message(
            f"運命判定で変えられるのは今まさに起きていることだけです: {name} はその後に行動しました "
            "[UM-FATE-06]",
            f"a fate check changes only what is happening now: {name} has acted since [UM-FATE-06]",
        ),
        "not now",
        Message(
            f"GM裁定: {name} はその後に行動したが、運命判定を認める",
            f"GM ruling: {name} has acted since, but the fate check is allowed",
        ),
        {"ruling": "fate later", "name": name},
        ("UM-FATE-06",),
    )


def gm_fate_reset(tracker: UnmeiTracker, emit: Emit, args: list[str]) -> None:
    """``/gm fate reset``: a new session refills every fate count (UM-FATE-01)."""
    if args != ["reset"]:
        raise fail("/gm fate reset です", "use /gm fate reset")
    for character in list(emit.state.characters.values()):
        sheet = sheet_of(character)
        level = int(tracker.references(character).get("レベル", sheet.level))
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
