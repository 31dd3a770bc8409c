"""``saikoro rules``: the rules spec and which tests prove each rule (``rules coverage``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Optional

import typer

from saikoro.cli.report import print_error
from saikoro.errors import SaikoroError

if TYPE_CHECKING:
    from saikoro.rules_coverage import CoverageReport


def register(app: typer.Typer) -> None:
    rules_app = typer.Typer(
        name="rules",
        help="The RULES.md rule IDs of each game system (ルール).",
        no_args_is_help=True,
    )

    @rules_app.command("coverage")
    def coverage_command(
        system: Optional[str] = typer.Option(  # noqa: UP045 (Typer needs Optional)
            None, "--system", "-s", help="a system ID (default: every system with rules)"
        ),
        as_json: bool = typer.Option(False, "--json", help="JSON output"),
        spec: Optional[str] = typer.Option(  # noqa: UP045
            None,
            "--spec",
            help="RULES.md (default: ../shared/spec/RULES.md, else the packaged copy)",
        ),
        tests: Optional[str] = typer.Option(  # noqa: UP045
            None, "--tests", help="tests directory (default: the checkout's tests/)"
        ),
        refs: Optional[str] = typer.Option(  # noqa: UP045
            None, "--refs", help="rules references directory (default: docs/rules/)"
        ),
        strict: bool = typer.Option(
            False,
            "--strict",
            help="exit 1 when an implementable rule has no table or CLI test (via=)",
        ),
        show_all: bool = typer.Option(False, "--all", help="list the tests of every rule"),
    ) -> None:
        """Every rule ID with the tests naming it and the level they prove it at: ``table``
        (lines typed into saikoro play or the table API), ``cli`` (a CLI command) or
        ``function`` (Python calls only, TableSession.run included).
        An implementable rule no table or CLI test reaches is uncovered."""
        from saikoro.rules_coverage import coverage

        try:
            report = coverage(system=system, spec=spec, tests=tests, references=refs)
        except SaikoroError as error:
            print_error(error, as_json)
            raise typer.Exit(2) from None
        if as_json:
            print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        else:
            _render(report, show_all)
        if strict and report.uncovered():
            raise typer.Exit(1)

    app.add_typer(rules_app)


def _render(report: CoverageReport, show_all: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"rules coverage — {report.spec_path}")
    table.add_column("ID", no_wrap=True)
    table.add_column("status")
    table.add_column("via")
    table.add_column("tests")
    for row in report.rules:
        if not row.needs_test:
            mark = "[cyan]GM decides[/cyan]"
        elif row.reached:
            mark = "[green]covered[/green]"
        elif row.covered:
            mark = "[red]UNCOVERED[/red] (functions only)"
        else:
            mark = "[red]UNCOVERED[/red]"
        if show_all or not row.reached:
            tests = "\n".join(f"{t} [{row.levels[t]}]" for t in row.tests) if row.tests else "—"
        else:
            best = [t for t in row.tests if row.levels[t] == row.level]
            first = best[0].rsplit("::", 1)[-1]
            tests = f"{len(row.tests)} ({first}" + (", …)" if len(row.tests) > 1 else ")")
        table.add_row(row.rule.id, mark, row.level or "—", tests)
    console.print(table)
    for system, info in report.summary().items():
        console.print(
            f"{system}: {info['reached']}/{info['implementable']} implementable rules covered"
            f" through the table or CLI ({info['covered']} by any test,"
            f" {len(info['gm_decides'])} GM decides, {info['rules']} rules)"
            + (f" — uncovered: {', '.join(info['uncovered'])}" if info["uncovered"] else ""),
            soft_wrap=True,
        )
    for rule_id, where in sorted(report.unknown_ids.items()):
        console.print(
            f"[yellow]unknown rule ID {rule_id}[/yellow] in {', '.join(where)}", soft_wrap=True
        )
