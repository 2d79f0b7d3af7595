"""Reclaim the Wild fight rules (issue 8: Peril, Helpless or perishing at 0 Health, Heroes Helpless, durability
at the end of the encounter for each weapon used successfully, shattered weapons unusable, area attacks skip
Helpless)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.fight_reference import rtw_fight

from tests.fights.helpers import changes, fight_file, kinds, load, merged
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

HIT = {"to_hit": [5, 5]}  # 10 + 3 + 3 = 16 vs Evasion 10: a hit, 6 + 3 - 0 = 9 damage
MISS = {"to_hit": [1, 1]}


def creature(name: str, **over: Any) -> dict[str, Any]:
    comb: dict[str, Any] = {
        "name": name,
        "attacker": {
            "accuracy": 3,
            "combat": 3,
            "weapon": {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp"},
        },
        "target": {"evasion": 10, "health": 20, "hearts": 5},
        "attacks": [{"name": "Strike"}],
    }
    return merged(comb, over)


def fight(*sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    return fight_file("rtw", *sides, **over)


def test_rtw_fight_a_hit_costs_health_and_peril_is_health_at_most_hearts() -> None:
    """rtw: Peril (docs/rtw.md#silent-peril): Health <= Hearts."""
    log = narrate(load(fight([creature("A")], [creature("B", target={"health": 14})])), seed=1, script=[HIT, MISS])
    assert changes(log, "damage")[0] == ("B", "health", 14, 5)
    assert changes(log, "peril")[0] == ("B", "peril", 0, 1)


def test_rtw_fight_at_0_health_a_creature_perishes_and_a_hero_falls_helpless() -> None:
    """rtw: Falling in Battle: perish or Helpless at the attacker's whim; Heroes always Helpless."""
    log = narrate(load(fight([creature("A")], [creature("B", target={"health": 9})])), seed=1, script=[HIT])
    assert ("B", "perished", 0, 1) in changes(log, "falls")
    hero = creature("B", target={"health": 9, "hero": True})
    log = narrate(load(fight([creature("A")], [hero])), seed=1, script=[HIT])
    assert ("B", "helpless", 0, 1) in changes(log, "falls")
    assert log.events[-1]["winner"] == "side0"


def test_rtw_fight_a_helpless_hero_is_left_alone() -> None:
    """Foes turn to the remaining Heroes: no policy attacks a Helpless combatant."""
    heroes = [creature("H1", target={"health": 9, "hero": True}), creature("H2")]
    log = narrate(load(fight(heroes, [creature("M")])), seed=1, script=[MISS, HIT, MISS] + [MISS] * 6)
    targets = [e["target"] for e in kinds(log, "attack") if e["attacker"] == "M"]
    assert targets[0] == "H1" and set(targets[1:4]) == {"H2"}


def test_rtw_fight_area_attack_catches_the_next_foes_and_skips_helpless() -> None:
    """rtw: Falling in Battle: an area does not harm a Helpless creature; it catches `area_size` foes."""
    spell = {
        "name": "Fireball",
        "attack": {"kind": "spell", "range": "blast", "area": True, "damage_type": "fire"},
        "area_size": 2,
    }
    foes = [
        creature("F1", target={"health": 0, "helpless": True}),
        creature("F2"),
        creature("F3"),
        creature("F4"),
    ]
    log = narrate(load(fight([creature("W", attacks=[spell])], foes)), seed=2, script=[MISS, MISS])
    first = [e["target"] for e in kinds(log, "attack") if e["attacker"] == "W"][:2]
    assert first == ["F2", "F3"]


def test_rtw_fight_weapon_used_successfully_loses_1_durability_at_the_end_of_the_encounter() -> None:
    """rtw: Weapon Durability: 1 Durability at the end of the encounter for a weapon used successfully."""
    a = creature(
        "A",
        attacker={"weapon": {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp", "durability": 3}},
    )
    b = creature(
        "B",
        target={"health": 9},
        attacker={"weapon": {"name": "club", "attack_power": 6, "acc": 3, "damage_type": "blunt", "durability": 3}},
    )
    log = narrate(load(fight([a], [b])), seed=1, script=[HIT])
    wear = changes(log, "durability")
    assert ("A", "durability0", 3, 2) in wear
    assert not [c for c in wear if c[0] == "B"]  # B never attacked: its club was not used


def test_rtw_fight_a_burning_weapon_wears_per_hit_and_a_shattered_weapon_is_unusable() -> None:
    """Status Effects, Burning: 1 Durability per foe hit; rtw: at 0 it shatters and cannot be used."""
    burning = {
        "name": "fire rod",
        "attack_power": 6,
        "acc": 3,
        "damage_type": "sharp",
        "durability": 1,
        "burning": True,
    }
    attacks = [
        {"name": "Strike", "attacker": {"weapon": burning}},
        {"name": "Punch", "attacker": {"weapon": None}},
    ]
    a = creature("A", attacks=attacks)
    log = narrate(
        load(fight([a], [creature("B", target={"health": 60, "hearts": 20})])), seed=1, script=[HIT, MISS, MISS]
    )
    assert ("A", "durability0", 1, 0) in changes(log, "durability")
    used = [e["attack"] for e in kinds(log, "attack") if e["attacker"] == "A"]
    assert used[0] == "Strike" and set(used[1:]) == {"Punch"}


def test_rtw_fight_magic_pays_for_spells_and_runs_out() -> None:
    spell = {"name": "Salvo", "attack": {"kind": "spell", "range": "projectile", "cost": {"magic": 4}}}
    punch = {"name": "Punch", "attacker": {"weapon": None}}
    a = creature("A", magic=5, attacks=[spell, punch])
    log = narrate(load(fight([a], [creature("B", target={"health": 90, "hearts": 30})])), seed=1, script=[MISS] * 6)
    used = [e["attack"] for e in kinds(log, "attack") if e["attacker"] == "A"]
    assert used[:2] == ["Salvo", "Punch"]
    assert ("A", "magic", 5, 1) in changes(log, "cost")


def test_rtw_fight_needs_health_or_hearts() -> None:
    data = fight([creature("A")], [creature("B")])
    del data["sides"][1]["combatants"][0]["target"]["health"]
    del data["sides"][1]["combatants"][0]["target"]["hearts"]
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].target.health: ")


def test_rtw_fight_exact_agrees_with_simulation_and_the_plain_reference() -> None:
    data = fight(
        [creature("A", target={"hero": True})], [creature("B", attacker={"accuracy": 5}, target={"evasion": 12})]
    )
    loaded = load(data)
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    n = 100_000
    sim = simulate_fights(loaded, n, seed=3)
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    rng = random.Random(4)
    m = 20_000
    wins = sum(1 for _ in range(m) if rtw_fight(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4 * (p * (1 - p) / m) ** 0.5
