"""One play loop (issue 36, item 1): one function plays a fight forward for every caller (narration, both samplers,
the exact duel, the stalemate check, the live encounter) and it alone decides that a fight is over and writes the
end, once; replay and the stalemate check agree with it on when a fight ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tests.fights.test_fight_end import ARMOUR, harmless
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.engine.encounter import Encounter
from tohit.engine.fight import play, run
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.fight.replay import apply_changes, chained, replay
from tohit.engine.fight.run import FIRST_STALL_CHECK, narrate, simulate_fights
from tohit.engine.fight.stalemate import can_end, never_ending

DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"


def first_blood(real: Any) -> Any:
    """An end check that also ends a fight, as a draw, as soon as anybody has lost any health."""

    def decided(
        fight: LoadedFight, state: State, max_rounds: int | None, standing: BoolArray | None = None
    ) -> tuple[BoolArray, IntArray]:
        done, winner = real(fight, state, max_rounds, standing)
        full = fight.rules.health_of(initial_state(fight, 1))
        hurt = (fight.rules.health_of(state) < full).any(axis=1)
        return done | hurt, np.where(hurt, -1, winner)

    return decided


def test_every_caller_ends_a_fight_where_the_one_loop_says_it_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's end check changed in one place (here: over, as a draw, at the first wound) changes where every
    caller ends the fight: the narrated fight, both samplers, the exact duel, the stalemate check, the encounter."""
    monkeypatch.setattr(play, "decided", first_blood(play.decided))
    fight = load_fight(DUEL)
    log = narrate(fight, seed=1)
    ends = [e for e in log.events if e["kind"] == "end"]
    assert len(ends) == 1 and ends[0]["winner"] is None and ends[0] is log.events[-1]
    health = fight.rules.health
    wound = next(i for i, e in enumerate(log.events) if any(c["stat"] == health for c in e["changes"]))
    assert "attack" not in [e["kind"] for e in log.events[wound:]]  # the step finishes; no turn is played after
    for method in ("table", "direct"):
        stats = simulate_fights(fight, 300, seed=1, method=method)  # type: ignore[arg-type]
        assert stats.draws == 300
    exact = exact_duel(fight)
    assert exact.draw + exact.beyond == 1 and exact.draw > 0.99 and not any(exact.wins)
    assert can_end(fight, initial_state(fight, 1)) is True
    enc = Encounter.create(yaml.safe_load(DUEL.read_text()), seed=1)
    while not enc.over:
        enc.act({"kind": "auto"})
    assert enc.events[-1]["winner"] is None and enc.next_turn() is None


def write_log(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in chained(events)))
    return path


def test_a_replayed_gm_downed_fight_ends_with_its_winner(tmp_path: Path) -> None:
    """Kaiser duel: the game master sets the Bandit chief to 0 LP by hand; the loop ends the fight in the same
    action, and the exported log replays to that end, with Ceil's win, the loop agreeing on the rebuilt state."""
    data = yaml.safe_load(DUEL.read_text())
    enc = Encounter.create(data, seed=1)
    enc.act({"kind": "auto"})
    enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "value": 0})
    found = replay(write_log(tmp_path / "gm.jsonl", enc.exported()))
    assert found.finished and found.matches and found.events[-1]["winner"] == "Ceil"
    assert [e["kind"] for e in found.events].count("end") == 1
    fight = fight_from_dict(data, live=True)
    done, winner = play.decided(fight, found.final, fight.max_rounds)
    assert bool(done[0]) and fight.roster.side_names[int(winner[0])] == "Ceil"


def fold(events: list[dict[str, Any]], fight: LoadedFight) -> list[State]:
    """The state before each event of a narrated log (the first: the start's), folded as replay folds it."""
    start = events[0]["state"]
    names = fight.roster.names
    per = {k: [start["combatants"][n][k] for n in names] for k in start["combatants"][names[0]]}
    values = dict(start["fight"])
    index = {n: c for c, n in enumerate(names)}
    before = []
    for event in events:
        before.append(
            State(
                {k: np.asarray([v], dtype=np.int64) for k, v in per.items()},
                {k: np.asarray([v], dtype=np.int64) for k, v in values.items()},
            )
        )
        apply_changes(values, per, index, event, f"event {event['n']}", "log")
    return before


