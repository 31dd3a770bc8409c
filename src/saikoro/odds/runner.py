"""Run one command once against a dice source, through the real evaluator.

Every odds method (enumeration, the convolution's cross-check, Monte Carlo) goes
through :class:`Runner`, so the odds can never drift from the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from saikoro.dice.randomizer import DiceSource, Randomizer
from saikoro.errors import SaikoroError, UnsupportedCommandError
from saikoro.i18n import Message

if TYPE_CHECKING:
    from saikoro.dice.result import RollResult
    from saikoro.systems.base import GameSystem

#: The outcome of one run, as odds count it:
#: (success, failure, critical, fumble, value, result word — the text after the last ＞ —
#: in Japanese and as the command made it in English).
Outcome = tuple[bool, bool, bool, bool, "int | None", tuple[str, str]]


class NotACommandError(UnsupportedCommandError):
    """The text is not a command of the system, so it has no odds."""

    def __init__(self, command: str, system: str, message: Message | None = None) -> None:
        super().__init__(
            message
            or Message(
                f"{command!r} は {system} のダイスコマンドではありません",
                f"{command!r} is not a dice command of {system}",
            )
        )

    @classmethod
    def of_repeat(cls, command: str, system: str, result: RollResult) -> NotACommandError:
        """A repeat that rolls nothing (``x0 1D6``, ``x3 x3 1D6``, ``x3 foo``)."""
        why = result.warnings[0] if result.warnings else None
        return cls(
            command,
            system,
            Message(
                f"{command!r} は繰り返せません: {why.ja if why else result.text}",
                f"{command!r} cannot be repeated: "
                + (why.en if why else f"the repeated text is not a dice command of {system}"),
            ),
        )


class NondeterministicCommandError(SaikoroError):
    """The evaluator asked for different dice on the same dice so far (a bug)."""

    reason = "nondeterministic command"

    def __init__(self) -> None:
        super().__init__(
            Message(
                "同じ出目に対してコマンドの結果が変わりました (odds を計算できません)",
                "the command gave different dice requests for the same dice (no odds)",
            )
        )


def outcome_of(result: RollResult | None) -> Outcome:
    if result is None:
        return (False, False, False, False, None, ("", ""))
    value = result.value
    word = result.text.rpartition("＞")[2].strip()
    english = result.text_en.rpartition("＞")[2].strip() if result.text_en is not None else word
    return (
        bool(result.success),
        bool(result.failure),
        bool(result.critical),
        bool(result.fumble),
        None if value is None else int(value),
        (word, english),
    )


def scalar_details(result: RollResult | None) -> dict[str, Any]:
    """The result's scalar details (band, rate, target, …), candidates for the context."""
    if result is None:
        return {}
    return {
        key: value
        for key, value in result.detail.items()
        if isinstance(value, str | int | float | bool) or value is None
    }


class CommonDetails:
    """The scalar details equal in every result seen so far, and the first result."""

    __slots__ = ("_started", "details", "example")

    def __init__(self) -> None:
        self.details: dict[str, Any] = {}
        self.example: RollResult | None = None
        self._started = False

    def see(self, result: RollResult | None) -> None:
        if not self._started:
            self._started = True
            self.details = scalar_details(result)
            self.example = result
        elif self.details:
            detail = result.detail if result is not None else {}
            for name in [k for k, v in self.details.items() if detail.get(k, _MISSING) != v]:
                del self.details[name]


_MISSING = object()


@dataclass
class Runner:
    """Evaluates one normalized command of one system, once per call."""

    command: str
    system: GameSystem
    text: str

    def __call__(self, source: DiceSource) -> RollResult | None:
        from saikoro.dice import engine

        return engine.evaluate_normalized(self.text, self.system, Randomizer(source))


def make_runner(command: str, system: str, settings: Mapping[str, Any] | None = None) -> Runner:
    """A runner for ``command`` in ``system`` (playing by the house rules ``settings``);
    raises a SaikoroError for unknown systems or bad settings."""
    from saikoro.dice.normalize import normalize
    from saikoro.systems import systems

    game_system = systems.configured(system, settings)
    text = normalize(command)
    if not text:
        raise NotACommandError(command, system)
    return Runner(command, game_system, text)
