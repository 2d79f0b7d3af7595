"""A fight's start and end events, made in one place: a narrated fight (`run.narrate`) and a live encounter
(`encounter.Encounter`) log the same start, stalemate and end (docs/architecture.md, "One fight driver")."""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.state import State, change


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


def emit_end(ctx: FightContext, winner: int, *, stalled: bool = False) -> None:
    """The game's own end of the fight (`finish`, e.g. durability), then the end event of fight 0: the winning
    side (-1: a draw, "still fighting" past `max_rounds` unless a stalemate ended it) and the rounds played,
    with the state it leaves."""
    fight = ctx.fight
    fight.rules.finish(ctx, np.asarray([0]))
    roster = fight.roster
    rounds = min(int(ctx.state.fight["round"][0]), fight.max_rounds)
    text = roster.wins(winner) if winner >= 0 else "a draw"
    if winner < 0 and not stalled and int(ctx.state.fight["round"][0]) > fight.max_rounds:
        text += f" (still fighting after round {fight.max_rounds})"
    ctx.emit(
        "end",
        [change("over", [0], 1), change("winner", [0], winner)],
        f"{text} after {rounds} round{'s' if rounds != 1 else ''}",
        winner=roster.side_names[winner] if winner >= 0 else None,
        rounds=rounds,
    )
    ctx.log[-1]["state"] = ctx.state.row(roster)
