"""Exact duel odds: the fight of two combatants as an absorbing Markov chain over their state.

The states are the fight states the fight module reaches (health, AP, statuses, whose turn...; the round
number and the damage-dealt bookkeeping are left out). They are found by running the module's own
`step` in "enumerate" mode: each state is expanded into one row per distinct outcome of its attack, with
the exact probability from the system's odds (so the chain and the simulation share every rule). The
absorbing states are a side's win, a draw (both down at once), and "beyond depth" (an open-ended roll
went past the depth the odds follow: reported, never dropped). A set of states that can never leave
itself (nobody can hurt anybody) is a draw that never ends. Before the chain, `can_end` explores the same
states without probabilities (least healthy first) and stops at the first outcome that ends the fight; when
none is reachable the duel is a stalemate, said at once (the same check, for fights of any size, ends
narrated and simulated fights nobody can end: `never_ending`).

The chain is solved exactly, in rationals (gmpy2's `mpq`: GMP's arithmetic, several times faster than
`Fraction` on the thousand-digit values a chain reaches; the results are `Fraction`s): strongly connected
components in reverse topological order; inside a component, the values are written in terms of a small
feedback set (the targets of the back edges of a depth-first search) and that small system is solved by
Gaussian elimination.

The chain plays the fight to its end: `max_rounds` does not apply (a simulation's draws at max_rounds are
the difference). Expected rounds counts the round in which the fight ends, as the simulation does.
"""

from __future__ import annotations

import heapq
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from gmpy2 import mpq

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_json
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rows import distinct
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.engine import cancel
from tohit.engine.fight.context import StepContext
from tohit.engine.fight.ending import ENGINE_STATS, ended, initial_state
from tohit.engine.limits import MAX_SECONDS as MAX_SECONDS
from tohit.engine.limits import MAX_STATES as MAX_STATES

#: ... and past this many outcome rows, all states together (the work and memory the chain takes: a chain of
#: few states whose attacks have many distinct outcomes, e.g. penalties stacking, is refused early).
MAX_ROWS = 3_000_000
CHUNK = 4096
#: ... and once the memory it holds passes this (the process's resident memory grown since it began).
MAX_MEMORY = 1_500_000_000
#: Once this many states are explored, or this many outcome rows made (a fraction of a second either way), the
#: chain's size is estimated from how it has grown so far (states found per state explored, outcome rows per
#: state, memory per row), and again after every later step; a chain estimated past the caps on states, rows or
#: memory is refused then, naming the estimate and the cap, instead of running into the cap much later. (The
#: first states pay for building the attack tables and branch more than the rest: an estimate from fewer
#: overshoots.)
PROBE_STATES = 256
PROBE_ROWS = 30_000
#: After this long exploring, the estimate is made again with the time cap too (seconds per state of the last
#: step; the first steps build the attack tables, so time is not estimated from them).
PROBE_SECONDS = 1.0
#: The check for a fight nobody can end any more (narrated and simulated fights, `never_ending`): the exact
#: chain's states from the fight's state (`can_end`), within these small budgets for a duel; past them the
#: answer is "not known" and the fight goes on.
NEVER_STATES = 2_000
NEVER_ROWS = 200_000
NEVER_SECONDS = 0.5
#: ... and at the most this long for a fight of more than two (its budgets grow with its size).
NEVER_PARTY_SECONDS = 3.0
#: `can_end` explores at most this many (states x combatants) a step: a step's outcome rows hold every
#: combatant's stats, so a fight of 64 takes 32 times fewer states a step than a duel (memory stays flat).
CHUNK_CELLS = 2 * CHUNK
#: ... and a fight file whose checks have found this many states that can end (or past the budgets) is not
#: checked again (a long simulation of a fight that can end pays at most this many budgets).
NEVER_TRIES = 3


class OverStates(InputError):
    """The exact chain would pass its cap on states (`limit`)."""


class OverTime(InputError):
    """The exact chain passed its time budget (`seconds`)."""


Check = Callable[[], None]

Vec = list[mpq | None]


