"""A roll a fight makes besides the attacks, declared by the game (docs/architecture.md, "One fight driver"):
which dice it rolls, which of them the attack itself already showed, and what the faces give.

The game hands the declaration to the context's `roll`, which every mode implements: narration rolls face by face
(or takes the faces typed, or those the attack showed), the samplers draw arrays, the exact chain enumerates every
face and weighs each value (`exact_table`). The game never asks which.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.state import IntArray

#: What the faces give, per row: the roll's arguments (one array or value each) and its dice (role -> an array of
#: (rows, dice) faces), to one integer per row.
Value = Callable[[Mapping[str, Any], Mapping[str, IntArray]], IntArray]


@dataclass(frozen=True)
class FightRoll:
    """A roll of named dice (`dice`: role -> the sides of each die, in the order they are rolled) and what it
    gives (`value`). `from_attack` names the roles the attack just resolved rolled already (the system's own
    role, typed with the attack's dice at the table): a narrated fight reads their faces from that attack."""

    name: str
    dice: tuple[tuple[str, tuple[int, ...]], ...]
    value: Value
    from_attack: tuple[str, ...] = ()
    _tables: dict[tuple[int, ...], tuple[IntArray, tuple[int, ...]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def sides(self) -> tuple[int, ...]:
        """Every die's sides, in the order they are rolled."""
        return tuple(s for _, sides in self.dice for s in sides)

    def split(self, faces: IntArray) -> dict[str, IntArray]:
        """(rows, dice) faces, every die in order, as role -> (rows, that role's dice)."""
        out: dict[str, IntArray] = {}
        at = 0
        for role, sides in self.dice:
            out[role] = faces[:, at : at + len(sides)]
            at += len(sides)
        return out

    def exact_table(self, args: Mapping[str, int]) -> tuple[IntArray, tuple[int, ...]]:
        """The exact distribution of the roll's value with these arguments: its values, ascending, and the number
        of face combinations giving each (over the product of the sides). Kept per arguments."""
        key = tuple(int(args[k]) for k in sorted(args))
        found = self._tables.get(key)
        if found is None:
            faces = np.asarray(list(itertools.product(*(range(1, s + 1) for s in self.sides))), dtype=np.int64)
            values = np.asarray(self.value(args, self.split(faces)), dtype=np.int64)
            uniq, counts = np.unique(values, return_counts=True)
            found = self._tables[key] = (uniq.astype(np.int64), tuple(int(c) for c in counts))
        return found


class Rolled(NamedTuple):
    """What a roll gave: the rows' re-indexing (`ALL` but in the exact chain), each row's value (0 outside the
    roll's rows) and, where the dice were rolled (not in the exact chain), each role's faces (rows, dice)."""

    idx: Any
    value: IntArray
    faces: dict[str, IntArray]
