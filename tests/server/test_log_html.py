"""The HTML log: self-contained (nothing fetched), speaker colours, dice results marked."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from saikoro.i18n import Message
from saikoro.server.log_html import GM_COLOUR, SPEAKER_COLOURS, render_log_html
from saikoro.table.events import Event


def _roll(actor: str, text: str, **result: bool) -> Event:
    return Event(
        "roll",
        {"command": "2D6", "result": {"text": text, **result}},
        actor=actor,
        command_id="c1",
        at="2026-12-01T03:04:05.000+00:00",
        text=Message(f"{actor}: {text}", f"{actor}: {text}"),
    )


def _chat(actor: str, text: str) -> Event:
    return Event("chat", {"text": text}, actor=actor, text=Message(f"{actor}: {text}", text))


class _Fetches(HTMLParser):
    """Every attribute that would make a browser fetch something."""

    def __init__(self) -> None:
        super().__init__()
        self.fetching: list[tuple[str, str, str | None]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "poster", "data"):
                self.fetching.append((tag, name, value))


def test_the_log_is_self_contained_and_shows_every_line() -> None:
    events = [
        (2, _chat("ギン", "よろしく <b>お願い</b>")),
        (3, _roll("ギン", "(2D6>=7) ＞ 9[4,5] ＞ 9 ＞ 成功", success=True)),
        (4, _roll("GM", "(1D100<=5) ＞ 99 ＞ ファンブル", fumble=True, failure=True)),
        (5, Event("status_set", {}, actor="GM", text=Message("ゴブリン HP 5 → 2", "HP"))),
        (6, Event("status_set", {}, actor="GM")),  # no text: not shown
    ]
    page = render_log_html("卓 <1>", "DiceBot", events)
    parser = _Fetches()
    parser.feed(page)
    assert parser.fetching == []
    assert "script" not in parser.tags and "link" not in parser.tags
    assert "url(" not in page and "@import" not in page and "http" not in page
    assert "<b>お願い</b>" not in page and "&lt;b&gt;お願い&lt;/b&gt;" in page
    assert "卓 &lt;1&gt;" in page
    assert page.count("<li") == 4
    assert re.search(
        r'class="roll success" id="e3" data-tab="main">.*<span class="result">成功</span>', page
    )
    assert 'class="roll fumble"' in page
    assert '<li class="system" id="e5" data-tab="main">' in page
    assert "12:04" in page and "日本時間" in page  # 03:04 UTC is 12:04 in Japan


def test_each_speaker_keeps_a_colour_of_their_own() -> None:
    names = ["ギン", "クロ", "アリス", "ゴブリン", "GM", "ＧＭ"]
    page = render_log_html("r", "DiceBot", [(i, _chat(n, "a")) for i, n in enumerate(names)])
    colours = re.findall(r'class="who" style="color:([^"]+)"', page)
    assert colours[:4] == list(SPEAKER_COLOURS[:4])  # distinct, in order of appearance
    assert colours[4] == colours[5] == GM_COLOUR
    again = render_log_html("r", "DiceBot", [(9, _chat("ギン", "b")), (10, _chat("ギン", "c"))])
    assert again.count(f"color:{SPEAKER_COLOURS[0]}") == 2


def test_english_log() -> None:
    page = render_log_html("r", "DiceBot", [(2, _chat("Gin", "hello"))], lang="en")
    assert '<html lang="en">' in page and "1 lines" in page and "times in UTC" in page


def _long_room(tmp_path, count: int):  # type: ignore[no-untyped-def]
    """A DiceBot room of ``count`` events (chat and rolls), written straight to the store."""
    from saikoro.server.table.service import TableService
    from saikoro.table.events import ROOM_CREATED

    service = TableService(str(tmp_path / f"rooms-{count}.db"))
    first = Event(ROOM_CREATED, {"room": "長卓", "system": "DiceBot"}, command_id="c0")
    room = service.store.create_room("長卓", "DiceBot", first)
    version = 1
    while version < count:
        batch = [
            _chat("ギン", f"発言 {version + i} です") if i % 2 else _roll("GM", "(2D6) ＞ 7 ＞ 7")
            for i in range(min(2000, count - version))
        ]
        version = service.store.append(room, version, batch)
    return service, room


def test_log_html_of_a_100k_event_room_streams_in_bounded_memory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The page is handed on in chunks as the store is read: the peak of allocated memory
    while streaming 100 000 events stays near that of 10 000 (not ten times it), and no
    chunk holds more than a few hundred lines."""
    import tracemalloc

    from saikoro.server.log_html import CHUNK_LINES, iter_log_html

    peaks = {}
    for count in (10_000, 100_000):
        service, room = _long_room(tmp_path, count)
        try:
            revealed = service.revealed(room)
            tracemalloc.start()
            total, largest, lines = 0, 0, 0
            for chunk in iter_log_html(
                room.name, room.system, service.published_events(room, revealed)
            ):
                total += len(chunk)
                largest = max(largest, chunk.count("<li"))
                lines += chunk.count("<li")
            peaks[count] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        finally:
            service.store.close()
        assert lines == count - 1  # every event but the room's creation (no text) has a line
        assert largest <= CHUNK_LINES
    assert peaks[100_000] < 2 * peaks[10_000], peaks
