"""Action dice as roles (the game's other pages "Action dice", "Advantage"; docs/wsswnn.md#silent-action-dice,
docs/wsswnn.md#silent-advantage).

Each combatant has four action dice, Attack, Brace, Compel and Maneuver, each d4 to d12. A roll is the
die's face minus its penalties (armor and shield), so it can be zero or below: Chom's d4 Maneuver at -2
rolled -1. Advantage rolls the named second die (or dice) as well, its own penalties applied, and keeps
the higher. The roles:
- `attack` (or `brace` for a brace action): the acting die, column "total" = face - penalty;
- `advantage`: the advantage dice, column "total" = the highest of (face - penalty);
- `disadvantage`: the disadvantage dice, column "total" = the lowest of (face - penalty) (the mirror);
- `brace`: a free brace rolled after the attack (Take Hold, or a disarm / break on a block);
- `landing`: the landing Maneuver roll of a missed jump-attack.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from tohit.core.roles import FacesRole
from tohit.core.support import Columns
from tohit.systems.wsswnn.models import die_sides

#: The dice roles in the pages' words: the action die rolled, "his Attack die" (the page's jump-attack example) or
#: the Brace die ("brace advantage" rolls "the Brace die", Advantage); "roll a second die (the advantage die)"
#: (Advantage [taking-actions]); its mirror, which the pages name only as a disadvantage ("the foe has brace
#: disadvantage" [braces: Grapple]) and never by a die of its own: the second die, of the disadvantage; a free
#: Brace rolled after the attack; "a free Maneuver roll to land" (the page).
ROLE_LABELS = {
    "attack": "Attack die",
    "brace": "Brace die",
    "advantage": "advantage die",
    "disadvantage": "second die (disadvantage)",
    "landing": "Maneuver roll to land",
}


@dataclass(frozen=True)
class ActionDie:
    """One action die as rolled: which of the four, its size and its penalty."""

    name: str
    die: str
    penalty: int

    @property
    def sides(self) -> int:
        return die_sides(self.die)

    @property
    def notation(self) -> str:
        return f"{self.name.capitalize()} {self.die}" + (f"-{self.penalty}" if self.penalty else "")


@cache
def action_role(role: str, die: ActionDie) -> FacesRole:
    """One action die: "total" = face - penalty. Cached: a role and its support table never change."""
    penalty = die.penalty

    def fn(faces: npt.NDArray[np.int64]) -> Columns:
        return {"total": faces[:, 0] - penalty}

    return FacesRole(role, (die.sides,), fn, notation=die.notation, columns=("total",), label=ROLE_LABELS[role])


@cache
def advantage_role(dice: tuple[ActionDie, ...]) -> FacesRole:
    """The advantage dice: "total" = the highest of their rolls, each after its own penalty. Cached."""
    penalties = np.asarray([d.penalty for d in dice], dtype=np.int64)

    def fn(faces: npt.NDArray[np.int64]) -> Columns:
        return {"total": (faces - penalties).max(axis=1)}

    notation = ", ".join(f"{d.name} advantage {d.die}" + (f"-{d.penalty}" if d.penalty else "") for d in dice)
    return FacesRole(
        "advantage", [d.sides for d in dice], fn, notation=notation, columns=("total",), label=ROLE_LABELS["advantage"]
    )


@cache
def disadvantage_role(dice: tuple[ActionDie, ...]) -> FacesRole:
    """The disadvantage dice: "total" = the lowest of their rolls, each after its own penalty. Cached."""
    penalties = np.asarray([d.penalty for d in dice], dtype=np.int64)

    def fn(faces: npt.NDArray[np.int64]) -> Columns:
        return {"total": (faces - penalties).min(axis=1)}

    notation = ", ".join(f"{d.name} disadvantage {d.die}" + (f"-{d.penalty}" if d.penalty else "") for d in dice)
    label = ROLE_LABELS["disadvantage"]
    return FacesRole("disadvantage", [d.sides for d in dice], fn, notation=notation, columns=("total",), label=label)
