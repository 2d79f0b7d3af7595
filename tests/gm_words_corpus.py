"""The game master's words over every bundled example fight, as a corpus the renderers must keep (docs/players.md,
"Events are data, told to each audience"): each fight narrated with two seeds, then played live by the seeded mix
of `test_event_words` (auto turns, attacks, adjusts, conditions, a join and a leave, undo) and a round of the
GM's other tools (a note, dice, a condition with a duration, hide and reveal, a delay, a copy joining, a move, a
door, the end of a turn). Each event's kind and text, in order.

`python -m tests.gm_words_corpus` writes tests/data/gm_words.jsonl anew: do it only when a change of words is
meant, and say which words changed and why in the commit.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.conftest import EXAMPLES
from tests.test_event_words import played
from tohit.core.errors import TohitError
from tohit.engine import gm_hand
from tohit.engine.encounter import Encounter
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

CORPUS = Path(__file__).parent / "data" / "gm_words.jsonl"
FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def tools(enc: Encounter) -> None:
    """A round of the GM's other tools on a live encounter, each refused one changing nothing."""
    names = list(enc.fight.roster.names)
    actions: list[dict[str, Any]] = [
        {"kind": "note", "combatant": names[0], "text": "holds the bridge"},
        {"kind": "dice", "expression": "2d6+1", "label": "morale"},
        {"kind": "hide", "combatant": names[-1]},
        {"kind": "reveal", "combatant": names[-1]},
        {"kind": "reveal", "combatant": names[-1], "to_players": True},
        {"kind": "delay", "combatant": enc.next_turn() or names[0]},
        {"kind": "join", "copy_of": names[0], "name": "Twin"},
        {"kind": "door", "door": 0, "closed": False},
        {"kind": "door", "door": 0, "closed": True},
        {"kind": "end_turn"},
        {"kind": "auto"},
    ]
    kept = gm_hand.settable(enc)
    if kept:
        actions.append({"kind": "condition", "combatant": names[0], "condition": kept[0][1], "on": True, "rounds": 1})
        actions += [{"kind": "end_turn"}, {"kind": "auto"}, {"kind": "auto"}]
    for action in actions:
        with contextlib.suppress(TohitError):
            enc.act(action)
    mover = enc.next_turn()
    x, y = enc.state.per.get("x"), enc.state.per.get("y")
    if mover is not None and x is not None and y is not None:
        c = enc.fight.roster.names.index(mover)
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            try:
                enc.act({"kind": "move", "combatant": mover, "to": [int(x[0, c]) + dx, int(y[0, c]) + dy]})
                break
            except TohitError:
                continue
    with contextlib.suppress(TohitError):
        enc.act({"kind": "undo"})


def corpus_of(path: Path) -> Iterator[dict[str, Any]]:
    """Each event of each run of one fight: the fight, the run, its number, kind and text."""
    fight = load_fight(path)
    for seed in (1, 2):
        for i, event in enumerate(narrate(fight, seed=seed).events):
            yield {"fight": path.name, "run": f"narrate {seed}", "n": i, "kind": event["kind"], "text": event["text"]}
    enc = played(path)
    tools(enc)
    for i, event in enumerate(enc.events):
        yield {"fight": path.name, "run": "live", "n": i, "kind": event["kind"], "text": event.get("text", "")}


def main() -> None:
    rows = (row for path in FIGHTS for row in corpus_of(path))
    CORPUS.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


if __name__ == "__main__":
    main()
