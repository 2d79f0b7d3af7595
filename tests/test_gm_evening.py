"""What a GM reaches for beyond the basics (issue 39, items 1-5), in the engine: conditions that last by the game's
clock, creatures added as copies or from the bestiary, the hand on several at once, notes, and a delayed turn. Each
new action is taken back exactly by an undo, and a log with every new kind replays with `tohit replay`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.test_roster_change import exported_and_replayed
from tohit.core.errors import InputError
from tohit.engine import durations, gm_many, turn_delay
from tohit.engine.encounter import Encounter


def data(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return found


def kaiser() -> Encounter:
    """Kaiser's party against bandits: Ceil acts first, then Aldo, then the Bandit."""
    enc = Encounter.create(data("kaiser-party-vs-bandits"), seed=1)
    assert enc.next_turn() == "Ceil"
    return enc


def flat_footed(enc: Encounter, who: str) -> int:
    return int(enc.state_json()["combatants"][who]["flat_footed"])


# -- 1. durations by the game's clock ------------------------------------------------------------------------------
def test_a_condition_for_rounds_counts_down_at_the_end_of_its_turns_and_expires_as_an_event() -> None:
    """`rounds: 2` on the Bandit, counted at the end of Ceil's turns: one `duration` event as Ceil's first turn
    ends (1 round left), then the expiry as its second ends, a `condition` event "Bandit is no longer Flat-Footed"
    that clears the stat; the card's count is "2 rounds", then "1 round", then gone."""
    enc = kaiser()
    enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": True, "rounds": 2,
             "of": "Ceil"})  # fmt: skip
    (timer,) = durations.timers(enc)
    assert (timer.who, timer.condition, timer.until, timer.of, timer.words()) == (
        "Bandit", "Flat-Footed", "end_of_turn", "Ceil", "2 rounds",
    )  # fmt: skip
    counted = [e for e in enc.act({"kind": "end_turn"}) if e["kind"] == "duration"]
    assert [e["text"] for e in counted] == ["Bandit's Flat-Footed: 1 round left (counted at the end of Ceil's turn)"]
    assert durations.timers(enc)[0].words() == "1 round" and flat_footed(enc, "Bandit")
    for _ in range(6):
        if enc.next_turn() == "Ceil":
            break
        enc.act({"kind": "end_turn"})
    expiry = enc.act({"kind": "end_turn"})[-1]
    assert expiry["kind"] == "condition" and expiry["expires"] == timer.n
    assert expiry["text"].startswith("Bandit is no longer Flat-Footed")
    assert expiry["changes"][0]["who"] == "Bandit" and expiry["changes"][0]["to"] == 0
    assert durations.timers(enc) == [] and flat_footed(enc, "Bandit") == 0


def test_until_the_start_of_a_named_combatants_turn_expires_when_that_turn_comes() -> None:
    """`until: start_of_turn` of Aldo: Ceil's turn ending (Aldo's starting) expires it in that same action."""
    enc = kaiser()
    enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": True,
             "until": "start_of_turn", "of": "Aldo"})  # fmt: skip
    events = enc.act({"kind": "end_turn"})
    assert [e["kind"] for e in events] == ["end_turn", "condition"]
    assert events[1]["text"] == "Bandit is no longer Flat-Footed (its duration ends at the start of Aldo's turn)"
    assert flat_footed(enc, "Bandit") == 0


def test_a_duration_is_for_a_condition_set_and_a_named_combatant() -> None:
    enc = kaiser()
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": False, "rounds": 2})
    assert err.value.field == "rounds"
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": True, "of": "Nobody"})
    assert err.value.field == "of"


def test_a_condition_cleared_by_hand_stops_its_duration() -> None:
    enc = kaiser()
    enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": True, "rounds": 1})
    enc.act({"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": False})
    assert durations.timers(enc) == []


def test_rtw_off_balance_set_by_hand_takes_the_games_duration() -> None:
    """Off-Balance "lasts until the start of its next turn" [Status Effects]: set with no duration, the card shows
    it counting at the start of its own turn."""
    enc = Encounter.create(data("rtw-bokoblin-camp"), seed=1)
    enc.act({"kind": "condition", "combatant": "Moblin", "condition": "Off-Balance", "on": True})
    (timer,) = durations.timers(enc)
    assert (timer.until, timer.of, timer.left) == ("start_of_turn", "Moblin", 1)


