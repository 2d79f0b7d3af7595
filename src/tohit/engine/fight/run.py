"""Running fights: one narrated fight (with its event log), and Monte Carlo over many at once.

Both drive the same fight module `step` over a `State` batch. A fight ends when at most one side has
anyone standing (that side wins; none: a draw), or as a draw when a round after `max_rounds` would
begin. In Monte Carlo, all fights advance together, one step at a time, as arrays (fights x combatants);
finished fights drop out of the batch; there is no Python loop per fight or per attack.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, IntArray, State, wide
from tohit.engine.fight import play
from tohit.engine.fight.ending import ENGINE_STATS as ENGINE_STATS
from tohit.engine.fight.ending import initial_state as initial_state
from tohit.engine.fight.events import stalemate_event, start_event
from tohit.engine.fight.layout import fight_depth
from tohit.engine.fight.modes import Method, Narration, StepContext, sampler
from tohit.engine.fight.stalemate import Stalemates, never_ending
from tohit.engine.fight.tally import FightTally as FightTally
from tohit.engine.fight.tally import Part as Part
from tohit.engine.frames import Views, fight_log_frame, fight_stats_frame, side_index
from tohit.engine.heap import advise_huge_pages, keep_freed_memory
from tohit.engine.pool import process_pool
from tohit.engine.seeds import fresh_seed
from tohit.engine.stats import mean_sd, percentile, wilson

#: Fights advanced together in one batch (memory stays flat for any n).
BATCH = 100_000
#: A batch adds its fights' ends to the run's totals once this many have ended since it last did (`_Batch.fold`):
#: a group's batch of 100,000 fights would otherwise hold every fight's end (some 150 bytes a fight in a 4-v-4)
#: in hundreds of small arrays made between the step's own, until the batch is over.
FOLD_ROWS = 8_192
#: The most work a simulation may ask for, at the worst (every fight played to max_rounds): fights x
#: max_rounds x combatants (combatant-rounds; the CLI's largest -n, 100,000,000 duels of 100 rounds, is 2e10).
MAX_WORK = 100_000_000_000
#: ... and, measured as it runs: a batch in which, past the first stalemate check and FIGHT_PROBE_SECONDS, no
#: fight is over and nobody has lost any health is estimated at the worst (every fight played to max_rounds,
#: each round at the time the rounds since that check took); one estimated past MAX_FIGHT_SECONDS is refused
#: then, naming the estimate and the cap (a fight of many combatants that nobody can end, too big for the
#: stalemate check to prove, would otherwise play every round of every fight). A batch where anybody is hurt
#: or any fight ends is never refused by it.
MAX_FIGHT_SECONDS = 60.0
FIGHT_PROBE_SECONDS = 2.0
#: A narrated fight gets the same estimate at the worst, in work (every fight answers or refuses in bounded time
#: and memory): each attack is played with its trace, about a thousand times the cost of one in a
#: batch (a 3-v-3 fight narrates about 700 combatant-rounds a second), so one whose max_rounds x combatants is
#: over MAX_NARRATED_WORK combatant-rounds is refused once it is still on after NARRATED_PROBE_WORK of them (and
#: past its first stalemate check), naming the estimate and the cap. It counts rounds, never seconds: the same
#: seed is refused, or not, on any machine. A fight that ends (or is a stalemate) before then is never refused.
MAX_NARRATED_WORK = 40_000
NARRATED_PROBE_WORK = 2_000
PERCENTILES = (5, 25, 50, 75, 95)
Progress = Callable[[int], None]


def step_limit(fight: LoadedFight) -> int:
    """A bound on steps per fight that no correct fight module reaches (it stops a runaway loop)."""
    per_round = 4 * fight.roster.size * (fight.max_attacks + 8) + 8
    return (fight.max_rounds + 1) * per_round


#: A fight (of any size) still on at this round (then at twice it, and so on) is checked for a stalemate: when
#: nobody can harm anybody enough to end it from where it stands (`stalemate.never_ending`), it ends at once as a
#: draw. A fight of more than two is checked only when nobody's health changed since the last check.
FIRST_STALL_CHECK = 16


# -- one narrated fight ---------------------------------------------------------------------------------------
@dataclass
class FightLog(Views):
    """A narrated fight: its events (JSON), the final state, the winner and the number of rounds; in a notebook a
    table of its events (`to_dataframe()`, engine/frames.py)."""

    fight: LoadedFight
    seed: int
    events: list[dict[str, Any]]
    final: State
    winner: int
    rounds: int

    @property
    def winner_name(self) -> str | None:
        return None if self.winner < 0 else self.fight.roster.side_names[self.winner]

    def wins(self, side: int | str) -> int:
        """1 if `side` (a name or an index) won this fight, else 0: fights won, as `FightStats.wins` counts."""
        return int(self.winner == side_index(self.fight.roster.side_names, side))

    def _frame(self) -> Any:
        return fight_log_frame(self)

    def _title(self) -> str:
        return f"one fight, seed {self.seed}"

    def __repr__(self) -> str:
        """One line: the events, the rounds and the winner."""
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        return f"<FightLog {len(self.events)} events, {rounds}, winner {self.winner_name}>"


def narrate(
    fight: LoadedFight,
    seed: int | None = None,
    *,
    script: list[dict[str, list[int]]] | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    keep: bool = True,
) -> FightLog:
    """Play one fight with traced rolls, logging every event.

    `script` forces the dice of the first resolves, in order (one mapping of role -> faces per attack or
    counterattack); later rolls are drawn from the seed. `on_event` is called with each event (numbered) as
    soon as it happens, so a caller can show a long fight as it goes; `keep=False` keeps only the first and
    last events in the log (memory stays flat however long the fight).

    A fight that could play past MAX_NARRATED_WORK combatant-rounds is refused (an InputError naming max_rounds)
    when it is still on after NARRATED_PROBE_WORK of them (the events handed over so far stay handed over: a
    caller that must print all or nothing spools them, as `tohit fight --json` and `--log` do).
    """
    if seed is None:
        seed = fight.spec.seed if fight.spec.seed is not None else fresh_seed()
    state = initial_state(fight, 1)
    told = _Told(fight, np.random.default_rng(seed), list(script or []), on_event, keep)
    told.hand_over([start_event(fight, seed, state, fight.source)], end=True)
    found = Stalemates()  # this fight's stalemate checks (its own: the same seed, the same fight)

    def stall(state: State, rows: IntArray, since: IntArray | None, kinds: list[str]) -> BoolArray:
        return never_ending(fight, state, rows, since=since, kinds=kinds, found=found)

    play.play_out(fight, state, told, stall=stall, first_check=FIRST_STALL_CHECK, limit=step_limit(fight))
    assert told.final is not None  # play_out returns once the fight's end is written
    return FightLog(fight, seed, told.events, told.final, told.winner, told.rounds)


class _Told:
    """A narrated fight's own part of the play loop (`play.Table`): traced dice from its seed (and `script`), every
    event numbered and handed over as it happens (kept unless `keep` is False: then only the first and the end),
    its stalemate said in words, and its refusal past MAX_NARRATED_WORK."""

    def __init__(
        self,
        fight: LoadedFight,
        rng: np.random.Generator,
        script: list[dict[str, list[int]]],
        on_event: Callable[[dict[str, Any]], None] | None,
        keep: bool,
    ) -> None:
        self.fight, self.rng, self.script, self.on_event, self.keep = fight, rng, script, on_event, keep
        self.risky = fight.max_rounds * fight.roster.size > MAX_NARRATED_WORK
        self.events: list[dict[str, Any]] = []
        self.final: State | None = None
        self.winner = -1
        self.rounds = 0
        self.count = 0  # events handed over so far (the next one's number)

    def hand_over(self, events: list[dict[str, Any]], *, end: bool = False) -> None:
        """Number the events on from the last and hand each over (kept when `keep`, or the start or end)."""
        for event in events:
            event["n"] = self.count
            self.count += 1
            if self.keep or end:
                self.events.append(event)
            if self.on_event is not None:
                self.on_event(event)

    def context(self, state: State, standing: BoolArray | None) -> StepContext:
        return Narration(
            self.fight, state, self.rng, max_rounds=self.fight.max_rounds, script=self.script, standing=standing
        )

    def checked(self, state: State, stuck: IntArray, kinds: list[str]) -> None:
        if stuck.size:
            depth = fight_depth(self.fight) if kinds[0] == "depth" else None
            self.hand_over([stalemate_event(self.fight, depth, 0)])

    def watch(self, state: State, on: int) -> None:
        if on and self.risky and _over_narration(self.fight, int(state.fight["round"][0])):
            raise _narration_refused(self.fight, int(state.fight["round"][0]))

    def played(self, ctx: StepContext) -> None:
        self.hand_over(ctx.log)

    def finished(self, ctx: StepContext, rows: IntArray, winner: IntArray) -> None:
        self.hand_over(ctx.log, end=True)
        self.final, self.winner, self.rounds = ctx.state, int(winner[0]), int(ctx.log[-1]["rounds"])


def _over_narration(fight: LoadedFight, round_: int) -> bool:
    """Whether a narrated fight still on at `round_` is past NARRATED_PROBE_WORK (and its first stalemate check)."""
    return round_ > FIRST_STALL_CHECK and round_ * fight.roster.size >= NARRATED_PROBE_WORK


def _narration_refused(fight: LoadedFight, round_: int) -> InputError:
    """The one line that refuses a narrated fight estimated past MAX_NARRATED_WORK, naming the estimate and the cap."""
    size = fight.roster.size
    return InputError(
        f"this narrated fight is still on at round {round_:,} and may play to max_rounds {fight.max_rounds:,}:"
        f" {fight.max_rounds * size:,} combatant-rounds ({size} combatants) at the worst, over the cap of"
        f" {MAX_NARRATED_WORK:,} for one narrated fight; lower max_rounds, or simulate it with -n",
        field="max_rounds",
        source=fight.source,
    )


# -- Monte Carlo --------------------------------------------------------------------------------------------
#: Monte Carlo runs of at most this many fights keep every fight's end (for inspection and tests); larger
#: runs keep only the running totals below, so memory stays flat however many fights are run.
KEEP_FIGHTS = 1_000_000


@dataclass
class FightStats(Views):
    """Monte Carlo summary of n fights: running totals, and each fight's end when n <= KEEP_FIGHTS; in a notebook
    a table (`to_dataframe()`, engine/frames.py)."""

    fight: LoadedFight
    n: int
    seed: int
    tally: FightTally = field(repr=False)
    winner: IntArray | None = field(default=None, repr=False)  # (n,)
    rounds: IntArray | None = field(default=None, repr=False)  # (n,)
    health: IntArray | None = field(default=None, repr=False)  # (n, C) at the end
    standing: BoolArray | None = field(default=None, repr=False)  # (n, C) at the end
    dealt: IntArray | None = field(default=None, repr=False)  # (n, C)

    def wins(self, side: int | str) -> int:
        """Fights won by a side, given by name (`'Ceil'`) or index; another: an InputError naming the sides."""
        return int(self.tally.wins[side_index(self.fight.roster.side_names, side)])

    @property
    def draws(self) -> int:
        return self.tally.draws

    def to_json(self) -> dict[str, Any]:
        roster = self.fight.roster
        n, tally = self.n, self.tally

        def prop(count: int) -> dict[str, Any]:
            low, high = wilson(count, n)
            return {"count": count, "p": count / n, "ci95": [low, high]}

        mean, sd = mean_sd(tally.rounds)
        combatants = []
        for c, name in enumerate(roster.names):
            k = int(tally.standing[c])
            combatants.append(
                {
                    "name": name,
                    "side": roster.side_names[roster.side[c]],
                    "survives": prop(k),
                    "health_if_standing": int(tally.health_standing[c]) / k if k else None,
                    "health_mean": int(tally.health[c]) / n,
                    "damage_dealt_mean": int(tally.dealt[c]) / n,
                }
            )
        return {
            "system": self.fight.system.id,
            "n": n,
            "seed": self.seed,
            "max_rounds": self.fight.max_rounds,
            "health": self.fight.rules.health_label,
            "sides": [{"name": s, **prop(self.wins(i))} for i, s in enumerate(roster.side_names)],
            "draws": prop(self.draws),
            "rounds": {
                "mean": mean,
                "sd": sd,
                "percentiles": {str(q): percentile(tally.rounds, q) for q in PERCENTILES},
            },
            "combatants": combatants,
        }

    def _frame(self) -> Any:
        return fight_stats_frame(self)

    def _title(self) -> str:
        return f"{self.n:,} fights, seed {self.seed}"

    def __repr__(self) -> str:
        """One line: each side's share of the wins."""
        names = self.fight.roster.side_names
        wins = ", ".join(f"{name} {self.wins(s) / self.n:.1%}" for s, name in enumerate(names))
        return f"<FightStats {self.n:,} fights: {wins}; .to_dataframe()>"


