"""FullPlate fight rules (issue 8: HP; ammunition enhancement lost when recovered; natural-20 halving)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.fight_reference import fullplate_fight

from tests.fights.helpers import fight_file, kinds, load, merged
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights


def fighter(name: str, **over: Any) -> dict[str, Any]:
    comb: dict[str, Any] = {
        "name": name,
        "attacker": {"thac0": 15, "damage_bonus": 1, "weapon": {"damage": "1d8"}},
        "target": {"ac": 5, "hp": 20},
        "attacks": [{"name": "sword"}],
    }
    return merged(comb, over)


def fight(*sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    return fight_file("fullplate", *sides, **over)


def test_fullplate_fight_a_hit_costs_hit_points_and_0_hp_is_down() -> None:
    """fullplate: Damage; a combatant at 0 HP is out of the fight (HP never below 0)."""
    data = fight([fighter("A")], [fighter("B", target={"hp": 5})])
    # d20 15: 15 - 15 = 0 hits AC 5; 1d8 (7) + 1 = 8 damage.
    log = narrate(load(data), seed=1, script=[{"to_hit": [15], "damage": [7]}])
    damage = kinds(log, "damage")[0]["changes"]
    assert damage[0] == {"who": "B", "stat": "hp", "from": 5, "to": 0}
    assert damage[1] == {"who": "A", "stat": "dealt", "from": 0, "to": 5}
    assert log.events[-1]["winner"] == "side0" and log.events[-1]["rounds"] == 1


def test_fullplate_fight_natural_20_halving_reaches_the_hit_points() -> None:
    """Decisions 3: a natural 20 short by 12 halves once: 1d8 (7) + 1 = 8 -> 4."""
    data = fight([fighter("A", attacker={"thac0": 28})], [fighter("B", target={"ac": -4})])
    # 28 - 20 = 8 vs AC -4: short by 12: one halving.
    log = narrate(load(data), seed=1, script=[{"to_hit": [20], "damage": [7]}])
    attack = kinds(log, "attack")[0]
    assert attack["outcome"]["halvings"] == 1 and attack["outcome"]["damage"] == 4
    assert kinds(log, "damage")[0]["changes"][0] == {"who": "B", "stat": "hp", "from": 20, "to": 16}


def test_fullplate_fight_natural_1_misses() -> None:
    data = fight([fighter("A", attacker={"thac0": 1})], [fighter("B")])
    log = narrate(load(data), seed=1, script=[{"to_hit": [1], "damage": [8]}])
    assert kinds(log, "attack")[0]["outcome"]["result"] == "fumble"
    first_damage = [e for e in log.events[: log.events.index(kinds(log, "attack")[1])] if e["kind"] == "damage"]
    assert not first_damage


def test_fullplate_fight_firing_into_melee_may_hit_an_engaged_combatant() -> None:
    """Decisions 7: the shot hits the creature the pick names; when it is in the fight, it takes the damage."""
    archer = fighter(
        "Archer",
        attacker={"weapon": {"damage": "1d6", "kind": "bow_like"}},
        attacks=[{"name": "bow"}],
    )
    knight = fighter("Knight")
    orc = fighter("Orc", target={"engaged_with": [{"name": "Knight"}]})
    data = fight([archer, knight], [orc])
    data["sides"][0]["combatants"][0]["focus"] = "Orc"
    # Shares Knight 2 : Orc 2 (both Medium): pick face 1 of d4 hits the Knight.
    log = narrate(load(data), seed=1, script=[{"to_hit": [15], "damage": [3], "pick": [1]}])
    attack = kinds(log, "attack")[0]
    assert attack["target"] == "Orc" and attack["outcome"]["creature_hit"] == "Knight"
    assert kinds(log, "damage")[0]["changes"][0] == {"who": "Knight", "stat": "hp", "from": 20, "to": 16}


def _stray_into_knight(entry: dict[str, Any]) -> dict[str, Any]:
    """Archer (THAC0 15) shoots at the Orc (AC 6) engaged with the Knight (AC 3), the pick striking the Knight:
    d20 10 gives To-Hit Roll 5, a hit against AC 6 and a miss against AC 3."""
    archer = fighter("Archer", attacker={"weapon": {"damage": "1d6", "kind": "bow_like"}}, attacks=[{"name": "bow"}])
    knight = fighter("Knight", target={"ac": 3, "hp": 22})
    orc = fighter("Orc", target={"ac": 6, "engaged_with": [entry]})
    data = fight([archer, knight], [orc])
    data["sides"][0]["combatants"][0]["focus"] = "Orc"
    return kinds(narrate(load(data), seed=1, script=[{"to_hit": [10], "damage": [3], "pick": [1]}]), "attack")[0]


def test_fullplate_fight_a_stray_shot_at_a_combatant_of_the_fight_is_judged_against_its_own_stats() -> None:
    """Firing Into Melee: the creature struck is picked first, then the roll is judged against its AC; a combatant
    of the fight named in `engaged_with` without stats has its own (its `target` block), and those decide."""
    attack = _stray_into_knight({"name": "Knight"})
    # To-Hit Roll 5 against the Knight's AC 3 (not the Orc's AC 6): a miss.
    assert attack["outcome"]["target_ac"] == 3 and attack["outcome"]["result"] == "miss"
    assert "judged as the intended target" not in str(attack["trace"])


def test_fullplate_fight_an_engaged_entry_with_its_own_ac_keeps_it() -> None:
    """Stats the `engaged_with` entry gives itself are kept (the fight fills only an entry without `ac`)."""
    attack = _stray_into_knight({"name": "Knight", "ac": 8})
    assert attack["outcome"]["target_ac"] == 8 and attack["outcome"]["creature_hit"] == "Knight"


def test_fullplate_fight_magical_ammunition_is_recovered_one_enhancement_lower() -> None:
    """Attacking, Enhancement: ammunition retrieved after a hit loses 1 Enhancement (or all)."""
    bow = {"damage": "1d6", "kind": "bow_like"}
    archer = fighter("Archer", attacker={"weapon": bow, "ammunition": {"enhancement": 2}}, attacks=[{"name": "bow"}])
    data = fight([archer], [fighter("B", target={"hp": 3})])
    log = narrate(load(data), seed=1, script=[{"to_hit": [15], "damage": [2]}])
    recovered = kinds(log, "recovered")[0]
    assert recovered["hits"] == 1 and recovered["enhancement_after"] == 1
    data["sides"][0]["combatants"][0]["attacker"]["ammunition"]["loses_all_on_hit"] = True
    log = narrate(load(data), seed=1, script=[{"to_hit": [15], "damage": [2]}])
    assert kinds(log, "recovered")[0]["enhancement_after"] == 0


def test_fullplate_fight_each_standing_combatant_attacks_once_a_round_in_file_order() -> None:
    data = fight([fighter("A1"), fighter("A2")], [fighter("B1"), fighter("B2")])
    miss = {"to_hit": [2], "damage": [1]}
    log = narrate(load(data), seed=1, script=[miss] * 8)
    first_round = log.events[: log.events.index(kinds(log, "round")[0])]
    assert [e["attacker"] for e in first_round if e["kind"] == "attack"] == ["A1", "B1", "A2", "B2"]


def test_fullplate_fight_needs_hit_points() -> None:
    data = fight([fighter("A")], [fighter("B")])
    del data["sides"][1]["combatants"][0]["target"]["hp"]
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].target.hp: ")


def test_fullplate_fight_exact_agrees_with_simulation_and_the_plain_reference() -> None:
    data = fight(
        [fighter("Knight", target={"ac": 3, "hp": 16})],
        [fighter("Ogre", attacker={"thac0": 13, "damage_bonus": 3, "weapon": {"damage": "2d6"}}, target={"hp": 20})],
    )
    loaded = load(data)
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw + exact.beyond == 1 and exact.beyond == 0
    p = float(exact.wins[0])
    n = 100_000
    sim = simulate_fights(loaded, n, seed=5)
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    rng = random.Random(8)
    m = 20_000
    wins = sum(1 for _ in range(m) if fullplate_fight(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4 * (p * (1 - p) / m) ** 0.5
