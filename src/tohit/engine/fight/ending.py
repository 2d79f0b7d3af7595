"""A fight's start and end: its starting state, and which fights are over (and who won).

Shared by the runs (`run`: narrated and Monte Carlo fights) and the exact chain (`exact`).
"""

from __future__ import annotations

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rows import any_rows
from tohit.core.fight.state import BoolArray, IntArray, State

#: Engine-owned per-fight values: round, whether it is over, the winning side (-1: draw / none), and
#: `cut` (the exact chain went beyond the depth of open-ended dice on this path).
ENGINE_STATS = ("round", "over", "winner", "cut")


def initial_state(fight: LoadedFight, n: int) -> State:
    """n copies of the fight's starting state."""
    rules = fight.rules
    rows = [rules.initial(fight, c) for c in range(fight.roster.size)]
    keys = list(rows[0])
    per = {k: np.tile(np.asarray([r[k] for r in rows], dtype=np.int64), (n, 1)) for k in keys}
    per.setdefault("dealt", np.zeros((n, fight.roster.size), dtype=np.int64))
    base = {"round": 1, "over": 0, "winner": -1, "cut": 0, **rules.fight_stats(fight)}
    fights = {k: np.full(n, v, dtype=np.int64) for k, v in base.items()}
    return State(per, fights)


def ended(
    fight: LoadedFight, state: State, max_rounds: int | None, standing: BoolArray | None = None
) -> tuple[BoolArray, IntArray]:
    """(done, winner): fights over now, and the winning side of each (-1: a draw). `standing`: the rules'
    `standing` of this state, when the caller has it."""
    if standing is None:
        standing = fight.rules.standing(fight, state)
    columns = fight.roster.side_columns
    if len(columns) == 2:
        up0, up1 = any_rows(standing[:, columns[0]]), any_rows(standing[:, columns[1]])
        winner: IntArray = np.where(up0 == up1, -1, up1.astype(np.int64))
        done = ~(up0 & up1) | (state.fight["cut"] == 1)
    else:
        alive = np.zeros(state.n, dtype=np.int64)
        last = np.zeros(state.n, dtype=np.int64)  # the last side with someone standing
        for s, members in enumerate(columns):
            up = any_rows(standing[:, members])
            alive += up
            last[up] = s
        winner = np.where(alive == 1, last, -1)
        done = (alive <= 1) | (state.fight["cut"] == 1)
    if max_rounds is not None:
        late = state.fight["round"] > max_rounds
        winner = np.where(late & ~done, -1, winner)
        done = done | late
    return done, winner
