"""The play loop: the one place a fight is played forward, decided over and ended (docs/architecture.md, "One
fight driver"; docs/fights.md, "How a fight ends").

Every caller plays through it:

- a narrated fight and both samplers play whole fights with `play_out` (a batch of one, or many): before every
  step the end check (`decided`), the stalemate check on its schedule, then the end of every fight just decided
  (`emit_end`, once each) and one step of the rest (`step`); what is the caller's own (numbering events, the batch's
  tallies, a narrated fight's refusal) it keeps in its `Table`;
- the exact chain and the stalemate check play one step of every state they hold with `advance`, which hands
  back, per outcome row, whether the fight is over there and who won (the chain's absorbing states come from it);
- a live encounter plays its turns with `step` and, after every event of any kind (a GM's edit, a join, an undo
  included), asks `close_if_decided`, so a fight whose last foe is down is over, with its winner, whoever downed it.

No other module decides that a fight is over or writes an end (tests/test_one_loop.py holds them to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import any_groups, packed_rows
from tohit.core.fight.state import BoolArray, IntArray, State, change
from tohit.engine import cancel
from tohit.engine.fight.modes import StepContext

#: (done, winner): per fight, whether it is over, and the winning side (-1: a draw, or none yet).
Verdict = tuple[BoolArray, IntArray]
#: The stalemate check the loop runs on its schedule (the caller's `stalemate.never_ending`, with the run's findings):
#: (state, rows, since, kinds) -> per fight at `rows`, True when it can never end from where it stands (`since`: each
#: one's health at the previous check, for a fight of more than two, the only one whose check reads it; else None);
#: `kinds` gets "never", "depth" or "" per row.
Stall = Callable[[State, IntArray, IntArray | None, list[str]], BoolArray]
#: No rows (no fight found stuck).
_NONE: IntArray = np.zeros(0, dtype=np.int64)
_NONE.flags.writeable = False
#: The engine's own values of a fight not over (none ended it, as only this loop does, and nothing cut its path:
#: only the exact chain cuts one): the fights a drop keeps hold them.
_GOING_ON = {"over": 0, "winner": -1, "cut": 0}


def decided(fight: LoadedFight, state: State, max_rounds: int | None, standing: BoolArray | None = None) -> Verdict:
    """The end check: (done, winner) per fight of `state`. A fight is over when at most one side has anyone standing
    (the rules' `standing`: that side wins; none: a draw), when the exact chain went past the depth of open-ended
    dice on its path (`cut`), or, as a draw, once a round after `max_rounds` would begin (None: no limit, the exact
    chain's). `standing`: the rules' `standing` of this state, when the caller has it."""
    if standing is None:
        standing = fight.rules.standing(fight, state)
    members = fight.roster.side_members
    packed = packed_rows(standing) if members == ((0,), (1,)) else None
    if packed is not None:  # a duel, combatant c on side c: its row read as one integer, byte c combatant c's
        done = packed != packed.dtype.type(0x0101)  # over unless both bytes are 1
        # side 1 where combatant 1 alone stands, -1 where nobody does (a draw), else 0 (as bytes)
        alone1, nobody = packed == packed.dtype.type(0x0100), packed == 0
        winner: IntArray = (alone1.view(np.int8) - nobody.view(np.int8)).astype(np.int64)
    elif len(ups := any_groups(standing, members)) == 2:
        up0, up1 = ups
        # the side standing (0 or 1, as bytes), less 1 where both sides stand (none yet) or neither (a draw): -1
        winner = (up1.view(np.int8) - (up0 == up1).view(np.int8)).astype(np.int64)
        done = up0 & up1
        np.logical_not(done, out=done)
    else:
        alive = np.zeros(state.n, dtype=np.int64)
        last = np.zeros(state.n, dtype=np.int64)  # the last side with someone standing
        for s, up in enumerate(ups):
            alive += up
            last[up] = s
        winner = np.where(alive == 1, last, -1)
        done = alive <= 1
    cut = state.fight["cut"]
    if int(cut.max(initial=0)) >= 1:  # only the exact chain cuts a path (a max: faster than `any` on int64)
        done |= cut == 1
    rounds = state.fight["round"]
    if max_rounds is not None and rounds.size and int(rounds.max()) > max_rounds:
        late = rounds > max_rounds
        winner[late & ~done] = -1
        done |= late
    return done, winner


def step(ctx: FightContext, choice: GMChoice | None = None, *, in_turn: bool = True) -> None:
    """One step of every fight in `ctx` by the game's own rules: its `step` (the side's policy picks, or the game
    master's `choice` on the attacker's turn in the game's order, so what comes before that turn comes first); out
    of turn (`in_turn` False) the game's `turn` for the choice's attacker alone. It does not end anything: the end
    check is the caller's next call of the loop (`play_out`, `advance`, `close_if_decided`)."""
    rules = ctx.fight.rules
    if in_turn:
        rules.step(ctx, choice)
    else:
        assert choice is not None  # a turn out of the game's order is always the game master's named attack
        rules.turn(ctx, np.ones(1, dtype=bool), np.full(1, choice.actor, dtype=np.int64), choice)


def advance(ctx: StepContext) -> Verdict:
    """One step of every state in `ctx` (`step`), then the end check on every row it leaves (within the context's
    `max_rounds`: none on the exact chain): the exact chain's and the stalemate check's way forward."""
    step(ctx)
    return decided(ctx.fight, ctx.state, ctx.max_rounds, ctx.known_standing)


def emit_end(ctx: StepContext, winner: Any, *, rows: IntArray | None = None, stalled: bool = False) -> None:
    """The one writer of a fight's end, for every caller (the narrated fight, the Monte Carlo batch, the live
    encounter): the game's own end of the fights at `rows` (`finish`, e.g. durability; default: fight 0), then
    their end event: the winning side of each (`winner`: one per row, or one for fight 0; -1: a draw, "still
    fighting" past `max_rounds` unless a stalemate ended it). Narrated, with the rounds played, the winner's name
    and the state it leaves."""
    fight = ctx.fight
    at = np.asarray([0], dtype=np.int64) if rows is None else rows
    won = np.broadcast_to(np.asarray(winner, dtype=np.int64), at.shape)
    fight.rules.finish(ctx, at)
    ends = [change("over", at, 1), change("winner", at, won)]
    if not ctx.narrating:
        ctx.emit("end", ends)
        return
    roster, w = fight.roster, int(won[0])
    rounds = min(int(ctx.state.fight["round"][0]), fight.max_rounds)
    late = w < 0 and not stalled and int(ctx.state.fight["round"][0]) > fight.max_rounds
    extra: dict[str, Any] = {"still_fighting": True} if late else {}
    if w >= 0:
        extra["winners"] = [n for n, s in zip(roster.names, roster.side, strict=True) if s == w]
    ctx.emit("end", ends, winner=roster.side_names[w] if w >= 0 else None, rounds=rounds, **extra)
    ctx.log[-1]["state"] = ctx.state.row(roster)


def close_if_decided(ctx: StepContext) -> bool:
    """The end check a live encounter runs after every event of any kind (a step of the rules, a GM's edit, a
    roster change, an undo): where fight 0 is decided (`decided`: one side standing, or past `max_rounds`), its end
    is written (`emit_end`), with its winner, whoever decided it. True when it was."""
    done, winner = decided(ctx.fight, ctx.state, ctx.fight.max_rounds)
    if bool(done[0]):
        emit_end(ctx, int(winner[0]))
    return bool(done[0])


class Table(Protocol):
    """What a caller of `play_out` keeps of its own: how a step's dice are fed, and what it does with what the loop
    plays (a narrated fight numbers and hands over its events; a batch tallies the fights that end)."""

    def context(self, state: State, standing: BoolArray | None) -> StepContext:
        """The context a step (or an end) is played on: the caller's mode, its dice."""

    def checked(self, state: State, stuck: IntArray, kinds: list[str]) -> None:
        """After a stalemate check: the fights at `stuck` can never end (each one's kind, "never" or "depth")."""

    def watch(self, state: State, on: int) -> None:
        """Before a step of the `on` fights still on: may only refuse (raise), never change the play."""

    def played(self, ctx: StepContext) -> None:
        """After a step: its events."""

    def finished(self, ctx: StepContext, rows: IntArray, winner: IntArray) -> None:
        """After the end of the fights at `rows` of `ctx.state` is written: their end, each one's winner."""


def _stalled(state: State, live: IntArray, since: IntArray | None, stall: Stall, table: Table) -> IntArray:
    """The stalemate check of the fights at `live` (each one's health at the last check: `since`), told to the table:
    the rows of those that can never end."""
    kinds: list[str] = []
    hit = stall(state, live, since, kinds)
    stuck = live[hit]
    said = kinds + [""] * (hit.size - len(kinds))  # a check that gives no kinds: none said
    table.checked(state, stuck, [said[i] for i in np.flatnonzero(hit).tolist()])
    return stuck


def play_out(
    fight: LoadedFight,
    state: State,
    table: Table,
    *,
    stall: Stall,
    first_check: int,
    limit: int,
    uniform: bool = False,
) -> None:
    """Play every fight of `state` to its end (see the module docstring). Before each step: the end check; a fight
    still on at round `first_check` (then twice it, and so on) is asked `stall` (the stalemate check), and one that
    can never end is decided there as a draw; every fight just decided gets its end (`emit_end`, once) and is told to
    the table. Finished fights stay inert in the batch until they are an eighth of it, then are dropped (dropping
    copies every array). `uniform`: every fight of `state` is the same, as a batch's copies of the start are; a stat
    no event has written since is then still the same in every fight, and a drop keeps its first rows instead of
    copying it. `limit`: steps no correct game reaches (a RuntimeError: a runaway loop)."""
    rules = fight.rules
    recorded = np.zeros(state.n, dtype=bool)
    check = first_check
    # Each fight's health at the last stalemate check (`never_ending`'s `since`), kept only where the check reads it:
    # a fight of more than two (a duel's would be copied at every drop for nothing).
    health = rules.health_of(state).copy() if fight.roster.size > 2 else None
    standing: BoolArray | None = None  # who stands in `state`, kept from the step that left it while still true
    # The stats, as (per combatant, name), that hold the same row in every fight: no event has written them yet.
    alike = ({(True, k) for k in state.per} | {(False, k) for k in state.fight}) if uniform else set()
    for _ in range(limit):
        cancel.check()  # between steps: stopped when its asker went away (a client that hung up)
        if standing is None:
            standing = rules.standing(fight, state)
        done, winner = decided(fight, state, fight.max_rounds, standing)
        closed = done | recorded
        new = closed ^ recorded  # done, not recorded before
        on = closed.size - int(np.count_nonzero(closed))  # fights still on (their rows only when asked)
        stuck = _NONE
        rounds = state.fight["round"]
        if on and int(rounds.max()) >= check:
            live = np.flatnonzero(~closed)
            if int(rounds[live].min()) >= check:
                check *= 2
                stuck = _stalled(state, live, None if health is None else health.take(live, axis=0), stall, table)
                on -= stuck.size
                done[stuck], winner[stuck], new[stuck], closed[stuck] = True, -1, True, True
                health = None if health is None else rules.health_of(state).copy()
        table.watch(state, on)
        if new.any():
            rows = np.flatnonzero(new)
            ctx = table.context(state, standing)
            won = winner.take(rows)
            emit_end(ctx, won, rows=rows, stalled=bool(stuck.size) and bool(np.isin(rows, stuck).any()))
            table.finished(ctx, rows, won)
            state, standing = ctx.state, ctx.known_standing
            alike -= ctx.written
            recorded = closed
            if not on:  # every fight recorded
                return
            if 8 * int(np.count_nonzero(recorded)) >= recorded.size:
                keep = np.flatnonzero(~recorded)
                # `take` along the rows: many times faster than indexing a 2-D array by them (health, standing)
                state = state.take(keep, same=_GOING_ON, alike=alike)
                health, recorded = None if health is None else health.take(keep, axis=0), recorded.take(keep)
                standing = None if standing is None else standing.take(keep, axis=0)
        ctx = table.context(state, standing)
        step(ctx)
        table.played(ctx)
        state, standing = ctx.state, ctx.known_standing
        alike -= ctx.written
    raise RuntimeError(f"fights did not end within {limit} steps")  # pragma: no cover - a game module bug
