from saikoro.cli import run_cli

run_cli()
