"""engine/dice_needs (issue 29; issue 36: answered from the games' declarations): when each die of a hand-rolled
attack is needed, on the roll the attack will play; an attack refused now cannot tell, so every role is asked."""

from __future__ import annotations

from typing import Any

import yaml

from tohit.core.errors import InputError
from tohit.engine import registry
from tohit.engine.dice_needs import when_needed
from tohit.engine.encounter import Encounter
from tohit.server import read_models


class Refusing:
    """An encounter whose every attack is refused (as one with no AP left, or out of its game's order)."""

    def fork(self) -> Refusing:
        return self

    def act(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        raise InputError("cannot act now", field="attacker")


ROLES = [{"role": "to_hit", "sides": [20]}, {"role": "damage", "sides": [8]}]


def test_an_attack_refused_now_asks_every_die() -> None:
    assert when_needed(Refusing(), {"kind": "attack"}, ROLES) == {"to_hit": "always", "damage": "always"}


def test_a_hit_die_is_always_needed_and_damage_only_after_a_hit() -> None:
    """FullPlate's starter: the d20 changes every attack; the damage die only those that hit; the answer is the
    same every time."""
    enc = Encounter.create(yaml.safe_load(registry.get("fullplate").starter(fight=True)), seed=3)
    action = {"kind": "attack", "attacker": "Knight", "attack": "long sword", "targets": ["Orc chief"]}
    roles = read_models.dice(enc, "Knight", "long sword", "Orc chief")
    when = when_needed(enc, action, roles)
    assert when["to_hit"] == "always" and when["damage"] == "conditional"
    assert when == when_needed(enc, action, roles)
    assert enc.seq == 0  # tried on copies: nothing appended