def simulate_fights(
    fight: LoadedFight,
    n: int,
    seed: int | None = None,
    *,
    progress: Progress | None = None,
    batch: int = BATCH,
    method: Method = "table",
    workers: int = 1,
) -> FightStats:
    """n independent fights, advanced together in batches; finished fights drop out.

    `method`: "table" (default) draws each attack's outcome from its exact joint table; "direct" samples the
    dice and runs `resolve` with the fight's stats as arrays. Both sample the same distribution exactly.

    With `workers` > 1 the fights are split into one task per worker (n / workers fights each: a task keeps
    batches as large as one process would), run by that many processes (fork), each task with its own
    stream spawned from the seed (`SeedSequence(seed).spawn(workers)`); the parts are merged in task order,
    so the same seed and worker count give the same result."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:  # (a bool or a float is no count)
        raise InputError(f"n: the number of fights is a whole number from 1, not {n!r}", field="n", source=fight.source)
    n = int(n)
    keep_freed_memory()  # batch steps re-allocate large arrays: keep their pages (engine/heap.py)
    work = n * fight.max_rounds * fight.roster.size
    if work > MAX_WORK:
        raise InputError(
            f"{n:,} fights x max_rounds {fight.max_rounds:,} x {fight.roster.size} combatants is {work:,}"
            f" combatant-rounds at the worst, over the cap of {MAX_WORK:,}; lower -n or max_rounds",
            field="n",
            source=fight.source,
        )
    if seed is None:
        seed = fight.spec.seed if fight.spec.seed is not None else fresh_seed()
    keep = n <= KEEP_FIGHTS
    if workers <= 1:
        tally, parts = _simulate_part(fight, n, np.random.default_rng(seed), progress, batch, method, keep)
    else:
        tally, parts = _simulate_parallel(fight, n, seed, progress, batch, method, workers, keep)
    if not keep:
        return FightStats(fight, n, seed, tally)
    winner, rounds, health, standing, dealt = (np.concatenate([p[i] for p in parts]) for i in range(5))
    return FightStats(fight, n, seed, tally, winner, rounds, health, standing, dealt)


def _simulate_part(
    fight: LoadedFight,
    n: int,
    rng: np.random.Generator,
    progress: Progress | None,
    batch: int,
    method: Method,
    keep: bool,
) -> tuple[FightTally, list[Part]]:
    """n fights in batches: their running totals, and (when `keep`) each fight's end."""
    tally = FightTally.empty(len(fight.roster.side_names), len(fight.roster.names))
    parts: list[Part] = []
    done_total = 0
    found = Stalemates()  # this share's stalemate checks, across its batches
    while done_total < n:
        m = min(batch, n - done_total)
        advise_huge_pages()  # the heap as the batch before left it (engine/heap.py)
        parts.extend(_run_batch(fight, m, rng, progress, method, found, tally, keep))
        done_total += m
    return tally, parts


