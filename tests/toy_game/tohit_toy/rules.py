"""Toy d20's attack, written once as array code (docs/architecture.md, "The one idea").

[toy: Attacking] Roll a d20 and add the attack bonus; a total of at least the Defence hits.
[toy: Critical] A natural 20 always hits and rolls the damage dice twice (option `critical_on_20`).
[toy: Damage] Damage is the damage dice plus the attack's bonus, never below 0.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from tohit_toy.consequences import hp_after
from tohit_toy.models import Attack, Attacker, Options, Target

from tohit.core.models import Scenario
from tohit.core.outcome import NULL_INT, Field, Outcome
from tohit.core.roles import DiceRole, Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, System

HIT, MISS, CRITICAL = 0, 1, 2
LABELS = ("hit", "miss", "critical")
ToyScenario = Scenario[Attacker, Attack, Target, Options]


@lru_cache(maxsize=64)
def dice_role(name: str, notation: str) -> DiceRole:
    """A dice-notation role, cached by notation (its exact support is computed once)."""
    return DiceRole(name, notation)


class ToyD20(System[Attacker, Attack, Target, Options]):
    """The toy game's attack rules."""

    id = "toy-d20"
    title = "Toy d20"
    summary = "d20 + attack bonus vs Defence, a natural 20 a critical: a sixth game registered by entry point"
    page = "toy (tests/toy_game)"
    fight_module = "tohit_toy.fight"
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    fields = (
        Field("result", "label", "hit, miss or critical (a natural 20).", labels=LABELS),
        Field("damage", "int", "Damage dealt: the dice (twice on a critical) + the attack's bonus, at least 0."),
        Field("hp_left", "int", "The target's hit points after the attack (null when not given).", nullable=True),
    )

    def roles(self, scenario: ToyScenario, target: Target) -> dict[str, Role]:
        attacker = scenario.attacker
        notation = f"{attacker.damage_dice}d{attacker.damage_die}"
        return {
            "to_hit": dice_role("to_hit", "1d20"),
            "damage": dice_role("damage", notation),
            "critical_damage": dice_role("critical_damage", notation),
        }

    def resolve(self, scenario: ToyScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
        nat = dice["to_hit"]["total"]
        out = Outcome(len(nat))
        total = nat + attacker.attack_bonus
        critical = (nat == 20) & options.critical_on_20
        hit = critical | (total >= target.defence)
        steps.note(
            "to_hit",
            "d20 {nat} + attack bonus {bonus} = {total} vs Defence {defence}",
            clause="toy: Attacking",
            value=total,
            nat=dice.text("to_hit"),
            bonus=attacker.attack_bonus,
            total=total,
            defence=target.defence,
        )
        dealt = dice["damage"]["total"] + np.where(critical, dice["critical_damage"]["total"], 0)
        damage = np.where(hit, np.maximum(0, dealt + attack.damage_bonus), 0)
        if steps.when(critical):
            steps.note("critical", "a natural 20: a critical, the damage dice twice", clause="toy: Critical")
        if steps.when(hit):
            steps.note("damage", "damage {damage}", clause="toy: Damage", value=damage, damage=damage, where=hit)
        out.set("result", np.where(critical, CRITICAL, np.where(hit, HIT, MISS)), LABELS)
        out.set("damage", damage)
        out.set("hp_left", np.full(len(nat), NULL_INT) if target.hp is None else hp_after(target.hp, damage))
        return out

    def check(self, scenario: Any) -> None:
        """Nothing beyond the models."""