@dataclass
class ExactResult:
    """Exact odds of a duel: per side the win probability, draws, beyond depth, expected rounds."""

    fight: LoadedFight
    wins: list[Fraction]
    draw: Fraction  # both down at once, or a fight that can never end
    never_ends: Fraction
    beyond: Fraction
    expected_rounds: Fraction | None  # None when the fight may never end
    states: int
    depth: int

    @property
    def stalemate(self) -> str | None:
        """In words, when no side can win: "never" (the fight can never end: a draw), "depth" (only open-ended
        dice past the depth could end it), else None."""
        if any(self.wins):
            return None
        if self.never_ends and not self.beyond:
            return "never"
        if self.beyond and not self.draw:
            return "depth"
        return None

    def stalemate_text(self) -> str | None:
        """The stalemate said as a player would read it (`tohit fight --exact`)."""
        names = " nor ".join(self.fight.roster.side_names)
        if self.stalemate == "never":
            return f"stalemate: neither {names} can ever win; the fight never ends, a draw"
        if self.stalemate == "depth":
            return (
                f"stalemate at depth {self.depth}: neither {names} can win unless open-ended dice go past depth"
                f" {self.depth}; every path ends beyond the depth (raise options.depth, or simulate with -n)"
            )
        return None

    def to_json(self) -> dict[str, Any]:
        def p(x: Fraction) -> dict[str, Any]:
            return fraction_json(x)

        return {
            "system": self.fight.system.id,
            "sides": [{"name": n, "p": p(w)} for n, w in zip(self.fight.roster.side_names, self.wins, strict=True)],
            "draw": p(self.draw),
            "never_ends": p(self.never_ends),
            "beyond_depth": p(self.beyond),
            "expected_rounds": None if self.expected_rounds is None else p(self.expected_rounds),
            "states": self.states,
            "depth": self.depth,
            "stalemate": self.stalemate_text(),
        }


class _Layout:
    """How a state row maps to a hashable key and back (round and bookkeeping left out)."""

    def __init__(self, fight: LoadedFight, state: State) -> None:
        skip = set(fight.rules.bookkeeping)
        self.per = [k for k in sorted(state.per) if k not in skip]
        self.skipped = [k for k in sorted(state.per) if k in skip]
        self.fight = [k for k in sorted(state.fight) if k not in ENGINE_STATS]
        self.size = fight.roster.size

    def matrix(self, state: State) -> np.ndarray:
        cols = [state.per[k] for k in self.per] + [state.fight[k][:, None] for k in self.fight]
        return np.concatenate(cols, axis=1) if cols else np.zeros((state.n, 0), dtype=np.int64)

    def keys(self, state: State) -> list[tuple[int, ...]]:
        return [tuple(r) for r in self.matrix(state).tolist()]

    def packed(self, state: State) -> list[bytes]:
        """Each row's key as bytes (cheaper to hash and keep than a tuple, for fights of many combatants)."""
        m = np.ascontiguousarray(self.matrix(state), dtype=np.int64)
        return [m[i].tobytes() for i in range(state.n)]

    def unpacked(self, keys: list[bytes]) -> State:
        """The state of rows given by `packed` keys."""
        return self.state(np.frombuffer(b"".join(keys), dtype=np.int64).reshape(len(keys), -1))

    def state(self, keys: list[tuple[int, ...]] | np.ndarray) -> State:
        m = np.asarray(keys, dtype=np.int64).reshape(len(keys), -1)
        n, size = len(keys), self.size
        per = {k: m[:, i * size : (i + 1) * size].copy() for i, k in enumerate(self.per)}
        per.update({k: np.zeros((n, size), dtype=np.int64) for k in self.skipped})
        base = len(self.per) * size
        fights = {k: m[:, base + i].copy() for i, k in enumerate(self.fight)}
        fights.update({"round": np.zeros(n, np.int64), "over": np.zeros(n, np.int64)})
        fights.update({"winner": np.full(n, -1, np.int64), "cut": np.zeros(n, np.int64)})
        return State(per, fights)


