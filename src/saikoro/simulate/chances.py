"""The system's odds of one command, cached: what a policy weighs its options by.

Every chance comes from :func:`saikoro.odds.odds` (the real evaluator, exact where it can
be), under the room's house rules; a fight asks the same few commands again and again.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=4096)
def _chances(command: str, system: str, settings: str) -> tuple[float, float]:
    from saikoro.odds import odds

    found = odds(command, system, settings=json.loads(settings) or None)
    hurt = sum(float(p) for value, p in found.distribution.items() if value > 0)
    mean = float(found.mean) if found.mean is not None else 0.0
    return hurt, mean


@lru_cache(maxsize=4096)
def _success(command: str, system: str, settings: str) -> float:
    from saikoro.odds import odds

    return float(odds(command, system, settings=json.loads(settings) or None).success)


def _key(settings: dict[str, Any] | None) -> str:
    if not settings:
        return "{}"
    return json.dumps(settings, sort_keys=True, ensure_ascii=False)


def damage_chances(
    command: str, system: str, settings: dict[str, Any] | None = None
) -> tuple[float, float]:
    """(chance the command's value is above 0, its mean value): an attack's chance to hurt
    and its expected damage, or a damage roll's (then the first is 1 for ``2D6``)."""
    return _chances(command, system, _key(settings))


def success_chance(command: str, system: str, settings: dict[str, Any] | None = None) -> float:
    """The chance the command succeeds (a hit, for an attack check)."""
    return _success(command, system, _key(settings))
