"""KeptByName: a value is given again only while what it was worked out from is equal."""

from __future__ import annotations

from saikoro.table.kept import KeptByName


def test_a_value_is_kept_while_its_source_is_equal() -> None:
    kept: KeptByName[list[int]] = KeptByName()
    value = kept.put("ken", ({"a": 1}, 3), [1, 2])
    assert kept.get("ken", ({"a": 1}, 3)) is value  # an equal source, other objects
    assert kept.get("ken", ({"a": 2}, 3)) is None
    assert kept.get("ken", ({"a": 1}, 4)) is None
    assert kept.get("mia", ({"a": 1}, 3)) is None


def test_a_full_keeper_starts_afresh() -> None:
    kept: KeptByName[int] = KeptByName(most=2)
    kept.put("a", 1, 10)
    kept.put("b", 1, 20)
    kept.put("c", 1, 30)
    assert kept.get("a", 1) is None and kept.get("b", 1) is None and kept.get("c", 1) == 30
