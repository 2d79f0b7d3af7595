"""Last Odyssey's turn order [Starting Battles] (fight.py's rules): Initiative, highest first; calling
initiative against the GM's 2d4; other ties by the file's order, sides alternating.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import IntArray

#: The GM's 2d4 when players call initiative [Starting Battles]: its values and their weights.
CALL_ROLL: tuple[IntArray, tuple[int, ...]] = (np.arange(2, 9, dtype=np.int64), (1, 2, 3, 4, 3, 2, 1))


@dataclass(frozen=True)
class TurnOrder:
    """Each combatant's place in the round's order [Starting Battles]: by Initiative, highest first; a call
    equal to the GM's 2d4 counts 1.5x Initiative; on a tie with an enemy (a foe of equal Initiative) a call below
    the roll goes first, one at or above it last; other ties (between player characters, between enemies, or
    with one who did not call) in the file's order, sides alternating (`turn_order: file`: the file's order)."""

    initiative: tuple[int, ...]
    call: tuple[int | None, ...]
    file_place: tuple[int, ...]
    by_file: bool
    side: tuple[int, ...]

    @staticmethod
    def of(fight: LoadedFight) -> TurnOrder:
        size = fight.roster.size
        file_place = [0] * size
        for place, c in enumerate(fight.file_order):
            file_place[c] = place
        return TurnOrder(
            initiative=tuple(int(c.initiative or 0) for c in fight.combatants),
            call=tuple(c.call for c in fight.combatants),
            file_place=tuple(file_place),
            by_file=fight.spec.options.turn_order == "file",
            side=tuple(int(s) for s in fight.roster.side_array),
        )

    @property
    def calls(self) -> bool:
        """Someone calls initiative, so the GM rolls 2d4 (never with `turn_order: file`)."""
        return not self.by_file and any(c is not None for c in self.call)

    def score(self, c: int, roll: int | None) -> Fraction:
        """Combatant c's Initiative for the battle: 1.5x when its call equals the roll."""
        base = Fraction(self.initiative[c])
        return base * Fraction(3, 2) if roll is not None and self.call[c] == roll else base

    def places(self, roll: int | None) -> IntArray:
        """Each combatant's place (0 first), given the GM's roll (None: not rolled, calls left out)."""
        size = len(self.file_place)
        if self.by_file:
            return np.asarray(self.file_place, dtype=np.int64)

        scores = [self.score(c, roll) for c in range(size)]

        def tied_with_an_enemy(c: int) -> bool:
            return any(scores[o] == scores[c] and self.side[o] != self.side[c] for o in range(size))

        def key(c: int) -> tuple[Fraction, int, int]:
            call = self.call[c]
            tie = 1 if call is None or roll is None or not tied_with_an_enemy(c) else (0 if call < roll else 2)
            return (-scores[c], tie, self.file_place[c])

        order = sorted(range(size), key=key)
        out = np.empty(size, dtype=np.int64)
        out[np.asarray(order, dtype=np.int64)] = np.arange(size, dtype=np.int64)
        return out

    @cached_property
    def by_roll(self) -> IntArray:
        """(7, combatants): the places for each value of the 2d4, 2 to 8."""
        return np.stack([self.places(r) for r in range(2, 9)])
