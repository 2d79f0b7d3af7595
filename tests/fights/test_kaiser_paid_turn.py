"""Issue 42, round 5: a Kaiser turn the turn order found (the combatant has the AP for its cheapest attack and is not
Flat-Footed) does not read its AP again where each combatant's attacks all cost the same: it can pay each of them.
The same picks, the same results as reading the AP (a fight whose attacks cost differently reads it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.run import simulate_fights
from tohit.systems.kaiser.fight import KaiserFight

TWO_ATTACKS = [
    {"name": "sword", "attack": {"range": "hand_to_hand"}, "ap_cost": 3},
    {"name": "dagger", "attack": {"range": "hand_to_hand", "modifiers": 1}, "ap_cost": 2},
]


def _fight(costs_differ: bool) -> Any:
    attacks = TWO_ATTACKS if costs_differ else [{**a, "ap_cost": 3} for a in TWO_ATTACKS]
    red = [kaiser_combatant("Red", attacks=attacks), kaiser_combatant("Rose")]
    blue = [kaiser_combatant("Blue", attacks=attacks), kaiser_combatant("Navy")]
    return load(kaiser_fight(red, blue, policy="best", options={"multiple_defense_penalty": True}))


def test_one_cost_each_is_whether_each_combatants_attacks_cost_the_same() -> None:
    assert KaiserFight()._one_cost_each(_fight(costs_differ=False))
    assert not KaiserFight()._one_cost_each(_fight(costs_differ=True))


@pytest.mark.parametrize("costs_differ", [False, True])
def test_a_paid_turn_picks_what_reading_the_ap_picks(costs_differ: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two combatants a side, two attacks each (policy `best`: the attack is a choice), Criticals and the Multiple
    Defense Penalty on: a batch is the same whether the turn reads the AP again or not."""
    fight = _fight(costs_differ)
    paid = simulate_fights(fight, 1500, seed=11).to_json()
    monkeypatch.setattr(KaiserFight, "_one_cost_each", lambda self, fight: False)
    assert simulate_fights(_fight(costs_differ), 1500, seed=11).to_json() == paid
