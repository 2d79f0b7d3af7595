"""Exact duel odds: the fight of two combatants as an absorbing Markov chain over their state.

The states are the fight states the fight module reaches (health, AP, statuses, whose turn...; the round
number and the damage-dealt bookkeeping are left out). They are found by running the module's own
`step` in "enumerate" mode: each state is expanded into one row per distinct outcome of its attack, with
the exact probability from the system's odds (so the chain and the simulation share every rule). The
absorbing states are a side's win, a draw (both down at once), and "beyond depth" (an open-ended roll
went past the depth the odds follow: reported, never dropped). A set of states that can never leave
itself (nobody can hurt anybody) is a draw that never ends. Before the chain, `stalemate.can_end` explores
the same states without probabilities (least healthy first) and stops at the first outcome that ends the
fight; when none is reachable the duel is a stalemate, said at once (the same check, for fights of any size,
ends narrated and simulated fights nobody can end: `stalemate.never_ending`). The states are keyed by
`layout.Layout`.

The chain is solved exactly, in rationals (`chain_solve.solve_weighted`, a level of its components at a time, from
its integer weights; the results are `Fraction`s). Its caps on states, rows and memory count work. The clock is
read only to refuse: the time cap, and the estimate of the time the chain would take; what the chain answers never
depends on it, so a loaded machine refuses a duel sooner but never answers it otherwise.

The chain plays the fight to its end: `max_rounds` does not apply (a simulation's draws at max_rounds are
the difference). Expected rounds counts the round in which the fight ends, as the simulation does.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Sized
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from gmpy2 import mpq

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_json
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rows import distinct
from tohit.core.fight.state import IntArray, State
from tohit.engine import cancel
from tohit.engine.fight import play
from tohit.engine.fight.chain_solve import ObjectArray, Weighted
from tohit.engine.fight.chain_solve import solve_weighted as solve  # the chain in integer weights
from tohit.engine.fight.chain_states import FoundStates
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.layout import Layout, chosen_depth

# fight_depth, Stalemates and never_ending are also read from here (where they were written before).
from tohit.engine.fight.layout import fight_depth as fight_depth
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.stalemate import Stalemates as Stalemates
from tohit.engine.fight.stalemate import can_end
from tohit.engine.fight.stalemate import never_ending as never_ending
from tohit.engine.frames import SideChances, Views, exact_fight_frame
from tohit.engine.requests import MAX_SECONDS as MAX_SECONDS
from tohit.engine.requests import MAX_STATES as MAX_STATES

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
#: The solver checks its budget once a level of the chain (and once a state and a row of the eliminations of a
#: component solved through its feedback set); every this many of those calls the budget is checked whole (the
#: clock, the memory: reading the memory costs more than solving a small level). A count of work, so where a refusal
#: falls never depends on the clock.
SOLVE_STRIDE = 64
#: The proof that a duel can end (`stalemate.can_end`) explores a quarter more states each step: an end many blows
#: away is seen to through few states (a stalemate's answer does not depend on it).
PROVE_GROWTH = 1.25


class OverStates(InputError):
    """The exact chain would pass its cap on states (`limit`)."""


class OverTime(InputError):
    """The exact chain passed its time budget (`seconds`)."""


@dataclass
class ExactResult(Views):
    """Exact odds of a duel: per side the win probability (`wins[0]`, or by name: `wins("Ceil")`), draws, beyond
    depth, expected rounds."""

    fight: LoadedFight
    wins: SideChances
    draw: Fraction  # both down at once, or a fight that can never end
    never_ends: Fraction
    beyond: Fraction
    expected_rounds: Fraction | None  # None when the fight may never end
    states: int
    depth: int

    def __post_init__(self) -> None:
        self.wins = SideChances(self.wins, self.fight.roster.side_names)

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

    def _frame(self) -> Any:
        return exact_fight_frame(self)

    def _title(self) -> str:
        return "exact odds of the duel"

    def __repr__(self) -> str:
        """One line: each side's exact chance to win, in per cent."""
        names = self.fight.roster.side_names
        wins = ", ".join(f"{n} {float(p):.1%}" for n, p in zip(names, self.wins, strict=True))
        return f"<ExactResult: {wins} (exact); .to_dataframe()>"


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
    budget = _Budget(fight, seconds, memory)
    roster = fight.roster
    if roster.size != 2:
        raise InputError(
            f"--exact is for a duel of two combatants, one on each side; this fight has {roster.size} combatants"
            " (simulate it with -n)",
            field="sides",
            source=fight.source,
        )
    used_depth = chosen_depth(fight, depth)
    sides = len(roster.side_names)
    start = initial_state(fight, 1) if start is None else start
    chain = _Chain(fight, Layout(fight, start), start, used_depth, (limit, max_rows))
    budget.keys = chain.keys
    # The start state may itself be over (a side with nobody standing).
    done, winner = play.decided(fight, start, None)
    if done[0]:
        wins = SideChances(Fraction(int(winner[0] == s)) for s in range(sides))
        return ExactResult(
            fight, wins, Fraction(int(winner[0] < 0)), Fraction(0), Fraction(0), Fraction(1), 1, used_depth
        )
    # First, without probabilities: can the fight end at all from here? A fight nobody can ever end (e.g. Guard
    # that wears down and regrows while armour stops every blow) is a draw that never ends, said at once,
    # without the chain's values; one that can end is usually seen to within a few steps.
    if prove:
        reached: list[bytes] = []
        answer = can_end(
            fight, start, limit=limit, max_rows=max_rows, reached=reached, check=budget.check, growth=PROVE_GROWTH
        )
        if answer is False:
            zero = Fraction(0)
            return ExactResult(
                fight, SideChances([zero] * sides), Fraction(1), Fraction(1), zero, None, len(reached), used_depth
            )
    chain.explore(budget, probe)
    values = solve(chain.weighted(), sides, budget.tick, budget.solving(probe))
    v = values[0]
    wins = SideChances(_fraction(v[s]) for s in range(sides))
    never = _fraction(v[sides + 2])
    draw = _fraction(v[sides]) + never
    beyond = _fraction(v[sides + 1])
    rounds_left = None if v[sides + 3] is None else _fraction(v[sides + 3])
    expected = None if never or rounds_left is None else 1 + rounds_left
    return ExactResult(fight, wins, draw, never, beyond, expected, len(chain.keys), used_depth)