def exact_duel(
    fight: LoadedFight,
    *,
    limit: int = MAX_STATES,
    max_rows: int = MAX_ROWS,
    depth: int | None = None,
    seconds: float = MAX_SECONDS,
    memory: int = MAX_MEMORY,
    probe: float = PROBE_SECONDS,
    start: State | None = None,
    prove: bool = True,
) -> ExactResult:
    """The exact outcome of a two-combatant fight (see the module docstring), from its start or from `start`
    (one fight's state). `prove`: first ask `can_end` (within the same budgets) whether it can end at all."""
    roster = fight.roster
    began = time.monotonic()
    deadline = began + seconds
    memory_before = _resident()
    keys: list[tuple[int, ...]] = []

    def check() -> None:
        cancel.check()  # stopped when its asker went away (issue 28, item 1)
        if time.monotonic() > deadline:
            raise OverTime(
                f"the exact chain of this fight passed its time budget of {seconds:g} s (at {len(keys):,} states);"
                " simulate it with -n",
                field="--exact",
                source=fight.source,
            )
        grown = _resident() - memory_before
        if grown > memory:
            raise InputError(
                f"the exact chain of this fight passed its memory budget of {memory / 1e6:,.0f} MB (at"
                f" {len(keys):,} states); simulate it with -n",
                field="--exact",
                source=fight.source,
            )

    if roster.size != 2:
        raise InputError(
            f"--exact is for a duel of two combatants, one on each side; this fight has {roster.size} combatants"
            " (simulate it with -n)",
            field="sides",
            source=fight.source,
        )
    used_depth = _depth(fight, depth)
    sides = len(roster.side_names)
    # Absorbing ids: -1 - k for the k-th absorbing outcome: wins per side, draw, beyond.
    draw_id, beyond_id = -1 - sides, -2 - sides
    start = initial_state(fight, 1) if start is None else start
    layout = _Layout(fight, start)
    first = layout.keys(start)[0]
    ids: dict[tuple[int, ...], int] = {first: 0}
    keys.append(first)
    # The start state may itself be over (a side with nobody standing).
    done, winner = ended(fight, start, None)
    if done[0]:
        wins = [Fraction(int(winner[0] == s)) for s in range(sides)]
        return ExactResult(
            fight, wins, Fraction(int(winner[0] < 0)), Fraction(0), Fraction(0), Fraction(1), 1, used_depth
        )
    # First, without probabilities: can the fight end at all from here? A fight nobody can ever end (e.g. Guard
    # that wears down and regrows while armour stops every blow) is a draw that never ends, said at once,
    # without the chain's values; one that can end is usually seen to within a few steps.
    if prove:
        reached: list[bytes] = []
        answer = can_end(fight, start, limit=limit, max_rows=max_rows, seconds=seconds, reached=reached)
        if answer is False:
            zero = Fraction(0)
            return ExactResult(fight, [zero] * sides, Fraction(1), Fraction(1), zero, None, len(reached), used_depth)
    edges: list[dict[int, mpq]] = [{}]
    reward: list[mpq] = [mpq(0)]
    explored = rows = 0
    size = 16  # states a step: doubling up to CHUNK, so the first estimate comes early
    # The size is estimated after every step from PROBE_STATES / PROBE_ROWS on (the estimate firms up as the
    # chain grows), the time once, after `probe` seconds; `probe` infinite: no estimates.
    estimating = probe != float("inf")
    timed = not estimating
    rate = 0.0  # seconds per state explored, in the last step
    while explored < len(keys):
        check()
        now = time.monotonic()
        elapsed = now - began
        if estimating and (explored >= PROBE_STATES or rows >= PROBE_ROWS):
            timing = not timed and elapsed > probe
            timed = timed or timing
            _refuse_estimate(
                fight,
                explored,
                len(keys),
                rows,
                (elapsed, rate),
                _resident() - memory_before,
                (limit, max_rows, seconds if timing else float("inf"), memory),
            )
        chunk = keys[explored : explored + size]
        size = min(2 * size, CHUNK)
        base = explored
        explored += len(chunk)
        ctx = StepContext(fight, layout.state(chunk), "enumerate", depth=used_depth)
        fight.rules.step(ctx)
        child = ctx.state
        assert ctx.weight is not None
        rows += child.n
        rate = (time.monotonic() - now) / len(chunk)
        if rows > max_rows:
            raise InputError(
                f"the exact chain of this fight needs more than {max_rows:,} outcome rows (at {len(keys):,} states"
                " so far); simulate it with -n",
                field="--exact",
                source=fight.source,
            )
        done, winner = ended(fight, child, None)
        target = np.where(winner >= 0, -1 - winner, draw_id)
        target = np.where(child.fight["cut"] == 1, beyond_id, target)
        live = np.flatnonzero(~done & (child.fight["cut"] == 0))
        if live.size:
            matrix = layout.matrix(child.take(live))
            leads, inverse = distinct(list(matrix.T))
            uniq = matrix[leads]
            uniq_ids = np.empty(len(uniq), dtype=np.int64)
            for u, row in enumerate(uniq.tolist()):
                key = tuple(row)
                found = ids.get(key)
                if found is None:
                    found = len(keys)
                    if found >= limit:
                        raise OverStates(
                            f"the exact chain of this fight has more than {limit:,} states; simulate it with -n",
                            field="--exact",
                            source=fight.source,
                        )
                    ids[key] = found
                    keys.append(key)
                    edges.append({})
                    reward.append(mpq(0))
                uniq_ids[u] = found
            target[live] = uniq_ids[inverse.reshape(-1)]
        parents = ctx.parent + base
        leads, pair_of = distinct([parents, target])
        pairs = np.stack([parents[leads], target[leads]], axis=1)
        order = np.argsort(pair_of, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(pair_of[order]) != 0])
        sums = np.add.reduceat(ctx.weight[order], starts)
        den = ctx.denominator
        for (p, t), w in zip(pairs.tolist(), sums.tolist(), strict=True):
            edges[p][t] = mpq(w, den)
        rounds = child.fight["round"]
        stepped = np.flatnonzero(rounds > 0)
        for p, w, r in zip(
            parents[stepped].tolist(), ctx.weight[stepped].tolist(), rounds[stepped].tolist(), strict=True
        ):
            reward[p] += mpq(w * r, den)
    solve_began = time.monotonic()

    def solving(solved: int) -> None:
        """After `solved` of the chain's states are solved: refuse a solve estimated past the time budget, from
        its rate so far (once it has run PROBE_SECONDS; exact values with thousands of digits make a chain of
        few states slow to solve)."""
        check()
        now = time.monotonic()
        if not estimating or not solved or now - solve_began < probe:
            return
        total = now - began + (now - solve_began) * (len(keys) - solved) / solved
        if total > seconds:
            raise OverTime(
                f"the exact chain of this fight is estimated at {total:,.0f} s (the cap: {seconds:g} s), from"
                f" solving {solved:,} of its {len(keys):,} states in {now - solve_began:.1f} s; simulate it with -n",
                field="--exact",
                source=fight.source,
            )

    values = _solve(edges, reward, sides, check, solving)
    v = values[0]
    wins = [_fraction(v[s]) for s in range(sides)]
    never = _fraction(v[sides + 2])
    draw = _fraction(v[sides]) + never
    beyond = _fraction(v[sides + 1])
    rounds_left = None if v[sides + 3] is None else _fraction(v[sides + 3])
    expected = None if never or rounds_left is None else 1 + rounds_left
    return ExactResult(fight, wins, draw, never, beyond, expected, len(keys), used_depth)


