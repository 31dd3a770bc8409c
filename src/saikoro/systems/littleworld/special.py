"""Special situations of 帽子世界TRPG (LW-SPECIAL-01…08) as pure gate functions.

Each gate answers "may this be done, and does it need a check?" as a
:class:`Permission`. Refusals can be overridden by the GM (``gm_override=True``):
the permission then says so, for the log.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.systems.littleworld.settings import DEFAULT_SETTINGS, LittleWorldSettings

__all__ = [
    "HerbAttempt",
    "HerbLedger",
    "Permission",
    "SpecialError",
    "breath_limit_seconds",
    "electronics",
    "gather_herbs",
    "herb_gathering",
    "herbs_at_scenario_end",
    "is_kanazuchi",
    "is_machine_onchi",
    "language",
    "normalise_action",
    "riding",
    "specialist_action",
    "specialist_key",
    "swimming",
    "vehicle",
]


T = TypeVar("T")


class SpecialError(SaikoroError):
    reason = "special situation rule"


@dataclass(frozen=True)
class Permission:
    """``allowed``: may be attempted; ``check``: the ability of the check it needs (or None);
    ``reason``: why refused; ``gm_override``: allowed only because the GM said so."""

    allowed: bool
    check: str | None
    reason: Message | None
    rules: tuple[str, ...]
    gm_override: bool = False


def _gate(
    allowed: bool,
    reason: Message | None,
    rules: tuple[str, ...],
    gm_override: bool,
    check: str | None = None,
) -> Permission:
    if allowed:
        return Permission(True, check, None, rules)
    if gm_override:
        return Permission(True, check, reason, rules, gm_override=True)
    return Permission(False, None, reason, rules)


_VERB_ENDINGS = ("をします", "をする", "します", "する")


def normalise_action(text: str) -> str:
    """An action's name as typed, comparable: full-/half-width and case folded (NFKC),
    spaces dropped, a trailing する (をする, します) dropped: ``偵察する`` → ``偵察``."""
    key = "".join(unicodedata.normalize("NFKC", text).casefold().split())
    for ending in _VERB_ENDINGS:
        if key.endswith(ending) and len(key) > len(ending):
            return key.removesuffix(ending)
    return key


def specialist_key(action: str, settings: LittleWorldSettings = DEFAULT_SETTINGS) -> str:
    """The specialist action ``action`` names (``忍び足`` → ``足音を立てない歩行``, ``落とし穴``
    → ``罠設置``: setting ``specialist_names``), or ``action`` itself when it names none."""
    typed = normalise_action(action)
    for key in settings.specialist_cards:
        names = (key, *settings.specialist_names.get(key, ()))
        if any(normalise_action(name) == typed for name in names):
            return key
    return action


def specialist_action(
    action: str,
    skill_cards: Iterable[str],
    *,
    gm_override: bool = False,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> Permission:
    """LW-SPECIAL-01: 罠設置 (incl. 落とし穴, 鳴子), 開錠, 偵察, 潜入, 足音を立てない歩行, 尾行,
    読心 need their skill card, under whatever name they are typed (``specialist_names``);
    without it the action is refused, no roll (GM may override). Other actions are not
    specialist and are allowed."""
    key = specialist_key(action, settings)
    cards = settings.specialist_cards.get(key)
    rules = ("LW-SPECIAL-01",)
    if cards is None:
        return Permission(True, None, None, ())
    held = {normalise_action(c) for c in skill_cards}
    ok = any(normalise_action(c) in held for c in cards)
    also = "" if key == action else f" ({key})"
    reason = Message(
        f"「{action}」{also}にはスキルカード「{'」か「'.join(cards)}」が必要です",
        f"'{action}'{also} needs the skill card {' or '.join(cards)}",
    )
    return _gate(ok, reason, rules, gm_override)


def riding(
    animal: str = "馬",
    *,
    in_combat: bool = False,
    swimming: bool = False,
    gm_override: bool = False,
) -> Permission:
    """LW-SPECIAL-02: riding a horse needs a 技巧 check and no fighting while mounted; other
    animals are the GM's call (allowed only with ``gm_override``). Nobody mounts while
    swimming or under water (LW-SPECIAL-05: leave the water first)."""
    rules = ("LW-SPECIAL-02",)
    if swimming:
        return _gate(
            False,
            Message(
                "水泳中・水中では騎乗できません (/swim off で水から上がってから)",
                "no riding while swimming or under water (leave the water first: /swim off)",
            ),
            ("LW-SPECIAL-02", "LW-SPECIAL-05"),
            gm_override,
            check="技巧",
        )
    if in_combat:
        return _gate(
            False,
            Message("騎乗したままでは戦闘できません", "no combat while mounted"),
            rules,
            gm_override,
        )
    if animal != "馬":
        return _gate(
            False,
            Message(f"{animal}に乗れるかはGMが判断します", f"riding a {animal} is the GM's call"),
            rules,
            gm_override,
            check="技巧",
        )
    return Permission(True, "技巧", None, rules)


def _names_vehicle(kind: str, entries: Iterable[str]) -> bool:
    """``kind`` is one of ``entries``, or ends with one of two or more characters
    (大型ボート is a ボート, 戦闘ヘリ a ヘリ; 風船 is not a 船)."""
    typed = normalise_action(kind)
    for entry in entries:
        key = normalise_action(entry)
        if typed == key or (len(key) >= 2 and typed.endswith(key)):
            return True
    return False


def vehicle(
    kind: str, *, gm_override: bool = False, settings: LittleWorldSettings = DEFAULT_SETTINGS
) -> Permission:
    """LW-SPECIAL-03: no ships, planes or other licence-only vehicles (``licence_vehicles``);
    cars and bikes (``check_vehicles``) need a 技巧 check (LW-ABIL-02 車やバイクの運転); any
    other vehicle is the GM's call (allowed only with ``gm_override``, with the same check)."""
    rules = ("LW-SPECIAL-03",)
    if _names_vehicle(kind, settings.licence_vehicles):
        return _gate(
            False,
            Message(
                f"{kind}は特殊な免許が必要な乗り物なので操作できません",
                f"a {kind} needs a special licence: PCs cannot operate it",
            ),
            rules,
            gm_override,
        )
    if _names_vehicle(kind, settings.check_vehicles):
        return Permission(True, "技巧", None, rules)
    return _gate(
        False,
        Message(
            f"{kind}は車・バイクでも免許の要る乗り物でもありません: 操作できるかはGMが判断します",
            f"a {kind} is neither a car or bike nor a licence vehicle: the GM decides "
            "whether it can be driven",
        ),
        rules,
        gm_override,
        check="技巧",
    )


