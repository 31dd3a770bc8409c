"""Running ``saikoro play`` from tests: in-process (Typer's CliRunner) or as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

SHEETS = Path(__file__).parent / "sheets"


def _play_args(
    db: str,
    room: str,
    rands: list[str] | None,
    system: str | None,
    gm: bool,
    speaker: str | None = None,
) -> list[str]:
    """``play --db DB --room ROOM --json`` and the options given."""
    args = ["play", "--db", db, "--room", room, "--json"]
    if system:
        args += ["--system", system]
    if gm:
        args.append("--gm")
    if speaker:
        args += ["--as", speaker]
    if rands is not None:
        args += ["--rands", ",".join(rands)]
    return args


def play(
    db: str,
    room: str,
    lines: list[str],
    rands: list[str] | None = None,
    *,
    system: str | None = None,
    gm: bool = True,
    speaker: str | None = None,
    lang: str = "ja",
) -> list[dict[str, Any]]:
    """Run lines through ``saikoro play --json`` in-process; one JSON object per line."""
    from saikoro.cli.main import app

    args = _play_args(db, room, rands, system, gm, speaker)
    result = CliRunner().invoke(
        app, args, input="\n".join(lines) + "\n", env={"SAIKORO_LANG": lang}
    )
    out = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return out


def play_process(
    db: str,
    room: str,
    lines: list[str],
    rands: list[str] | None = None,
    *,
    system: str | None = None,
    gm: bool = True,
) -> subprocess.Popen[str]:
    """Start ``python -m saikoro play --json`` as another process (feed it ``lines``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "saikoro", *_play_args(db, room, rands, system, gm)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=str(SHEETS),
        env={**os.environ, "SAIKORO_LANG": "ja"},
    )
    return proc


def final_state(outputs: list[dict[str, Any]]) -> dict[str, Any]:
    states = [o["state"] for o in outputs if "state" in o]
    assert states, outputs
    return states[-1]


def errors(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in outputs if not o["ok"]]


def by_name(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in state["characters"]}


def texts(outputs: list[dict[str, Any]]) -> str:
    """Every line's text, as the terminal shows them one after another."""
    return "\n".join(o.get("text", "") for o in outputs)


class PlayedRoom:
    """One room of one system played through ``saikoro play`` a few lines at a time (each
    ``play`` is one run of the command, its state kept in the room's database) — as a GM, or
    as a player speaking for one character (``speaker``)."""

    def __init__(self, db: str, system: str, room: str = "r") -> None:
        self.db, self.system, self.room = db, system, room

    def play(
        self,
        lines: list[str],
        rands: Sequence[str] = (),
        *,
        speaker: str | None = None,
        lang: str = "ja",
        check: bool = True,
    ) -> list[dict[str, Any]]:
        """Run ``lines`` (as the GM, or as the player of ``speaker``); one output per line.
        Dice come from ``rands`` only (a line rolling more is refused); with ``check``, every
        line must be taken (pass ``check=False`` to look at refusals)."""
        out = play(
            self.db,
            self.room,
            lines,
            list(rands),
            system=self.system,
            gm=speaker is None,
            speaker=speaker,
            lang=lang,
        )
        assert len(out) == len(lines), out
        assert not check or not errors(out), errors(out)
        return out

    def state(self) -> dict[str, Any]:
        """``/state``: the room as everyone at the table sees it."""
        return final_state(self.play(["/state"]))

    def characters(self) -> dict[str, dict[str, Any]]:
        return by_name(self.state())
