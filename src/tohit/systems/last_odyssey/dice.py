"""The hit die (docs/last-odyssey.md#silent-hit-die, docs/last-odyssey.md#silent-one-roll): one d10 for the whole
ability, shared by every target.

Buffs and debuffs succeed no matter what and roll nothing: their `hit` role is `NoRoll`, which has one
outcome, takes no forced faces and reads "no roll" in the trace.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.errors import FacesError
from tohit.core.roles import FacesRole, Role, key_words
from tohit.core.support import Columns, Support, weight_array
from tohit.systems.last_odyssey.tables import HIT_DIE

#: The one role in the page's words: "the outcome die is known as the hit die" (the page's opening paragraph).
ROLE_LABELS = {"hit": "hit die"}


def _face(faces: npt.NDArray[np.int64]) -> Columns:
    return {"total": faces[:, 0]}


def hit_die() -> FacesRole:
    """The hit die: one d10 for every target of the ability (`scope="attack"`)."""
    return FacesRole(
        "hit", (HIT_DIE,), _face, notation=f"d{HIT_DIE}", columns=("total",), scope="attack", label=ROLE_LABELS["hit"]
    )


class NoRoll(Role):
    """No dice: an ability that always succeeds. One outcome (column "total" = 0) of weight 1."""

    columns = ("total",)

    def __init__(self, name: str) -> None:
        self.name, self.scope, self.notation = name, "attack", "no roll"
        self.label = ROLE_LABELS.get(name, key_words(name))

    def support(self, depth: int) -> Support:
        return Support({"total": np.zeros(1, dtype=np.int64)}, weight_array([1]), 1)

    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        return {"total": np.zeros(n, dtype=np.int64)}

    def draw(self, rng: np.random.Generator) -> list[int]:
        return []

    def read(self, faces: Sequence[object]) -> Columns:
        if not isinstance(faces, Sequence) or isinstance(faces, str) or len(faces) != 0:
            raise FacesError(f"{self.label}: a buff or debuff succeeds no matter what and rolls no die")
        return {"total": np.zeros(1, dtype=np.int64)}

    def describe(self, faces: Sequence[int]) -> str:
        return "no roll"


HIT_DIE_ROLE = hit_die()
NO_ROLL = NoRoll("hit")
