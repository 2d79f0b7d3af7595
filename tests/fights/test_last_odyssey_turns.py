"""Last Odyssey fights: the turn structure (issue 15, item 8; the game's other pages, Last Odyssey, "Turn structure",
from The Combat Round, Starting Battles and Statuses): 2 AP per turn and 1 AP an ability, turns in
Initiative order (the players' calls against the GM's 2d4), and the Effect Phase at the end of each round
(Poisoned damage, then advancing). Each is the default; options restore the simpler reading."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.fights.helpers import changes, fight_file, kinds, load
from tests.fights.test_last_odyssey_fight import STRIKE, character
from tohit.cli.fight import write_log
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.systems.last_odyssey.initiative import TurnOrder

MISS = {"hit": [10]}
HIT = {"hit": [6]}
PISTOL = {"name": "Pistol", "attack": {"kind": "physical", "type": "ranged", "element": "colorless"}}


def fight(*sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    """A fight with the page's turn structure (the defaults), unless `options` say otherwise."""
    return fight_file("last-odyssey", *sides, **over)


def attackers(log: Any) -> list[str]:
    return [e["attacker"] for e in kinds(log, "attack")]


def test_last_odyssey_two_ap_per_turn_a_basic_attack_costs_1_ap() -> None:
    """The Combat Round: "Characters of tier 1-5 have 2 AP per turn"; "Basic Attack | 1 AP"; "Once you run out
    of Action Points during your turn, your turn ends and the turn of the character next in the initiative order
    begins": A attacks twice, then B twice, each round."""
    log = narrate(load(fight([character("A")], [character("B")], max_rounds=2)), seed=1, script=[MISS] * 8)
    assert attackers(log) == ["A", "A", "B", "B", "A", "A", "B", "B"]
    spent = [c for c in changes(log, "ap") if c[0] == "A"]
    assert spent[:2] == [("A", "ap", 2, 1), ("A", "ap", 1, 0)]
    assert "A spends 1 AP (2 -> 1)  [The Combat Round; docs/last-odyssey.md#silent-combat-round]" in [
        e["text"] for e in kinds(log, "ap")
    ]
    assert ("A", "ap", 0, 2) in changes(log, "ap")  # the next turn starts with 2 AP again


def test_last_odyssey_action_points_3_for_tiers_6_to_10_and_1_for_one_ability_a_turn() -> None:
    """ "characters of tier 6-10 have 3 AP per turn" (`action_points: 3`); `action_points: 1` restores the simpler
    reading, one ability per turn."""
    three = fight([character("A")], [character("B")], max_rounds=1, options={"action_points": 3})
    assert attackers(narrate(load(three), seed=1, script=[MISS] * 6)) == ["A"] * 3 + ["B"] * 3
    one = fight([character("A")], [character("B")], max_rounds=2, options={"action_points": 1})
    assert attackers(narrate(load(one), seed=1, script=[MISS] * 4)) == ["A", "B", "A", "B"]


def test_last_odyssey_a_turn_with_no_usable_ability_ends_and_its_ap_is_lost() -> None:
    """ "End Turn: If you still have AP remaining, you can choose to end your turn early without acting. You will
    lose your remaining non-held AP": a back-row user with only a Melee ability cannot act; its turn ends."""
    a = character("A", attacker={"row": "back"}, target={"row": "back"})
    log = narrate(load(fight([a], [character("B", attacks=[PISTOL])], max_rounds=1)), seed=1, script=[MISS] * 2)
    assert attackers(log) == ["B", "B"]
    assert ("A", "ap", 2, 0) in changes(log, "ap")
    assert any("A has no ability it can use: it ends its turn" in e["text"] for e in kinds(log, "ap"))


def test_last_odyssey_turns_follow_initiative_highest_first() -> None:
    """Starting Battles: "The order in which the characters will act every round starts with the character with
    the highest Initiative score for the battle and goes in order of descending Initiative": B (Initiative 9)
    acts before A (4), though A is first in the file; `turn_order: file` restores the file's order."""
    a, b = character("A", initiative=4), character("B", initiative=9)
    log = narrate(load(fight([a], [b], max_rounds=1)), seed=1, script=[MISS] * 4)
    assert attackers(log) == ["B", "B", "A", "A"]
    by_file = fight([a], [b], max_rounds=1, options={"turn_order": "file"})
    assert attackers(narrate(load(by_file), seed=1, script=[MISS] * 4)) == ["A", "A", "B", "B"]


