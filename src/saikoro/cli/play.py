"""``saikoro play``: a room's chat lines from a terminal or a script (a contract).

    saikoro play --db PATH_OR_URL --room NAME [--system ID] [--as NAME] [--gm]
                 [--token TOKEN] [--rands V/S,…] [--json]

Who plays: with ``--token`` (or ``$SAIKORO_TOKEN``) the holder of that link of the room
(``saikoro room create``): its GM, the player of its character, or a spectator; a room
that has a GM link is played only that way. On a room without links ``--gm`` is the GM
and otherwise a player of the ``--as`` character. The table's roles (docs/play.md) apply
to every line.

Reads chat lines — an interactive prompt with history when stdin is a terminal, plain
UTF-8 lines otherwise (a line that is not UTF-8 is refused) — and prints each result until
``/quit``, ``/exit`` or the end of the input. The exit status is 1 when a line was refused
(or scripted dice were left over), 2 when the room cannot be opened or the database failed
(down, damaged) while playing. Other people's text is shown with its control characters
escaped (``\x1b``) and its bidi formatting characters too (``\u202e``), so a chat line
cannot drive the terminal or reverse the text shown.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import typer


def register(app: typer.Typer) -> None:
    app.command(
        name="play",
        help="Play in a room: chat lines, dice, characters, combat (see docs/play.md).",
    )(play)


def play(
    db: str = typer.Option(..., "--db", help="SQLite file path or postgresql:// URL"),
    room: str = typer.Option(..., "--room", help="room name"),
    system: str | None = typer.Option(None, "--system", help="game system ID (creates the room)"),
    as_: str | None = typer.Option(None, "--as", help="speak as this character"),
    gm: bool = typer.Option(False, "--gm", help="you are the GM (secret rolls, /gm rulings)"),
    rands: str | None = typer.Option(None, "--rands", help="scripted dice V/S,… for the whole run"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per line"),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="SAIKORO_TOKEN",
        show_envvar=True,
        help="a link's token of the room (saikoro room create): play as its holder",
    ),
) -> None:
    raise typer.Exit(run_play(db, room, system, as_, gm, rands, as_json, token))


def _lines_from_terminal() -> Iterator[str]:
    from pathlib import Path

    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    history: Any
    try:
        path = Path.home() / ".saikoro_play_history"
        path.touch(exist_ok=True)
        history = FileHistory(str(path))
    except OSError:
        history = InMemoryHistory()
    prompt: PromptSession[str] = PromptSession(history=history)
    while True:
        try:
            yield prompt.prompt("> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            return


def _lines_from_stdin() -> Iterator[str | bytes]:
    """Each line of stdin decoded as UTF-8; a line that is not UTF-8 comes as its bytes."""
    first = True
    for raw in sys.stdin.buffer:
        raw = raw.rstrip(b"\n").removesuffix(b"\r")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield raw
        else:
            yield line.removeprefix("\ufeff") if first else line
        first = False


#: Lines that end the run (as the end of input does); ``/help`` mentions them.
QUIT_LINES = frozenset({"/quit", "/exit"})


def _not_utf8() -> Any:
    from saikoro.errors import SaikoroError
    from saikoro.i18n import Message

    return SaikoroError(
        Message(
            "UTF-8 のテキストではない行です (文字コードを UTF-8 にしてください)。何も変更していません",
            "the line is not UTF-8 text (use the UTF-8 encoding); nothing changed",
        ),
        reason="not utf-8",
    )


def _carry_out(session: Any, line: str) -> Any:
    """The line's outcome, or the SaikoroError saying why it was refused (never a traceback)."""
    from saikoro.errors import SaikoroError
    from saikoro.i18n import Message

    try:
        return session.run(line)
    except SaikoroError as error:
        return error
    except Exception as bug:  # a bug: report it, change nothing, keep the table going
        first_line = (str(bug).strip().splitlines() or [""])[0]
        what = f"{type(bug).__name__}: {first_line}"
        return SaikoroError(
            Message(
                f"内部エラー (何も変更していません): {what}",
                f"internal error (nothing changed): {what}",
            ),
            reason="internal error",
        )


def _check_speaker(session: Any, speaker: str | None) -> None:
    """``--as NAME`` must name a character of the room (or GM), refused at start-up."""
    from saikoro.table.emit import fail

    characters = session.state.characters
    if speaker is None or speaker.upper() == "GM" or speaker in characters:
        return
    raise fail(
        f"--as {speaker}: この部屋にそのキャラクターはいません "
        f"(いるのは: {'、'.join(characters) or 'なし'}; 先に --as なしで /char add してください)",
        f"--as {speaker}: no such character in this room "
        f"(present: {', '.join(characters) or 'none'}; /char add it first, without --as)",
        "unknown character",
    )


