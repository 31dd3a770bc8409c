"""Dice sources and the per-command randomizer that records every die and enforces limits.

A *dice source* only answers "what does a die with N sides show?". Three exist:
random (default, seeded from the OS), scripted (a fixed list, for tests and replays)
and manual (physical dice typed in at the table). A :class:`Randomizer` wraps a
source for one command: it records each die (for the result's ``rands``) and
applies BCDice's limits — 200 dice in one roll, 10000 sides, 10000 random numbers
in one command — so that no input can hang the process. Unlike BCDice, every die a
command asks for counts against the 10000, also one that shows 0 without being rolled
(a d0, a die of more than 10000 sides, a roll of more than 200 dice): in BCDice
``x100 10000U0[2]`` asks for a million dice and prints two megabytes of zeros.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable
from typing import NamedTuple, Protocol

from saikoro.errors import DiceInputError, SaikoroError, ScriptedDiceError
from saikoro.i18n import Message

UPPER_LIMIT_DICE_TIMES = 200
UPPER_LIMIT_DICE_SIDES = 10000
UPPER_LIMIT_RANDS = 10000


class Die(NamedTuple):
    """One die as rolled: BCDice-API's ``{kind, sides, value}`` (a named tuple: cheap to make).

    ``kind`` is ``normal``, ``tens_d10`` (a d10 read as 0–90) or ``d9`` (a d10 read as 0–9).
    """

    kind: str
    sides: int
    value: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "sides": self.sides, "value": self.value}


class DiceSource(Protocol):
    """Something that tells what a die with ``sides`` faces shows (1..sides).

    A source may also offer ``roll_many(times, sides) -> list[int]`` (the same dice in
    one call), and set ``yields_faces = True`` when every value it gives is an ``int``
    from 1 to ``sides``, so that the randomizer may share its ``Die`` records.
    """

    def roll(self, sides: int) -> int: ...


#: One generator per process, seeded from the OS's cryptographic source (os.urandom):
#: as unpredictable to players as SystemRandom, without a system call per die.
_PROCESS_RNG = random.Random(int.from_bytes(os.urandom(32), "big"))


class RandomSource:
    """Dice from a generator cryptographically seeded by the OS (the default)."""

    yields_faces = True

    def __init__(self) -> None:
        # 0..n-1, uniform, no argument checks (a private method of random.Random)
        self.roll_below: Callable[[int], int] = _PROCESS_RNG._randbelow  # type: ignore[attr-defined]

    def roll(self, sides: int) -> int:
        return self.roll_below(sides) + 1

    def roll_many(self, times: int, sides: int) -> list[int]:
        roll_below = self.roll_below
        return [roll_below(sides) + 1 for _ in range(times)]


_DEFAULT_SOURCE = RandomSource()  # stateless: one serves every randomizer

#: Dice with at most this many sides share one ``Die`` per face (built on first use).
SHARED_FACES_MAX_SIDES = 100
_FACES: dict[int, dict[int, Die]] = {}


def shared_faces(sides: int) -> dict[int, Die] | None:
    """``faces[value]`` is the ``Die`` of a normal d``sides`` showing ``value`` (1..sides).

    ``Die`` is immutable, so one record per face serves every roll; None for dice
    with more than :data:`SHARED_FACES_MAX_SIDES` sides (their records are made per roll).
    """
    faces = _FACES.get(sides)
    if faces is None:
        if sides > SHARED_FACES_MAX_SIDES:
            return None
        faces = _FACES[sides] = {v: Die("normal", sides, v) for v in range(1, sides + 1)}
    return faces


class SeededSource:
    """Reproducible pseudo-random dice (simulations and Monte Carlo odds; not for play)."""

    yields_faces = True

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class ScriptedSource:
    """Dice from a fixed list of ``(value, sides)``, as BCDice's test mock.

    Asking for a die with other sides than the next one scripted, or for more dice
    than scripted, raises :class:`ScriptedDiceError`; :meth:`assert_exhausted`
    raises it when dice were left over.
    """

    yields_faces = True  # checked when scripted

    def __init__(self, rands: Iterable[tuple[int, int]]) -> None:
        self._rands = [(int(v), int(s)) for v, s in rands]
        for value, sides in self._rands:
            if not 1 <= value <= sides:
                raise ScriptedDiceError(
                    Message(
                        f"スクリプトの出目 {value}/{sides} はその面数のダイスにありません",
                        f"scripted die {value}/{sides} is not a face of a d{sides}",
                    )
                )
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._rands) - self._next

    def roll(self, sides: int) -> int:
        if self._next >= len(self._rands):
            raise ScriptedDiceError(
                Message(
                    f"スクリプトの出目が足りません (d{sides} が {self._next + 1} 個目に必要)",
                    f"not enough scripted dice (die #{self._next + 1}, a d{sides}, is needed)",
                )
            )
        value, scripted_sides = self._rands[self._next]
        if scripted_sides != sides:
            raise ScriptedDiceError(
                Message(
                    f"{self._next + 1} 個目の出目 {value}/{scripted_sides} の面数が違います"
                    f" (d{sides} が必要)",
                    f"die #{self._next + 1} is scripted as {value}/{scripted_sides}"
                    f" but a d{sides} is rolled",
                )
            )
        self._next += 1
        return value

    def assert_exhausted(self) -> None:
        if self.remaining:
            left = ",".join(f"{v}/{s}" for v, s in self._rands[self._next :])
            raise ScriptedDiceError(
                Message(
                    f"使われなかったスクリプトの出目があります: {left}",
                    f"scripted dice were left over: {left}",
                )
            )


class ManualSource:
    """Physical dice: ``ask(sides)`` returns what the player typed for a d``sides``.

    The answer is checked to be a face of that die; a wrong answer raises
    :class:`DiceInputError` (the front end asks again).
    """

    yields_faces = True  # checked as typed

    def __init__(self, ask: Callable[[int], int | str]) -> None:
        self._ask = ask

    def roll(self, sides: int) -> int:
        answer = self._ask(sides)
        try:
            value = int(str(answer).strip())
        except ValueError:
            value = 0
        if not 1 <= value <= sides:
            raise DiceInputError(
                Message(
                    f"{answer!r} は d{sides} の出目ではありません (1〜{sides})",
                    f"{answer!r} is not a face of a d{sides} (1 to {sides})",
                )
            )
        return value


def parse_rands(spec: str) -> list[tuple[int, int]]:
    """Parse the CLI form ``3/6,4/6`` into ``[(3, 6), (4, 6)]``."""
    rands: list[tuple[int, int]] = []
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        value, sep, sides = part.partition("/")
        if not (sep and value.isdecimal() and sides.isdecimal()):
            raise ScriptedDiceError(
                Message(
                    f"出目の指定 {part!r} は 値/面数 (例 3/6) の形ではありません",
                    f"dice spec {part!r} is not VALUE/SIDES (e.g. 3/6)",
                )
            )
        rands.append((int(value), int(sides)))
    return rands


class TooManyRandsError(SaikoroError):
    """More than :data:`UPPER_LIMIT_RANDS` random numbers in one command."""

    reason = "too many dice"

    def __init__(self) -> None:
        super().__init__(LIMIT_MESSAGES["rands"])


LIMIT_MESSAGES: dict[str, Message] = {
    "times": Message(
        f"一度に振れるダイスは {UPPER_LIMIT_DICE_TIMES} 個までです",
        f"at most {UPPER_LIMIT_DICE_TIMES} dice can be rolled at once",
    ),
    "sides": Message(
        f"ダイスの面数は 1〜{UPPER_LIMIT_DICE_SIDES} です (範囲外のダイスは 0 になります)",
        f"a die must have 1 to {UPPER_LIMIT_DICE_SIDES} sides (others show 0)",
    ),
    "rands": Message(
        f"1 つのコマンドで振れるダイスは合計 {UPPER_LIMIT_RANDS} 個までです",
        f"at most {UPPER_LIMIT_RANDS} dice can be rolled by one command",
    ),
}


class Randomizer:
    """Rolls dice for one command from a :class:`DiceSource`, recording each die.

    Limits follow BCDice: a roll of more than 200 dice (or of none) gives no dice,
    a die with more than 10000 sides (or fewer than 1) shows 0 without being rolled,
    and more than 10000 dice raise :class:`TooManyRandsError` — counting every die
    asked for, also the ones not rolled (saikoro's cost model). Every limit hit is
    remembered in :attr:`limits_hit` so front ends can warn the user.
    """

    def __init__(self, source: DiceSource | None = None) -> None:
        self.source: DiceSource = source if source is not None else _DEFAULT_SOURCE
        self.rands: list[Die] = []
        self.limits_hit: list[str] = []
        self._count = 0
        self._roll_many = getattr(self.source, "roll_many", None)  # None: one die at a time
        self._shares_faces: bool = getattr(self.source, "yields_faces", False)

    # -- limits -------------------------------------------------------------
    def _hit(self, limit: str) -> None:
        if limit not in self.limits_hit:
            self.limits_hit.append(limit)

    @property
    def warnings(self) -> list[Message]:
        return [LIMIT_MESSAGES[name] for name in self.limits_hit]

    @property
    def dice_counted(self) -> int:
        """The dice this command has asked for so far (rolled or not)."""
        return self._count

    def check_room(self, dice: int) -> None:
        """Raise :class:`TooManyRandsError` unless ``dice`` more dice fit in the command."""
        if self._count + dice > UPPER_LIMIT_RANDS:
            self._hit("rands")
            raise TooManyRandsError()

    def _charge(self, dice: int) -> None:
        """Count ``dice`` dice that show 0 without being rolled."""
        self.check_room(dice)
        self._count += dice

    def _rand(self, sides: int) -> int:
        if self._count >= UPPER_LIMIT_RANDS:  # check_room(1), inline: once per die
            self.check_room(1)
        value = self.source.roll(sides)
        self._count += 1
        return value

    def _roll_each(self, times: int, sides: int) -> list[int]:
        """``times`` dice from a source without ``roll_many``, one by one."""
        roll = self.source.roll
        return [roll(sides) for _ in range(times)]

    def _record(self, sides: int, values: list[int]) -> None:
        """Record normal dice showing ``values`` (shared faces when the source allows)."""
        faces = shared_faces(sides) if self._shares_faces else None
        if faces is None:
            self.rands.extend([Die("normal", sides, value) for value in values])
        else:
            self.rands.extend([faces[value] for value in values])

    # -- the rolls ----------------------------------------------------------
    def roll_once(self, sides: int) -> int:
        """One die, 1..sides (0 without rolling when sides is out of range)."""
        if sides <= 0 or sides > UPPER_LIMIT_DICE_SIDES:
            self._charge(1)
            self._hit("sides")
            return 0
        value = self._rand(sides)
        faces = shared_faces(sides) if self._shares_faces else None
        self.rands.append(Die("normal", sides, value) if faces is None else faces[value])
        return value

    def roll_barabara(self, times: int, sides: int) -> list[int]:
        """``times`` dice of ``sides`` faces, each kept apart (no dice when times is out of range)."""
        if self._count + times > UPPER_LIMIT_RANDS:  # check_room, inline: the hot path
            self.check_room(times)
        if times <= 0 or times > UPPER_LIMIT_DICE_TIMES:
            if times > UPPER_LIMIT_DICE_TIMES:
                self._charge(times)
                self._hit("times")
            return []
        if sides <= 0 or sides > UPPER_LIMIT_DICE_SIDES:
            self._charge(times)
            self._hit("sides")
            return [0] * times
        roll_many = self._roll_many
        values = roll_many(times, sides) if roll_many is not None else self._roll_each(times, sides)
        self._count += times
        self._record(sides, values)
        return values

    def roll_sum(self, times: int, sides: int) -> int:
        return sum(self.roll_barabara(times, sides))

    def roll_index(self, sides: int) -> int:
        """0..sides-1, for table look-ups."""
        return self.roll_once(sides) - 1

    def roll_tens_d10(self) -> int:
        """A d10 read as the tens digit: 0, 10, …, 90 (10 counts as 0)."""
        value = self._rand(10)
        tens = 0 if value == 10 else value * 10
        self.rands.append(Die("tens_d10", 10, tens))
        return tens

    def roll_d9(self) -> int:
        """A d10 read as 0–9."""
        value = self._rand(10) - 1
        self.rands.append(Die("d9", 10, value))
        return value

    def roll_d66(self, sort: str | None = None) -> int:
        """D66: two d6 read as tens and units; ``sort`` is None, ``"asc"`` or ``"desc"``."""
        dice = [self.roll_once(6), self.roll_once(6)]
        if sort == "asc":
            dice.sort()
        elif sort == "desc":
            dice.sort(reverse=True)
        return dice[0] * 10 + dice[1]