def never_ending(
    fight: LoadedFight,
    state: State,
    rows: IntArray,
    most: int = 256,
    since: IntArray | None = None,
    kinds: list[str] | None = None,
) -> BoolArray:
    """Per fight at `rows` of `state`: True when, from where it stands, the fight (of any size) can never end, so it
    is a draw at once: its exact chain from that state (`can_end`, within NEVER_STATES, NEVER_ROWS and
    NEVER_SECONDS) reaches no win, no draw and nothing beyond the depth of open-ended dice (nobody can harm
    anybody enough, ever). Sound: a chain past its budgets, fights in more than `most` distinct states, or a
    fight file whose checks found NEVER_TRIES states that can end give False. A chain that never ends marks every
    state it reaches (none of them can end either), so the other fights' states are mostly known at once; the
    first chain that can end (or is past its budgets) stops the checking.

    An outcome past the depth of open-ended dice does not count as an end here: a fight only such dice could end
    (exploding rolls against armour no roll within the depth gets through) is a stalemate too, "at the depth"
    (the exact duel's verdict "depth"): it ends as a draw instead of playing out max_rounds. `kinds` gets, per
    entry of `rows`, "never" or "depth" for a stalemate ("" otherwise).

    A fight of more than two has budgets that grow with its size (`NEVER_PARTY_SECONDS` at the most, up to
    MAX_STATES states) and is checked only where nobody's health changed since `since` (each fight's health at
    the previous check, one row per entry of `rows`, when the caller has it): a fight where someone was hurt
    lately is not a stalemate candidate, and does not pay for a chain."""
    said = [""] * len(rows)
    out = _never_ending(fight, state, rows, most, since, said)
    if kinds is not None:
        kinds.extend(said)
    return out


