"""The engine's events in words, written from their data (issue 37, items 1 and 2; docs/players.md, "Events are
data, told to each audience"): the game master's words of each kind by core/fight/gm_words.py, and the players'
by core/fight/audience.py, of a combatant kept from them and of one shown."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import yaml

from tests.conftest import EXAMPLES
from tests.gm_words_corpus import tools
from tests.server.players_said import numbers_left, shown_numbers
from tests.test_event_words import played
from tohit.core.fight.audience import Audience, told
from tohit.core.fight.gm_words import GM_PHRASES
from tohit.core.fight.words import gm_told
from tohit.engine.encounter import Encounter
from tohit.server.players_view import PlayersView

#: The players read Ceil's and Aldo's numbers, not the Bandit's; the Orc is hidden from them entirely.
KEPT = Audience(
    secret=frozenset({"Bandit", "Orc"}),
    absent=frozenset({"Orc"}),
    names=("Ceil", "Aldo", "Bandit", "Orc"),
    tops={"Ceil": 14, "Aldo": 12, "Bandit": 10, "Orc": 20},
)
#: The engine's kinds (core/fight/gm_words.py).
ENGINE = frozenset(GM_PHRASES)


def event(kind: str, **data: Any) -> dict[str, Any]:
    """An event of `kind` with its data, its text the game master's words from that data."""
    made = {"kind": kind, "changes": [], **data}
    return made | {"text": gm_told(made, GM_PHRASES)}


def players(made: Mapping[str, Any], audience: Audience = KEPT) -> str | None:
    return told(made, audience)


# -- the game master's words, from the data alone ------------------------------------------------------------------
def test_a_door_is_named_by_its_place_among_the_maps_doors() -> None:
    assert event("door", door=0, doors=2, closed=False)["text"] == "the GM opens door 1 of 2"
    assert event("door", door=1, doors=2, closed=True)["text"] == "the GM closes door 2 of 2"


def test_a_stalemate_only_dice_past_the_depth_could_end_names_the_depth() -> None:
    assert "past depth 40 " in event("stalemate", depth=40)["text"]
    assert event("stalemate")["text"].endswith("(the exact chain from here never ends): a draw")


def test_the_end_names_the_winning_side_in_the_plural_for_several_and_a_draw_past_max_rounds() -> None:
    assert event("end", winner="Heroes", winners=["Ceil", "Aldo"], rounds=3)["text"] == "Heroes win after 3 rounds"
    assert event("end", winner="Troll", winners=["Troll"], rounds=1)["text"] == "Troll wins after 1 round"
    late = event("end", winner=None, rounds=10, still_fighting=True)["text"]
    assert late == "a draw (still fighting after round 10) after 10 rounds"


def test_an_attack_line_carries_the_games_note_and_says_a_hit_of_0_only_where_the_game_does() -> None:
    data = {"attacker": "Ceil", "target": "Bandit", "attack": "sword", "outcome": {"result": "hit", "damage": 0}}
    assert event("attack", **data)["text"] == "Ceil attacks Bandit with sword: hit"
    assert event("attack", **data, zero_damage_told=True)["text"] == "Ceil attacks Bandit with sword: hit, 0 damage"
    counter = event("counter", **data, note=" (Counter bonus +1)")["text"]
    assert counter == "Ceil counterattacks Bandit with sword (Counter bonus +1): hit"


def test_an_adjust_says_the_stat_and_values_in_the_games_words_and_where_healing_stops() -> None:
    data = {"combatant": "Ceil", "label": "LP", "was": "10", "now": "14", "by": 9, "stops_at": 14, "maximum": True}
    follows = [{"who": "Ceil", "label": "Helpless", "was": "yes", "now": "no", "clause": "kaiser: Helpless"}]
    said = event("adjust", **data, follows=follows)["text"]
    head, then = said.split("; ")
    assert head == "Ceil's LP: 10 -> 14 (+9 by the GM, stops at 14 (its maximum))"
    assert then == "Ceil's Helpless: yes -> no [kaiser: Helpless]"
    set_to = event("adjust", combatant="Ceil", label="LP", was="3", now="5")["text"]
    assert set_to == "Ceil's LP: 3 -> 5 (set by the GM)"