def run_play(
    db: str,
    room: str,
    system: str | None,
    speaker: str | None,
    gm: bool,
    rands: str | None,
    as_json: bool,
    token: str | None = None,
) -> int:
    from saikoro.cli.report import json_line, print_error, terminal_text
    from saikoro.dice.randomizer import RandomSource, ScriptedSource, parse_rands
    from saikoro.errors import SaikoroError
    from saikoro.i18n import Message, current_lang
    from saikoro.store import StoreError, open_store
    from saikoro.table.actors import find_name
    from saikoro.table.session import TableSession
    from saikoro.transfer import register_with_table

    register_with_table()  # /char add reads Udonarium and CCFOLIA files too
    lang = current_lang()

    def fatal(error: SaikoroError) -> int:
        if as_json:
            print(
                json_line(
                    {
                        "ok": False,
                        "reason": error.reason,
                        "ja": error.message.ja,
                        "en": error.message.en,
                    }
                )
            )
        else:
            print(terminal_text(error.message.both()), file=sys.stderr)
        return 2

    store = None
    try:
        from saikoro.systems.hints import resolve_system_id

        scripted = ScriptedSource(parse_rands(rands)) if rands is not None else None
        store = open_store(db)
        actor = _actor(store, room, gm, token)
        if (
            actor is not None
            and speaker
            and not actor.is_gm
            and find_name(speaker, actor.characters) is None
        ):
            raise SaikoroError(
                Message(
                    f"{speaker} はこのリンクのキャラクターではありません (--as)",
                    f"{speaker} is not this link's character (--as)",
                ),
                reason="forbidden",
            )
        session = TableSession.open(
            store,
            room,
            resolve_system_id(system) if system else system,
            speaker=speaker,
            gm=gm if actor is None else actor.is_gm,
            source=scripted or RandomSource(),
            actor=actor,
        )
        _check_speaker(session, speaker)
    except SaikoroError as error:
        if store is not None:
            store.close()
        return fatal(error)

    status = 0
    interactive = sys.stdin.isatty() and not as_json
    lines = _lines_from_terminal() if interactive else _lines_from_stdin()
    try:
        for line in lines:
            if isinstance(line, bytes):
                outcome: Any = _not_utf8()
                line = line.decode("utf-8", "replace")
            elif not line.strip() or line.lstrip().startswith("#"):
                continue
            elif line.strip().lower() in QUIT_LINES:
                break
            else:
                outcome = _carry_out(session, line)
            if isinstance(outcome, SaikoroError):
                refusal = outcome
                status = 2 if isinstance(refusal, StoreError) else max(status, 1)
                if as_json:
                    print(
                        json_line(
                            {
                                "line": line,
                                "ok": False,
                                "reason": refusal.reason,
                                "ja": refusal.message.ja,
                                "en": refusal.message.en,
                            }
                        ),
                        flush=True,
                    )
                else:
                    print(f"エラー / error: {terminal_text(refusal.message.both())}", flush=True)
                continue
            if as_json:
                body: dict[str, Any] = {
                    "line": line,
                    "ok": True,
                    "text": outcome.caller_text(lang),
                    "events": len(outcome.events),
                    "version": session.state.version,
                }
                if outcome.data is not None:
                    body["state"] = outcome.data
                print(json_line(body), flush=True)
            else:
                text = outcome.caller_text(lang)
                if text:
                    print(terminal_text(text), flush=True)
        if scripted is not None and scripted.remaining:
            try:
                scripted.assert_exhausted()
            except SaikoroError as error:
                status = max(status, 1)
                print_error(error)
    finally:
        store.close()
    return status


def _actor(store: Any, room: str, gm: bool, token: str | None) -> Any:
    """Who plays: the token's link holder; without a token only on a room that has no GM
    link, as ``--gm`` / ``--as`` say (None)."""
    from saikoro.errors import SaikoroError
    from saikoro.i18n import Message
    from saikoro.store import LinkStore
    from saikoro.table.rooms import actor_for, authenticate

    if token is not None:
        actor = actor_for(authenticate(store, room, token.strip()))
        if gm and not actor.is_gm:
            raise SaikoroError(
                Message(
                    "--gm にはこの部屋の GM リンクのトークンが必要です (このトークンは GM のものではありません)",
                    "--gm needs the room's GM link token (this token is not the GM's)",
                ),
                reason="forbidden",
            )
        return actor
    if LinkStore(store).has_live(room, "gm"):  # a shared room: its links say who is who
        if gm:
            raise SaikoroError(
                Message(
                    f"部屋 {room!r} には GM リンクがあります: --gm には --token (GM のトークン) が必要です",
                    f"room {room!r} has a GM link: --gm needs --token with the GM's token",
                ),
                reason="forbidden",
            )
        raise SaikoroError(
            Message(
                f"部屋 {room!r} はリンクで共有されています: --token で自分のリンクのトークンを"
                "指定してください (GM は saikoro room links で確認できます)",
                f"room {room!r} is shared through links: give your link's token with --token "
                "(the GM can list them with saikoro room links)",
            ),
            reason="forbidden",
        )
    return None