def _never_ending(
    fight: LoadedFight, state: State, rows: IntArray, most: int, since: IntArray | None, said: list[str]
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
            out[where] = _never_ending(fight, state, np.asarray(rows)[where], most, None, some)
            for i, kind in zip(where.tolist(), some, strict=True):
                said[i] = kind
            return out
    party = size > 2
    limit = MAX_STATES if party else NEVER_STATES
    max_rows = NEVER_ROWS * size if party else NEVER_ROWS
    seconds = min(NEVER_PARTY_SECONDS, NEVER_SECONDS * size / 2) if party else NEVER_SECONDS
    sub = state.take(rows)
    layout = _Layout(fight, sub)
    keys = layout.packed(sub)
    unique = dict.fromkeys(keys)
    if len(unique) > most:
        return out
    known: dict[bytes, str] = fight.memo("never_ending", dict)  # "never", "depth", or "" (it can end)
    failed: list[int] = fight.memo("never_ending_failed", lambda: [0])
    for key in unique:
        if key in known:
            continue
        if failed[0] >= NEVER_TRIES:
            break
        reached: list[bytes] = []
        cut: list[bool] = []
        answer = can_end(
            fight,
            layout.unpacked([key]),
            reached=reached,
            limit=limit,
            max_rows=max_rows,
            seconds=seconds,
            past_depth=False,
            cut=cut,
        )
        if answer is not False:
            known[key] = ""
            failed[0] += 1
            break
        known.update(dict.fromkeys(reached, "depth" if cut else "never"))
    said[:] = [known.get(k, "") for k in keys]
    return np.asarray([bool(k) for k in said], dtype=bool)


def fight_depth(fight: LoadedFight) -> int:
    """The depth the fight's open-ended dice are followed to: its file's `options.depth`, else the system's."""
    return _depth(fight, None)


def _depth(fight: LoadedFight, depth: int | None) -> int:
    """The depth: the caller's, else the fight file's `options.depth`, else the system's default (as -n does)."""
    chosen = getattr(fight.spec.options, "depth", None)
    return depth if depth is not None else fight.system.default_depth if chosen is None else int(chosen)


def can_end(
    fight: LoadedFight,
    start: State,
    *,
    limit: int = NEVER_STATES,
    max_rows: int = NEVER_ROWS,
    seconds: float = NEVER_SECONDS,
    reached: list[bytes] | None = None,
    past_depth: bool = True,
    cut: list[bool] | None = None,
) -> bool | None:
    """Whether a fight (any number of combatants) can still end from `start` (one fight's state): the states of
    its exact chain are explored breadth first through the rules' own `step` in "enumerate" mode (every outcome
    of every roll and choice with a non-zero chance), without the chain's probabilities. True as soon as one
    outcome row ends the fight (a side's win, a draw, or past the depth of open-ended dice); False when the
    exploration closes and none did (nobody can ever harm anybody enough to end it: a draw that never ends);
    None past `limit` states, `max_rows` outcome rows or `seconds` (not known). `reached` gets the states
    explored, when the answer is False.

    `past_depth` False: an outcome past the depth of open-ended dice does not count as an end (it is a dead end,
    not explored further): False then means nothing within the depth ends the fight. `cut` gets True when such
    an outcome was met."""
    began = time.monotonic()
    layout = _Layout(fight, start)
    used_depth = _depth(fight, None)
    done, _ = ended(fight, start, None)
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
        if time.monotonic() - began > seconds:
            return None
        chunk = [keys[heapq.heappop(frontier)[1]] for _ in range(min(size, len(frontier)))]
        size = min(2 * size, most)
        ctx = StepContext(fight, layout.unpacked(chunk), "enumerate", depth=used_depth)
        fight.rules.step(ctx)
        child = ctx.state
        rows += child.n
        done, _ = ended(fight, child, None)
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


def _fraction(x: mpq | None) -> Fraction:
    """A chain value as a Fraction (gmpy2's rationals, GMP's arithmetic, solve the chain; None: 0)."""
    return Fraction(0) if x is None else Fraction(int(x.numerator), int(x.denominator))


def _resident() -> int:
    """The process's resident memory in bytes (Linux: /proc/self/statm; elsewhere its peak so far)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _refuse_estimate(
    fight: LoadedFight,
    explored: int,
    found: int,
    rows: int,
    timing: tuple[float, float],
    grown: int,
    caps: tuple[int, int, float, int],
) -> None:
    """Refuse a chain whose size, estimated from its first `elapsed` seconds, passes a cap. The estimate: the
    states found so far times the growth seen (states found per state explored); its outcome rows and memory
    at the rates seen so far, its time at the rate of the last step (the first steps build the attack tables).
    A chain whose exploration has stopped growing is estimated at what it has found."""
    elapsed, rate = timing
    states_cap, rows_cap, seconds_cap, memory_cap = caps
    growth = found / explored
    states = found * growth if found > explored else found
    per = states / explored
    total = elapsed + (states - explored) * rate
    estimate = {
        "states": (states, states_cap, f"{states:,.0f} states", f"{states_cap:,} states"),
        "rows": (rows * per, rows_cap, f"{rows * per:,.0f} outcome rows", f"{rows_cap:,} outcome rows"),
        "seconds": (total, seconds_cap, f"{total:,.0f} s", f"{seconds_cap:g} s"),
        "memory": (grown * per, memory_cap, f"{grown * per / 1e6:,.0f} MB", f"{memory_cap / 1e6:,.0f} MB"),
    }
    over = [(said, cap) for value, limit, said, cap in estimate.values() if value > limit]
    if over:
        raise InputError(
            "the exact chain of this fight is estimated at "
            + ", ".join(f"{said} (the cap: {cap})" for said, cap in over)
            + f", from its first {elapsed:.1f} s ({explored:,} states explored, {found:,} found); simulate it with -n",
            field="--exact",
            source=fight.source,
        )


def _solve(
    edges: list[dict[int, mpq]],
    reward: list[mpq],
    sides: int,
    check: Check,
    solving: Callable[[int], None] | None = None,
) -> list[Vec]:
    """Per transient state: [P(win side 0..), P(draw), P(beyond), P(never ends), E(round increments)]."""
    n = len(edges)
    k = sides + 4
    absorbing: dict[int, Vec] = {}
    for s in range(sides):
        absorbing[-1 - s] = _unit(k, s)
    absorbing[-1 - sides] = _unit(k, sides)
    absorbing[-2 - sides] = _unit(k, sides + 1)
    values: list[Vec | None] = [None] * n
    solved = 0
    for comp in _sccs(edges):
        if solving is not None and len(comp) > 1:
            solving(solved)
        else:
            check()
        solved += len(comp)
        members = set(comp)
        exits = any(t < 0 or t not in members for s in comp for t in edges[s])
        if not exits:  # a closed class: the fight never ends from here
            for s in comp:
                values[s] = [*[mpq(0)] * (sides + 2), mpq(1), None]
            continue
        if len(comp) == 1 and comp[0] not in edges[comp[0]]:
            s = comp[0]
            values[s] = _combine(edges[s], reward[s], values, absorbing, k)
            continue
        _solve_component(comp, members, edges, reward, values, absorbing, k, check)
    return [v if v is not None else [None] * k for v in values]


def _unit(k: int, i: int) -> Vec:
    out: Vec = [*[mpq(0)] * k]
    out[i] = mpq(1)
    out[k - 1] = mpq(0)
    return out


def _combine(row: dict[int, mpq], r: mpq, values: list[Vec | None], absorbing: dict[int, Vec], k: int) -> Vec:
    acc: Vec = [*[mpq(0)] * (k - 1), r]
    for t, p in row.items():
        v = absorbing[t] if t < 0 else values[t]
        assert v is not None
        _add_scaled(acc, v, p)
    return acc


def _add_scaled(acc: Vec, v: Vec, p: mpq) -> None:
    for i, x in enumerate(v):
        if x is None or acc[i] is None:
            acc[i] = None
        elif x:
            acc[i] = acc[i] + p * x


def _solve_component(
    comp: list[int],
    members: set[int],
    edges: list[dict[int, mpq]],
    reward: list[mpq],
    values: list[Vec | None],
    absorbing: dict[int, Vec],
    k: int,
    check: Check,
) -> None:
    """Values inside one strongly connected component, through a feedback set (module docstring)."""
    feedback = _back_edge_targets(comp, members, edges)
    order = _postorder(comp, members, edges, feedback)
    fb_index = {f: i for i, f in enumerate(feedback)}
    m = len(feedback)
    # expr[s] = (constant vector, coefficients on the feedback values)
    consts: dict[int, Vec] = {}
    coefs: dict[int, list[mpq]] = {}
    for s in order:
        check()
        const: Vec = [*[mpq(0)] * (k - 1), reward[s]]
        coef = [mpq(0)] * m
        for t, p in edges[s].items():
            if t >= 0 and t in members:
                if t in fb_index:
                    coef[fb_index[t]] += p
                else:
                    _add_scaled(const, consts[t], p)
                    for i, x in enumerate(coefs[t]):
                        if x:
                            coef[i] += p * x
            else:
                v = absorbing[t] if t < 0 else values[t]
                assert v is not None
                _add_scaled(const, v, p)
        consts[s], coefs[s] = const, coef
    # Feedback values: v_f = const_f + sum_g coef_f[g] v_g, i.e. (I - A) v = b, per component of the vector.
    unknown = [k_i for k_i in range(k) if all(consts[f][k_i] is not None for f in feedback)]
    a = [[(mpq(int(i == j)) - coefs[f][j]) for j in range(m)] for i, f in enumerate(feedback)]
    b = [[_known(consts[f][ki]) for ki in unknown] for f in feedback]
    solved = _gauss(a, b, check)
    fb_values: list[Vec] = []
    for i in range(m):
        vec: Vec = [None] * k
        for col, ki in enumerate(unknown):
            vec[ki] = solved[i][col]
        fb_values.append(vec)
    for s in comp:
        check()
        out: Vec = list(consts[s])
        for i, x in enumerate(coefs[s]):
            if x:
                _add_scaled(out, fb_values[i], x)
        values[s] = out


def _known(x: mpq | None) -> mpq:
    assert x is not None
    return x


def _gauss(a: list[list[mpq]], b: list[list[mpq]], check: Check) -> list[list[mpq]]:
    """Solve a x = b exactly (a square, nonsingular; b with several columns)."""
    m = len(a)
    rows = [a[i] + b[i] for i in range(m)]
    for col in range(m):
        check()
        pivot = next(r for r in range(col, m) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        pv = rows[col][col]
        rows[col] = [x / pv for x in rows[col]]
        for r in range(m):
            if r != col and rows[r][col] != 0:
                check()
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[m:] for row in rows]


def _sccs(edges: list[dict[int, mpq]]) -> list[list[int]]:
    """Tarjan's strongly connected components (iterative), in reverse topological order."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, iter([t for t in edges[root] if t >= 0]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, children = work[-1]
            advanced = False
            for t in children:
                if index[t] < 0:
                    index[t] = low[t] = counter
                    counter += 1
                    stack.append(t)
                    on_stack[t] = True
                    work.append((t, iter([x for x in edges[t] if x >= 0])))
                    advanced = True
                    break
                if on_stack[t]:
                    low[node] = min(low[node], index[t])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack[x] = False
                    comp.append(x)
                    if x == node:
                        break
                out.append(comp)
    return out


def _back_edge_targets(comp: list[int], members: set[int], edges: list[dict[int, mpq]]) -> list[int]:
    """Targets of the back edges of a depth-first search inside the component (a feedback vertex set)."""
    seen: set[int] = set()
    on_path: set[int] = set()
    targets: list[int] = []
    found: set[int] = set()
    start = comp[-1]
    work = [(start, iter([t for t in edges[start] if t in members]))]
    seen.add(start)
    on_path.add(start)
    while work:
        node, children = work[-1]
        advanced = False
        for t in children:
            if t in on_path:
                if t not in found:
                    found.add(t)
                    targets.append(t)
            elif t not in seen:
                seen.add(t)
                on_path.add(t)
                work.append((t, iter([x for x in edges[t] if x in members])))
                advanced = True
                break
        if not advanced:
            work.pop()
            on_path.discard(node)
    return targets


def _postorder(comp: list[int], members: set[int], edges: list[dict[int, mpq]], feedback: list[int]) -> list[int]:
    """Component nodes, each after every non-feedback node it leads to (edges into feedback nodes cut)."""
    fb = set(feedback)
    seen: set[int] = set()
    out: list[int] = []
    for root in comp:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter([t for t in edges[root] if t in members and t not in fb]))]
        while work:
            node, children = work[-1]
            advanced = False
            for t in children:
                if t not in seen:
                    seen.add(t)
                    work.append((t, iter([x for x in edges[t] if x in members and x not in fb])))
                    advanced = True
                    break
            if not advanced:
                work.pop()
                out.append(node)
    return out