def test_last_odyssey_initiative_ties_go_by_file_order_sides_alternating() -> None:
    """Ties between player characters are "resolved by player fiat", between enemies "by GM fiat": tohit takes the
    file's order, sides alternating; a combatant without `initiative` has 0."""
    side0 = [character("P1", initiative=5), character("P2")]
    side1 = [character("E1"), character("E2", initiative=5)]
    loaded = load(fight(side0, side1))
    names = loaded.roster.names
    places = TurnOrder.of(loaded).places(None)
    assert [names[int(c)] for c in places.argsort()] == ["P1", "E2", "E1", "P2"]  # the file: P1, E1, P2, E2


@pytest.mark.parametrize("roll", [2, 5, 8])
def test_last_odyssey_initiative_ties_between_two_player_characters_go_by_file_order_whatever_their_calls(
    roll: int,
) -> None:
    """docs/fights.md: "on a tie with an enemy a call below the roll goes first, one at or above it last; other ties
    go by file order": two player characters of equal Initiative, one calling below the GM's 2d4 and one at or
    above it (or neither matching), keep the file's order between them; the call decides only against an enemy."""
    side0 = [character("P1", initiative=4, call=8), character("P2", initiative=4, call=1)]
    loaded = load(fight(side0, [character("E", initiative=2, attacker={"player_character": False})]))
    places = TurnOrder.of(loaded).places(roll)
    assert [loaded.roster.names[int(c)] for c in places.argsort()] == ["P1", "P2", "E"]


@pytest.mark.parametrize(
    ("roll", "order"),
    [
        (2, ["E", "P"]),  # call 3 >= 2: last on a tie with an enemy
        (3, ["P", "E"]),  # call 3 == 3: Initiative 1.5 x 6 = 9 > 6
        (5, ["P", "E"]),  # call 3 < 5: first on a tie with an enemy
    ],
)
def test_last_odyssey_calling_initiative_against_the_gms_2d4(roll: int, order: list[str]) -> None:
    """Starting Battles: "the GM rolls 2d4 ... Players who called a number equal to the number that the GM rolled
    count as having an Initiative of 1.5x its base value for the rest of the battle. Players who called a number
    equal to or above the number the GM rolled will always go last on a tie with an enemy, while players who
    called a number below the number the GM rolled will always go first on a tie with an enemy." """
    p = character("P", initiative=6, call=3)
    e = character("E", initiative=6, attacker={"player_character": False})
    loaded = load(fight([p], [e]))
    turns = TurnOrder.of(loaded)
    assert turns.calls
    assert turns.score(0, 3) == 9 and turns.score(0, roll if roll != 3 else 2) == 6
    places = turns.places(roll)
    assert [loaded.roster.names[int(c)] for c in places.argsort()] == order


def test_last_odyssey_calling_initiative_is_rolled_in_the_fight_and_narrated() -> None:
    """The roll is one 2d4 at the start of the fight, narrated with each call and the order it gives."""
    p = character("P", initiative=6, call=3)
    e = character("E", initiative=6, attacker={"player_character": False})
    log = narrate(load(fight([p], [e], max_rounds=1)), seed=2, script=[MISS] * 4)
    (event,) = kinds(log, "initiative")
    roll = event["roll"]
    assert 2 <= roll <= 8
    assert event["text"].startswith(f"Calling initiative: the GM rolls 2d4: {roll}; P called 3: ")
    first = "E" if roll < 3 else "P"
    assert attackers(log)[0] == first


def test_last_odyssey_a_call_needs_a_player_character() -> None:
    """ "each player calls out a number between 1 and 8": an enemy (`player_character: false`) does not call."""
    e = character("E", call=2, attacker={"player_character": False})
    with pytest.raises(InputError) as err:
        load(fight([character("P")], [e]))
    assert err.value.field == "sides[1].combatants[0].call"
    with pytest.raises(InputError) as err:
        load(fight([character("P", call=9)], [character("E")]))
    assert err.value.field is not None and err.value.field.endswith("call")


