"""The running totals of many simulated fights (`FightTally`): all a Monte Carlo summary needs, in constant memory,
added a batch's fight ends (`Part`) as they come (every `run.FOLD_ROWS` ended fights and at the batch's end) and
merged across a run's shares."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tohit.core.fight.rows import column_sums, first_of_each
from tohit.core.fight.state import BoolArray, IntArray

#: A batch's fight ends, one entry per fight: the winner (-1: a draw), the rounds played, and per combatant its
#: health, whether it stands and the damage it dealt.
Part = tuple[IntArray, IntArray, IntArray, BoolArray, IntArray]
#: Rounds up to this many are tallied with one count per round (`np.bincount`), longer fights by sorting.
ROUND_COUNTS = 1 << 16


@dataclass
class FightTally:
    """Running totals of many fights: all the Monte Carlo summary needs, in constant memory."""

    wins: IntArray  # (sides,)
    draws: int
    rounds: dict[int, int]
    standing: IntArray  # (C,) fights each combatant ends standing in
    health_standing: IntArray  # (C,) its health summed over those fights
    health: IntArray  # (C,) its health summed over every fight
    dealt: IntArray  # (C,) damage it dealt, summed

    @staticmethod
    def empty(sides: int, combatants: int) -> FightTally:
        zeros = np.zeros(combatants, dtype=np.int64)
        return FightTally(np.zeros(sides, dtype=np.int64), 0, {}, zeros, zeros.copy(), zeros.copy(), zeros.copy())

    def add(self, part: Part) -> None:
        winner, rounds, health, standing, dealt = part
        self._sums(winner, health, standing, dealt)
        if rounds.size and int(rounds.max()) < ROUND_COUNTS:  # one count per round, in increasing order
            counts = np.bincount(rounds)
            values = np.flatnonzero(counts)
            counted = zip(values.tolist(), counts[values].tolist(), strict=True)
        else:
            counted = zip(*(a.tolist() for a in np.unique(rounds, return_counts=True)), strict=True)
        for value, count in counted:
            self.rounds[value] = self.rounds.get(value, 0) + count

    def _sums(self, winner: IntArray, health: IntArray, standing: BoolArray, dealt: IntArray) -> None:
        """The wins, draws and per-combatant sums of fights' ends (branch-free passes: `column_sums`, one count of
        the winners with the draws in it, health times standing)."""
        ends = np.bincount(winner + 1, minlength=len(self.wins) + 1)  # the draws (-1) first, then each side's wins
        self.draws += int(ends[0])
        self.wins += ends[1:]
        self.standing += column_sums(standing)
        self.health_standing += column_sums(health * standing)
        self.health += column_sums(health)
        self.dealt += column_sums(dealt)

    def add_parts(self, parts: list[Part]) -> None:
        """`add` of each part in turn, with the sums made once over them all (a batch's fights end over many
        steps, in parts of a few hundred rows: one pass over their rows instead of a dozen calls a part). The rounds
        are counted as `add` counts them part by part: each new round in the order the parts first show it (the
        summary's spread of rounds sums them in that order)."""
        if not parts:
            return
        rounds = np.concatenate([p[1] for p in parts])
        if int(rounds.max(initial=0)) >= ROUND_COUNTS:
            for part in parts:
                self.add(part)
            return
        self._count_rounds(rounds, [p[1].size for p in parts])
        winner, _, health, standing, dealt = (np.concatenate([p[i] for p in parts]) for i in range(5))
        self._sums(winner, health, standing, dealt)

    def _count_rounds(self, rounds: IntArray, sizes: list[int]) -> None:
        """The rounds of parts of `sizes` rows laid end to end, counted into `self.rounds` as `add` would count them
        part by part: a round not yet counted comes in at the first part that has it, in increasing order there."""
        counts = np.bincount(rounds)
        values = np.flatnonzero(counts)
        first_row = first_of_each(rounds, counts.size).take(values)  # each round's first row (rows laid end to end)
        first_part = np.searchsorted(np.cumsum(sizes), first_row, side="right")  # the part that row is in
        order = values[np.lexsort((values, first_part))]
        for value, count in zip(order.tolist(), counts.take(order).tolist(), strict=True):
            self.rounds[value] = self.rounds.get(value, 0) + count

    def merge(self, other: FightTally) -> None:
        self.wins += other.wins
        self.draws += other.draws
        for value, count in other.rounds.items():
            self.rounds[value] = self.rounds.get(value, 0) + count
        self.standing += other.standing
        self.health_standing += other.health_standing
        self.health += other.health
        self.dealt += other.dealt
