"""``saikoro`` / ``python -m saikoro``: the command-line entry point.

Sub-commands register themselves from their own modules; heavy libraries are
imported inside the commands, so that ``saikoro roll 2D6`` starts fast.
"""

from __future__ import annotations

import importlib
import os

import typer

from saikoro.cli.roll import ROLL_HELP
from saikoro.cli.roll import run as run_roll
from saikoro.i18n import current_lang

SUBCOMMAND_MODULES = (
    "play",
    "room",
    "serve",
    "transfer",
    "odds",
    "simulate",
    "rules",
    "discord_bot",
)

app = typer.Typer(
    name="saikoro",
    help="saikoro (サイコロ): BCDice-compatible dice bot and GM's table for "
    "帽子世界TRPG, 運命判定d100 and every game system in saikoro/systems/.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from saikoro import __version__

        typer.echo(f"saikoro {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _default(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="print the version"
    ),
    system: str | None = typer.Option(
        None,
        "--system",
        "-s",
        help="game system for the prompt, and the default --system of the sub-command",
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="ja or en for every sub-command (default: $SAIKORO_LANG, else ja)"
    ),
) -> None:
    """With no sub-command: an interactive dice prompt (type a command, see the result)."""
    if lang is not None:
        os.environ["SAIKORO_LANG"] = lang  # sub-commands default to saikoro.i18n.current_lang()
    if system is not None and ctx.invoked_subcommand is not None:
        # `saikoro -s SYSTEM roll …`: the sub-command's own --system wins when given.
        ctx.default_map = {ctx.invoked_subcommand: {"system": system}}
        ctx.obj = {"system": system}
    if ctx.invoked_subcommand is None:
        from saikoro.cli.prompt import run_prompt
        from saikoro.cli.report import print_error
        from saikoro.errors import SaikoroError

        try:
            run_prompt(system or "DiceBot", current_lang())
        except SaikoroError as error:
            print_error(error)
            raise typer.Exit(1) from None


@app.command(
    help=ROLL_HELP + " Options: see `saikoro roll --help`.",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
def roll(ctx: typer.Context) -> None:
    """``saikoro roll`` is argparse-based (fast start-up); Typer only forwards to it."""
    args = list(ctx.args)
    top_system = (ctx.obj or {}).get("system")
    if top_system is not None and not any(_names_system(arg) for arg in args):
        args = ["--system", top_system, *args]
    raise typer.Exit(run_roll(args))


def _names_system(arg: str) -> bool:
    return arg in ("-s", "--system") or arg.startswith(("--system=", "-s="))


for _name in SUBCOMMAND_MODULES:
    importlib.import_module(f"saikoro.cli.{_name}").register(app)


def main() -> None:
    from saikoro.cli import run_cli

    run_cli()
