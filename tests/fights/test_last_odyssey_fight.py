"""Last Odyssey fight rules (issue 8: Shell pools and their break rule (docs/last-odyssey.md#silent-shell), downed at
0 HP, front and back rows (a front row emptied brings the back row forward), one roll for a Multi ability)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.fight_reference import last_odyssey_fight

from tests.fights.helpers import changes, fight_file, load, merged
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

STRIKE = {"name": "Strike", "attack": {"kind": "physical", "type": "melee", "element": "colorless"}}
FIRE = {"name": "Fire", "attack": {"kind": "magical", "type": "ranged", "element": "fire"}}


def character(name: str, **over: Any) -> dict[str, Any]:
    comb: dict[str, Any] = {
        "name": name,
        "attacker": {"physical_accuracy": 4, "physical_attack": 5, "magical_accuracy": 4, "magical_attack": 4},
        "target": {"hp": 20, "shell": False, "evasion": 3, "physical_defense": 2, "magical_defense": 1},
        "attacks": [STRIKE],
    }
    return merged(comb, over)


#: The simpler turn structure (one ability per turn, file order, rows forward at once, no Poisoned damage): the
#: clause tests here script their dice one ability at a time; the turn structure's own tests are in
#: test_last_odyssey_turns.py.
ONE_ABILITY = {"action_points": 1, "turn_order": "file", "effect_phase": False}


def fight(*sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    """A Last Odyssey fight of these sides, with the simpler turn structure unless `options` are given."""
    return fight_file("last-odyssey", *sides, **{"options": dict(ONE_ABILITY), **over})


MISS = {"hit": [10]}


def test_last_odyssey_fight_a_shell_is_a_pool_that_absorbs_damage() -> None:
    """Shells; docs/last-odyssey.md#silent-shell: a hit on a Shell of 12 points: physical, Shell active, no x2: 5 - 2
    + 6 = 9."""
    b = character("B", target={"shell": 12})
    log = narrate(load(fight([character("A")], [b], max_rounds=1)), seed=1, script=[{"hit": [6]}, MISS])
    assert changes(log, "damage")[0] == ("B", "shell", 12, 3)
    assert not [c for c in changes(log, "damage") if c[1] == "hp"][:1]


def test_last_odyssey_fight_the_breaking_hit_reaches_hp_only_with_an_overflow_at_least_the_hp() -> None:
    """docs/last-odyssey.md#silent-shell: the overflow takes HP only if it is at least the remaining HP (then downed);
    else none."""
    b = character("B", target={"shell": 5, "hp": 10})
    log = narrate(load(fight([character("A")], [b], max_rounds=1)), seed=1, script=[{"hit": [6]}, MISS])  # 4 < 10
    assert ("B", "shell", 5, 0) in changes(log, "damage")
    assert not [c for c in changes(log, "damage") if c[1] == "hp"][:1]
    b = character("B", target={"shell": 1, "hp": 8})
    log = narrate(load(fight([character("A")], [b])), seed=1, script=[{"hit": [6]}])  # 9: overflow 8 >= 8
    assert ("B", "hp", 8, 0) in changes(log, "damage")
    assert log.events[-1]["winner"] == "side0"


def test_last_odyssey_fight_magic_doubles_only_while_the_shell_holds() -> None:
    """Attacking and Defending: a magical attack on an active Shell deals double; once broken, it does not."""
    a = character("A", attacks=[FIRE])
    b = character("B", target={"shell": 1, "hp": 30, "magical_defense": 1})
    # Fire: 4 - 1 + 6 = 9, x2 on the Shell = 18: the Shell breaks (overflow 17 < 30: no HP). Then 9, no x2.
    log = narrate(load(fight([a], [b], max_rounds=2)), seed=1, script=[{"hit": [6]}, MISS, {"hit": [6]}, MISS])
    attacks = [e for e in log.events if e["kind"] == "attack" and e["attacker"] == "A"]
    assert [e["outcome"]["damage"] for e in attacks[:2]] == [18, 9]
    assert ("B", "hp", 30, 21) in changes(log, "damage")


def test_last_odyssey_fight_downed_at_0_hp_and_a_knock_out_incapacitates() -> None:
    knock = {
        "name": "Knock",
        "attack": {"kind": "physical", "type": "melee", "element": "colorless", "knock_out": True},
    }
    data = fight([character("A", attacks=[knock])], [character("B", target={"hp": 3})])
    log = narrate(load(data), seed=1, script=[{"hit": [6]}])
    assert ("B", "hp", 3, 0) in changes(log, "damage") and ("B", "incapacitated", 0, 1) in changes(log, "damage")


def test_last_odyssey_fight_melee_needs_the_front_row_and_the_back_row_comes_forward() -> None:
    """Starting Battles: Melee reaches the front row only; a front row emptied brings the back row forward."""
    foes = [character("F", target={"hp": 5}), character("K", target={"row": "back"})]
    log = narrate(load(fight([character("A")], foes)), seed=1, script=[{"hit": [6]}, MISS, {"hit": [6]}])
    first = next(e for e in log.events if e["kind"] == "attack")
    assert first["target"] == "F"
    assert ("K", "row", 1, 0) in changes(log, "rows")
    later = [e["target"] for e in log.events if e["kind"] == "attack" and e["attacker"] == "A"]
    assert later[1] == "K"


def test_last_odyssey_fight_a_back_row_user_cannot_use_melee() -> None:
    """A Melee ability needs its user in the front row: A, in the back row behind a standing front row (F), never
    uses its Strike. (A side with nobody in its front row comes forward: test_last_odyssey_turns.py.)"""
    a = character("A", target={"row": "back"}, attacker={"row": "back"})
    log = narrate(load(fight([character("F"), a], [character("B")], max_rounds=2)), seed=1, script=[MISS] * 6)
    assert [e for e in log.events if e["kind"] == "attack" and e["attacker"] == "F"]
    assert not [e for e in log.events if e["kind"] == "attack" and e["attacker"] == "A"]


def test_last_odyssey_fight_a_multi_ability_rolls_one_hit_die_for_every_target() -> None:
    """docs/last-odyssey.md#silent-one-roll: one roll serves every target; a Multi ability is used on every foe it
    reaches."""
    wave = {"name": "Wave", "attack": {"kind": "magical", "type": ["multi", "ranged"], "element": "fire"}}
    foes = [character("F1", target={"evasion": 0}), character("F2", target={"evasion": 6})]
    log = narrate(load(fight([character("A", attacks=[wave])], foes)), seed=1, script=[{"hit": [4]}, MISS, MISS])
    hits = [e for e in log.events if e["kind"] == "attack" and e["attacker"] == "A"][:2]
    assert [e["target"] for e in hits] == ["F1", "F2"]
    assert hits[0]["dice"]["hit"] == hits[1]["dice"]["hit"] == [4]
    # One die (4) for both: 4 - 4 + 0 = 0 (hit); 4 - 4 + 6 = 6 (hit): each compared with its own Evasion.
    assert [e["outcome"]["hit_value"] for e in hits] == [0, 6]


def test_last_odyssey_fight_needs_hp_and_a_shell_pool() -> None:
    data = fight([character("A")], [character("B", target={"shell": True})])
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[1].combatants[0].target.shell: ")


def test_last_odyssey_fight_exact_agrees_with_simulation_and_the_plain_reference() -> None:
    b = character("B", attacks=[FIRE], target={"shell": 8, "hp": 16, "evasion": 3, "magical_defense": 3})
    loaded = load(fight([character("A", target={"shell": 6, "hp": 16})], [b]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    n = 100_000
    sim = simulate_fights(loaded, n, seed=3)
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    rng = random.Random(4)
    m = 20_000
    wins = sum(1 for _ in range(m) if last_odyssey_fight(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4 * (p * (1 - p) / m) ** 0.5
