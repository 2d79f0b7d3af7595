"""The round's order a live encounter keeps where the game's round goes in the file's order (issue 39, item 5;
core/fight/order.py): a delay moves it for the rest of the fight, round after round; Kaiser's round goes round it, so
a turn may be delayed after one whose place is before its own, and only after one with the AP to act; a join or a
leave keeps a moved order (the newcomer last) and an undo of either sets it back; a GM cannot set a place by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_gm_evening import data
from tests.test_roster_change import exported_and_replayed
from tohit.core.errors import InputError
from tohit.engine import turn_delay
from tohit.engine.encounter import Encounter
from tohit.server import read_models


def order(enc: Encounter) -> list[str]:
    return [enc.fight.roster.names[c] for c in read_models.round_order(enc)]


def test_a_kept_order_starts_as_the_files_and_a_delay_holds_in_the_next_round() -> None:
    """FullPlate: each standing combatant acts once a round in the order; after the Knight delays past the Orc
    chief, round 2 starts with the Orc chief too."""
    enc = Encounter.create(data("fullplate-skirmish"), seed=1)
    assert order(enc) == [enc.fight.roster.names[c] for c in enc.fight.file_order]
    enc.act({"kind": "delay", "combatant": "Knight"})
    moved = order(enc)
    assert moved[:2] == ["Orc chief", "Knight"]
    for _ in range(len(moved)):
        enc.act({"kind": "end_turn"})
    assert enc.state_json()["fight"]["round"] == 2 and order(enc) == moved
    assert enc.next_turn() == next(n for n in moved if n in enc.standing())


def test_a_kaiser_delay_goes_round_the_order_and_passes_only_those_with_the_ap_to_act() -> None:
    """Kaiser's round goes round its order until nobody has the AP for an attack: Aldo, last in the order, may delay
    after Ceil (whose turn comes round again); the cursor moves to Ceil, then Aldo acts; the Bandit at 0 AP is
    passed by (it acts no more this round), and an undo sets the order and the cursor back."""
    enc = Encounter.create(data("kaiser-party-vs-bandits"), seed=1)
    assert order(enc) == ["Ceil", "Bandit", "Aldo"]
    enc.act({"kind": "end_turn"})
    enc.act({"kind": "end_turn"})
    assert enc.next_turn() == "Aldo" and read_models.cards(enc)["delay_after"] == ["Ceil", "Bandit"]
    enc.act({"kind": "adjust", "combatant": "Bandit", "stat": "AP", "value": 0})
    assert read_models.cards(enc)["delay_after"] == ["Ceil"]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "delay", "combatant": "Aldo", "after": "Bandit"})
    assert err.value.field == "after" and "after: Ceil" in err.value.message
    state = enc.state_json()
    (event,) = enc.act({"kind": "delay", "combatant": "Aldo"})
    assert event["after"] == "Ceil" and order(enc) == ["Ceil", "Aldo", "Bandit"]
    assert enc.next_turn() == "Ceil" and enc.state_json()["fight"]["cursor"] == 0
    enc.act({"kind": "end_turn"})
    assert enc.next_turn() == "Aldo"
    enc.act({"kind": "undo"})
    enc.act({"kind": "undo"})
    assert enc.state_json() == state and order(enc) == ["Ceil", "Bandit", "Aldo"]


def test_a_join_and_a_leave_keep_a_moved_order_and_their_undo_sets_it_back(tmp_path: Path) -> None:
    """Reclaim the Wild: after Link delays past Bokoblin 1, a copy of the Moblin joins last (not at the file's place
    for its side) and Zelda's leaving keeps the rest as they were; each undo sets the order back exactly; the log
    replays and the store's events rebuild the same order."""
    enc = Encounter.create(data("rtw-bokoblin-camp"), seed=1)
    enc.act({"kind": "delay", "combatant": "Link"})
    moved = order(enc)
    assert moved[:2] == ["Bokoblin 1", "Link"]
    enc.act({"kind": "join", "copy_of": "Moblin"})
    assert order(enc) == [*moved, "Moblin 2"]
    enc.act({"kind": "undo"})
    assert order(enc) == moved
    enc.act({"kind": "leave", "combatant": "Zelda"})
    assert order(enc) == [n for n in moved if n != "Zelda"] and enc.next_turn() == "Bokoblin 1"
    enc.act({"kind": "join", "copy_of": "Moblin"})
    assert order(enc)[-1] == "Moblin 3"  # a name once in the fight is not given again
    exported_and_replayed(enc, tmp_path)
    assert order(Encounter.restore(enc.data, enc.events)) == order(enc)


def test_a_place_in_a_kept_order_is_not_set_by_hand() -> None:
    """The `turn` stat is the rules' (a place set by hand would leave another empty): an adjust is refused naming
    the stat, and only a delay moves it."""
    enc = Encounter.create(data("kaiser-duel"), seed=1)
    assert turn_delay.order(enc) is not None and read_models.ranges(enc)["turn"] is None
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "Ceil", "stat": "turn", "value": 1})
    assert err.value.field == "stat"


def test_an_encounter_stored_before_the_order_was_kept_keeps_none_and_its_export_replays(tmp_path: Path) -> None:
    """An rtw encounter whose start event has no `turn` stat (stored before a live encounter kept the file's order)
    restores without one: its export replays, and a delay is a 422 in the game's words, naming `kind`."""
    enc = Encounter.create(data("rtw-bokoblin-camp"), seed=1)
    enc.act({"kind": "auto"})
    events = [dict(e) for e in enc.events]
    rows = events[0]["state"]["combatants"]
    events[0]["state"] = {**events[0]["state"], "combatants": {n: {k: v for k, v in row.items() if k != "turn"}
                                                               for n, row in rows.items()}}  # fmt: skip
    old = Encounter.restore(enc.data, events)
    assert "turn" not in old.state.per and turn_delay.order(old) is None
    exported_and_replayed(old, tmp_path)
    with pytest.raises(InputError) as err:
        old.act({"kind": "delay", "combatant": old.next_turn()})
    assert err.value.field == "kind" and "round goes in the file's order" in err.value.message


def test_a_kaiser_delay_at_the_rounds_end_places_the_turn_in_the_next_round() -> None:
    """Nobody has the AP for an attack: the round is over and Ceil's turn comes first in the next one; Ceil may
    delay after the next one the new round's 6 AP let act (the Bandit), who then acts first in round 2."""
    enc = Encounter.create(data("kaiser-party-vs-bandits"), seed=1)
    enc.act({"kind": "adjust", "combatants": ["Ceil", "Aldo", "Bandit"], "stat": "AP", "value": 0})
    assert enc.next_turn() == "Ceil" and read_models.cards(enc)["delay_after"] == ["Bandit", "Aldo"]
    enc.act({"kind": "delay", "combatant": "Ceil"})
    assert order(enc) == ["Bandit", "Ceil", "Aldo"] and enc.next_turn() == "Bandit"
    played = enc.act({"kind": "auto"})
    said = [e["text"] for e in played if e["kind"] in ("round", "turn")]
    assert said[0].startswith("Round 2:") and said[1] == "Bandit's turn (round 2)"
