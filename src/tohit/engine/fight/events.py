"""A fight's start and stalemate events, made in one place: a narrated fight (`run.narrate`) and a live encounter
(`encounter.Encounter`) log the same start and stalemate. Its end is the play loop's alone (`play.emit_end`)."""

from __future__ import annotations

from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.gm_words import written
from tohit.core.fight.state import State


def start_event(fight: LoadedFight, seed: int, state: State, source: str) -> dict[str, Any]:
    """The first event of a fight's log: the sides, the seed, the source and the starting state (numbered 0), and
    the combatants its file hides entirely from the players (`hidden`), where there are any."""
    roster = fight.roster
    unseen = [name for name, c in zip(roster.names, fight.combatants, strict=True) if getattr(c, "hidden", False)]
    event = {
        "kind": "start",
        "text": "",
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
        **({"hidden": unseen} if unseen else {}),  # hidden entirely from the players (engine/presence.py)
    }
    return written(event, fight.rules.gm_phrases)


def stalemate_event(fight: LoadedFight, depth: int | None, n: int) -> dict[str, Any]:
    """The event that ends a fight nobody can end, numbered n: `depth` where only open-ended dice past that depth
    could end it (the stalemate check's "depth"), else None (it never ends)."""
    event = {"kind": "stalemate", "text": "", "changes": [], "n": n} | ({} if depth is None else {"depth": depth})
    return written(event, fight.rules.gm_phrases)