#: What a forked worker reads (set by the parent just before the pool starts; never pickled).
_SHARED: dict[str, Any] = {}
#: How often (seconds) the parent reads the workers' shared count of finished fights for the progress bar.
POLL = 0.2


def _shares(n: int, parts: int) -> list[int]:
    parts = max(1, min(parts, n))
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def _simulate_parallel(
    fight: LoadedFight,
    n: int,
    seed: int,
    progress: Progress | None,
    batch: int,
    method: Method,
    workers: int,
    keep: bool,
) -> tuple[FightTally, list[Part]]:
    shares = _shares(n, workers)
    streams = np.random.SeedSequence(seed).spawn(len(shares))
    context = multiprocessing.get_context("fork")
    finished = context.Value("q", 0)
    _SHARED.update(fight=fight, finished=finished, batch=batch, method=method, keep=keep)
    results: dict[int, tuple[FightTally, list[Part]]] = {}
    reported = 0
    try:
        with process_pool(len(shares), context) as pool:
            futures = {
                pool.submit(_task, share, stream): i
                for i, (share, stream) in enumerate(zip(shares, streams, strict=True))
            }
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                for future in done:
                    results[futures[future]] = future.result()
                if progress:
                    with finished.get_lock():
                        count = int(finished.value)
                    if count > reported:
                        progress(count - reported)
                        reported = count
    finally:
        _SHARED.clear()
    if progress and n > reported:
        progress(n - reported)
    tally = FightTally.empty(len(fight.roster.side_names), len(fight.roster.names))
    for i in range(len(shares)):
        tally.merge(results[i][0])
    return tally, [part for i in range(len(shares)) for part in results[i][1]]


