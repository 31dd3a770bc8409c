"""A room's log as one self-contained HTML file (the CCFOLIA-style log players keep).

Pure: numbered events (already filtered by ``view_event`` for the reader) in, a page out.
Inline CSS only — no script, font, image or any other request — so the file opens
offline and can be published as is. Each speaker has a colour of their own (distinct
colours in order of first appearance), times are Japan time in a Japanese log and UTC in an
English one (said at the top), dice results are marked (the result after the last ``＞``, and
the outcome's class: success / failure / critical / fumble, hit / miss, damage / heal —
:func:`saikoro.table.outcome.outcome`), rule notices and status changes are
shown as quieter system lines. Every line carries its chat tab (``data-tab``, and its name
before the line, as CCFOLIA's log writes ``[メイン]``); a whisper is marked. A speaker's
face (:class:`Faces`: as the log's ``icon_set`` events gave it at that line) is an ``<img>``
whose source is a ``data:`` URL — in the file itself, so it still opens offline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from html import escape

from saikoro.table.events import CHAT, ICON_SET, ROLL, Event
from saikoro.table.outcome import outcome
from saikoro.table.tabs import BUILTIN_TABS

Numbered = tuple[int, Event]

#: Speakers shown in the GM's colour.
GM_NAMES = frozenset({"GM", "ＧＭ"})

STYLE = """
body{font-family:"Noto Sans CJK JP","Hiragino Sans","Yu Gothic",sans-serif;background:#fafafa;
color:#222;max-width:60em;margin:1.5em auto;padding:0 1em;line-height:1.6}
h1{font-size:1.3em;border-bottom:2px solid #ccc;padding-bottom:.3em}
.meta{color:#777;font-size:.85em}
ol{list-style:none;padding:0;margin:0}
li{padding:.25em .4em;border-bottom:1px solid #eee}
li.system{color:#666;font-size:.9em;background:#f3f3f3}
.time{color:#999;font-size:.8em;margin-right:.6em;font-variant-numeric:tabular-nums}
.who{font-weight:bold;margin-right:.5em}
.roll .dice{background:#eef3ff;border-radius:3px;padding:0 .2em}
.result{font-weight:bold}
.success .result{color:#0a7d2c}.failure .result{color:#5b5650}
.critical .result{color:#fff;background:#0a4fa8;border-radius:3px;padding:0 .25em}
.fumble .result{color:#fff;background:#a1121a;border-radius:3px;padding:0 .25em}
.hit .result{color:#0a7d2c}.miss .result{color:#5b5650}.damage .result{color:#a1121a}
li.critical{background:#eaf1fc}li.fumble{background:#fcebec}
li.system.damage{color:#a1121a}li.system.heal{color:#0a7d2c}
li.system.hit,li.system.success{color:#0a7d2c}li.system.miss,li.system.failure{color:#5b5650}
.secret{font-size:.75em;border:1px solid #999;border-radius:3px;padding:0 .3em;margin-left:.4em}
.tab{color:#888;font-size:.8em;margin-right:.5em}
li.whisper{background:#f6effa}
.face{width:2em;height:2em;border-radius:4px;object-fit:cover;vertical-align:middle;margin-right:.4em}
"""


#: The GM's colour, and the speakers' in order of first appearance: dark enough to read on
#: the page's background and far enough apart to tell (after these, they repeat).
GM_COLOUR = "#c0392b"
SPEAKER_COLOURS = (
    "#1f5fbf", "#1e7b34", "#8e44ad", "#b35900", "#00797a", "#a0226a",
    "#4b5c00", "#5b3cc4", "#7a4a1e", "#006ea8", "#8a1c1c", "#2f6f4f",
)  # fmt: skip

#: The clock of the log's times per language (a Japanese group plays on Japan time).
CLOCKS = {"ja": (timezone(timedelta(hours=9)), "時刻は日本時間 (JST)"), "en": (UTC, "times in UTC")}


class SpeakerColours:
    """Each speaker's colour in one log."""

    def __init__(self) -> None:
        self.given: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        if name.upper() in GM_NAMES:
            return GM_COLOUR
        if name not in self.given:
            self.given[name] = SPEAKER_COLOURS[len(self.given) % len(SPEAKER_COLOURS)]
        return self.given[name]


class Faces:
    """Each character's face as the log goes: follows the ``icon_set`` events of the log
    (:meth:`follow`, before any filter of its lines) and gives a speaker's face as a
    ``data:`` URL (``data_url(digest)``, made once per image; None: no such image)."""

    def __init__(self, data_url: Callable[[str], str | None]) -> None:
        self.data_url = data_url
        self.current: dict[str, str] = {}
        self.made: dict[str, str | None] = {}

    def follow(self, numbered: Iterable[Numbered]) -> Iterator[Numbered]:
        for seq, event in numbered:
            if event.kind == ICON_SET:
                name, digest = str(event.data.get("name", "")), event.data.get("icon")
                if isinstance(digest, str) and digest:
                    self.current[name] = digest
                else:
                    self.current.pop(name, None)
            yield seq, event

    def of(self, name: str) -> str | None:
        digest = self.current.get(name)
        if digest is None:
            return None
        if digest not in self.made:
            self.made[digest] = self.data_url(digest)
        return self.made[digest]


def _time(at: str, lang: str) -> str:
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return ""
    clock = CLOCKS.get(lang, CLOCKS["en"])[0]
    return moment.astimezone(clock).strftime("%H:%M") if moment.tzinfo else ""


def _roll_body(text: str) -> str:
    """The dice text with its result (after the last ``＞``) marked."""
    head, sep, tail = text.rpartition("＞")
    if not sep:
        return f'<span class="dice">{escape(text)}</span>'
    return f'<span class="dice">{escape(head)}{sep}</span> <span class="result">{escape(tail.strip())}</span>'


def render_line(
    seq: int,
    event: Event,
    lang: str,
    colours: SpeakerColours | None = None,
    faces: Faces | None = None,
) -> str | None:
    """One ``<li>`` of the log, or None for an event with nothing to show."""
    if event.text is None:
        return None
    text = event.text.text(lang)
    who = event.actor
    speaking = event.kind in (CHAT, ROLL)
    prefix = f"{who}: "
    if who and text.startswith(prefix):
        text = text[len(prefix) :]
    elif speaking and ": " in text:  # a speaker shown by the core (GM / プレイヤー)
        who, _, text = text.partition(": ")
    tab = event.shown_tab
    time = f'<span class="time">{escape(_time(event.at, lang))}</span>{_tab_label(tab, lang)}'
    at = f'id="e{seq}" data-tab="{escape(tab)}"'
    result = outcome(event)
    if not speaking:
        classes = " ".join(c for c in ("system", result) if c)
        return f'<li class="{classes}" {at}>{time}{escape(event.text.text(lang))}</li>'
    name = (
        f'<span class="who" style="color:{(colours or SpeakerColours())(who)}">{escape(who)}</span>'
        if who
        else ""
    )
    face = faces.of(event.actor) if faces is not None and event.actor else None
    if face is not None:
        name = f'<img class="face" src="{escape(face)}" alt="">{name}'
    if event.kind == ROLL:
        classes = " ".join(c for c in ("roll", result) if c)
        mark = '<span class="secret">secret</span>' if event.secret else ""
        return f'<li class="{classes}" {at}>{time}{name}{_roll_body(text)}{mark}</li>'
    classes = "chat whisper" if event.whisper else "chat"
    return f'<li class="{classes}" {at}>{time}{name}{escape(text)}</li>'


def _tab_label(tab: str, lang: str) -> str:
    label = BUILTIN_TABS[tab].text(lang) if tab in BUILTIN_TABS else tab
    return f'<span class="tab">[{escape(label)}]</span>'


#: Lines rendered before a chunk of the page is handed on (the page is never whole in memory).
CHUNK_LINES = 256


def render_log_html(
    room: str,
    system: str,
    numbered: Iterable[Numbered],
    lang: str = "ja",
    faces: Faces | None = None,
) -> str:
    """The whole page."""
    return "".join(iter_log_html(room, system, numbered, lang, faces))


def iter_log_html(
    room: str,
    system: str,
    numbered: Iterable[Numbered],
    lang: str = "ja",
    faces: Faces | None = None,
) -> Iterator[str]:
    """The page in chunks of at most :data:`CHUNK_LINES` lines, as ``numbered`` is read
    (a 100 000-event room streams in bounded memory); the line count closes the page."""
    title = f"{room} — saikoro log"
    yield (
        "<!doctype html>\n"
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(room)}</h1>"
        f'<p class="meta">{escape(system)} · {CLOCKS.get(lang, CLOCKS["en"])[1]}</p>'
        "<ol>\n"
    )
    colours = SpeakerColours()
    count = 0
    chunk: list[str] = []
    for seq, event in numbered:
        line = render_line(seq, event, lang, colours, faces)
        if line is None:
            continue
        count += 1
        chunk.append(line)
        if len(chunk) >= CHUNK_LINES:
            yield "\n".join(chunk) + "\n"
            chunk.clear()
    if chunk:
        yield "\n".join(chunk) + "\n"
    shown = f"{count} 行" if lang == "ja" else f"{count} lines"
    yield f'</ol><p class="meta">{shown}</p></body></html>\n'