def test_last_odyssey_exact_duel_weighs_the_gms_2d4() -> None:
    """The exact chain enumerates the GM's 2d4 (weights 1 2 3 4 3 2 1 of 16): P(win) is the mixture of the fights
    with P first (rolls 3 to 8) and with E first (roll 2), and both samplers agree with it."""
    p = character("P", initiative=6, call=3, target={"hp": 12})
    e = character("E", initiative=6, attacker={"player_character": False}, target={"hp": 12})
    called = load(fight([p], [e]))
    exact = exact_duel(called)
    p_first = exact_duel(load(fight([character("P", initiative=7, target={"hp": 12})], [e])))
    e_first = exact_duel(load(fight([character("P", initiative=5, target={"hp": 12})], [e])))
    assert p_first.wins[0] != e_first.wins[0]
    assert exact.wins[0] == Fraction(1, 16) * e_first.wins[0] + Fraction(15, 16) * p_first.wins[0]
    n = 40_000
    for method in ("table", "direct"):
        sim = simulate_fights(called, n, seed=8, method=method)  # type: ignore[arg-type]
        q = float(exact.wins[0])
        assert abs(sim.wins(0) / n - q) <= 5 * math.sqrt(q * (1 - q) / n), method


def test_last_odyssey_effect_phase_poisoned_takes_a_tenth_of_health_at_least_1() -> None:
    """the game's other pages (Statuses): "at the end of each round comes the Effect Phase: a Poisoned character
    takes 1/10 of its base maximum HP, rounded down, at least 1": Health 24 loses 2, HP 9 (its Health) loses 1."""
    a = character("A", target={"statuses": ["poisoned"], "hp": 20}, health=24)
    b = character("B", target={"statuses": ["poisoned"], "hp": 9})
    log = narrate(load(fight([a], [b], max_rounds=2)), seed=1, script=[MISS] * 8)
    poison = changes(log, "poison")
    assert poison == [("A", "hp", 20, 18), ("B", "hp", 9, 8), ("A", "hp", 18, 16), ("B", "hp", 8, 7)]
    texts = [e["text"] for e in kinds(log, "poison")]
    assert texts[0].startswith("Effect Phase: A is Poisoned and takes 2 (1/10 of Health 24, rounded down, at least 1)")
    # The Effect Phase comes after the round's turns: after B's second attack, before round 2.
    order = [e["kind"] for e in log.events if e["kind"] in ("attack", "poison", "round")]
    assert order[:8] == ["attack", "attack", "attack", "attack", "poison", "poison", "round", "attack"]


def test_last_odyssey_effect_phase_poison_can_down_and_decide_the_fight() -> None:
    """Poisoned damage downs a character at 0 HP (HP never below 0); a fight it decides ends there."""
    b = character("B", target={"statuses": ["poisoned"], "hp": 1})
    log = narrate(load(fight([character("A")], [b])), seed=1, script=[MISS] * 4)
    assert changes(log, "poison") == [("B", "hp", 1, 0)]
    assert "downed" in kinds(log, "poison")[0]["text"]
    assert log.events[-1]["winner"] == "side0" and log.events[-1]["rounds"] == 1


def test_last_odyssey_effect_phase_false_has_no_poisoned_damage() -> None:
    """`effect_phase: false` restores the simpler reading: Poisoned is kept and narrated only."""
    b = character("B", target={"statuses": ["poisoned"], "hp": 1})
    log = narrate(load(fight([character("A")], [b], max_rounds=2, options={"effect_phase": False})), seed=1)
    assert not kinds(log, "poison")


def test_last_odyssey_back_row_advances_only_at_the_effect_phase() -> None:
    """The Combat Round: "During the Effect Phase, if there are no characters in the front row on one or both
    sides of combat, then the opposing side can choose to advance" (not at once, mid-round): A's first Strike
    downs F; its second AP finds no foe in the front row (K is in the back), so its turn ends; K comes forward at
    the Effect Phase, and A strikes K in round 2."""
    foes = [character("F", target={"hp": 5}), character("K", target={"row": "back"}, attacker={"row": "back"})]
    foes[1]["attacks"] = [PISTOL]
    log = narrate(load(fight([character("A")], foes, max_rounds=2)), seed=1, script=[HIT] + [MISS] * 8)
    events = [(e["kind"], e.get("attacker"), e.get("target")) for e in log.events if e["kind"] in ("attack", "rows")]
    assert events[:3] == [("attack", "A", "F"), ("attack", "K", "A"), ("attack", "K", "A")]
    assert events[3] == ("rows", None, None)
    assert events[4] == ("attack", "A", "K")
    assert ("A", "ap", 1, 0) in changes(log, "ap")  # the second AP: no foe in reach, the turn ends
    assert kinds(log, "rows")[0]["text"].startswith("Effect Phase: side1's front row has nobody standing")