class _Budget:
    """The exact chain's caps that may only refuse: its time (`seconds`) and the memory it grows (`memory`), checked
    between steps (`check`) and estimated while it is solved (`solving`). The clock never changes an answer."""

    def __init__(self, fight: LoadedFight, seconds: float, memory: int) -> None:
        self.fight, self.seconds, self.memory = fight, seconds, memory
        self.began = time.monotonic()
        self.memory_before = _resident()
        self.keys: Sized = []  # the chain's states so far (the refusals say how many)
        self.ticks = 0

    def check(self) -> None:
        """Between steps: stopped when its asker went away; refused past the time or the memory budget."""
        cancel.check()  # stopped when its asker went away (a server request's client hung up)
        fight, states = self.fight, len(self.keys)
        if time.monotonic() > self.began + self.seconds:
            raise OverTime(
                f"the exact chain of this fight passed its time budget of {self.seconds:g} s (at {states:,} states);"
                " simulate it with -n",
                field="--exact",
                source=fight.source,
            )
        if _resident() - self.memory_before > self.memory:
            raise InputError(
                f"the exact chain of this fight passed its memory budget of {self.memory / 1e6:,.0f} MB (at"
                f" {states:,} states); simulate it with -n",
                field="--exact",
                source=fight.source,
            )

    def tick(self) -> None:
        """The solver's check, called once a level (and once a state of a component solved through its feedback set):
        `check` every SOLVE_STRIDE-th call (the first included)."""
        self.ticks += 1
        if self.ticks % SOLVE_STRIDE == 1:
            self.check()

    def solving(self, probe: float) -> Callable[[int], None]:
        """The solve's progress call: after `solved` of the chain's states are solved, refuse a solve estimated past
        the time budget from its rate so far (once it has run `probe` seconds; exact values with thousands of
        digits make a chain of few states slow to solve). `probe` infinite: no estimate."""
        solve_began = time.monotonic()

        def solved_so_far(solved: int) -> None:
            self.tick()
            now = time.monotonic()
            if probe == float("inf") or not solved or now - solve_began < probe:
                return
            total = now - self.began + (now - solve_began) * (len(self.keys) - solved) / solved
            if total > self.seconds:
                raise OverTime(
                    f"the exact chain of this fight is estimated at {total:,.0f} s (the cap: {self.seconds:g} s), from"
                    f" solving {solved:,} of its {len(self.keys):,} states in {now - solve_began:.1f} s; simulate it"
                    " with -n",
                    field="--exact",
                    source=self.fight.source,
                )

        return solved_so_far