def test_a_players_free_move_and_end_of_turn_name_the_player_from_the_events_player() -> None:
    move = {"combatant": "Link", "from": [2, 1], "to": [2, 0], "free": True}
    assert event("move", **move)["text"] == "Link moves from (2, 1) to (2, 0) (moved by the GM)"
    assert event("move", **move, player="Link")["text"] == "Link moves from (2, 1) to (2, 0) (moved by Link's player)"
    assert event("end_turn", combatant="Link", player="Link")["text"] == "Link's turn ends (Link's player moves on)"
    assert event("end_turn")["text"] == "the turn ends (the GM moves on)"


def test_a_reveal_of_one_hidden_entirely_brings_it_into_the_players_sight() -> None:
    assert event("reveal", combatant="Orc", to_players=False, brought_in=True)["text"] == (
        "Orc comes into the players' sight (its numbers kept from them)"
    )
    assert event("reveal", combatant="Orc", to_players=True, brought_in=False)["text"] == "Orc is shown to the players"


def test_a_log_exported_before_the_end_says_the_round_and_whose_turn_from_its_data() -> None:
    assert event("unfinished", round=3, turn="Ceil")["text"] == "unfinished: round 3, Ceil's turn"
    assert event("unfinished", turn=None)["text"] == "unfinished"


# -- the players' words, of a kept combatant and of a shown one ----------------------------------------------------
def test_the_gms_condition_on_a_kept_foe_is_told_by_its_rulebook_word_and_a_shown_ones_in_the_gms_words() -> None:
    changes = [{"who": "Bandit", "stat": "statuses", "from": 0, "to": 8}]
    kept = event("condition", combatant="Bandit", condition="Petrified", on=True, changes=changes)
    assert players(kept) == "Bandit: Petrified (by the GM)"
    over = event("condition", combatant="Bandit", condition="Prone", on=False, expires=3, until="end_of_turn", of="Orc")
    assert players(over) == "Bandit: no longer Prone (its duration ends)"
    shown = event("condition", combatant="Ceil", condition="Prone", on=True, changes=[{**changes[0], "who": "Ceil"}])
    assert players(shown) == shown["text"] == "Ceil is Prone (set by the GM)"


def test_the_gms_roll_for_a_kept_foe_tells_neither_dice_nor_total() -> None:
    kept = event("dice", expression="2d6+5", label="Bandit's morale", faces=[4, 6], total=15)
    assert players(kept) == "the GM rolls for Bandit's morale"
    shown = event("dice", expression="2d6+5", label="Ceil's nerve", faces=[4, 6], total=15)
    assert players(shown) == "Ceil's nerve: 2d6+5 = 15 (4, 6)"


def test_a_delay_is_told_without_those_hidden_entirely() -> None:
    changes = [{"who": n, "stat": "turn", "from": i, "to": j} for n, i, j in (("Ceil", 0, 2), ("Orc", 2, 1))]
    made = event("delay", combatant="Ceil", after="Orc", order=["Bandit", "Orc", "Ceil"], changes=changes)
    assert made["text"] == "Ceil delays: acts after Orc this round (the order: Bandit, Orc, Ceil)"
    assert players(made) == "Ceil delays: acts after someone this round (the order: Bandit, Ceil)"
    assert players(made, Audience(names=KEPT.names)) == made["text"]


def test_a_durations_count_is_told_without_one_hidden_entirely() -> None:
    made = event("duration", combatant="Bandit", condition="Prone", left=2, until="start_of_turn", of="Orc")
    assert made["text"] == "Bandit's Prone: 2 rounds left (counted at the start of Orc's turn)"
    assert players(made) == "Bandit's Prone: 2 rounds left (counted at the start of someone's turn)"
    assert players({**made, "of": "Ceil"}) == "Bandit's Prone: 2 rounds left (counted at the start of Ceil's turn)"


