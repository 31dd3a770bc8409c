"""The interactive dice prompt: ``saikoro`` with no sub-command (type a command, see the result)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from saikoro.cli.report import print_error
from saikoro.errors import SaikoroError
from saikoro.i18n import Message

HELP = Message(
    "ダイスコマンドを入力してください (例: 2D6>=7, 1D100<=65, 3B6>=4, choice[a,b], x3 2D6)。\n"
    "  /system ID   ゲームシステムを切り替える ({systems})\n"
    "  /systems     ゲームシステムの一覧\n"
    "  /help        このヘルプとシステムのヘルプ\n"
    "  /manual      手元のダイスの出目を入力するモードを切り替える\n"
    "  /quit        終了 (Ctrl-D でも終了)",
    "Type a dice command (e.g. 2D6>=7, 1D100<=65, 3B6>=4, choice[a,b], x3 2D6).\n"
    "  /system ID   switch game system ({systems})\n"
    "  /systems     list game systems\n"
    "  /help        this help and the system's help\n"
    "  /manual      toggle typing in physical dice\n"
    "  /quit        leave (or Ctrl-D)",
)


def _lines(interactive: bool, prompt_text: Callable[[], str]) -> Iterator[str | bytes]:
    """Yield input lines: prompt_toolkit with history on a terminal, plain stdin otherwise."""
    if interactive:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        history = Path.home() / ".saikoro_history"
        session: PromptSession[str] = PromptSession(history=FileHistory(str(history)))
        while True:
            try:
                yield session.prompt(prompt_text())
            except KeyboardInterrupt:
                continue
            except EOFError:
                return
    else:
        # Raw bytes: run_prompt decodes each line, so a line in another encoding is refused alone.
        yield from sys.stdin.buffer


def run_prompt(system: str = "DiceBot", lang: str = "ja") -> None:
    from saikoro.cli.roll import ask_die, decode_line, print_human
    from saikoro.dice.randomizer import ManualSource
    from saikoro.systems import systems

    interactive = sys.stdin.isatty()
    state: dict[str, Any] = {"system": systems.get_system(system).id, "manual": False}
    if interactive:
        print(f"saikoro — {HELP.text(lang).splitlines()[0]}")
    for raw in _lines(interactive, lambda: f"{state['system']}> "):
        try:
            line = decode_line(raw).strip()
            if not line:
                continue
            if line in ("/quit", "/exit", "/q"):
                return
            if line == "/help":
                print(HELP.text(lang).format(systems=", ".join(systems)))
                print(systems[state["system"]].help_message)
            elif line == "/systems":
                for s in systems.sorted_by_sort_key():
                    print(f"{s.id}\t{s.name}")
            elif line == "/system" or line.startswith("/system "):
                name = line[len("/system") :].strip()
                if name:  # without an ID: say which system is in use
                    state["system"] = systems.get_system(name).id
                print(f"→ {state['system']} ({systems[state['system']].name})")
            elif line == "/manual":
                state["manual"] = not state["manual"]
                on = Message("手元のダイスで振ります (出目を入力)", "physical dice: type each die")
                off = Message("サイコロは saikoro が振ります", "saikoro rolls the dice")
                print((on if state["manual"] else off).text(lang))
            else:
                source = ManualSource(ask_die) if state["manual"] else None
                print_human(line, state["system"], lang, source=source)
        except SaikoroError as error:
            print_error(error)
        sys.stdout.flush()
