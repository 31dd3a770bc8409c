"""``saikoro`` / ``python -m saikoro``: the command-line entry point.

Sub-commands register themselves from their own modules; heavy libraries are
imported inside the commands, so that ``saikoro roll 2D6`` starts fast.
"""

from __future__ import annotations

import importlib

import typer

SUBCOMMAND_MODULES = ("roll", "play", "serve", "transfer", "odds", "rules")

app = typer.Typer(
    name="saikoro",
    help="saikoro (サイコロ): BCDice-compatible dice bot and GM's table for "
    "帽子世界TRPG (LittleWorld) and 運命判定d100 (UnmeiD100).",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

for _name in SUBCOMMAND_MODULES:
    importlib.import_module(f"saikoro.cli.{_name}").register(app)


def main() -> None:
    app()
