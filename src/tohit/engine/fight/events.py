"""A fight's start and end events, made in one place: a narrated fight (`run.narrate`), the Monte Carlo batch
(`run.simulate_fights`) and a live encounter (`encounter.Encounter`) log the same start, stalemate and end, and
`emit_end` alone writes an end (docs/fights.md, "The GM's hand in a live encounter")."""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import IntArray, State, change
from tohit.engine.fight.ending import ended
from tohit.engine.fight.modes.base import StepContext


def start_event(fight: LoadedFight, seed: int, state: State, source: str) -> dict[str, Any]:
    """The first event of a fight's log: the sides, the seed, the source and the starting state (numbered 0)."""
    roster = fight.roster
    return {
        "kind": "start",
        "text": f"{' vs '.join(roster.side_names)}: round 1",
        "system": fight.system.id,
        "seed": seed,
        "source": source,
        "sides": {
            name: [n for n, s in zip(roster.names, roster.side, strict=True) if s == i]
            for i, name in enumerate(roster.side_names)
        },
        "state": state.row(roster),
        "changes": [],
        "n": 0,
    }


def stalemate_event(text: str, n: int) -> dict[str, Any]:
    """The event that ends a fight nobody can end (the stalemate check's words), numbered n."""
    return {"kind": "stalemate", "text": text, "changes": [], "n": n}


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
    text = roster.wins(w) if w >= 0 else "a draw"
    if w < 0 and not stalled and int(ctx.state.fight["round"][0]) > fight.max_rounds:
        text += f" (still fighting after round {fight.max_rounds})"
    ctx.emit(
        "end",
        ends,
        f"{text} after {rounds} round{'s' if rounds != 1 else ''}",
        winner=roster.side_names[w] if w >= 0 else None,
        rounds=rounds,
    )
    ctx.log[-1]["state"] = ctx.state.row(roster)


def close_if_decided(ctx: StepContext) -> bool:
    """The end check every caller of the play loop runs after its events (a step of the rules, a GM's edit, a
    roster change, an undo): where the rules say fight 0 is decided (`ending.ended`: one side standing, or past
    `max_rounds`), its end is written (`emit_end`). True when it was."""
    done, winner = ended(ctx.fight, ctx.state, ctx.fight.max_rounds)
    if bool(done[0]):
        emit_end(ctx, int(winner[0]))
    return bool(done[0])