@pytest.mark.parametrize("name", ["kaiser-duel", "wsswnn-kulu-brute", "last-odyssey-ogre", "fullplate-skirmish"])
def test_replay_agrees_with_the_loop_on_when_a_fight_ends(name: str, tmp_path: Path) -> None:
    """A narrated fight's log, replayed: no attack is played on a state the loop calls over, and the state the end
    event closes is over by the loop's check, with the winner the end names."""
    fight = load_fight(EXAMPLES / "fights" / f"{name}.yaml")
    log = narrate(fight, seed=1)
    found = replay(write_log(tmp_path / "fight.jsonl", log.events))
    assert found.finished and found.matches
    states = fold(found.events, fight)
    for event, state in zip(found.events, states, strict=True):
        if event["kind"] == "attack":
            assert not play.decided(fight, state, fight.max_rounds)[0][0], event["text"]
    end = found.events[-1]
    done, winner = play.decided(fight, states[-1], fight.max_rounds)
    assert bool(done[0]) and (fight.roster.side_names[int(winner[0])] if winner[0] >= 0 else None) == end["winner"]


def test_the_stalemate_check_agrees_with_the_loop_on_when_a_fight_ends() -> None:
    """A duel nobody can end: the narrated fight and the samplers end it at the loop's first stalemate check (round
    16), where the check, run on the replayed state, says it can never end, and the exact duel says the same."""
    fight = fight_from_dict(harmless(1_000))
    log = narrate(fight, seed=3)
    kinds = [e["kind"] for e in log.events]
    assert kinds[-2:] == ["stalemate", "end"] and kinds.count("end") == 1
    stalled = fold(log.events, fight)[kinds.index("stalemate")]
    assert int(stalled.fight["round"][0]) == FIRST_STALL_CHECK == log.rounds
    assert not play.decided(fight, stalled, fight.max_rounds)[0][0]
    assert never_ending(fight, stalled, np.asarray([0]))[0]
    assert can_end(fight, stalled) is False
    for method in ("table", "direct"):
        stats = simulate_fights(fight, 200, seed=2, method=method)  # type: ignore[arg-type]
        assert stats.draws == 200 and stats.rounds is not None
        assert stats.rounds.min() >= FIRST_STALL_CHECK and stats.rounds.max() < 2 * FIRST_STALL_CHECK
    assert exact_duel(fight).stalemate == "never"


def test_an_encounter_decided_before_anyone_acts_is_over_at_once_as_its_narration_is() -> None:
    """The loop's end check runs after the start too: the Kaiser duel with the Bandit chief at 0 LP from the file
    is over at once, with Ceil's win, in the live encounter as in the narrated fight (it was a live fight with
    nobody's turn: `turn: null`, `over: false`)."""
    data = yaml.safe_load(DUEL.read_text())
    data["sides"][1]["combatants"][0]["target"]["lp"] = 0
    enc = Encounter.create(data, seed=1)
    assert enc.over and enc.next_turn() is None and enc.events[-1]["winner"] == "Ceil"
    told = narrate(fight_from_dict(data), seed=1)
    assert [e["kind"] for e in told.events] == [e["kind"] for e in enc.events] == ["start", "end"]
    assert told.events[-1]["text"] == enc.events[-1]["text"]


def test_the_loop_keeps_the_health_since_the_last_check_only_for_a_party(monkeypatch: pytest.MonkeyPatch) -> None:
    """`since` (each fight's health at the last stalemate check) is read by the check of a fight of more than two
    alone: the loop hands a duel's check None, and keeps no copy of a duel's health through its drops; a party's
    check gets the health of its live fights at the last check (at the first one, their health at the start)."""
    seen: list[IntArray | None] = []
    real = run.never_ending

    def recorded(fight: LoadedFight, state: State, rows: IntArray, **kw: Any) -> BoolArray:
        seen.append(kw.get("since"))
        return real(fight, state, rows, **kw)

    monkeypatch.setattr(run, "never_ending", recorded)
    simulate_fights(load(harmless(100)), 20, seed=1)
    assert seen == [None]
    seen.clear()
    team = [kaiser_combatant(f"A{i}", target=ARMOUR) for i in range(2)]
    party = load({**kaiser_fight(team, [kaiser_combatant("B", target=ARMOUR)]), "max_rounds": 100})
    simulate_fights(party, 20, seed=1)
    start = party.rules.health_of(initial_state(party, 20))
    assert len(seen) == 1 and seen[0] is not None and np.array_equal(seen[0], start)
