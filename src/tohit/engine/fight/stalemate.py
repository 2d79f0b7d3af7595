"""The stalemate check: whether a fight (of any size) can still end from where it stands, and the fights that
cannot, which end at once as a draw (narrated and simulated fights, `run`; the exact duel asks it first).

`can_end` explores the states of the fight's exact chain through the play loop (`play.advance`: the rules' own
`step` in "enumerate" mode, then the loop's end check), without probabilities (least healthy first), and stops at
the first outcome the loop calls over; when none is
reachable the fight is a stalemate. Its budgets count work (states, outcome rows), never seconds (the
clock decides nothing): the same seed ends the same fight at the same round on any machine under any
load.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rows import distinct, take_at
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.engine.fight import play
from tohit.engine.fight.layout import Layout, chosen_depth
from tohit.engine.fight.modes import Exact
from tohit.engine.requests import MAX_STATES

#: The check for a fight nobody can end any more (narrated and simulated fights, `never_ending`): the exact
#: chain's states from the fight's state (`can_end`), within these small budgets for a duel; past them the
#: answer is "not known" and the fight goes on. The budgets count work, never seconds (the
#: clock decides nothing), so the same seed ends the same fight at the same round on any machine under any load.
#: (About half a second of a duel's outcome rows on a quiet machine.)
NEVER_STATES = 2_000
NEVER_ROWS = 200_000
#: ... and for a fight of more than two: up to MAX_STATES states and this many outcome-row cells (rows x
#: combatants: a step's rows hold every combatant's stats), about 2-3 s on a quiet machine at any size.
NEVER_PARTY_CELLS = 2_400_000
#: `can_end` explores at most this many (states x combatants) a step: a step's outcome rows hold every
#: combatant's stats, so a fight of 64 takes 32 times fewer states a step than a duel (memory stays flat).
CHUNK_CELLS = 8192
#: ... and a run (a narrated fight, a share of a simulation) whose checks have found this many states that can
#: end (or past the budgets) is not checked again (a long simulation of a fight that can end pays at most this
#: many budgets).
NEVER_TRIES = 3

#: A check that may only refuse (raise), called before every step (the exact duel's time and memory caps).
Check = Callable[[], None]


@dataclass
class Stalemates:
    """What one run's stalemate checks found (one narrated fight, or one share of a simulation): each state
    checked or reached, "never", "depth" or "" (it can end, or not known), and how many checks found a state that
    can end. Kept per run, never on the fight file: a run's answers depend only on its own seed, not on which
    runs of the same file came before it in the process."""

    known: dict[bytes, str] = field(default_factory=dict)
    failed: int = 0


def never_ending(
    fight: LoadedFight,
    state: State,
    rows: IntArray,
    most: int = 256,
    since: IntArray | None = None,
    kinds: list[str] | None = None,
    found: Stalemates | None = None,
) -> BoolArray:
    """Per fight at `rows` of `state`: True when, from where it stands, the fight (of any size) can never end, so it
    is a draw at once: its exact chain from that state (`can_end`, within NEVER_STATES states and NEVER_ROWS
    outcome rows: work, never seconds) reaches no win, no draw and nothing beyond the depth of open-ended dice
    (nobody can harm anybody enough, ever). Sound: a chain past its budgets, fights in more than `most` distinct
    states, or a run whose checks found NEVER_TRIES states that can end give False. A chain that never ends marks
    every state it reaches (none of them can end either), so the other fights' states are mostly known at once;
    the first chain that can end (or is past its budgets) stops the checking. `found`: the run's findings so far
    (`Stalemates`, kept by the caller from one check to the next; a fresh one when not given).

    An outcome past the depth of open-ended dice does not count as an end here: a fight only such dice could end
    (exploding rolls against armour no roll within the depth gets through) is a stalemate too, "at the depth"
    (the exact duel's verdict "depth"): it ends as a draw instead of playing out max_rounds. `kinds` gets, per
    entry of `rows`, "never" or "depth" for a stalemate ("" otherwise).

    A fight of more than two has budgets that grow with its size (up to MAX_STATES states and NEVER_PARTY_CELLS
    outcome-row cells) and is checked only where nobody's health changed since `since` (each fight's health at
    the previous check, one row per entry of `rows`, when the caller has it): a fight where someone was hurt
    lately is not a stalemate candidate, and does not pay for a chain."""
    said = [""] * len(rows)
    out = _never_ending(fight, state, rows, most, since, said, Stalemates() if found is None else found)
    if kinds is not None:
        kinds.extend(said)
    return out


def _never_ending(
    fight: LoadedFight,
    state: State,
    rows: IntArray,
    most: int,
    since: IntArray | None,
    said: list[str],
    found: Stalemates,
) -> BoolArray:
    """`never_ending`, writing each entry's kind into `said` (one per entry of `rows`, "" unless a stalemate)."""
    out = np.zeros(len(rows), dtype=bool)
    if not len(rows):
        return out
    size = fight.roster.size
    if size > 2 and since is not None:
        calm = (fight.rules.health_of(state)[rows] == since).all(axis=1)
        if not calm.all():
            where = np.flatnonzero(calm)
            some = [""] * where.size
            out[where] = _never_ending(fight, state, np.asarray(rows)[where], most, None, some, found)
            for i, kind in zip(where.tolist(), some, strict=True):
                said[i] = kind
            return out
    if _more_healths_than(fight, state, rows, most):  # more distinct states than it takes: known before any is laid out
        return out
    party = size > 2
    limit = MAX_STATES if party else NEVER_STATES
    max_rows = NEVER_PARTY_CELLS // size if party else NEVER_ROWS
    sub = state.take(rows)
    layout = Layout(fight, sub)
    matrix = np.ascontiguousarray(layout.matrix(sub), dtype=np.int64)
    first, group = (
        distinct(list(matrix.T)) if matrix.shape[1] else (np.zeros(1, np.int64), np.zeros(len(rows), np.int64))
    )
    if first.size > most:  # too many distinct states to check: known before any row is packed
        return out
    keys = [matrix[i].tobytes() for i in first.tolist()]  # per distinct state, as `layout.packed` keys it
    known = found.known
    for key in [keys[g] for g in np.argsort(first, kind="stable").tolist()]:  # in the order the rows meet them
        if key in known:
            continue
        if found.failed >= NEVER_TRIES:
            break
        reached: list[bytes] = []
        cut: list[bool] = []
        answer = can_end(
            fight, layout.unpacked([key]), reached=reached, limit=limit, max_rows=max_rows, past_depth=False, cut=cut
        )
        if answer is not False:
            known[key] = ""
            found.failed += 1
            break
        known.update(dict.fromkeys(reached, "depth" if cut else "never"))
    kinds = [known.get(k, "") for k in keys]
    said[:] = [kinds[g] for g in group.tolist()]
    return np.asarray([bool(k) for k in said], dtype=bool)


