"""What a 運命判定d100 character holds, and which weapon an attack uses (pure).

The seed: a melee attack hits "with what is in your hand" (手に持っている物で殴る, UM-MELEE-01),
a shot is made "with the bow you hold" (持っている弓, UM-RANGED-01), and changing equipment
takes a turn except dropping a shield to hold the weapon in both hands (UM-SWITCH-01).
So the table keeps, per character, the weapons in hand and whether the shield is still
carried; an attack with a weapon not in hand is refused (UM-EQUIP-01).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from saikoro.i18n import Message
from saikoro.systems.unmeid100.rules import UnmeiRuleError
from saikoro.systems.unmeid100.settings import DEFAULT_SETTINGS, UnmeiSettings


class WeaponLike(Protocol):
    name: str
    damage: str
    ranged: bool
    two_handed: bool
    abilities: list[str]


@dataclass(frozen=True)
class UsedWeapon:
    """The weapon an attack uses: its name, damage dice and abilities (連続/必殺 …)."""

    name: str
    damage: str
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Held:
    """The weapons in hand (names) and whether the shield is still carried."""

    weapons: tuple[str, ...]
    shield: bool


def _refuse(ja: str, en: str, reason: str = "weapon not held") -> UnmeiRuleError:
    return UnmeiRuleError(Message(f"{ja} (UM-EQUIP-01)", f"{en} (UM-EQUIP-01)"), reason=reason)


def initial_held(weapons: Sequence[WeaponLike], held: Sequence[str] | None, shield: bool) -> Held:
    """In hand at the start: the sheet's ``held`` list, else its first weapon (if any)."""
    if held is not None:
        return Held(tuple(held), shield)
    return Held((weapons[0].name,) if weapons else (), shield)


def find_weapon(weapons: Sequence[WeaponLike], name: str) -> WeaponLike:
    for weapon in weapons:
        if weapon.name == name:
            return weapon
    known = "、".join(w.name for w in weapons) or "なし"
    raise _refuse(
        f"武器 {name!r} はシートにありません (あるのは: {known})",
        f"no weapon {name!r} on the sheet (there are: {known})",
        "no such weapon",
    )


def _used(weapon: WeaponLike) -> UsedWeapon:
    return UsedWeapon(weapon.name, weapon.damage, tuple(weapon.abilities))


def melee_weapon(
    weapons: Sequence[WeaponLike],
    held: Held,
    name: str | None = None,
    settings: UnmeiSettings = DEFAULT_SETTINGS,
) -> UsedWeapon:
    """UM-MELEE-01/UM-EQUIP-01: the melee weapon in hand (or the one named, which must be in
    hand and not a bow); with no melee weapon on the sheet at all, the named default
    (``default_melee_weapon``, e.g. 素手 1D6)."""
    if name is not None and name != settings.default_melee_weapon:
        weapon = find_weapon(weapons, name)
        if weapon.ranged:
            raise _refuse(
                f"{name} は射撃武器です: 白兵攻撃には使えません (/shoot)",
                f"{name} is a ranged weapon, not for a melee attack (/shoot)",
                "not a melee weapon",
            )
        if name not in held.weapons:
            raise _refuse(
                f"{name} を手に持っていません (/switch {name} で持ち替え: 1手番)",
                f"{name} is not in hand (/switch {name} takes a turn)",
            )
        return _used(weapon)
    in_hand = [w for w in weapons if w.name in held.weapons and not w.ranged]
    if in_hand and name is None:
        return _used(in_hand[0])
    melee = [w for w in weapons if not w.ranged]
    if melee and name is None:
        raise _refuse(
            f"白兵武器を手に持っていません (/switch {melee[0].name} で持ち替え: 1手番)",
            f"no melee weapon in hand (/switch {melee[0].name} takes a turn)",
        )
    if name is None and held.weapons:
        raise _refuse(
            f"手に持っている {'・'.join(held.weapons)} は白兵武器ではありません",
            f"{', '.join(held.weapons)} in hand is not a melee weapon",
            "not a melee weapon",
        )
    return UsedWeapon(settings.default_melee_weapon, settings.default_melee_damage)


def bow(weapons: Sequence[WeaponLike], held: Held, name: str | None = None) -> UsedWeapon:
    """UM-RANGED-01/UM-EQUIP-01: a shot needs a ranged weapon (a bow) in hand; it uses the
    bow's damage dice."""
    if name is not None:
        weapon = find_weapon(weapons, name)
        if not weapon.ranged:
            raise _refuse(
                f"{name} は射撃武器 (弓) ではありません (/melee)",
                f"{name} is not a ranged weapon (a bow) (/melee)",
                "not a bow",
            )
        candidates = [weapon]
    else:
        candidates = [w for w in weapons if w.ranged]
        if not candidates:
            raise _refuse(
                "射撃攻撃には弓が必要です (シートに射撃武器がありません)",
                "a ranged attack needs a bow (no ranged weapon on the sheet)",
                "no bow",
            )
    for weapon in candidates:
        if weapon.name in held.weapons:
            return _used(weapon)
    wanted = candidates[0].name
    raise _refuse(
        f"{wanted} を手に持っていません (/switch {wanted} で持ち替え: 1手番)",
        f"{wanted} is not in hand (/switch {wanted} takes a turn)",
    )


def take_in_hand(weapons: Sequence[WeaponLike], held: Held, name: str) -> Held:
    """UM-SWITCH-01: take ``name`` in hand instead of what is held (this takes a turn);
    a two-handed weapon cannot be held with the shield, which is put down with it."""
    weapon = find_weapon(weapons, name)
    if name in held.weapons:
        raise _refuse(
            f"{name} はもう手に持っています", f"{name} is already in hand", "already held"
        )
    return Held((name,), held.shield and not weapon.two_handed)


def drop_shield(held: Held) -> Held:
    """UM-SWITCH-01: dropping the shield to take the weapon in both hands uses no turn."""
    if not held.shield:
        raise _refuse("盾を持っていません", "no shield is carried", "no shield")
    return Held(held.weapons, False)