def test_a_kept_foe_brought_into_sight_comes_into_sight_and_one_kept_again_keeps_its_numbers() -> None:
    assert players(event("reveal", combatant="Bandit", to_players=False, brought_in=True)) == "Bandit comes into sight"
    again = event("reveal", combatant="Bandit", to_players=False, brought_in=False)
    assert players(again) == "Bandit's numbers are kept from the players"
    assert players(event("reveal", combatant="Orc", to_players=False, brought_in=False)) is None  # still unknown


def test_a_counterattack_on_a_kept_foe_tells_no_damage_and_one_from_the_dark_tells_the_shown_targets() -> None:
    hit = {"result": "hit", "damage": 3}
    on_kept = event("counter", attacker="Ceil", target="Bandit", attack="sword", outcome=hit, note=" (+1)")
    assert players(on_kept) == "Ceil counterattacks Bandit with sword: hit"
    dark = event("counter", attacker="Orc", target="Ceil", attack="axe", outcome=hit)
    assert players(dark) == "something counterattacks Ceil from the dark: hit, 3 damage"


def test_an_adjust_by_0_of_a_kept_foe_says_the_stat_stays() -> None:
    same = [{"who": "Bandit", "stat": "helpless", "from": 1, "to": 1}]
    made = event("adjust", combatant="Bandit", label="Helpless", was="yes", now="yes", by=0, changes=same)
    assert players(made) == "Bandit's Helpless stays (by the GM)"


def test_the_end_of_a_kept_foes_turn_is_told_in_the_gms_words() -> None:
    made = event("end_turn", combatant="Bandit", changes=[{"who": None, "stat": "cursor", "from": 1, "to": 2}])
    assert players(made) == "Bandit's turn ends (the GM moves on)"
    assert players(event("end_turn", combatant="Orc")) is None


def test_no_engine_event_of_a_played_evening_reads_to_the_players_as_its_kind_or_with_a_kept_number() -> None:
    """A Kaiser evening played live (the corpus's mix and the GM's tools), every foe kept from the players: each
    engine event they read is in words of its kind, never the fallback "<who>: <kind>", and holds no number of a
    kept foe."""
    enc = played(EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml")
    tools(enc)
    view = PlayersView(enc)
    kinds = set()
    for e in enc.events:
        out = view.event(e)
        if out is None or e["kind"] not in ENGINE:
            continue
        kinds.add(e["kind"])
        assert not out["text"].endswith(f": {e['kind'].replace('_', ' ')}"), out["text"]
        if view.audience.touches(e) and e["kind"] not in ("start", "undo", "end", "round_limit"):
            allowed = shown_numbers(out, view.hidden)
            assert not numbers_left(out["text"], enc.fight.roster.names, allowed), (e["text"], out["text"])
    assert {"adjust", "condition", "end_turn", "delay", "join", "leave", "reveal"} <= kinds


def test_the_end_told_to_the_players_names_no_winner_hidden_from_them_entirely() -> None:
    """The Cops win with Cop 3 still hidden entirely (a fight file's `hidden: true`): the players' end lists the
    winners they know of; the GM's lists all three."""
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["sides"][1]["combatants"][2]["hidden"] = True
    enc = Encounter.create(data, seed=3)
    for name in ("Mariana", "Ilse"):
        enc.act({"kind": "adjust", "combatant": name, "stat": "hp", "value": 0})
    end = enc.events[-1]
    assert end["kind"] == "end" and end["winners"] == ["Cop 1", "Cop 2", "Cop 3"]
    told_end = PlayersView(enc).event(end)
    assert told_end is not None and told_end["winners"] == ["Cop 1", "Cop 2"]
    assert told_end["text"] == end["text"] and "Cop 3" not in json.dumps(told_end)


def test_a_delay_and_a_count_stored_before_they_carried_their_data_are_told_from_their_changes() -> None:
    """An encounter stored before: its delay has no `order`, its duration no `until` nor `of`: the players read
    them from their changes as they did, never an error."""
    old_delay = {"kind": "delay", "text": "Bandit delays: ...", "combatant": "Bandit", "after": "Ceil", "changes": []}
    assert players(old_delay) == "Bandit: delay"
    old_count = {"kind": "duration", "text": "...", "combatant": "Bandit", "condition": "Prone", "left": 1}
    assert players({**old_count, "changes": []}) == "Bandit: duration"
