"""The public Python API: saikoro.roll, saikoro.systems, saikoro.odds, in any import order."""

from __future__ import annotations

import subprocess
import sys

import pytest

import saikoro

SNIPPETS = [
    # the registry first through the package attribute, then through the submodule
    "import saikoro; saikoro.systems['DiceBot']; from saikoro.systems import systems;"
    " import saikoro.systems.littleworld; assert saikoro.systems['LittleWorld'].name == '帽子世界TRPG'",
    # the submodule imported before the package attribute is ever read
    "import saikoro.systems; import saikoro; assert len(saikoro.systems) >= 3;"
    " assert 'UnmeiD100' in saikoro.systems; assert saikoro.systems['UnmeiD100'].id == 'UnmeiD100'",
    "import saikoro; saikoro.roll('2D6'); assert saikoro.roll('1D6', rands=[(4, 6)]).text == '(1D6) ＞ 4'",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_public_names_work_in_any_import_order(snippet: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_roll_returns_bcdice_result_or_none() -> None:
    result = saikoro.roll("2D6>=7", rands=[(3, 6), (4, 6)])
    assert result is not None
    assert (result.text, result.success, result.failure) == (
        "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功",
        True,
        False,
    )
    assert result.value == 7
    assert saikoro.roll("こんにちは") is None


def test_registry_lists_every_system_with_its_identity() -> None:
    ids = {s.id: s for s in saikoro.systems.sorted_by_sort_key()}
    assert {"DiceBot", "LittleWorld", "UnmeiD100"} <= set(ids)
    assert ids["LittleWorld"].sort_key == "ほうしせかいTRPG"
    assert ids["UnmeiD100"].sort_key == "うんめいはんていD100"
    for system in ids.values():
        assert system.help_message and system.command_pattern.pattern
    with pytest.raises(saikoro.SaikoroError, match="unknown game system"):
        saikoro.roll("2D6", "NoSuchSystem")
