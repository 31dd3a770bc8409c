"""``saikoro.odds``: pick the method for a command and build its :class:`Odds`.

1. Exact enumeration of every dice sequence through the real evaluator when the
   command has at most ``limit`` (10⁶) sequences.
2. For commands with more than :data:`CONVOLVE_ABOVE` sequences, faster exact
   methods with the same answer: convolution when the command is a plain sum of
   independent dice; otherwise, when it rolls n identical dice whose order does not
   matter (checked on every multiset), one run per multiset of faces.
3. Otherwise a Monte Carlo estimate (``exact: false``) with 95 % intervals, within a
   time budget when one is given (then 1 and 2 may use half of it before giving way).

A repeat (``x3 2D6>=7``) has no value or flags of its own: its odds are those of one
roll of the command after it, marked with :attr:`Odds.repeat`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.odds import clock, convolution, enumeration, montecarlo, multiset
from saikoro.odds.result import FLAGS, Interval, Odds, moments, word_breakdown
from saikoro.odds.runner import NotACommandError, Outcome, Runner, make_runner

if TYPE_CHECKING:
    from saikoro.dice.result import RollResult

#: Exact enumeration handles commands with up to this many dice sequences.
DEFAULT_LIMIT = 10**6
#: A plain sum with more sequences than this is convolved instead of enumerated.
CONVOLVE_ABOVE = 10_000
METHODS = ("auto", "enumeration", "convolution", "multiset", "monte-carlo")

_FLAG_INDEX = {flag: i for i, flag in enumerate(FLAGS)}
#: ``x3 2D6>=7``, ``Srep3 …``: the repetitions and the repeated command (the syntax of
#: :mod:`saikoro.dice.commands.repeat`, whose result is recognised by its ``repeat`` detail).
_REPEAT = re.compile(r"S?(?:repeat|rep|x)(\d+)\s+(.+)", re.IGNORECASE | re.DOTALL)


class OddsMethodError(SaikoroError):
    """The method asked for cannot give this command's odds."""

    reason = "odds method unavailable"