def share_streams(n: int, seed: int, tasks: int) -> list[tuple[int, np.random.SeedSequence]]:
    """n fights split into `tasks` shares, each with its stream spawned from the seed: the split `workers` > 1
    makes, so a cluster given the same number of tasks gives the same result as that many local workers."""
    shares = _shares(n, tasks)
    return list(zip(shares, np.random.SeedSequence(seed).spawn(len(shares)), strict=True))


def simulate_share(
    fight: LoadedFight, n: int, stream: np.random.SeedSequence, *, method: Method = "table", keep: bool = True
) -> tuple[FightTally, list[Part]]:
    """One share of fights from its own stream (run wherever the share is sent: a process, a cluster worker)."""
    return _simulate_part(fight, n, np.random.default_rng(stream), None, BATCH, method, keep)


def stats_from_shares(
    fight: LoadedFight, n: int, seed: int, results: list[tuple[FightTally, list[Part]]]
) -> FightStats:
    """The summary of n fights from their shares' results, merged in share order."""
    tally = FightTally.empty(len(fight.roster.side_names), len(fight.roster.names))
    for part_tally, _ in results:
        tally.merge(part_tally)
    if n > KEEP_FIGHTS:
        return FightStats(fight, n, seed, tally)
    parts = [part for _, share_parts in results for part in share_parts]
    winner, rounds, health, standing, dealt = (np.concatenate([p[i] for p in parts]) for i in range(5))
    return FightStats(fight, n, seed, tally, winner, rounds, health, standing, dealt)


