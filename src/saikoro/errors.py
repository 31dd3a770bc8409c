"""The project's own error types. Nothing a user types may raise anything else."""

from __future__ import annotations

from saikoro.i18n import Message

#: Errors BCDice-API itself gives: their body is exactly ``{"ok": false, "reason": …}``.
BCDICE_API_REASONS = frozenset({"unsupported game system", "unsupported command"})


class SaikoroError(Exception):
    """Base of every error saikoro raises on bad input or bad data.

    ``reason`` is a short machine-readable English text (used in JSON output, as
    BCDice-API's ``reason``); ``message`` is the bilingual text shown to people.
    """

    reason: str = "error"

    def __init__(self, message: Message, *, reason: str | None = None) -> None:
        self.message = message
        if reason is not None:
            self.reason = reason
        super().__init__(message.both())

    def __reduce__(self) -> tuple[object, ...]:
        # as raised (its message and reason), whatever the subclass's own arguments: an
        # error raised in a worker process is sent back to the one that started it
        return (_unpickled, (type(self), self.args, self.__dict__))


def _unpickled(
    kind: type[SaikoroError], args: tuple[object, ...], values: dict[str, object]
) -> SaikoroError:
    made = kind.__new__(kind)
    made.args = args
    made.__dict__.update(values)
    return made


class UnsupportedSystemError(SaikoroError):
    reason = "unsupported game system"


class UnsupportedCommandError(SaikoroError):
    reason = "unsupported command"


class ScriptedDiceError(SaikoroError):
    """Scripted dice did not fit the command: wrong sides, too few, or left over."""

    reason = "scripted dice mismatch"


class DiceInputError(SaikoroError):
    """A die typed in by hand (manual dice source) was not a face of that die."""

    reason = "invalid manual die"


class MissingExtraError(SaikoroError):
    """A feature whose libraries are an optional extra that is not installed."""

    reason = "missing optional dependency"


def require_extra(module: str, extra: str, feature: Message) -> None:
    """Raise :class:`MissingExtraError` naming ``pip install 'saikoro[extra]'`` when
    ``module`` cannot be imported (the core install leaves out the server, PostgreSQL and
    plotting libraries)."""
    import importlib.util

    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise MissingExtraError(
            Message(
                f"{feature.ja}には追加のライブラリが必要です: pip install 'saikoro[{extra}]'",
                f"{feature.en} needs optional libraries: pip install 'saikoro[{extra}]'",
            )
        )
