"""``log.html`` renders every event kind of every registered system (issue 19).

Each registered system's script (tests/verb_scripts.py) uses every verb of its tracker and the
table's own; the log is rendered as the route renders it, for the GM and for a spectator (what
the download publishes), in both languages. 運命判定d100's ``/melee`` stores its result as a
word (``"hit"``), which once made the download answer 500.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from saikoro import systems
from saikoro.dice.randomizer import DiceSource
from saikoro.server.log_html import render_log_html
from saikoro.server.table.service import view_numbered
from saikoro.store.sql import open_store
from saikoro.table import events as ev
from saikoro.table.actors import Actor
from saikoro.table.dispatch import load_character_file
from saikoro.table.events import Event
from saikoro.table.outcome import OUTCOMES, outcome
from saikoro.table.session import TableSession
from tests.verb_scripts import SCRIPTS, verbs_used

#: Kinds no script's lines make (a new kind must be played here or named here): a face is
#: set by an upload, not a line (tests/server/test_faces.py renders it in log.html).
NOT_PLAYED: frozenset[str] = frozenset({ev.ICON_SET})


class FixedFaces:
    """The browser tests' dice (tests/web/conftest.FIXED_FACES): d6 → 4, d100 → 30."""

    yields_faces = True

    def roll(self, sides: int) -> int:
        return {6: 4, 100: 30}.get(sides, 1)


def played(tmp_path: Path, system: str) -> list[tuple[int, Event]]:
    """The script of ``system`` played as the GM: the numbered events of its room."""
    script = SCRIPTS[system]
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = open_store(str(tmp_path / "log.db"))
    source: DiceSource = FixedFaces()
    session = TableSession.open(
        store, f"log-{uuid.uuid4().hex[:8]}", system, gm=True, source=source
    )
    for sheet in script.sheets:
        session.add_sheet(load_character_file(sheet, system))
    for line in script.lines:
        session.run(line)  # raises on a refused line: the script must stay playable
    if session.state.characters:  # a card's edit from the page (sheet_set), as the page makes it
        first = next(iter(session.state.characters))
        session.edit(first, {"notes.メモ": "ログのためのメモ"}, actor=Actor.gm())
    return list(enumerate(store.iter_events(session.room, after=0), start=1))


def test_every_registered_system_has_a_script_using_every_verb() -> None:
    for manifest in systems.manifests():
        assert manifest.id in SCRIPTS, f"tests/verb_scripts.py has no script for {manifest.id}"
        tracker = manifest.tracker_object()
        verbs, gm_verbs = verbs_used(SCRIPTS[manifest.id].lines)
        if tracker is not None:
            assert set(tracker.verbs) <= verbs, set(tracker.verbs) - verbs
            assert set(tracker.gm_verbs) <= gm_verbs, set(tracker.gm_verbs) - gm_verbs


@pytest.mark.parametrize("system", sorted(SCRIPTS))
def test_the_log_renders_every_event_of_every_verb(tmp_path: Path, system: str) -> None:
    numbered = played(tmp_path, system)
    for actor in (Actor.gm(), Actor.spectator()):
        shown = view_numbered(numbered, actor, revealed=set())
        for lang in ("ja", "en"):
            page = render_log_html("卓", system, shown, lang)
            for seq, event in shown:
                if event.text is not None:
                    assert f'id="e{seq}"' in page, (seq, event.kind)
    assert all(outcome(event) in ("", *OUTCOMES) for _, event in numbered)


def test_every_event_kind_is_played_by_some_system(tmp_path: Path) -> None:
    kinds: set[str] = set()
    for system in SCRIPTS:
        kinds |= {event.kind for _, event in played(tmp_path / system, system)}
    assert ev.KINDS - kinds == NOT_PLAYED


def test_tracker_results_are_coloured(tmp_path: Path) -> None:
    """The melee's word result, HP lost and a fate check each get their class."""
    page = render_log_html("卓", "UnmeiD100", played(tmp_path, "UnmeiD100"))
    assert 'class="roll hit"' in page and 'class="roll miss"' in page
    assert 'class="system damage"' in page
    assert 'class="roll success"' in page  # the fate check
