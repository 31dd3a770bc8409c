"""Policies: how a side picks its line each turn — small pure functions of the situation.

Built in: ``best`` (the default: attack the opponent it is most likely to hurt, by the
system's odds), ``focus-weakest`` (the opponent with the least HP it can hurt) and
``random``. Every built-in policy spends a fate check when it would keep a character
standing (systems that have them). Add your own with :func:`register_policy`, an entry
point in the group ``saikoro.policies``, or ``--policy module:function`` (a function of a
:class:`~saikoro.simulate.model.Situation` returning the line, or a
:class:`~saikoro.simulate.model.Policy`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from saikoro.simulate.model import Choose, Option, Policy, Situation
from saikoro.simulate.setup import error

ENTRY_POINTS = "saikoro.policies"


def _best_odds(option: Option) -> tuple[float, float, str]:
    return (-option.hurt, -option.damage, option.target)


def best(situation: Situation) -> str | None:
    """The attack most likely to do damage (then the most expected damage)."""
    if not situation.options:
        return None
    return min(situation.options, key=_best_odds).line


def focus_weakest(situation: Situation) -> str | None:
    """An attack on the opponent with the least HP among those it can hurt at all."""
    hurting = [o for o in situation.options if o.hurt > 0] or list(situation.options)
    if not hurting:
        return None
    least = min(situation.character(o.target).hp for o in hurting)
    return best(
        Situation(
            situation.state,
            situation.actor,
            tuple(o for o in hurting if situation.character(o.target).hp == least),
            situation.rng,
        )
    )


def random_attack(situation: Situation) -> str | None:
    """Any of the attacks it may make, at random (the fight's own seeded source)."""
    if not situation.options:
        return None
    return situation.rng.choice(situation.options).line


POLICIES: dict[str, Policy] = {
    "best": Policy("best", best),
    "focus-weakest": Policy("focus-weakest", focus_weakest),
    "random": Policy("random", random_attack),
}

DEFAULT_POLICY = "best"


def register_policy(name: str, choose: Choose | Policy) -> Policy:
    """Make a policy available by name (``--policy NAME``)."""
    policy = choose if isinstance(choose, Policy) else Policy(name, choose)
    POLICIES[name] = policy
    return policy


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=ENTRY_POINTS)}


def _as_policy(name: str, found: Any) -> Policy:
    if isinstance(found, Policy):
        return found
    if callable(found):
        chooser: Callable[[Situation], str | Option | None] = found
        return Policy(name, chooser)
    raise error(f"ポリシー {name!r} は関数ではありません", f"the policy {name!r} is not a function")


def get_policy(name: str) -> Policy:
    """A policy by name: built in or registered, an entry point, or ``module:function``."""
    if name in POLICIES:
        return POLICIES[name]
    points = _entry_points()
    if name in points:
        return _as_policy(name, points[name].load())
    module_name, colon, attribute = name.partition(":")
    if colon and module_name and attribute:
        try:
            module = importlib.import_module(module_name)
            found = getattr(module, attribute)
        except (ImportError, AttributeError) as failure:
            raise error(
                f"ポリシー {name!r} を読み込めません: {failure}"
                " (モジュールは今のフォルダか PYTHONPATH に置きます)",
                f"cannot load the policy {name!r}: {failure}"
                " (the module goes in the current folder or on PYTHONPATH)",
            ) from None
        return _as_policy(name, found)
    known = ", ".join([*POLICIES, *points])
    raise error(
        f"ポリシー {name!r} はありません ({known}、または モジュール:関数)",
        f"no policy {name!r} ({known}, or module:function)",
    )