def _task(n: int, stream: np.random.SeedSequence) -> tuple[FightTally, list[Part]]:
    """One task in a worker process: its share of fights, from its own stream."""
    fight: LoadedFight = _SHARED["fight"]
    finished = _SHARED["finished"]

    def advance(m: int) -> None:
        with finished.get_lock():
            finished.value += m

    return _simulate_part(
        fight, n, np.random.default_rng(stream), advance, _SHARED["batch"], _SHARED["method"], _SHARED["keep"]
    )


class _Probe:
    """The worst-case estimate of a batch in which nothing happens (MAX_FIGHT_SECONDS): watching until a fight ends
    or somebody is hurt, estimating once a round has passed since the first stalemate check. The clock is read only
    to refuse (an InputError on max_rounds): a batch it lets through plays exactly as on any other clock."""

    def __init__(self, fight: LoadedFight, start: State) -> None:
        """`start`: one fight's start (a batch's fights all start alike)."""
        self.fight, self.began = fight, time.monotonic()
        self.health = wide(fight.rules.health_of(start)[0])
        self.watching = True
        self.since: tuple[float, int] | None = None  # (time, round) when the first stalemate check was over

    def checked(self, state: State) -> None:
        if self.since is None:
            self.since = (time.monotonic(), int(state.fight["round"].min()))

    def look(self, n: int, on: int, state: State) -> None:
        if not self.watching or self.since is None:
            return
        if on < n or not (self.fight.rules.health_of(state) == self.health).all():
            self.watching = False  # something happens: never refused
            return
        now = time.monotonic()
        at, first = self.since
        rounds = int(state.fight["round"].min())
        if now - self.began < FIGHT_PROBE_SECONDS or rounds <= first:
            return
        self.watching = False
        per_round = (now - at) / (rounds - first)
        worst = now - self.began + per_round * max(0, self.fight.max_rounds - rounds)
        if worst > MAX_FIGHT_SECONDS:
            raise InputError(
                f"this simulation is estimated at {worst:,.0f} s at the worst, over the cap of {MAX_FIGHT_SECONDS:g}"
                f" s: {n:,} fights of {self.fight.roster.size} combatants, none over and nobody hurt after"
                f" {rounds - 1:,} rounds (the stalemate check could not tell), each played to max_rounds"
                f" {self.fight.max_rounds:,}; lower -n or max_rounds",
                field="max_rounds",
                source=self.fight.source,
            )


