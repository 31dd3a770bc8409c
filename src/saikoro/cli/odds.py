"""``saikoro odds``: the chances of a command's outcomes before rolling it."""

from __future__ import annotations

import json
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import Annotated, Optional

import typer

from saikoro.cli.report import print_error
from saikoro.errors import SaikoroError
from saikoro.i18n import Message, current_lang, lang_code

#: The Monte Carlo time budget of ``saikoro odds`` (``--seconds``), as
#: :data:`saikoro.odds.montecarlo.DEFAULT_SECONDS` (not imported: the CLI starts fast).
DEFAULT_SECONDS = 2.0


def register(app: typer.Typer) -> None:
    @app.command()
    def odds(
        command: Annotated[
            Optional[list[str]],  # noqa: UP045 (Typer needs Optional)
            typer.Argument(help="BCDice command, e.g. LWA5-3 or 2D6>=7 (quote it)"),
        ] = None,
        system: str = typer.Option("DiceBot", "--system", "-s", help="game system ID"),
        as_json: bool = typer.Option(False, "--json", help="JSON output"),
        plot: Optional[str] = typer.Option(  # noqa: UP045
            None, "--plot", help="also write a PNG bar chart to this file"
        ),
        method: str = typer.Option(
            "auto", "--method", help="auto, enumeration, convolution, multiset or monte-carlo"
        ),
        samples: int = typer.Option(20_000, "--samples", help="Monte Carlo sample size"),
        seed: int = typer.Option(0, "--seed", help="Monte Carlo seed"),
        seconds: float = typer.Option(
            DEFAULT_SECONDS,
            "--seconds",
            help="time budget: exact methods give way to Monte Carlo at half of it, which stops at "
            "the end with the samples done",
        ),
        lang: Optional[str] = typer.Option(  # noqa: UP045
            None, "--lang", help="ja or en (human output; default: $SAIKORO_LANG, else ja)"
        ),
    ) -> None:
        """Exact odds of a command (確率): success, critical, fumble, the value's distribution."""
        from saikoro.odds import odds as compute_odds

        try:
            if not command:
                raise SaikoroError(
                    Message("コマンドを指定してください", "give a command"),
                    reason="no command",
                )
            text = " ".join(command)
            with _spinner():
                result = compute_odds(
                    text, system, method=method, samples=samples, seed=seed, seconds=seconds
                )
            if plot is not None:
                from saikoro.odds.plot import write_plot

                write_plot(result, plot)
        except SaikoroError as error:
            print_error(error, as_json)
            raise typer.Exit(1) from None
        if as_json:
            print(json.dumps(result.to_json(), ensure_ascii=False))
            return
        from rich.console import Console

        from saikoro.odds.render import render

        render(result, Console(), lang_code(lang) if lang else current_lang())


def _spinner() -> AbstractContextManager[object]:
    """A "computing…" spinner on an interactive stderr (10⁶ sequences take seconds)."""
    if not sys.stderr.isatty():
        return nullcontext()
    from rich.console import Console

    return Console(stderr=True).status("計算中… / computing…")