def _more_healths_than(fight: LoadedFight, state: State, rows: IntArray, most: int) -> bool:
    """Whether the fights at `rows` stand at more than `most` distinct healths (each combatant's, as a row). Health
    is a column of every state's key (`Layout`: no game keeps it as bookkeeping), so they stand in more than `most`
    distinct states too, and the check takes none of them: known from one stat, without copying the fights'
    states and laying them out (at the first check of a simulated duel, tens of thousands of fights on)."""
    rules = fight.rules
    if rules.health in rules.bookkeeping:  # pragma: no cover - no game's health is bookkeeping
        return False
    health = take_at(rules.health_of(state), np.asarray(rows, dtype=np.int64), axis=0)
    first, _ = distinct(list(health.T))
    return bool(first.size > most)


def can_end(
    fight: LoadedFight,
    start: State,
    *,
    limit: int = NEVER_STATES,
    max_rows: int = NEVER_ROWS,
    reached: list[bytes] | None = None,
    past_depth: bool = True,
    cut: list[bool] | None = None,
    check: Check | None = None,
    growth: float = 2.0,
) -> bool | None:
    """Whether a fight (any number of combatants) can still end from `start` (one fight's state): the states of
    its exact chain are explored breadth first through the rules' own `step` in "enumerate" mode (every outcome
    of every roll and choice with a non-zero chance), without the chain's probabilities. True as soon as one
    outcome row ends the fight (a side's win, a draw, or past the depth of open-ended dice); False when the
    exploration closes and none did (nobody can ever harm anybody enough to end it: a draw that never ends);
    None past `limit` states or `max_rows` outcome rows (not known): budgets of work, so the answer is the same on
    any machine under any load. `reached` gets the states explored, when the answer is False. `check`, called
    before every step, may only refuse (raise: the exact duel's time and memory caps); it never changes the
    answer.

    `past_depth` False: an outcome past the depth of open-ended dice does not count as an end (it is a dead end,
    not explored further): False then means nothing within the depth ends the fight. `cut` gets True when such
    an outcome was met.

    `growth`: each step explores this many times the states of the one before (up to CHUNK_CELLS' worth), from 16.
    The answer False (and what `reached` and `cut` get with it) is the same at any growth: it needs every state
    explored, within the same budgets; a slower growth sees an end through fewer states when one is far (the exact
    duel's 1.25: the fights bench's slowest exact duel is seen to end after 4,203 states instead of 17,578), a faster
    one takes fewer steps through a large closure."""
    layout = Layout(fight, start)
    used_depth = chosen_depth(fight, None)
    done, _ = play.decided(fight, start, None)
    if done[0]:
        return True
    keys = layout.packed(start)[:1]
    seen = set(keys)
    most = max(1, CHUNK_CELLS // fight.roster.size)  # states a step
    # The least healthy states first (their total health): a fight that can end is seen to early, in a few
    # steps, instead of after its whole chain up to there; the order changes nothing else.
    frontier: list[tuple[int, int]] = [(0, 0)]
    rows = 0
    size = 16
    while frontier:
        if check is not None:
            check()
        chunk = [keys[heapq.heappop(frontier)[1]] for _ in range(min(size, len(frontier)))]
        size = min(int(size * growth), most)
        ctx = Exact(fight, layout.unpacked(chunk), depth=used_depth)
        done, _ = play.advance(ctx)  # the play loop: one step of each state, and which outcome rows end the fight
        child = ctx.state
        rows += child.n
        beyond = child.fight["cut"] == 1
        if not past_depth and beyond.any():
            if cut is not None and not cut:
                cut.append(True)
            done = done & ~beyond
        if done.any():
            return True
        if rows > max_rows:
            return None
        health = fight.rules.health_of(child).sum(axis=1).tolist()
        for key, h, dead_end in zip(layout.packed(child), health, beyond.tolist(), strict=True):
            if dead_end:
                continue
            if key not in seen:
                if len(keys) >= limit:
                    return None
                seen.add(key)
                heapq.heappush(frontier, (h, len(keys)))
                keys.append(key)
    if reached is not None:
        reached.extend(keys)
    return False