def _run_batch(
    fight: LoadedFight,
    n: int,
    rng: np.random.Generator,
    progress: Progress | None,
    method: Method,
    found: Stalemates,
    tally: FightTally,
    keep: bool,
) -> list[Part]:
    """n fights played out together by the play loop (`play.play_out`), sampled by `method`, their ends added to
    `tally` as they come: each fight's end when `keep`, else nothing."""
    batch = _Batch(fight, n, rng, progress, method, tally, keep)

    def stall(state: State, rows: IntArray, since: IntArray | None, kinds: list[str]) -> BoolArray:
        return never_ending(fight, state, rows, since=since, kinds=kinds, found=found)

    # The starting state is the loop's alone (no name here keeps it): a drop of finished fights frees what it copied.
    play.play_out(
        fight, batch.start(), batch, stall=stall, first_check=FIRST_STALL_CHECK, limit=step_limit(fight), uniform=True
    )
    batch.fold()
    return batch.kept


class _Batch:
    """A Monte Carlo batch's own part of the play loop (`play.Table`): sampled dice, each fight's end as it comes
    (`Part`) added to the run's totals, the progress bar, and the estimate of a batch in which nothing happens
    (`_Probe`)."""

    def __init__(
        self,
        fight: LoadedFight,
        n: int,
        rng: np.random.Generator,
        progress: Progress | None,
        method: Method,
        tally: FightTally,
        keep: bool,
    ) -> None:
        self.fight, self.n, self.rng, self.progress = fight, n, rng, progress
        self.tally, self.keep = tally, keep
        self.sample = sampler(method)
        self.probe = _Probe(fight, initial_state(fight, 1))  # one fight's start: every fight of the batch's
        #: Each fight's end, in the order they came, when the run keeps them.
        self.kept: list[Part] = []
        #: Fights' ends not yet added to the totals, and how many fights they hold.
        self.pending: list[Part] = []
        self.pending_rows = 0

    def start(self) -> State:
        """The batch's n fights' start, small stats as int32 (the same values in half the memory), and a group's
        stats as one row for every fight until an event writes them (`ending.ONE_ROW_FROM`), for the loop alone:
        the batch keeps no name for it."""
        return initial_state(self.fight, self.n, narrow=True)

    def context(self, state: State, standing: BoolArray | None) -> StepContext:
        """The step's context; it owns `state`'s writeable arrays: the loop's states are the batch's own (made by
        `initial_state`, a `take`, or the previous step), and the loop reads none after stepping it (a stat held as
        one row for every fight is read-only, copied at its first write: `StepContext.own_input`)."""
        ctx = self.sample(self.fight, state, self.rng, max_rounds=self.fight.max_rounds, standing=standing)
        ctx.own_input()
        return ctx

    def checked(self, state: State, stuck: IntArray, kinds: list[str]) -> None:
        self.probe.checked(state)

    def watch(self, state: State, on: int) -> None:
        self.probe.look(self.n, on, state)

    def played(self, ctx: StepContext) -> None:
        pass

    def finished(self, ctx: StepContext, rows: IntArray, winner: IntArray) -> None:
        fight, state = self.fight, ctx.state
        # Only what a fight's end keeps, at its rows (the standing the step knows already, not recomputed); the
        # stats as int64, whatever the batch held them in (`state.wide`; `state.narrow_dtype`).
        part = (
            winner,
            np.minimum(state.fight["round"].take(rows), fight.max_rounds),
            wide(np.take(fight.rules.health_of(state), rows, axis=0)),
            ctx.standing().take(rows, axis=0),
            wide(state.per["dealt"].take(rows, axis=0)),
        )
        if self.keep:
            self.kept.append(part)
        self.pending.append(part)
        self.pending_rows += rows.size
        if self.pending_rows >= FOLD_ROWS:
            self.fold()
        if self.progress:
            self.progress(rows.size)

    def fold(self) -> None:
        """Add the fights' ends not yet added to the run's totals (`FightTally.add_parts`: the same totals, and the
        rounds counted in the same order, as adding every part of the batch at its end)."""
        self.tally.add_parts(self.pending)
        self.pending, self.pending_rows = [], 0
