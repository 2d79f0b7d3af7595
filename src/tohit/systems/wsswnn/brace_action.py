"""A brace as the action itself (attack.kind: brace): Grapple, Shove, disarm, break or Stand Fast.

The opposed braces roll the Brace die (advantage allowed) against the foe's Stamina (success) and
Strength (struggle); see `braces`. Stand Fast is not opposed: the attacker regains Guard equal to the
Brace roll, never below 0 and never above maximum Guard + Strength (the game's other pages
defaults; Tracking Your Stats: "Stand Fast can push Guard above its maximum by up to Strength"). A brace
is not an attack, so its result is success / struggle / failure, not hit / block / miss [Attack Actions].
"""

from __future__ import annotations

import numpy as np

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.wsswnn.braces import C_BRACES, C_STAND_FAST, opposed_brace
from tohit.systems.wsswnn.consequences import worn
from tohit.systems.wsswnn.fields import BRACE_LABELS, FAILURE, SUCCESS
from tohit.systems.wsswnn.models import Target
from tohit.systems.wsswnn.plan import Plan, WsswnnScenario
from tohit.systems.wsswnn.rolls import action_roll


def resolve_brace_action(scenario: WsswnnScenario, target: Target, plan: Plan, dice: Dice, steps: Steps) -> Outcome:
    attack = scenario.attack
    brace = attack.brace or "grapple"
    roll = action_roll(plan, dice, "brace", steps)
    n = len(roll)
    out = Outcome(n)
    zeros = np.zeros(n, dtype=np.int64)
    out.set("attack_roll", NULL_INT)
    out.set("falling_lethal", NULL_INT)
    out.set("falling_guard", NULL_INT)
    out.set("damage", zeros)
    out.set("brace_roll", roll)

    if brace == "stand_fast":
        _stand_fast(out, scenario, roll, steps)
        guard_damage = zeros
        out.set("brace_result", out["result"])
        out.set("brace_effect", NULL_CODE)
        out.set("resist_stamina", NULL_INT)
    else:
        result = opposed_brace(brace, roll, np.ones(n, dtype=bool), target, steps, why="brace action")
        out.set("result", result.code, labels=BRACE_LABELS)
        out.set("brace_result", result.code)
        out.set("brace_effect", result.effect)
        out.set("resist_stamina", result.resist)
        out.set("guard_regained", NULL_INT)
        out.set("attacker_guard_after", NULL_INT)
        guard_damage = result.guard_damage

    if target.is_object:
        for name in ("lethal", "guard_damage", "awareness_damage", "guard_after", "life_after"):
            out.set(name, NULL_INT)
        out.set("structure_after", int(target.structure or 0))
        out.set("destroyed", int(target.structure or 0) == 0)
        return out
    guard = 0 if target.guard is None else target.guard  # an array in a fight
    out.set("lethal", zeros)
    out.set("guard_damage", guard_damage)
    out.set("awareness_damage", zeros)
    guard_after = worn(guard, guard_damage)
    out.set("guard_after", guard_after)
    out.set("life_after", NULL_INT if target.life is None else target.life)
    out.set("structure_after", NULL_INT)
    out.set("destroyed", NULL_CODE)
    steps.note(
        "guard",
        "the foe takes -{gd} guard: Guard {g} -> {ga}",
        clause=C_BRACES,
        value=guard_damage,
        gd=guard_damage,
        g=guard,
        ga=guard_after,
        where=guard_damage > 0,
    )
    return out


def _stand_fast(out: Outcome, scenario: WsswnnScenario, roll: np.ndarray, steps: Steps) -> None:
    attacker = scenario.attacker
    guard = 0 if attacker.guard is None else attacker.guard  # an array in a fight
    ceiling = int(attacker.max_guard or 0) + attacker.strength
    after = np.maximum(guard, np.minimum(guard + np.maximum(0, roll), ceiling))
    regained = after - guard
    out.set("result", np.where(roll > 0, SUCCESS, FAILURE), labels=BRACE_LABELS)
    out.set("guard_regained", regained)
    out.set("attacker_guard_after", after)
    steps.note(
        "stand_fast",
        "Stand Fast: regain Guard equal to the Brace roll {roll}, up to maximum {mx} + Strength {s} = {ceiling}:"
        " Guard {g} -> {after} (+{regained})",
        clause=C_STAND_FAST,
        value=after,
        roll=roll,
        mx=attacker.max_guard,
        s=attacker.strength,
        ceiling=ceiling,
        g=guard,
        after=after,
        regained=regained,
    )
