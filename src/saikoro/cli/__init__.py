"""Command-line front end. Each sub-command lives in its own module with ``register(app)``.

:func:`run_cli` is the console entry point: ``saikoro roll`` skips Typer altogether (its
start-up time is what players feel in a chat bot); everything else goes through the
Typer app in :mod:`saikoro.cli.main`.
"""

from __future__ import annotations

import sys


def run_cli() -> None:
    if sys.argv[1:2] == ["roll"]:
        from saikoro.cli.roll import run

        sys.exit(run(sys.argv[2:]))
    from saikoro.cli.main import app

    app()
