"""Running UnmeiD100 table lines through ``saikoro play`` (tests/table/helpers) for issue 13."""

from __future__ import annotations

import uuid

from tests.table.helpers import SHEETS, by_name, errors, final_state, play

UM = "UnmeiD100"
#: リン's turn over → オーク's two turns (行動力2) → the next round starts with リン.
NEXT_ROUND = ("/next", "/next", "/next")


def run(tmp_path, lines, rands=(), **kw):
    sheets = kw.pop("sheets", ("rin", "ken", "mia", "orc"))
    added = [f"/char add {SHEETS}/{name}.json" for name in sheets]
    out = play(
        str(tmp_path / "t.db"),
        "r" + uuid.uuid4().hex[:6],
        [*added, *lines, "/state"],
        list(rands),
        system=UM,
        **kw,
    )
    return out[len(added) :]


def refused(out):
    return [o["line"] for o in errors(out)]


def chars(out):
    return by_name(final_state(out))


def text(out, line):
    return next(o for o in out if o["line"] == line)
