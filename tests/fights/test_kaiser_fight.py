"""Kaiser fight rules, clause by clause (issue 8; Attacking and Defending; the game's other pages, AP and Counter).

Dice are forced with a script (one mapping of role -> faces per attack or counterattack, in order):
A (Offensive Skill 10) against B (Defensive Skill 8, Absorption 2, no armour), long sword Base Damage 7.
"""

from __future__ import annotations

from typing import Any

from tests.fights.helpers import duel, kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.run import FightLog, narrate

HIT_14 = {"offense": [5, 4], "defense": [3, 4]}  # 19 vs 15: DoS 4, 2 Units x 7 = 14
HIT_0 = {"offense": [1, 2], "defense": [1, 3]}  # 13 vs 12: DoS 1, 0 Units
MISS_BY_6 = {"offense": [1, 2], "defense": [6, 5]}  # 13 vs 19: the defender's DoS 6, Counter bonus 3
TIE = {"offense": [3, 4], "defense": [5, 4]}  # 17 vs 17
MISS_BIG = {"offense": [1, 2], "defense": [6, 5]}  # the counter misses A just as badly


def events(log: FightLog, kind: str) -> list[dict[str, Any]]:
    return [e for e in log.events if e["kind"] == kind]


def changes(event: dict[str, Any]) -> list[tuple[str | None, str, int, int]]:
    return [(c["who"], c["stat"], c["from"], c["to"]) for c in event["changes"]]


def test_kaiser_fight_an_attack_costs_its_ap_cost() -> None:
    """Issue 8, kaiser: an attack costs its `ap_cost` (default 3)."""
    log = narrate(load(duel()), seed=1, script=[TIE])
    assert changes(events(log, "ap_spent")[0]) == [("A", "ap", 6, 3)]
    data = duel()
    data["sides"][0]["combatants"][0]["attacks"][0]["ap_cost"] = 2
    log = narrate(load(data), seed=1, script=[TIE])
    assert changes(events(log, "ap_spent")[0]) == [("A", "ap", 6, 4)]


def test_kaiser_fight_a_hit_costs_the_defender_1_ap_even_at_0_units() -> None:
    """Attacking and Defending, Successful Attack: the defender loses 1 AP; Action Points: even a 0-Unit hit."""
    log = narrate(load(duel()), seed=1, script=[HIT_0])
    first = log.events[: log.events.index(events(log, "attack")[1])]
    lost = [e for e in first if e["kind"] == "ap_lost"]
    assert [changes(e) for e in lost] == [[("B", "ap", 6, 5)]]
    assert not [e for e in first if e["kind"] == "damage"]


def test_kaiser_fight_damage_is_life_points_lost_and_counts_as_dealt() -> None:
    """Attacking and Defending, Damage Dealt = (DoS - Absorption - AV) x Base Damage: the defender loses that many
    LP."""
    log = narrate(load(duel()), seed=1, script=[HIT_14])
    assert changes(events(log, "damage")[0]) == [("B", "lp", 40, 26), ("A", "dealt", 0, 14)]


def test_kaiser_fight_lp_never_below_0_and_unconscious_combatant_loses() -> None:
    """Critical: LP at or below 0 means unconscious; the side with nobody standing loses."""
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B", target={"lp": 10})])
    log = narrate(load(data), seed=1, script=[HIT_14])
    assert changes(events(log, "damage")[0]) == [("B", "lp", 10, 0), ("A", "dealt", 0, 10)]
    end = log.events[-1]
    assert end["kind"] == "end" and end["winner"] == "side0" and end["rounds"] == 1
    assert len(events(log, "attack")) == 1


def test_kaiser_fight_hit_at_0_ap_makes_the_defender_flat_footed_until_the_round_ends() -> None:
    """Action Points: losing AP at 0 AP makes the defender Flat-Footed; AP never goes below 0."""
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B", target={"ap": 0})])
    log = narrate(load(data), seed=1, script=[HIT_0, TIE])
    flat = events(log, "flat_footed")[0]
    assert changes(flat) == [("B", "flat_footed", 0, 1)]
    before = log.events[: log.events.index(flat)]
    assert not [c for e in before if e["kind"] == "ap_lost" for c in changes(e) if c[0] == "B"]
    round_2 = events(log, "round")[0]
    assert ("B", "flat_footed", 1, 0) in changes(round_2)
    assert ("B", "ap", 0, 6) in changes(round_2)


def test_kaiser_fight_6_ap_at_the_start_of_each_round_for_everyone_standing() -> None:
    """Action Points: 6 AP at the start of the round; unused AP is lost (AP is set, not added)."""
    data = kaiser_fight([kaiser_combatant("A"), kaiser_combatant("A2")], [kaiser_combatant("B")])
    log = narrate(load(data), seed=1, script=[TIE] * 6)
    round_2 = events(log, "round")[0]
    assert round_2["round"] == 2
    assert sorted(who for who, stat, _, to in changes(round_2) if stat == "ap" and to == 6) == ["A", "A2", "B"]
    assert ("A", "ap", 0, 6) in changes(round_2)


def test_kaiser_fight_round_1_starts_with_each_combatants_ap() -> None:
    """Round 1 uses the target block's `ap` (default 6): a combatant with 3 AP attacks once."""
    data = kaiser_fight([kaiser_combatant("A", target={"ap": 3})], [kaiser_combatant("B")])
    log = narrate(load(data), seed=1, script=[TIE] * 4)
    first_round = log.events[: log.events.index(events(log, "round")[0])]
    attackers = [e["attacker"] for e in first_round if e["kind"] == "attack"]
    assert attackers == ["A", "B", "B"]


