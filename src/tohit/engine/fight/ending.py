"""A fight's start: its starting state, and the values the engine keeps per fight. Which fights are over (and who
won) is the play loop's alone (`play.decided`).

Shared by the runs (`run`: narrated and Monte Carlo fights), the exact chain (`exact`) and the live encounter.
"""

from __future__ import annotations

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.order import TURN, live_start
from tohit.core.fight.state import IntArray, State, narrow_dtype

#: Engine-owned per-fight values: round, whether it is over, the winning side (-1: draw / none), and
#: `cut` (the exact chain went beyond the depth of open-ended dice on this path).
ENGINE_STATS = ("round", "over", "winner", "cut")
#: Combatants from which a Monte Carlo batch holds each per-combatant stat as one row for every fight (a read-only,
#: zero-stride view; a step copies it at its first write): a group's batch holds a dozen stats of 3.2 MB each, most
#: never written. A duel's are a fifth of that, and numpy loops over a zero-stride array of two columns two cells
#: at a time, so a duel's batch keeps arrays of its own.
ONE_ROW_FROM = 3


def initial_state(fight: LoadedFight, n: int, *, narrow: bool = False) -> State:
    """n copies of the fight's starting state. `narrow` (a Monte Carlo batch's): each per-combatant stat whose
    starting values are small held as int32 (`state.narrow_dtype`), made so at once rather than converted
    afterwards; from `ONE_ROW_FROM` combatants each stat held as one row for every fight, not n copies of it."""
    rules = fight.rules
    rows = [rules.initial(fight, c) for c in range(fight.roster.size)]
    keys = list(rows[0])

    def tiled(values: list[int]) -> IntArray:
        """One value a combatant, for each of the n fights (in its `narrow_dtype` where `narrow`)."""
        start = np.asarray(values, dtype=np.int64)
        if narrow:
            start = start.astype(narrow_dtype(start), copy=False)
            if fight.roster.size >= ONE_ROW_FROM:
                out: IntArray = np.broadcast_to(start, (n, start.size))
                return out
        return np.tile(start, (n, 1))

    per = {k: tiled([r[k] for r in rows]) for k in keys}
    per.setdefault("dealt", tiled([0] * fight.roster.size))
    places = live_start(fight)  # a live encounter's kept order, the file's to start with (core/fight/order.py)
    if places is not None:
        per.setdefault(TURN, tiled(list(places)))
    base = {"round": 1, "over": 0, "winner": -1, "cut": 0, **rules.fight_stats(fight)}
    fights = {k: np.full(n, v, dtype=np.int64) for k, v in base.items()}
    return State(per, fights)