# -- 2. adding creatures as a GM does ----------------------------------------------------------------------------------
def test_join_copy_of_numbers_the_copies_on_the_same_side() -> None:
    """`copy_of: "Bandit", count: 3`: "Bandit 2", "Bandit 3", "Bandit 4" join the Bandit's side, one action."""
    enc = kaiser()
    events = enc.act({"kind": "join", "copy_of": "Bandit", "count": 3})
    assert [e["combatant"] for e in events] == ["Bandit 2", "Bandit 3", "Bandit 4"]
    side = events[0]["side"]
    assert all(e["side"] == side and e["action"] == events[0]["n"] for e in events)
    assert enc.fight.roster.names[-3:] == ("Bandit 2", "Bandit 3", "Bandit 4")
    again = enc.act({"kind": "join", "copy_of": "Bandit 3"})
    assert again[0]["combatant"] == "Bandit 5"


def test_join_from_the_bestiary_by_name() -> None:
    """A fight file's `bestiary:` holds combatants not yet in the fight; a join names one (numbered when taken)."""
    d = data("kaiser-party-vs-bandits")
    bandit = next(c for side in d["sides"] for c in side["combatants"] if c["name"] == "Bandit")
    d["bestiary"] = [{**bandit, "name": "Bandit chief"}]
    enc = Encounter.create(d, seed=1)
    side = enc.fight.roster.side_names[1]
    first = enc.act({"kind": "join", "combatant": "Bandit chief", "side": side})
    second = enc.act({"kind": "join", "combatant": "Bandit chief", "side": side, "count": 2})
    assert [e["combatant"] for e in first + second] == ["Bandit chief", "Bandit chief 2", "Bandit chief 3"]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "join", "combatant": "Dragon", "side": side})
    assert err.value.field == "combatant" and "bestiary: Bandit chief" in err.value.message


# -- 3. several at once, 4. notes ----------------------------------------------------------------------------------
def test_adjust_several_combatants_is_one_event_listing_each_change() -> None:
    enc = kaiser()
    (event,) = enc.act({"kind": "adjust", "combatants": ["Ceil", "Bandit"], "stat": "LP", "by": -3})
    assert [e["combatant"] for e in event["each"]] == ["Ceil", "Bandit"]
    assert [c["who"] for c in event["changes"]] == ["Ceil", "Bandit"]
    assert all(c["to"] == c["from"] - 3 for c in event["changes"])
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatants": ["Ceil", "Nobody"], "stat": "LP", "by": -3})
    assert err.value.field == "combatants.1"


def test_a_condition_on_several_with_a_duration_runs_one_timer_each() -> None:
    enc = kaiser()
    enc.act({"kind": "condition", "combatants": ["Aldo", "Bandit"], "condition": "Flat-Footed", "on": True,
             "rounds": 1, "until": "end_of_turn", "of": "Ceil"})  # fmt: skip
    assert sorted(t.who for t in durations.timers(enc)) == ["Aldo", "Bandit"]
    events = enc.act({"kind": "end_turn"})
    assert [e["combatant"] for e in events if e["kind"] == "condition"] == ["Aldo", "Bandit"]


def test_a_note_is_the_gms_last_word_on_a_combatant() -> None:
    enc = kaiser()
    enc.act({"kind": "note", "combatant": "Bandit", "text": "flees below 10 LP"})
    assert gm_many.notes(enc.events) == {"Bandit": "flees below 10 LP"}
    enc.act({"kind": "note", "combatant": "Bandit", "text": ""})
    assert gm_many.notes(enc.events) == {}
    enc.act({"kind": "undo"})
    assert gm_many.notes(enc.events) == {"Bandit": "flees below 10 LP"}


# -- 5. delay --------------------------------------------------------------------------------------------------------
def test_delay_moves_the_current_combatant_after_the_next_in_a_rolled_order() -> None:
    """Last Odyssey's Initiative order: the one whose turn comes acts after the next one (or one named)."""
    enc = Encounter.create(data("last-odyssey-cops"), seed=1)
    first = enc.next_turn()
    (event,) = enc.act({"kind": "delay", "combatant": first})
    assert event["kind"] == "delay" and enc.next_turn() == event["after"] != first
    nxt = enc.next_turn()
    later = [n for n in enc.standing() if n not in (first, nxt)]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "delay", "combatant": first})
    assert err.value.field == "combatant"
    enc.act({"kind": "delay", "combatant": nxt, "after": later[-1]} if later else {"kind": "end_turn"})
    assert enc.next_turn() != nxt


