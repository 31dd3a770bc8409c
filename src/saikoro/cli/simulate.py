"""``saikoro simulate``: play a fight many times through the real table and say how often
each side wins (the encounter simulator, :mod:`saikoro.simulate`)."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from saikoro.cli.report import json_line, print_error
from saikoro.errors import SaikoroError
from saikoro.i18n import Message, current_lang, lang_code

#: A run this long or longer shows a progress bar on an interactive terminal.
PROGRESS_FROM = 200


def register(app: typer.Typer) -> None:
    @app.command()
    def simulate(
        party: Annotated[
            Optional[list[str]],  # noqa: UP045 (Typer needs Optional)
            typer.Option(
                "--party", "-p", help="a party member's sheet file (repeat; FILE:N = N copies)"
            ),
        ] = None,
        enemy: Annotated[
            Optional[list[str]],  # noqa: UP045
            typer.Option("--enemy", "-e", help="an enemy's sheet file (repeat; FILE:N = N copies)"),
        ] = None,
        db: Optional[str] = typer.Option(  # noqa: UP045
            None, "--db", help="a room's database (SQLite path or postgresql:// URL), with --room"
        ),
        room: Optional[str] = typer.Option(  # noqa: UP045
            None, "--room", help="simulate this room's characters (PCs against NPCs) as they are"
        ),
        system: Optional[str] = typer.Option(  # noqa: UP045
            None, "--system", "-s", help="game system of the sheets (default: the sheets' own)"
        ),
        fights: int = typer.Option(1000, "--fights", "-n", help="how many fights"),
        seed: int = typer.Option(0, "--seed", help="seed of the dice (same seed, same result)"),
        jobs: int = typer.Option(
            0,
            "--jobs",
            "-j",
            help="processes playing the fights (default 0: one per CPU from 400 fights; "
            "the result is the same for any number)",
        ),
        rounds: int = typer.Option(
            30, "--rounds", help="round cap: a fight still going after it is a draw"
        ),
        policy: str = typer.Option(
            "best",
            "--policy",
            help="the party's policy: best, focus-weakest, random, module:function",
        ),
        enemy_policy: str = typer.Option("best", "--enemy-policy", help="the enemies' policy"),
        as_json: bool = typer.Option(False, "--json", help="JSON output"),
        plot: Optional[str] = typer.Option(  # noqa: UP045
            None, "--plot", help="also write a PNG of the distributions to this file"
        ),
        log: Optional[int] = typer.Option(  # noqa: UP045
            None, "--log", help="replay fight number N and write its events as a room (--log-db)"
        ),
        log_db: Optional[str] = typer.Option(  # noqa: UP045
            None, "--log-db", help="database for --log (SQLite path or URL)"
        ),
        log_room: Optional[str] = typer.Option(  # noqa: UP045
            None, "--log-room", help="room name for --log (default simulation-SEED-N)"
        ),
        lang: Optional[str] = typer.Option(  # noqa: UP045
            None, "--lang", help="ja or en (default: $SAIKORO_LANG, else ja)"
        ),
    ) -> None:
        """Encounter simulator (戦闘シミュレーター): win rates, down chances, rounds, damage."""
        from saikoro.simulate import Plan

        language = lang_code(lang) if lang else current_lang()
        try:
            encounter = _encounter(party or [], enemy or [], db, room, system)
            plan = Plan(fights, seed, rounds, policy, enemy_policy).checked()
            _policies_from_here()
            plan.policies()  # an unknown policy is refused before any fight
            if log is not None:
                _write_log(encounter, plan, log, log_db, log_room, as_json, language)
                return
            summary = _run(encounter, plan, jobs, as_json)
            if plot is not None:
                from saikoro.simulate.plot import write_plot

                write_plot(summary, plot)
        except SaikoroError as error:
            print_error(error, as_json)
            raise typer.Exit(1) from None
        if as_json:
            print(json_line(summary.to_json()))
            return
        from rich.console import Console

        from saikoro.simulate.render import render

        render(summary, Console(), language)


def _policies_from_here() -> None:
    """``--policy my_policies:f`` finds ``my_policies.py`` in the current folder too (after
    everything else on the path: it shadows no installed module), as ``python -m`` would;
    worker processes start with this path."""
    import os

    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)


def _encounter(
    party: list[str], enemy: list[str], db: str | None, room: str | None, system: str | None
) -> Any:
    from saikoro.simulate import from_files, from_state
    from saikoro.simulate.setup import error
    from saikoro.transfer import register_with_table

    register_with_table()  # CCFOLIA / Udonarium files as /char add reads them
    if (db is None) != (room is None):
        raise error("--db と --room は一緒に指定します", "give --db and --room together")
    if db is not None and room is not None:
        from saikoro.store import open_store

        store = open_store(db, create=False)  # only read: a mistyped path makes no file
        try:
            record = store.get_room(room)
            if record is None:
                raise error(f"部屋 {room!r} はありません", f"no room {room!r}")
            state = store.load_state(record)
        finally:
            store.close()
        extra = [(sheet, "npc") for spec in enemy for sheet in _sheets(spec, state.system)]
        extra += [(sheet, "pc") for spec in party for sheet in _sheets(spec, state.system)]
        return from_state(state, extra=extra)
    return from_files(party, enemy, system)


def _sheets(spec: str, system: str) -> list[Any]:
    from saikoro.simulate.setup import read_sheet_spec

    return read_sheet_spec(spec, system)


def _run(encounter: Any, plan: Any, jobs: int, quiet: bool) -> Any:
    from saikoro.simulate import simulate

    if quiet or plan.fights < PROGRESS_FROM or not sys.stderr.isatty():
        return simulate(encounter, plan, jobs=jobs)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("戦闘中 / fighting", total=plan.fights)
        return simulate(
            encounter, plan, jobs=jobs, progress=lambda done: bar.update(task, completed=done)
        )


def _write_log(
    encounter: Any,
    plan: Any,
    number: int,
    db: str | None,
    room: str | None,
    as_json: bool,
    lang: str,
) -> None:
    """Replay fight ``number`` and store its events as a new room."""
    from saikoro.simulate import replay
    from saikoro.simulate.setup import error
    from saikoro.store import open_store
    from saikoro.table.session import create_room_record
    from saikoro.table.state import apply_in_place

    if db is None:
        raise error("--log には --log-db が必要です", "--log needs --log-db")
    name = room or f"simulation-{plan.seed}-{number}"
    result, events = replay(encounter, plan, number)
    store = open_store(db)
    if store.get_room(name) is not None:
        raise error(
            f"部屋 {name!r} はもうあります (--log-room で別の名前を)",
            f"the room {name!r} exists already (choose another with --log-room)",
        )
    record, _created = create_room_record(store, name, encounter.system)
    state = store.load_state(record)
    line: list[Any] = []
    for event in [*events, None]:
        if line and (event is None or event.command_id != line[0].command_id):
            after = state.model_copy(deep=True)
            for one in line:
                apply_in_place(after, one)
            store.append(record, state.version, line, snapshot=after)
            state, line = after, []
        if event is not None:
            line.append(event)
    body = {
        "ok": True,
        "room": name,
        "fight": number,
        "winner": result.winner,
        "rounds": result.rounds,
        "events": len(events),
    }
    if as_json:
        print(json_line(body))
        return
    winner = {
        "pc": Message("味方の勝ち", "the party wins"),
        "npc": Message("敵の勝ち", "the enemies win"),
        "draw": Message("引き分け", "a draw"),
    }[result.winner]
    shown = Message(
        f"戦闘 {number}: {winner.ja} ({result.rounds} ラウンド) — 部屋 {name!r} に記録 "
        f"(saikoro play --db {db} --room {name} で /log)",
        f"fight {number}: {winner.en} ({result.rounds} rounds) — written to room {name!r} "
        f"(saikoro play --db {db} --room {name}, then /log)",
    )
    print(shown.text(lang))
