"""A room's log as one self-contained HTML file (the CCFOLIA-style log players keep).

Pure: numbered events (already filtered by ``view_event`` for the reader) in, a page out.
Inline CSS only — no script, font, image or any other request — so the file opens
offline and can be published as is. Each speaker has a colour of their own (stable: from
a hash of the name), dice results are marked (the result after the last ``＞``, and
success / failure / critical / fumble classes), rule notices and status changes are
shown as quieter system lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from html import escape

from saikoro.table.events import CHAT, ROLL, Event

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
.success .result{color:#0a7d2c}.failure .result{color:#b00020}
.critical .result{color:#0050d0}.fumble .result{color:#8b0000}
.secret{font-size:.75em;border:1px solid #999;border-radius:3px;padding:0 .3em;margin-left:.4em}
"""


def speaker_colour(name: str) -> str:
    """A readable colour of one's own per speaker (the same in every log)."""
    if name.upper() in GM_NAMES:
        return "#c0392b"
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    return f"hsl({hue},60%,35%)"


def _time(at: str) -> str:
    return at[11:16] if len(at) >= 16 else ""


def _outcome_class(event: Event) -> str:
    result = event.data.get("result") or {}
    for key in ("critical", "fumble", "success", "failure"):
        if result.get(key):
            return key
    return ""


def _roll_body(text: str) -> str:
    """The dice text with its result (after the last ``＞``) marked."""
    head, sep, tail = text.rpartition("＞")
    if not sep:
        return f'<span class="dice">{escape(text)}</span>'
    return f'<span class="dice">{escape(head)}{sep}</span> <span class="result">{escape(tail.strip())}</span>'


def render_line(seq: int, event: Event, lang: str) -> str | None:
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
    time = f'<span class="time">{escape(_time(event.at))}</span>'
    if not speaking:
        return f'<li class="system" id="e{seq}">{time}{escape(event.text.text(lang))}</li>'
    name = (
        f'<span class="who" style="color:{speaker_colour(who)}">{escape(who)}</span>' if who else ""
    )
    if event.kind == ROLL:
        classes = " ".join(c for c in ("roll", _outcome_class(event)) if c)
        mark = '<span class="secret">secret</span>' if event.secret else ""
        return f'<li class="{classes}" id="e{seq}">{time}{name}{_roll_body(text)}{mark}</li>'
    return f'<li class="chat" id="e{seq}">{time}{name}{escape(text)}</li>'


def render_log_html(room: str, system: str, numbered: Iterable[Numbered], lang: str = "ja") -> str:
    """The whole page."""
    lines = [line for seq, event in numbered if (line := render_line(seq, event, lang))]
    title = f"{room} — saikoro log"
    count = f"{len(lines)} 行" if lang == "ja" else f"{len(lines)} lines"
    return (
        "<!doctype html>\n"
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(room)}</h1>"
        f'<p class="meta">{escape(system)} · {count}</p>'
        "<ol>\n" + "\n".join(lines) + "\n</ol></body></html>\n"
    )