def is_kanazuchi(body: int, opted_in: bool = False) -> bool:
    """LW-SPECIAL-04: 体力 1 → カナヅチ; anyone may opt in (no benefit)."""
    return body <= 1 or opted_in


def is_machine_onchi(intellect: int) -> bool:
    """LW-SPECIAL-06: 理知 1 → 機械オンチ."""
    return intellect <= 1


def swimming(
    body: int,
    *,
    kanazuchi_opt_in: bool = False,
    fighting: bool = False,
    mounted: bool = False,
    gm_override: bool = False,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> Permission:
    """LW-SPECIAL-04/05: a カナヅチ cannot swim; no combat while swimming or under water
    (unless the world waives the water penalty); a mounted character dismounts first
    (LW-SPECIAL-02: riding and swimming do not go together)."""
    if mounted:
        return _gate(
            False,
            Message(
                "騎乗したままでは泳げません (/ride off で降りてから)",
                "no swimming while mounted (dismount first: /ride off)",
            ),
            ("LW-SPECIAL-02", "LW-SPECIAL-04"),
            gm_override,
        )
    if is_kanazuchi(body, kanazuchi_opt_in):
        return _gate(
            False,
            Message("カナヅチなので泳げません", "a non-swimmer cannot swim"),
            ("LW-SPECIAL-04",),
            gm_override,
        )
    if fighting and settings.water_penalty:
        return _gate(
            False,
            Message("水泳中・水中では戦闘できません", "no combat while swimming or under water"),
            ("LW-SPECIAL-05",),
            gm_override,
        )
    return Permission(True, "体力", None, ("LW-SPECIAL-04", "LW-SPECIAL-05"))


def breath_limit_seconds(body: int, settings: LittleWorldSettings = DEFAULT_SETTINGS) -> int | None:
    """LW-SPECIAL-05: breath-hold limit ≈ 体力 × 30 s; None where the world waives it."""
    if not settings.water_penalty:
        return None
    return body * settings.breath_seconds_per_body


def electronics(intellect: int, *, gm_override: bool = False) -> Permission:
    """LW-SPECIAL-06: a 機械オンチ (理知 1) cannot operate any electronic device."""
    return _gate(
        not is_machine_onchi(intellect),
        Message(
            "機械オンチなので電子機器を操作できません",
            "hopeless with machines (Intellect 1): cannot operate electronics",
        ),
        ("LW-SPECIAL-06",),
        gm_override,
    )


def language(special: bool) -> Permission:
    """LW-SPECIAL-07: common language is free; a world-specific, ancient, magic or
    programming language needs a 理知 check."""
    return Permission(True, "理知" if special else None, None, ("LW-SPECIAL-07",))


@dataclass(frozen=True)
class HerbLedger:
    """The fields (野山) where herbs were gathered in the current scenario."""

    fields: frozenset[str] = frozenset()


@dataclass(frozen=True)
class HerbAttempt:
    success: bool
    herb: str | None
    ledger: HerbLedger
    rules: tuple[str, ...] = ("LW-SPECIAL-08",)


def herb_gathering(
    skill_cards: Iterable[str],
    field: str,
    ledger: HerbLedger,
    *,
    wild_plants: bool = True,
    gm_override: bool = False,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> Permission:
    """LW-SPECIAL-08: only with スカウト, 錬金術師 or 農民, where wild plants grow, once per
    field per scenario; a 技巧 check."""
    rules = ("LW-SPECIAL-08",)
    held = set(skill_cards)
    if not any(c in held for c in settings.herb_cards):
        reason = Message(
            f"野草採取にはスキルカード「{'」「'.join(settings.herb_cards)}」のどれかが必要です",
            f"herb gathering needs one of the skill cards {', '.join(settings.herb_cards)}",
        )
        return _gate(False, reason, rules, gm_override)
    if not wild_plants:
        reason = Message("ここには野草が生えていません", "no wild plants grow here")
        return _gate(False, reason, rules, gm_override)
    if field in ledger.fields:
        reason = Message(
            f"{field}ではこのシナリオで既に野草採取しました",
            f"herbs were already gathered at {field} in this scenario",
        )
        return _gate(False, reason, rules, gm_override)
    return Permission(True, "技巧", None, rules)


def gather_herbs(
    check_total: int,
    field: str,
    ledger: HerbLedger,
    *,
    herb: str = "薬草",
    target: int | None = None,
    critical: bool = False,
    fumble: bool = False,
    settings: LittleWorldSettings = DEFAULT_SETTINGS,
) -> HerbAttempt:
    """LW-SPECIAL-08: the 技巧 check's 達成値 against ``target`` (default about 10) gives
    薬草 or 解毒草; the field is used up for the scenario whatever the outcome."""
    if herb not in ("薬草", "解毒草"):
        raise SpecialError(
            Message(
                "野草採取で得られるのは薬草か解毒草です",
                "a herb is 薬草 (medicinal herb) or 解毒草 (antidote herb)",
            )
        )
    goal = settings.herb_target if target is None else target
    success = critical or (not fumble and check_total >= goal)
    used = replace(ledger, fields=ledger.fields | {field})
    return HerbAttempt(success, herb if success else None, used)


def herbs_at_scenario_end(items: Sequence[T]) -> tuple[list[T], list[T]]:
    """LW-SPECIAL-08: herbs gathered in a world cannot leave it and are lost when the scenario
    ends. ``items`` have a ``scenario_only`` flag (the sheet's :class:`Item`); returns
    (kept, lost)."""
    kept: list[T] = []
    lost: list[T] = []
    for item in items:
        (lost if getattr(item, "scenario_only", False) else kept).append(item)
    return kept, lost