def odds(
    command: str,
    system: str = "DiceBot",
    *,
    method: str = "auto",
    limit: int = DEFAULT_LIMIT,
    samples: int = montecarlo.DEFAULT_SAMPLES,
    seed: int = 0,
    seconds: float | None = None,
    settings: Mapping[str, Any] | None = None,
) -> Odds:
    """The probabilities of ``command``'s outcomes in ``system`` (see :class:`Odds`).

    ``method`` forces ``enumeration``, ``convolution``, ``multiset`` or ``monte-carlo``
    (``auto`` picks, see the module doc). ``limit`` caps the sequences enumerated;
    ``samples`` (fewer when runs roll very many dice, see
    :func:`montecarlo.affordable_samples`) and ``seed`` drive Monte Carlo, which stops
    after ``seconds`` (None: no time budget) with the samples done (``outcomes``,
    ``time_limited``). Raises :class:`saikoro.errors.SaikoroError` for unknown systems,
    text that is not a command, or a method that cannot apply. ``settings`` are house
    rules (a room's ``/gm setting`` overrides) the system plays by.
    """
    if method not in METHODS:
        raise OddsMethodError(
            Message(
                f"odds の方法 {method!r} はありません ({', '.join(METHODS)})",
                f"unknown odds method {method!r} (one of {', '.join(METHODS)})",
            )
        )
    if samples < 1 or limit < 1:
        raise OddsMethodError(
            Message("試行回数と上限は 1 以上です", "samples and limit must be at least 1")
        )
    if seconds is not None and not seconds > 0:
        raise OddsMethodError(
            Message("時間制限は 0 秒より長くしてください", "the time budget must be above 0 s")
        )
    started = clock.now()
    run = make_runner(command, system, settings)
    counter = _Counting(SeededSource(seed))
    probe = run(counter)
    if probe is None:
        raise NotACommandError(command, system)
    repeated = _REPEAT.fullmatch(run.text)
    if repeated is not None and "repeat" not in probe.detail and not counter.dice:
        raise NotACommandError.of_repeat(command, system, probe)
    if repeated is not None and "repeat" in probe.detail:
        one = odds(
            repeated.group(2),
            system,
            method=method,
            limit=limit,
            samples=samples,
            seed=seed,
            seconds=seconds,
            settings=settings,
        )
        return dataclasses.replace(one, command=command, repeat=int(repeated.group(1)))

    if method == "monte-carlo":
        n = montecarlo.affordable_samples(samples, counter.dice)
        return _from_sample(run, montecarlo.sample_outcomes(run, n, seed, seconds))
    if method == "convolution":
        plain = _plain_sum(run)
        if plain is None or plain.work > convolution.WORK_LIMIT:
            raise OddsMethodError(
                Message(
                    f"{command!r} は畳み込みで計算できる単純な合計ではありません",
                    f"{command!r} is not a plain sum of dice that convolution can handle",
                )
            )
        return _from_convolution(run, plain, probe)
    if method == "enumeration":
        try:
            return _from_enumeration(run, enumeration.enumerate_outcomes(run, limit))
        except enumeration.TreeTooLarge:
            raise OddsMethodError(
                Message(
                    f"{command!r} の出目の組み合わせは {limit} 通りを超えます",
                    f"{command!r} has more than {limit} dice sequences",
                )
            ) from None

    estimate = enumeration.estimate_sequences(run, seed=seed, bound=limit)
    if method == "multiset":
        found = _multisets(run, estimate, limit, seed, None)
        if found is None:
            raise OddsMethodError(
                Message(
                    f"{command!r} は順序に関係しない同じダイスだけのコマンドではありません",
                    f"{command!r} does not roll only identical dice whose order does not matter",
                )
            )
        return _from_enumeration(run, found, "multiset")
    # With a time budget, the exact methods may use half of it; Monte Carlo has the rest.
    exact_until = None if seconds is None else started + seconds / 2
    if estimate.mean > CONVOLVE_ABOVE:
        plain = _plain_sum(run)
        if plain is not None and plain.work <= convolution.WORK_LIMIT:
            return _from_convolution(run, plain, probe)
        found = _multisets(run, estimate, limit, seed, exact_until)
        if found is not None:
            return _from_enumeration(run, found, "multiset")
    if estimate.mean <= limit:
        try:
            return _from_enumeration(run, enumeration.enumerate_outcomes(run, limit, exact_until))
        except enumeration.TreeTooLarge:
            pass
    n = montecarlo.affordable_samples(samples, max(estimate.most_dice, counter.dice))
    left = None if seconds is None else max(seconds - (clock.now() - started), seconds / 10)
    return _from_sample(run, montecarlo.sample_outcomes(run, n, seed, left))


class _Counting:
    """A dice source that counts the dice it gives."""

    yields_faces = True  # only faces 1..sides: the randomizer may share Die records

    def __init__(self, source: SeededSource) -> None:
        self.source = source
        self.dice = 0

    def roll(self, sides: int) -> int:
        self.dice += 1
        return self.source.roll(sides)


def _plain_sum(run: Runner) -> convolution.PlainSum | None:
    if run.system.judges_sums:
        return None  # the system judges sums (criticals): not a plain sum
    plain = convolution.parse_plain_sum(run.text, run.system.sides_implicit_d)
    if plain is None or not convolution.agrees_with_evaluator(plain, run):
        return None
    return plain


def _multisets(
    run: Runner,
    estimate: enumeration.SequenceEstimate,
    limit: int,
    seed: int,
    deadline: float | None,
) -> enumeration.Enumeration | None:
    """Multiset enumeration when every walk rolled the same n ≥ 2 dice of one size (None
    also when ``clock.now()`` passes ``deadline`` first)."""
    sides = estimate.sides
    if not sides or len(sides) < 2 or len(set(sides)) != 1 or sides[0] < 2:
        return None
    if 3 * multiset.multiset_count(len(sides), sides[0]) > limit:
        return None
    return multiset.enumerate_multisets(run, len(sides), sides[0], seed, deadline)


