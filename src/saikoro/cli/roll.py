"""``saikoro roll``: one command, or a batch of JSON lines, in BCDice-API's JSON shape."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Optional

import typer

from saikoro.errors import SaikoroError, UnsupportedCommandError
from saikoro.i18n import Message

NOT_A_COMMAND = Message("コマンドとして解釈できません", "not a command of this game system")


def error_json(error: SaikoroError) -> dict[str, Any]:
    """BCDice-API's error body; the fixed reasons stay exact, others say what was wrong."""
    fixed = {"unsupported game system", "unsupported command"}
    reason = error.reason if error.reason in fixed else error.message.en
    return {"ok": False, "reason": reason, "message": error.message.both()}


def roll_json(command: str, system: str, rands: list[tuple[int, int]] | None) -> dict[str, Any]:
    """One command → BCDice-API's roll body (or its error body). Never raises."""
    from saikoro.api import roll

    try:
        result = roll(command, system, rands)
    except SaikoroError as error:
        return error_json(error)
    if result is None:
        return {"ok": False, "reason": "unsupported command"}
    body = result.to_json()
    if result.warnings:
        body["warnings"] = [w.both() for w in result.warnings]
    return body


def _batch_request(line: str) -> tuple[str, str, list[tuple[int, int]] | None]:
    try:
        request = json.loads(line)
    except ValueError as error:
        raise SaikoroError(
            Message(f"JSON として読めません: {error}", f"not valid JSON: {error}"),
            reason="invalid request",
        ) from None
    if not isinstance(request, dict) or not isinstance(request.get("command"), str):
        raise SaikoroError(
            Message('"command" (文字列) がありません', 'the line has no "command" string'),
            reason="invalid request",
        )
    system = request.get("system", "DiceBot")
    rands = request.get("rands")
    if not isinstance(system, str):
        raise SaikoroError(Message('"system" は文字列です', '"system" must be a string'))
    if rands is not None:
        if not isinstance(rands, list) or not all(
            isinstance(r, list) and len(r) == 2 and all(type(x) is int for x in r) for r in rands
        ):
            raise SaikoroError(
                Message(
                    '"rands" は [[値, 面数], …] の形です',
                    '"rands" must be a list of [value, sides] pairs',
                )
            )
        rands = [(v, s) for v, s in rands]
    return request["command"], system, rands


def run_batch(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One JSON answer per input line, in order."""
    for line in lines:
        try:
            command, system, rands = _batch_request(line)
        except SaikoroError as error:
            yield error_json(error)
            continue
        yield roll_json(command, system, rands)


def print_human(
    command: str,
    system: str,
    lang: str,
    rands: list[tuple[int, int]] | None = None,
    source: Any = None,
) -> int:
    """Print a roll for people: the text, then any limit warning in both languages."""
    from saikoro.api import roll
    from saikoro.systems import systems

    result = roll(command, system, rands, source=source)
    if result is None:
        raise UnsupportedCommandError(NOT_A_COMMAND)
    text = result.text
    if lang == "en":
        from saikoro.dice.words import to_english

        text = to_english(text, systems[system])
    prefix = ("[secret] " if lang == "en" else "[シークレット] ") if result.secret else ""
    print(prefix + text)
    for warning in result.warnings:
        print(f"⚠ {warning.both()}", file=sys.stderr)
    return 0


def _open_lines(batch: str) -> Iterator[str]:
    if batch == "-":
        yield from (line.rstrip("\r\n") for line in sys.stdin)
        return
    try:
        with Path(batch).open(encoding="utf-8") as handle:
            yield from (line.rstrip("\r\n") for line in handle)
    except OSError as error:
        raise SaikoroError(
            Message(f"{batch} を読めません: {error}", f"cannot read {batch}: {error}")
        ) from None


def register(app: typer.Typer) -> None:
    @app.command()
    def roll(
        command: Optional[list[str]] = typer.Argument(  # noqa: UP045 (Typer needs Optional)
            None, help="BCDice command, e.g. 2D6>=7 (quote it, or words are joined by spaces)"
        ),
        system: str = typer.Option("DiceBot", "--system", "-s", help="game system ID"),
        rands: Optional[str] = typer.Option(  # noqa: UP045
            None, "--rands", help="scripted dice VALUE/SIDES,…: 3/6,4/6 = a 3 then a 4 on d6"
        ),
        as_json: bool = typer.Option(False, "--json", help="BCDice-API v2 JSON output"),
        batch: Optional[str] = typer.Option(  # noqa: UP045
            None, "--batch", help="JSON lines file ('-' = stdin): one answer line per line"
        ),
        manual: bool = typer.Option(False, "--manual", help="type in each die (physical dice)"),
        lang: str = typer.Option("ja", "--lang", help="ja or en (human output)"),
    ) -> None:
        """Roll one command (ダイスを振る). Exit status 1 when it is not a command or has an error."""
        from saikoro.dice.randomizer import ManualSource, parse_rands

        try:
            if batch is not None:
                for answer in run_batch(_open_lines(batch)):
                    print(json.dumps(answer, ensure_ascii=False), flush=True)
                return
            if not command:
                raise SaikoroError(Message("コマンドを指定してください", "give a command to roll"))
            text = " ".join(command)
            scripted = parse_rands(rands) if rands is not None else None
            if as_json:
                answer = roll_json(text, system, scripted)
                print(json.dumps(answer, ensure_ascii=False))
                raise typer.Exit(0 if answer["ok"] else 1)
            source = ManualSource(ask_die) if manual else None
            print_human(text, system, lang, scripted, source)
        except SaikoroError as error:
            if as_json:
                print(json.dumps(error_json(error), ensure_ascii=False))
            else:
                print(f"エラー / error: {error.message.both()}", file=sys.stderr)
            raise typer.Exit(1) from None


def ask_die(sides: int) -> int:
    """Ask the player for one physical die, until they type a face of it."""
    from saikoro.dice.randomizer import ManualSource
    from saikoro.errors import DiceInputError

    while True:
        try:
            answer = input(f"d{sides} の出目 / d{sides} shows: ")
        except EOFError:
            raise DiceInputError(
                Message("出目の入力が終わりました", "input ended before every die was typed")
            ) from None
        try:
            return ManualSource(lambda _s, a=answer: a).roll(sides)
        except DiceInputError as error:
            print(error.message.both(), file=sys.stderr)