class _Chain:
    """The duel's chain as it is explored: its states (`keys`, numbered by `ids`), each state's edges to the states
    (or absorbing outcomes: -1 - k for the k-th side's win, then a draw, then beyond the depth) its step leads to,
    with their exact probabilities, and its expected rounds (`reward`)."""

    def __init__(self, fight: LoadedFight, layout: Layout, start: State, depth: int, caps: tuple[int, int]) -> None:
        self.fight, self.layout, self.depth = fight, layout, depth
        self.limit, self.max_rows = caps
        sides = len(fight.roster.side_names)
        self.draw_id, self.beyond_id = -1 - sides, -2 - sides
        self.keys = FoundStates(layout.matrix(start)[:1])
        #: Per step (a chunk of states): its edges (`chain_solve.Weighted`), its states' denominator and rounds.
        self.src: list[IntArray] = []
        self.dst: list[IntArray] = []
        self.weight: list[ObjectArray] = []
        self.total: list[int] = []
        self.rounds: list[ObjectArray] = []
        self.rows = 0
        self.stepped = 0.0

    def explore(self, budget: _Budget, probe: float) -> None:
        """Every state the duel reaches, a chunk of states a step (doubling up to CHUNK, so the first estimate comes
        early), each played forward by the play loop. The size is estimated after every step from PROBE_STATES /
        PROBE_ROWS on (the estimate firms up as the chain grows), the time once, after `probe` seconds; `probe`
        infinite: no estimates."""
        explored = 0
        size = 16
        estimating = probe != float("inf")
        timed = not estimating
        rate = 0.0  # seconds per state explored, in the last step
        caps = (self.limit, self.max_rows)
        while explored < len(self.keys):
            budget.check()
            now = time.monotonic()
            elapsed = now - budget.began
            if estimating and (explored >= PROBE_STATES or self.rows >= PROBE_ROWS):
                timing = not timed and elapsed > probe
                timed = timed or timing
                grown = _resident() - budget.memory_before
                cap = budget.seconds if timing else float("inf")
                over = (*caps, cap, budget.memory)
                _refuse_estimate(self.fight, explored, len(self.keys), self.rows, (elapsed, rate), grown, over)
            chunk = self.keys[explored : explored + size]
            size = min(2 * size, CHUNK)
            self.expand(chunk, explored)
            explored += len(chunk)
            rate = (self.stepped - now) / len(chunk)

    def expand(self, chunk: IntArray, base: int) -> None:
        """One step of the states `chunk` (numbered from `base`) by the play loop (`play.advance`): every outcome
        row an edge to the state it leads to (a new one numbered) or to the absorbing outcome the loop decides."""
        fight = self.fight
        ctx = Exact(fight, self.layout.state(chunk), depth=self.depth)
        done, winner = play.advance(ctx)  # the play loop: one step of each state, and which outcome rows end the fight
        child = ctx.state
        self.rows += child.n
        self.stepped = time.monotonic()  # when the step was played (the rate the time estimate reads)
        if self.rows > self.max_rows:
            raise InputError(
                f"the exact chain of this fight needs more than {self.max_rows:,} outcome rows (at"
                f" {len(self.keys):,} states so far); simulate it with -n",
                field="--exact",
                source=fight.source,
            )
        target = np.where(winner >= 0, -1 - winner, self.draw_id)
        target = np.where(child.fight["cut"] == 1, self.beyond_id, target)
        live = np.flatnonzero(~done & (child.fight["cut"] == 0))
        if live.size:
            target[live] = self.numbered(child.take(live))
        self.add_edges(ctx, base, len(chunk), target)

    def numbered(self, live: State) -> IntArray:
        """The number of each row's state in the chain (the states not met before numbered next, in the order of
        their rows, as `distinct` sorts them)."""
        matrix = self.layout.matrix(live)
        leads, inverse = distinct(list(matrix.T))
        uniq = matrix[leads]
        uniq_ids = self.keys.lookup(uniq)
        new = np.flatnonzero(uniq_ids < 0)
        if len(self.keys) + new.size > self.limit:
            raise OverStates(
                f"the exact chain of this fight has more than {self.limit:,} states; simulate it with -n",
                field="--exact",
                source=self.fight.source,
            )
        if new.size:
            uniq_ids[new] = self.keys.add(uniq[new])
        out: IntArray = uniq_ids[inverse.reshape(-1)]
        return out

    def add_edges(self, ctx: Exact, base: int, count: int, target: IntArray) -> None:
        """The edges of the `count` states numbered from `base` (one step): each (state, next) pair's summed weight,
        and each state's rounds weighted by its rows' (all over the step's denominator)."""
        parents = ctx.parent + base
        leads, pair_of = distinct([parents, target])
        order = np.argsort(pair_of, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(pair_of[order]) != 0])
        self.src.append(parents[leads])
        self.dst.append(target[leads])
        self.weight.append(np.add.reduceat(ctx.weight[order], starts))
        self.total.extend([ctx.denominator] * count)
        rounds = ctx.state.fight["round"]
        stepped = np.flatnonzero(rounds > 0)
        who = parents[stepped]
        order = np.argsort(who, kind="stable")
        firsts = np.flatnonzero(np.r_[True, np.diff(who[order]) != 0]) if who.size else who
        weighted = ctx.weight[stepped[order]]
        if (rounds[stepped] != 1).any():  # rounds of more than one a row (Python ints: exact)
            weighted = weighted * rounds[stepped[order]].astype(object)
        chunk = np.zeros(count, dtype=object)
        if who.size:
            chunk[who[order][firsts] - base] = np.add.reduceat(weighted, firsts)
        self.rounds.append(chunk)

    def weighted(self) -> Weighted:
        """The chain in integer weights, as `chain_solve` solves it."""
        empty = np.zeros(0, dtype=object)
        return Weighted(
            np.concatenate(self.src),
            np.concatenate(self.dst),
            np.concatenate(self.weight) if self.weight else empty,
            np.asarray(self.total, dtype=object),
            np.concatenate(self.rounds) if self.rounds else empty,
        )


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