@pytest.mark.parametrize("name", ["rtw-bokoblin-camp", "fullplate-skirmish", "kaiser-duel"])
def test_delay_where_the_round_goes_in_the_files_order_moves_it_in_the_encounters_kept_order(name: str) -> None:
    """The pages of Reclaim the Wild, FullPlate and Kaiser give no initiative and forbid no delay
    (docs/<game>.md#silent-turn-order): a live encounter keeps the file's order as its own, so the one whose turn
    comes acts after the next one (a 422 in the game's words before: tests/contract/test_live_delay.py keeps the
    refusal where a game keeps no order)."""
    enc = Encounter.create(data(name), seed=1)
    first, *rest = turn_delay.order(enc) or []
    (event,) = enc.act({"kind": "delay", "combatant": enc.next_turn()})
    assert turn_delay.order(enc) == [rest[0], first, *rest[1:]]
    assert event["after"] == enc.next_turn() == enc.fight.roster.names[rest[0]]


# -- undo and replay ---------------------------------------------------------------------------------------------------
def test_undo_of_each_new_action_restores_the_state_exactly_and_the_log_replays(tmp_path: Path) -> None:
    """Each new action then its undo: the state and the timers, notes and roster as before; the exported log with
    every new kind replays with `tohit replay`."""
    enc = Encounter.create(data("last-odyssey-cops"), seed=3)
    first = enc.next_turn()
    actions: list[dict[str, Any]] = [
        {"kind": "condition", "combatant": "Cop 1", "condition": "Blinded", "on": True, "rounds": 2, "until":
         "end_of_turn", "of": first},
        {"kind": "end_turn"},  # the duration counts down as the turn ends
        {"kind": "join", "copy_of": "Cop 1", "count": 2},
        {"kind": "adjust", "combatants": ["Cop 1", "Cop 2"], "stat": "HP", "by": -2},
        {"kind": "condition", "combatants": ["Cop 2", "Cop 3"], "condition": "Poisoned", "on": True, "rounds": 2},
        {"kind": "note", "combatant": "Cop 3", "text": "flees below 5 HP"},
        {"kind": "delay", "combatant": None},
    ]  # fmt: skip
    for action in actions:
        if action["kind"] == "delay":
            action["combatant"] = enc.next_turn()
        state, names = enc.state_json(), enc.fight.roster.names
        timers, notes = durations.timers(enc), gm_many.notes(enc.events)
        enc.act(action)
        enc.act({"kind": "undo"})
        assert enc.state_json() == state and enc.fight.roster.names == names, action
        assert durations.timers(enc) == timers and gm_many.notes(enc.events) == notes, action
        enc.act(action)
    kinds = {e["kind"] for e in enc.events}
    assert {"condition", "duration", "join", "adjust", "note", "delay", "undo"} <= kinds
    exported_and_replayed(enc, tmp_path)
    assert Encounter.restore(enc.data, enc.events).state_json() == enc.state_json()


def test_a_join_or_a_delay_ends_no_turn_for_a_duration() -> None:
    """A newcomer placed before the cursor moves the cursor but ends no turn (nothing counts); a delay starts the
    next one's turn (its start counts) but the delaying one's turn ends only when it acts later."""
    enc = Encounter.create(data("last-odyssey-cops"), seed=1)
    first = enc.next_turn()
    enc.act({"kind": "condition", "combatant": "Cop 2", "condition": "Blinded", "on": True, "rounds": 3, "of": first})
    enc.act({"kind": "join", "copy_of": "Cop 1"})
    assert durations.timers(enc)[0].left == 3
    events = enc.act({"kind": "delay", "combatant": first})
    assert [e["kind"] for e in events] == ["delay"] and durations.timers(enc)[0].left == 3


def test_a_leave_before_the_cursor_in_the_files_order_ends_no_turn() -> None:
    """FullPlate's round goes in the file's order: the Knight (first place) leaving after two turns moves the
    cursor (the order is the file's again, sides alternating), but whose turn comes is the same: nothing counts."""
    enc = Encounter.create(data("fullplate-skirmish"), seed=1)
    enc.act({"kind": "end_turn"})
    enc.act({"kind": "end_turn"})
    now = enc.next_turn()
    enc.act({"kind": "condition", "combatant": "Orc", "condition": "Prone", "on": True, "until": "end_of_turn",
             "of": now})  # fmt: skip
    cursor = enc.state_json()["fight"]["cursor"]
    events = enc.act({"kind": "leave", "combatant": "Knight"})
    assert enc.state_json()["fight"]["cursor"] != cursor and enc.next_turn() == now
    assert [e["kind"] for e in events] == ["leave"] and durations.timers(enc)[0].left == 1


def test_a_bestiary_entry_without_a_name_or_named_twice_is_refused_naming_it() -> None:
    d = data("kaiser-duel")
    for bestiary, why in (([{"attacker": {}}], "needs its name"), ([{"name": "X"}, {"name": "X"}], "used twice")):
        with pytest.raises(InputError) as err:
            Encounter.create({**d, "bestiary": bestiary}, seed=1)
        assert "bestiary[" in str(err.value) and why in str(err.value)