def _flag_probability(outcomes: dict[Outcome, Fraction], flag: str) -> Fraction:
    index = _FLAG_INDEX[flag]
    return sum((p for outcome, p in outcomes.items() if outcome[index]), Fraction(0))


def _from_enumeration(
    run: Runner, found: enumeration.Enumeration, method: str = "enumeration"
) -> Odds:
    distribution: dict[int, Fraction] = {}
    words: dict[str, Fraction] = {}
    words_en: dict[str, str] = {}
    for outcome, p in found.outcomes.items():
        value = outcome[4]
        if value is not None:
            distribution[value] = distribution.get(value, Fraction(0)) + p
        word, english = outcome[5]
        words[word] = words.get(word, Fraction(0)) + p
        words_en[word] = english
    distribution = dict(sorted(distribution.items()))
    mean, stdev = moments(distribution)  # type: ignore[arg-type]
    return Odds(
        command=run.command,
        system=run.system.id,
        exact=True,
        method=method,
        outcomes=found.sequences,
        distribution=distribution,  # type: ignore[arg-type]
        mean=mean,
        stdev=stdev,
        value_probability=sum(distribution.values(), Fraction(0)),
        context=_with_comparison(run, found.context),
        example=_text(found.example),
        words=word_breakdown(words),  # type: ignore[arg-type]
        words_en=words_en,
        success=_flag_probability(found.outcomes, "success"),
        failure=_flag_probability(found.outcomes, "failure"),
        critical=_flag_probability(found.outcomes, "critical"),
        fumble=_flag_probability(found.outcomes, "fumble"),
    )


def _from_convolution(run: Runner, plain: convolution.PlainSum, probe: RollResult) -> Odds:
    result = convolution.convolve(plain)
    mean, stdev = moments(result.distribution)  # type: ignore[arg-type]
    return Odds(
        command=run.command,
        system=run.system.id,
        exact=True,
        method="convolution",
        outcomes=result.sequences,
        success=result.success,
        failure=result.failure,
        critical=Fraction(0),
        fumble=Fraction(0),
        distribution=result.distribution,  # type: ignore[arg-type]
        mean=mean,
        stdev=stdev,
        context=_with_comparison(run, {}),
        example=_text(probe),
    )


def _from_sample(run: Runner, sample: montecarlo.Sample) -> Odds:
    distribution = {v: c / sample.n for v, c in sample.value_counts.items()}
    mean, stdev = moments(distribution)  # type: ignore[arg-type]
    intervals: dict[str, Interval] = {flag: sample.interval(flag) for flag in FLAGS}
    return Odds(
        command=run.command,
        system=run.system.id,
        exact=False,
        method="monte-carlo",
        outcomes=sample.n,
        distribution=distribution,  # type: ignore[arg-type]
        mean=mean,
        stdev=stdev,
        value_probability=sum(sample.value_counts.values()) / sample.n,
        intervals=intervals,
        mean_interval=sample.mean_interval(),
        context=_with_comparison(run, sample.context),
        example=_text(sample.example),
        words=word_breakdown({w: c / sample.n for w, c in sample.words.items()}),
        words_en=sample.words_en,
        time_limited=sample.time_limited,
        success=sample.probability("success"),
        failure=sample.probability("failure"),
        critical=sample.probability("critical"),
        fumble=sample.probability("fumble"),
    )


def _text(result: RollResult | None) -> str:
    return result.text if result is not None else ""


def _with_comparison(run: Runner, context: dict[str, Any]) -> dict[str, Any]:
    """Add the target of a generic sum (``1D100<=65`` → ``<=65``) when the system gave none."""
    if "target" in context:
        return context
    plain = convolution.parse_plain_sum(run.text, run.system.sides_implicit_d)
    if plain is None or plain.op is None:
        return context
    return {**context, "target": f"{plain.op}{plain.target}"}
