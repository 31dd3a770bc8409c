"""(Sub-command not written yet: its issue's helper fills this module.)"""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    return None
