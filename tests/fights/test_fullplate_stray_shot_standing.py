"""FullPlate, Firing Into Melee at the seams of a fight: only standing creatures share the pick die (issue 36)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fights.helpers import fight_file, load, merged
from tohit.api import from_dict, odds
from tohit.core.errors import InputError
from tohit.engine.fight.run import Method, narrate, simulate_fights


def _fighter(name: str, **over: Any) -> dict[str, Any]:
    comb: dict[str, Any] = {
        "name": name,
        "attacker": {"thac0": 15, "damage_bonus": 1, "weapon": {"damage": "1d8"}},
        "target": {"ac": 5, "hp": 20},
        "attacks": [{"name": "sword"}],
    }
    return merged(comb, over)


def _company_and_chief(knight_hp: int, engaged: bool) -> dict[str, Any]:
    """An Archer and a Knight (its `hp` given) against an Orc chief the Knight is engaged with (or not)."""
    archer = _fighter(
        "Archer",
        attacker={"thac0": 15, "weapon": {"damage": "1d6", "kind": "bow_like"}},
        target={"ac": 7, "hp": 14},
        attacks=[{"name": "bow"}],
    )
    knight = _fighter("Knight", target={"ac": 3, "hp": knight_hp})
    chief_target: dict[str, Any] = {"ac": 6, "hp": 18}
    if engaged:
        chief_target["engaged_with"] = [{"name": "Knight"}]
    chief = _fighter("Orc chief", attacker={"thac0": 17, "damage_bonus": 2}, target=chief_target)
    data = fight_file("fullplate", [archer, knight], [chief], max_rounds=60)
    data["sides"][0]["policy"] = "first"
    return data


def test_fullplate_firing_into_melee_a_stray_shot_never_goes_to_a_creature_that_is_down() -> None:
    """fullplate.txt, Firing Into Melee ("if a character attacks an enemy who has other characters within 5 feet
    of them, roll a dice to determine which is hit"): a creature that is down (0 HP) is out of the melee, so the
    pick die counts only those standing; once the Knight is down no later shot at the Orc chief goes to him."""
    data = _company_and_chief(knight_hp=6, engaged=True)
    downed = 0
    for seed in range(40):
        log = narrate(load(data), seed=seed)
        down_at = None
        for i, e in enumerate(log.events):
            if e["kind"] == "damage" and any(c["who"] == "Knight" and c["to"] == 0 for c in e["changes"]):
                down_at = i
        if down_at is None:
            continue
        downed += 1
        later = [e for e in log.events[down_at:] if e["kind"] == "attack" and e["target"] == "Orc chief"]
        assert all(e["outcome"]["creature_hit"] != "Knight" for e in later), seed
    assert downed > 0


@pytest.mark.parametrize("method", ["table", "direct"])
def test_fullplate_firing_into_melee_a_creature_down_from_the_start_takes_no_share(method: Method) -> None:
    """fullplate.txt, Firing Into Melee: only the creatures standing in the melee share the pick die. A Knight at
    0 HP from the start is the same as no Knight in the melee, whether the fight draws each attack from its exact
    outcome table or rolls its dice (the narrated, sampled and exact-table paths share the rule)."""
    n = 20_000
    with_knight = simulate_fights(load(_company_and_chief(knight_hp=0, engaged=True)), n, seed=3, method=method)
    alone = simulate_fights(load(_company_and_chief(knight_hp=0, engaged=False)), n, seed=4, method=method)
    p, q = with_knight.wins(0) / n, alone.wins(0) / n
    assert abs(p - q) < 4 * (2 * q * (1 - q) / n) ** 0.5


def test_fullplate_firing_into_melee_a_single_attack_names_who_is_down() -> None:
    """fullplate.txt, Firing Into Melee: a single attack says which `engaged_with` entries are down
    (`engaged_down`); the pick die then counts only the standing (a Medium orc down beside another: no stray
    shot goes to it), and a position that names no entry is refused on its field."""
    target: dict[str, Any] = {
        "name": "Knight",
        "ac": 5,
        "engaged_with": [{"name": "Orc 1", "ac": 7}, {"name": "Orc 2", "ac": 7}],
    }
    base: dict[str, Any] = {
        "system": "fullplate",
        "attacker": {
            "thac0": 15,
            "weapon": {"damage": "1d6", "kind": "bow_like", "ranges": {"short": 50, "medium": 100, "long": 150}},
        },
        "attack": {"distance": 40},
        "targets": [target],
    }
    standing = odds(from_dict(base)).targets[0]
    down = odds(from_dict({**base, "targets": [{**target, "engaged_down": [1]}]})).targets[0]
    assert standing.probability("creature_hit", "Orc 2") > 0
    assert dict(down.distribution("creature_hit")).get("Orc 2", 0) == 0
    assert down.probability("creature_hit", "Orc 1") > 0
    with pytest.raises(InputError, match="engaged_down"):
        from_dict({**base, "targets": [{**target, "engaged_down": [2]}]})