def test_last_odyssey_effect_phase_false_brings_the_back_row_forward_at_once() -> None:
    """`effect_phase: false`: the simpler reading, the back row comes forward as soon as the front row falls, so A's
    second Strike of the same turn reaches K."""
    foes = [character("F", target={"hp": 5}), character("K", target={"row": "back"}, attacker={"row": "back"})]
    foes[1]["attacks"] = [PISTOL]
    data = fight([character("A")], foes, max_rounds=1, options={"effect_phase": False})
    log = narrate(load(data), seed=1, script=[HIT] + [MISS] * 4)
    assert [(e["attacker"], e["target"]) for e in kinds(log, "attack")][:2] == [("A", "F"), ("A", "K")]


def test_last_odyssey_effect_phase_false_a_side_with_nobody_in_its_front_row_comes_forward_from_the_start() -> None:
    """`effect_phase: false`: "the back row comes forward as soon as the front row has nobody standing", which is
    true from the start for a side placed all in the back row: a back-row character with only a Melee ability
    comes forward before anyone acts and strikes the foe's front row (no stalemate)."""
    back = character("K", target={"row": "back"}, attacker={"row": "back"})
    data = fight([back], [character("B")], max_rounds=1, options={"effect_phase": False, "turn_order": "file"})
    log = narrate(load(data), seed=1, script=[MISS] * 4)
    assert log.events.index(kinds(log, "rows")[0]) < log.events.index(kinds(log, "attack")[0])
    assert changes(log, "rows") == [("K", "row", 1, 0)]  # back (1) -> front (0)
    assert attackers(log) == ["K", "K", "B", "B"]
    exact = exact_duel(load({**data, "max_rounds": 50}))
    assert exact.draw == 0


def _poison_duel() -> dict[str, Any]:
    b = character("B", target={"hp": 14, "shell": 4, "statuses": ["poisoned"]}, initiative=3, health=30)
    a = character("A", target={"hp": 14}, initiative=1, attacks=[PISTOL, STRIKE])
    return fight([a], [b])


def test_last_odyssey_turn_structure_exact_duel_agrees_with_both_samplers() -> None:
    """Exact = simulated (the table and the direct sampler) with every part of the turn structure in play: 2 AP,
    Initiative (B first), Poisoned damage at the Effect Phase."""
    loaded = load(_poison_duel())
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    plain = exact_duel(load({**_poison_duel(), "options": {"effect_phase": False}}))
    assert exact.wins[0] > plain.wins[0]  # the poison works for A
    n = 40_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=13, method=method)  # type: ignore[arg-type]
        for side in range(2):
            q = float(exact.wins[side])
            assert abs(sim.wins(side) / n - q) <= 5 * math.sqrt(q * (1 - q) / n), (method, side)


def test_last_odyssey_turn_structure_replays(tmp_path: Path) -> None:
    """A narrated fight with calls, AP, poison and the Effect Phase's advance replays to the same state."""
    foes = [
        character("F", target={"hp": 6, "statuses": ["poisoned"]}, attacker={"player_character": False}),
        character("K", target={"row": "back"}, attacker={"row": "back", "player_character": False}),
    ]
    foes[1]["attacks"] = [PISTOL]
    party = [character("A", initiative=5, call=4), character("M", initiative=2)]
    loaded = load(fight(party, foes))
    for seed in range(3):
        played = narrate(loaded, seed=seed)
        path = tmp_path / f"turns-{seed}.jsonl"
        write_log(played, path)
        rebuilt = replay(path)
        assert rebuilt.matches, rebuilt.mismatches
        assert kinds(played, "initiative")


def test_last_odyssey_turn_structure_agrees_with_the_plain_reference() -> None:
    """The plain-Python fight (benchmarks/fight_reference.py) plays 2 attacks a turn by Initiative: B (Initiative
    5, second in the file) first; the exact chain agrees with it."""
    from benchmarks.fight_reference import last_odyssey_fight

    a = character("A", target={"shell": 6, "hp": 16})
    b = character("B", initiative=5, attacks=[PISTOL], target={"shell": 8, "hp": 16, "magical_defense": 3})
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    rng = random.Random(4)
    m = 20_000
    wins = sum(1 for _ in range(m) if last_odyssey_fight(loaded, rng)[0] == 0)
    p = float(exact.wins[0])
    assert abs(wins / m - p) < 5 * (p * (1 - p) / m) ** 0.5
    one = exact_duel(load(fight([a], [b], options={"action_points": 1, "turn_order": "file"})))
    assert one.wins[0] != exact.wins[0]
