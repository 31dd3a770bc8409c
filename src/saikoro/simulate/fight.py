"""One fight, played line by line on a :class:`~saikoro.simulate.table.MemoryTable`.

Each turn the acting character's side policy picks a line among the playbook's options
(refused lines fall back to the next option, then to doing nothing); after every line a
character just put out of the fight may be saved by its side's rescue (a fate check). The
fight ends when one side is all out, or as a draw after ``round_cap`` rounds.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from saikoro.dice.randomizer import SeededSource
from saikoro.errors import SaikoroError
from saikoro.i18n import Message
from saikoro.simulate.model import CharacterTally, FightResult, Option, Playbook, Policy, Situation
from saikoro.simulate.setup import SimulationError
from saikoro.simulate.table import MemoryTable
from saikoro.table import events as ev
from saikoro.table.events import Event
from saikoro.table.state import Character, RoomState

#: The default round cap: a fight still going after this many rounds is a draw.
ROUND_CAP = 30


def fight_seed(seed: int, number: int) -> int:
    """Fight ``number``'s own seed (fights are independent; any one can be replayed)."""
    digest = hashlib.sha256(f"saikoro-simulate:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class PolicyError(SimulationError):
    """A policy's function raised, or chose something that is not a line to type."""

    reason = "policy failed"

    def in_fight(self, number: int) -> PolicyError:
        """This error, saying which fight of the run it stopped."""
        ja, en = self.message.ja, self.message.en
        return PolicyError(Message(f"戦闘 {number}: {ja}", f"fight {number}: {en}"))


def chosen_line(policy: Policy, situation: Situation) -> str | None:
    """The line ``policy`` chose for ``situation.actor``: a table command (``/…``), the line
    of an :class:`Option`, or None (no action). A user's function that raises, or returns
    anything else, stops the run with the policy named (its figures would be wrong)."""
    name, actor = policy.name, situation.actor
    try:
        chosen = policy.choose(situation)
    except Exception as failure:  # a user's function: named, not a traceback
        why = f"{type(failure).__name__}: {failure}"
        raise PolicyError(
            Message(
                f"ポリシー {name!r} が {actor} の手番でエラーになりました: {why}",
                f"the policy {name!r} failed on {actor}'s turn: {why}",
            )
        ) from failure
    if isinstance(chosen, Option):
        return chosen.line
    if chosen is None or (isinstance(chosen, str) and chosen.lstrip().startswith("/")):
        return chosen
    shown = repr(chosen)[:80]
    raise PolicyError(
        Message(
            f"ポリシー {name!r} が {actor} の手番に選んだ {shown} は卓のコマンドではありません"
            " (/ で始まる行、Option、または None を返します)",
            f"the policy {name!r} chose {shown} on {actor}'s turn, not a table command "
            "(return a line starting with /, an Option, or None)",
        )
    )


@dataclass
class _Tally:
    """Watches the events: HP lost per character, and by whom (the acting character, for
    damage before another turn starts in the same line — a poison tick at the start of the
    next turn is nobody's)."""

    result: FightResult
    dealer: str | None = None
    turns: int = 0

    def watch(self, event: Event) -> None:
        if event.kind == ev.TURN_STARTED:
            self.turns += 1
            self.dealer = None
            return
        if event.kind != ev.STATUS_SET or event.data.get("key") != "hp":
            return
        name, value, old = event.data.get("name"), event.data.get("value"), event.data.get("old")
        if not isinstance(value, int) or not isinstance(old, int):
            return
        lost = old - value
        tallies = self.result.characters
        if name in tallies:
            tallies[str(name)].taken += lost
        if self.dealer is not None and self.dealer in tallies and self.dealer != name:
            tallies[self.dealer].dealt += lost


class Fight:
    def __init__(
        self,
        base: RoomState,
        playbook: Playbook,
        policies: dict[str, Policy],
        seed: int,
        *,
        round_cap: int = ROUND_CAP,
        keep: bool = False,
    ) -> None:
        self.playbook = playbook
        self.policies = policies
        self.round_cap = round_cap
        self.rng = random.Random(seed ^ 0x5A1C0)
        result = FightResult("draw", 0)
        for name, character in base.characters.items():
            result.characters[name] = CharacterTally(character.side)
        self.tally = _Tally(result)
        #: Who is out of the fight, as of the last line, and the character objects asked.
        self._out: dict[str, bool] = {n: playbook.out(c) for n, c in base.characters.items()}
        self._asked: dict[str, Character] = {}
        self.table = MemoryTable(
            base.clone(), SeededSource(seed), keep=keep, watcher=self.tally.watch
        )

    @property
    def state(self) -> RoomState:
        return self.table.state

    def run(self, line: str, speaker: str | None) -> bool:
        """Type ``line`` (as ``speaker``'s player; None: the GM); False when refused. Then
        the rescues of those it put out."""
        self.tally.dealer = speaker
        try:
            self.table.run(line, speaker)
        except SaikoroError:
            return False
        finally:
            self.tally.dealer = None
        self.tally.result.lines += 1
        fallen = self._fallen()
        for name in fallen:
            if not self.policies[self.state.characters[name].side].rescue:
                continue
            rescue = self.playbook.rescue(self.state, name)
            if rescue is not None:
                try:
                    self.table.run(rescue, name)
                    self.tally.result.lines += 1
                except SaikoroError:
                    pass
        if fallen:
            self._fallen()  # who the rescues brought back (those they put out stay out)
        return True

    def _fallen(self) -> list[str]:
        """Those the lines since the last call put out of the fight, in the room's order.
        A line leaves the characters it does not change as the same objects (the table's
        copy on write), so only the others are asked again."""
        known, asked = self._out, self._asked
        fallen = []
        for name, character in self.state.characters.items():
            if asked.get(name) is character:
                continue
            asked[name] = character
            out = self.playbook.out(character)
            if out and not known.get(name, True):
                fallen.append(name)
            known[name] = out
        return fallen

    def winner(self) -> str | None:
        out = {side: True for side in ("pc", "npc")}
        gone = self._out
        for name, character in self.state.characters.items():
            if not gone[name]:
                out[character.side] = False
        if out["pc"] and out["npc"]:
            return "draw"
        if out["pc"]:
            return "npc"
        if out["npc"]:
            return "pc"
        return None

    def options(self, actor: str) -> tuple[Option, ...]:
        found = self.playbook.options(self.state, actor)
        return tuple(sorted(found, key=lambda o: (-o.hurt, -o.damage, o.target, o.line)))

    def play(self) -> FightResult:
        result = self.tally.result
        self.table.run("/combat start")  # refused: the table's own error, for the caller
        limit = self.round_cap * (len(self.state.characters) * 8 + 8)
        while True:
            winner = self.winner()
            combat = self.state.combat
            if winner is not None or combat is None:
                result.winner = winner or "draw"
                break
            if combat.round > self.round_cap or result.lines > limit:
                result.winner, result.capped = "draw", True
                break
            self.turn(combat.current)
        combat = self.state.combat
        result.rounds = min(combat.round, self.round_cap) if combat is not None else 0
        for name, character in self.state.characters.items():
            tally = result.characters[name]
            tally.down = self.playbook.out(character)
            tally.dead = self.playbook.dead(character)
        return result

    def turn(self, actor: str | None) -> None:
        if actor is None:  # between turns: the GM moves on
            self.run("/next", None)
            return
        turns = self.tally.turns
        character = self.state.characters[actor]
        acted = False
        if not self.playbook.out(character):
            options = self.options(actor)
            policy = self.policies[character.side]
            chosen = chosen_line(policy, Situation(self.state, actor, options, self.rng))
            lines = [] if chosen is None else [chosen, *(o.line for o in options)]
            for line in dict.fromkeys(lines):
                if self.run(line, actor):
                    acted = True
                    break
        combat = self.state.combat
        if combat is None or self.tally.turns != turns or combat.current != actor:
            return  # the action ended the turn (or the fight)
        end = self.playbook.end_turn(self.state, actor) if acted else None
        if end is None and not acted:
            end = self.playbook.idle(self.state, actor)
        if end is None or not self.run(end, actor):
            self.run("/next", None)  # the GM moves the fight on


def play_fight(
    base: RoomState,
    playbook: Playbook,
    policies: dict[str, Policy],
    seed: int,
    *,
    round_cap: int = ROUND_CAP,
    keep: bool = False,
) -> tuple[FightResult, list[Event]]:
    """Play one fight from ``base`` (the set-up room, before ``/combat start``) with dice
    from ``seed``; the events too when ``keep``."""
    fight = Fight(base, playbook, policies, seed, round_cap=round_cap, keep=keep)
    result = fight.play()
    return result, fight.table.events
