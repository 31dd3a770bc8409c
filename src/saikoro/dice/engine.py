"""The command pipeline: normalize → system-specific command → common commands → result.

Common commands live in ``saikoro.dice.commands``, one module each, in BCDice's
order. Each module exposes

- ``PREFIX_PATTERN: str`` — the regex source of the start of its commands (used to
  build every system's ``command_pattern``), and
- ``evaluate(text, system, randomizer) -> RollResult | None`` — ``text`` is the
  normalized input *with* its comment (Choice needs the words after spaces); the
  module handles the ``S`` prefix, its own syntax and the comment, and returns None
  when the text is not its command.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, cast

from saikoro.dice.arith import preprocess
from saikoro.dice.limits import NumberTooLongError, check_output, is_int_digits_error
from saikoro.dice.normalize import normalize
from saikoro.dice.randomizer import Randomizer
from saikoro.dice.result import RollResult

if TYPE_CHECKING:
    from saikoro.dice.system import DiceSystem

#: The common commands in the order BCDice tries them.
COMMON_COMMANDS: tuple[str, ...] = (
    "add_dice",
    "barabara_dice",
    "tally_dice",
    "calc",
    "choice",
    "d66_dice",
    "repeat",
    "reroll_dice",
    "upper_dice",
    "version",
)


class CommandModule(Protocol):
    """A common command module (``saikoro.dice.commands.<name>``)."""

    PREFIX_PATTERN: str

    def evaluate(
        self, text: str, system: DiceSystem, randomizer: Randomizer
    ) -> RollResult | None: ...


_modules: list[CommandModule] = []


def common_command_modules() -> list[CommandModule]:
    """The common command modules, imported on first use (CLI start-up stays fast)."""
    if not _modules:
        loaded = [
            cast(CommandModule, importlib.import_module(f"saikoro.dice.commands.{name}"))
            for name in COMMON_COMMANDS
        ]
        _modules[:] = loaded
    return _modules


def common_prefix_patterns() -> tuple[str, ...]:
    """The regex sources of the starts of the common commands (for ``command_pattern``)."""
    return tuple(m.PREFIX_PATTERN for m in common_command_modules())


def eval_specific(text: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    """The system's own command, as BCDice's ``dice_command``.

    The text is preprocessed first (first word only, ``(8/2)`` → ``4``, ``2D`` → ``2D6``),
    upper-cased, and a leading ``S`` (secret) is removed before ``system.eval_specific``.
    """
    pattern = system.prefixes_pattern
    if pattern is None:
        return None
    command = preprocess(text, system).upper()
    match = pattern.match(command)
    if match is None:
        return None
    secret = match.group(1) is not None
    if secret:
        command = command[1:]
    result = system.eval_specific(command, randomizer)
    if result is not None:
        result.secret = result.secret or secret
    return result


#: Which common command module answered a text last time, by (system class, text).
#: Whether a command module accepts a text depends only on the text, and a module that
#: declines rolls no dice, so starting with the module that answered before changes no
#: outcome; it saves the parse attempts of the modules before it (Repeat runs its text
#: many times).
_ANSWERED_BY: dict[tuple[type, str], CommandModule] = {}
_ANSWERED_BY_SIZE = 4096


def evaluate_normalized(text: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    """Evaluate already-normalized text once (Repeat calls this for each repetition)."""
    if system.prefixes_pattern is not None:  # the system has commands of its own
        result = eval_specific(text, system, randomizer)
        if result is not None:
            return result
    key = (type(system), text)
    known = _ANSWERED_BY.get(key)
    if known is not None:
        result = known.evaluate(text, system, randomizer)
        if result is not None:
            return result
    for module in common_command_modules():
        result = module.evaluate(text, system, randomizer)
        if result is not None:
            if len(_ANSWERED_BY) >= _ANSWERED_BY_SIZE:
                _ANSWERED_BY.clear()
            _ANSWERED_BY[key] = module
            return result
    return None


def evaluate(command: str, system: DiceSystem, randomizer: Randomizer) -> RollResult | None:
    """Evaluate one chat line; None when it is not a command of ``system``.

    The result carries every die rolled (``rands``) and a warning for each limit hit.
    Raises only :class:`saikoro.errors.SaikoroError` subclasses; a result text longer
    than :data:`saikoro.dice.limits.MAX_OUTPUT_CHARS` is refused.
    """
    text = normalize(command)
    if not text:
        return None
    try:
        result = evaluate_normalized(text, system, randomizer)
    except ValueError as error:  # an integer of more digits than Python converts
        if not is_int_digits_error(error):
            raise
        raise NumberTooLongError() from None
    if result is None:
        return None
    check_output(len(result.text))
    result.rands = list(randomizer.rands)
    if randomizer.limits_hit:
        result.warnings = [*result.warnings, *randomizer.warnings]
    return result
