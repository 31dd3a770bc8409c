"""``saikoro roll``: one command, or a batch of JSON lines, in BCDice-API's JSON shape."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from saikoro.cli.report import print_error
from saikoro.errors import BCDICE_API_REASONS, SaikoroError, UnsupportedCommandError
from saikoro.i18n import Message, current_lang


def error_json(error: SaikoroError) -> dict[str, Any]:
    """BCDice-API's error body; the fixed reasons stay exact, others say what was wrong."""
    reason = error.reason if error.reason in BCDICE_API_REASONS else error.message.en
    return {"ok": False, "reason": reason, "message": error.message.both()}


def roll_json(
    command: str,
    system: str,
    rands: list[tuple[int, int]] | None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One command → BCDice-API's roll body (or its error body). Never raises."""
    from saikoro.api import roll

    try:
        result = roll(command, system, rands, settings=settings)
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
    except (ValueError, RecursionError) as error:  # RecursionError: nested too deep
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


NOT_UTF8 = Message("この行は UTF-8 のテキストではありません", "this line is not UTF-8 text")


def decode_line(line: str | bytes) -> str:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8").lstrip("\ufeff").rstrip("\r\n")
    except UnicodeDecodeError:
        raise SaikoroError(NOT_UTF8, reason="invalid request") from None


def run_batch(lines: Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """One JSON answer per input line (text, or raw bytes decoded as UTF-8), in order."""
    for line in lines:
        try:
            command, system, rands = _batch_request(decode_line(line))
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
    settings: dict[str, Any] | None = None,
) -> int:
    """Print a roll for people: the text, then any limit warning in both languages."""
    from saikoro.api import roll
    from saikoro.systems import systems

    result = roll(command, system, rands, source=source, settings=settings)
    if result is None:
        from saikoro.systems.hints import not_a_command

        raise UnsupportedCommandError(not_a_command(command, system))
    text = result.text
    if lang == "en":
        from saikoro.dice.words import english_text

        text = english_text(result, systems[system])
    prefix = ("[secret] " if lang == "en" else "[シークレット] ") if result.secret else ""
    print(prefix + text)
    for warning in result.warnings:
        print(f"⚠ {warning.both()}", file=sys.stderr)
    return 0


def _open_lines(batch: str) -> Iterator[bytes]:
    """Raw lines: each is decoded on its own, so one line in another encoding spoils no other."""
    if batch == "-":
        yield from sys.stdin.buffer
        return
    try:
        with Path(batch).open("rb") as handle:
            yield from handle
    except OSError as error:
        raise SaikoroError(
            Message(f"{batch} を読めません: {error}", f"cannot read {batch}: {error}")
        ) from None


ROLL_HELP = "Roll one command (ダイスを振る), or a batch of JSON lines, in BCDice-API's JSON shape."


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="saikoro roll",
        description=ROLL_HELP + " Exit status 1 when it is not a command or has an error"
        " (a batch always exits 0).",
    )
    parser.add_argument(
        "command", nargs="*", help="BCDice command, e.g. 2D6>=7 (words are joined by spaces)"
    )
    parser.add_argument("--system", "-s", default="DiceBot", help="game system ID (DiceBot)")
    parser.add_argument("--rands", help="scripted dice VALUE/SIDES,…: 3/6,4/6 = a 3 then a 4 on d6")
    parser.add_argument("--json", dest="as_json", action="store_true", help="BCDice-API v2 JSON")
    parser.add_argument("--batch", help="JSON lines file ('-' = stdin): one answer line per line")
    parser.add_argument("--manual", action="store_true", help="type in each die (physical dice)")
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule of the system, as /gm setting at a table (repeatable)",
    )
    parser.add_argument(
        "--lang",
        choices=("ja", "en"),
        help="human output language (default: $SAIKORO_LANG, else ja)",
    )
    return parser


def run(argv: list[str]) -> int:
    """``saikoro roll`` without Typer: this path is kept light, since start-up time counts."""
    from saikoro.dice.randomizer import ManualSource, parse_rands

    args = build_parser().parse_args(argv)
    try:
        from saikoro.systems.hints import resolve_system_id

        args.system = resolve_system_id(args.system)
        if args.batch is not None:
            for answer in run_batch(_open_lines(args.batch)):
                print(json.dumps(answer, ensure_ascii=False), flush=True)
            return 0
        if not args.command:
            raise SaikoroError(Message("コマンドを指定してください", "give a command to roll"))
        text = " ".join(args.command)
        scripted = parse_rands(args.rands) if args.rands is not None else None
        settings = parse_settings(args.setting)
        if args.as_json:
            answer = roll_json(text, args.system, scripted, settings)
            print(json.dumps(answer, ensure_ascii=False))
            return 0 if answer["ok"] else 1
        source = ManualSource(ask_die) if args.manual else None
        lang = args.lang or current_lang()
        return print_human(text, args.system, lang, scripted, source, settings)
    except SaikoroError as error:
        if args.as_json:
            print(json.dumps(error_json(error), ensure_ascii=False))
        else:
            print_error(error)
        return 1


def parse_settings(pairs: list[str]) -> dict[str, Any] | None:
    """``KEY=VALUE`` house rules; a VALUE is JSON when it parses (3, true, "x"), else text."""
    settings: dict[str, Any] = {}
    for pair in pairs:
        key, equals, raw = pair.partition("=")
        if not equals or not key.strip():
            raise SaikoroError(
                Message(
                    f"--setting {pair!r} は 項目=値 の形です", f"--setting {pair!r}: use KEY=VALUE"
                )
            )
        try:
            settings[key.strip()] = json.loads(raw)
        except ValueError:
            settings[key.strip()] = raw
    return settings or None


def _typed_face(answer: str, _sides: int) -> str:
    return answer


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
            return ManualSource(functools.partial(_typed_face, answer)).roll(sides)
        except DiceInputError as error:
            print(error.message.both(), file=sys.stderr)
