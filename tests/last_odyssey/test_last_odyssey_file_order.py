"""Last Odyssey's round order [Starting Battles] as a fight the engine runs keeps it (issue 42): where nobody calls
initiative and the Initiatives leave the file's order (sides alternating) as it is, no `turn` stat (the round goes in
the file's order, as in a game without an Initiative: core/fight/order.py); where the order can differ from the
file's (an Initiative ahead, a call), or in a live encounter (the game master may move a turn), each combatant's
place is its `turn` stat."""

from __future__ import annotations

from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import fight_from_dict


def _fight(*extra: dict[str, Any]) -> LoadedFight:
    """A fighter and a mage (file order: Fighter's first), each combatant given its `extra` fields."""

    def one(name: str, kind: str, more: dict[str, Any]) -> dict[str, Any]:
        return {
            "name": name,
            "attacker": {"physical_accuracy": 4, "physical_attack": 5, "magical_accuracy": 4, "magical_attack": 4},
            "target": {"hp": 20, "shell": 5, "evasion": 2, "physical_defense": 2, "magical_defense": 2},
            "attacks": [{"name": kind, "attack": {"kind": kind, "type": "melee"}}],
            **more,
        }

    return fight_from_dict(
        {
            "system": "last-odyssey",
            "sides": [
                {"name": "Fighter", "combatants": [one("Mariana", "physical", extra[0])]},
                {"name": "Mage", "combatants": [one("Mage", "magical", extra[1])]},
            ],
        },
        source="file order",
    )


def test_starting_battles_only_an_order_other_than_the_files_keeps_the_turn_stat() -> None:
    """Starting Battles: Initiatives that leave the file's order as it is (ties, or the first in the file highest)
    keep no `turn` stat; "Initiative, highest first" putting the second in the file first, or a player's call
    against the GM's 2d4, keeps each combatant's place as its `turn` stat."""
    for extra in (({}, {}), ({"initiative": 9}, {"initiative": 3})):
        assert "turn" not in initial_state(_fight(*extra), 4).per
    ahead = initial_state(_fight({"initiative": 2}, {"initiative": 8}), 3).per["turn"]
    assert ahead.tolist() == [[1, 0]] * 3
    assert "turn" in initial_state(_fight({"call": 5, "initiative": 4}, {"initiative": 4}), 2).per