def test_kaiser_fight_round_ends_when_nobody_has_the_ap_for_an_attack() -> None:
    """Turn order (issue 8, kaiser): the order repeats while anyone has AP for an attack (3 + 3 = 6 AP)."""
    log = narrate(load(duel()), seed=1, script=[TIE] * 5)
    first_round = log.events[: log.events.index(events(log, "round")[0])]
    assert [e["attacker"] for e in first_round if e["kind"] == "attack"] == ["A", "B", "A", "B"]


def test_kaiser_fight_turn_order_is_file_order_sides_alternating() -> None:
    """Issue 8: the order in the file, sides alternating (A1, B1, A2, B2)."""
    data = kaiser_fight(
        [kaiser_combatant("A1"), kaiser_combatant("A2")], [kaiser_combatant("B1"), kaiser_combatant("B2")]
    )
    log = narrate(load(data), seed=1, script=[TIE] * 4)
    assert [e["attacker"] for e in events(log, "attack")[:4]] == ["A1", "B1", "A2", "B2"]


def test_kaiser_fight_counterattack_uses_the_counter_bonus_and_costs_1_ap() -> None:
    """Attacking and Defending, Failed Attack; Counter: Counter bonus floor(DoS / 2) on the Offensive Roll, 1 AP."""
    counter_dice = {"offense": [2, 2], "defense": [3, 3]}  # 4 + 10 + 3 = 17 vs 6 + 8 = 14
    log = narrate(load(duel()), seed=1, script=[MISS_BY_6, counter_dice])
    declared = events(log, "counter")[0]
    assert changes(declared) == [("B", "ap", 6, 5)]
    struck = events(log, "counter")[1]
    assert struck["attacker"] == "B" and struck["target"] == "A"
    assert struck["outcome"]["offensive_roll"] == 17
    assert struck["outcome"]["result"] == "hit"
    assert "factors +3" in struck["trace"][0]["text"]
    # The counter's hit costs the original attacker 1 AP (it had 3 left after its attack).
    after = log.events[log.events.index(struck) :]
    assert ("A", "ap", 3, 2) in [c for e in after if e["kind"] == "ap_lost" for c in changes(e)][:1]


def test_kaiser_fight_no_counter_against_a_ranged_attack() -> None:
    """Attacking and Defending, Failed Attack: a ranged attack (beyond point-blank) gives no Counter chance."""
    data = duel()
    data["sides"][0]["combatants"][0]["attacks"][0]["attack"] = {"range": "ranged"}
    log = narrate(load(data), seed=1, script=[MISS_BY_6, TIE])
    first, second = events(log, "attack")[:2]
    between = log.events[log.events.index(first) : log.events.index(second)]
    assert second["attacker"] == "B"
    assert not [e for e in between if e["kind"] == "counter"]


def test_kaiser_fight_no_counter_without_ap() -> None:
    """Issue 8: the defender counterattacks when it has AP (1 AP); with none it cannot."""
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B", target={"ap": 0})])
    log = narrate(load(data), seed=1, script=[MISS_BY_6, TIE, TIE])
    first_round = log.events[: log.events.index(events(log, "round")[0])]
    assert not [e for e in first_round if e["kind"] == "counter"]


def test_kaiser_fight_a_counterattack_is_not_itself_countered() -> None:
    """Choice (issue silent): the counterattack's own failure gives no counter back."""
    log = narrate(load(duel()), seed=1, script=[MISS_BY_6, MISS_BIG, TIE])
    first = log.events.index(events(log, "counter")[1])
    nxt = next(e for e in log.events[first + 1 :] if e["kind"] in ("attack", "counter"))
    assert nxt["kind"] == "attack" and nxt["attacker"] == "B"


def test_kaiser_fight_point_blank_attack_allows_a_counter() -> None:
    """Attacking and Defending, Failed Attack: a point-blank ranged attack does provide a Counter chance."""
    data = duel()
    data["sides"][0]["combatants"][0]["attacks"][0]["attack"] = {"range": "point_blank"}
    log = narrate(load(data), seed=1, script=[MISS_BY_6, TIE])
    assert events(log, "counter")[0]["changes"][0]["who"] == "B"


def test_kaiser_fight_flat_footed_allows_no_active_actions_or_reactions() -> None:
    """Action Points: a Flat-Footed combatant takes "no Active actions or Reactions": set by the game master on a
    combatant that still has its 6 AP, it neither attacks on its turn nor counterattacks a failed close attack."""
    from tohit.engine.encounter import Encounter

    enc = Encounter.create(duel(), source="fight.yaml", seed=1)
    enc.act({"kind": "condition", "combatant": "B", "condition": "flat_footed", "on": True})
    assert enc.state.per["ap"][0].tolist() == [6, 6]
    rules = enc.fight.rules
    assert rules.usable(enc.fight, enc.state)[0, 1].tolist() == [False]
    # A fails against B by 6 (a Counter chance), then B, Flat-Footed, has no turn: the round goes on with A alone.
    enc.act({"kind": "attack", "attacker": "A", "targets": ["B"], "dice": {"offense": [1, 2], "defense": [6, 5]}})
    kinds = [e["kind"] for e in enc.events]
    assert "counter" not in kinds
    assert rules.next_actor(enc.fight, enc.state) == 0


def test_kaiser_fight_a_defender_that_is_not_flat_footed_counters_with_its_ap() -> None:
    """The other side of the clause: the same failed attack on B, not Flat-Footed, gives B its Counterattack."""
    from tohit.engine.encounter import Encounter

    enc = Encounter.create(duel(), source="fight.yaml", seed=1)
    enc.act({"kind": "attack", "attacker": "A", "targets": ["B"], "dice": {"offense": [1, 2], "defense": [6, 5]}})
    assert "counter" in [e["kind"] for e in enc.events]
