"""WSSWNN fight rules (issue 8: life, guard and awareness with their damage; +1 guard when a combatant skips
its action; Stand Fast as a choice; initiative as a Maneuver roll against the foes' highest Awareness)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.fight_reference import wsswnn_fight

from tests.fights.helpers import changes, fight_file, kinds, load, merged
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights


def hero(name: str, **over: Any) -> dict[str, Any]:
    comb: dict[str, Any] = {
        "name": name,
        "attacker": {"attack_die": "d8", "strength": 1, "weapon": {"name": "spear"}},
        "target": {"guard": 4, "agility": 1, "armor": 0, "life": 20, "awareness": 2},
        "attacks": [{"name": "spear"}],
    }
    return merged(comb, over)


def fight(*sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    return fight_file("wsswnn", *sides, **over)


def test_wsswnn_fight_lethal_damage_reduces_life_then_guard_damage_guard() -> None:
    """Taking Actions, Damage: attack 7 vs Guard 4, unarmoured: -3 life, then -1 guard (Guard 3)."""
    log = narrate(load(fight([hero("A")], [hero("B")])), seed=1, script=[{"attack": [7]}, {"attack": [1]}])
    first = kinds(log, "damage")[0]
    got = {(c["who"], c["stat"]): (c["from"], c["to"]) for c in first["changes"]}
    assert got[("B", "life")] == (20, 17) and got[("B", "guard")] == (4, 3)
    assert got[("A", "dealt")] == (0, 3)


def test_wsswnn_fight_a_block_costs_guard_only_and_awareness_damage_lands_on_a_hit() -> None:
    """Taking Actions: a block (beats only Agility) deals guard damage; awareness damage on a hit, no armour."""
    a = hero("A", attacker={"weapon": {"name": "sling", "awareness_damage": 1}})
    log = narrate(load(fight([a], [hero("B")])), seed=1, script=[{"attack": [3]}, {"attack": [1]}, {"attack": [6]}])
    block = {(c["who"], c["stat"]): (c["from"], c["to"]) for c in kinds(log, "damage")[0]["changes"]}
    assert block == {("B", "guard"): (4, 3)}
    hit = {(c["who"], c["stat"]): (c["from"], c["to"]) for c in kinds(log, "damage")[1]["changes"]}
    assert hit[("B", "awareness")] == (2, 1) and hit[("B", "life")] == (20, 17)


def test_wsswnn_fight_skipping_an_action_gives_1_guard_never_above_the_maximum() -> None:
    """tracking-your-stats: skipping an action gives +1 guard (or awareness); both refill only to the max."""
    b = hero("B", skip_at=3, target={"guard": 3})
    log = narrate(load(fight([hero("A")], [b])), seed=1, script=[{"attack": [1]}] * 4)
    skips = changes(log, "skip")
    assert skips[0] == ("B", "guard", 3, 3)  # already at its maximum (3): +1 is capped
    b = hero("B", skip_at=2, target={"guard": 3})
    log = narrate(load(fight([hero("A")], [b])), seed=1, script=[{"attack": [4]}, {"attack": [1]}] * 3)
    skips = changes(log, "skip")
    assert skips[0] == ("B", "guard", 2, 3)


def test_wsswnn_fight_skipping_may_give_awareness_instead() -> None:
    b = hero("B", skip_at=9, skip_gains="awareness", target={"awareness": 2})
    a = hero("A", attacker={"weapon": {"name": "sling", "awareness_damage": 1}})
    log = narrate(load(fight([a], [b])), seed=1, script=[{"attack": [6]}, {"attack": [1]}] * 2)
    assert changes(log, "skip")[0] == ("B", "awareness", 1, 2)


def test_wsswnn_fight_stand_fast_as_a_choice_regains_guard_up_to_max_plus_strength() -> None:
    """braces: Stand Fast regains Guard = Brace roll, up to maximum Guard + Strength (defaults)."""
    b = hero(
        "B",
        stand_fast_at=2,
        attacker={"brace_die": "d8", "strength": 1},
        target={"guard": 2},
        attacks=[{"name": "spear"}, {"name": "Stand Fast", "attack": {"kind": "brace", "brace": "stand_fast"}}],
    )
    log = narrate(load(fight([hero("A")], [b])), seed=1, script=[{"attack": [1]}, {"brace": [6]}])
    assert changes(log, "stand_fast")[0] == ("B", "guard", 2, 3)  # 2 + 6, capped at max 2 + Strength 1


def test_wsswnn_fight_initiative_is_a_maneuver_roll_against_the_foes_highest_awareness() -> None:
    """maneuvers: initiative beats the foes' highest Awareness: B (d4 vs Awareness 0) goes before A (no die)."""
    a = hero("A", target={"awareness": 0})
    b = hero("B", attacker={"maneuver_die": "d4"})
    log = narrate(load(fight([a], [b])), seed=1, script=[{"attack": [1]}] * 2)
    assert kinds(log, "attack")[0]["attacker"] == "B"
    assert changes(log, "initiative")[-1] == ("B", "initiative", 0, 1)


def test_wsswnn_fight_needs_life_and_a_stand_fast_for_stand_fast_at() -> None:
    data = fight([hero("A")], [hero("B")])
    del data["sides"][1]["combatants"][0]["target"]["life"]
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].target.life: ")
    with pytest.raises(InputError) as err:
        load(fight([hero("A", stand_fast_at=1)], [hero("B")]))
    assert str(err.value).startswith("fight.yaml: sides[0].combatants[0].stand_fast_at: ")


def test_wsswnn_fight_exact_agrees_with_simulation_and_the_plain_reference() -> None:
    brute = hero(
        "Brute",
        attacker={
            "attack_die": "d10",
            "maneuver_die": "d6",
            "strength": 3,
            "weapon": {"name": "club", "guard_damage": 2, "blunted": True},
        },
        target={"guard": 6, "agility": 0, "armor": 1, "life": 16},
    )
    loaded = load(fight([hero("A", attacker={"maneuver_die": "d8"}, target={"life": 16})], [brute]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    n = 100_000
    sim = simulate_fights(loaded, n, seed=3)
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    rng = random.Random(4)
    m = 20_000
    wins = sum(1 for _ in range(m) if wsswnn_fight(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4 * (p * (1 - p) / m) ** 0.5
