"""State changed only by events: `apply` is pure; a fight is a fold over its events."""

from __future__ import annotations

import numpy as np

from tests.fights.helpers import duel, load
from tohit.core.fight.state import Event, State, apply, change
from tohit.engine.fight.run import initial_state, narrate


def test_fight_apply_is_pure_and_sets_the_changed_values() -> None:
    state = State({"lp": np.asarray([[40, 30], [20, 10]])}, {"round": np.asarray([1, 2])})
    new = apply(state, [Event("damage", (change("lp", [1], 5, [0]),)), Event("round", (change("round", [0], 2),))])
    assert state.per["lp"].tolist() == [[40, 30], [20, 10]] and state.fight["round"].tolist() == [1, 2]
    assert new.per["lp"].tolist() == [[40, 30], [5, 10]] and new.fight["round"].tolist() == [2, 2]


def test_fight_is_a_fold_over_its_events() -> None:
    """Folding the narrated events' changes over the start state gives the final state."""
    fight = load(duel())
    log = narrate(fight, seed=5)
    state = initial_state(fight, 1)
    names = fight.roster.names
    for event in log.events[1:]:
        for c in event["changes"]:
            who = None if c["who"] is None else [names.index(c["who"])]
            state = apply(state, [Event(event["kind"], (change(c["stat"], [0], c["to"], who),))])
    assert state.row(fight.roster) == log.final.row(fight.roster)
    assert log.events[-1]["state"] == log.final.row(fight.roster)


def test_fight_state_row_round_trips() -> None:
    fight = load(duel())
    state = initial_state(fight, 1)
    again = State.from_row(fight.roster, state.row(fight.roster))
    assert again.row(fight.roster) == state.row(fight.roster)
