"""Attack actions: melee, ranged (and thrown), Take Hold and jump-attacks (Taking Actions,
docs/wsswnn.md#where-the-page-is-silent).

Array code over a batch of faces; every branch is computed and picked with masks. The steps, in order:
1. the action roll: the Attack die, and the advantage dice kept if higher [advantage; docs/wsswnn.md#silent-advantage];
2. modifiers: the attack's own, the ranged penalty -max(2, spans) [Ranged Attack;
   docs/wsswnn.md#silent-ranged-penalty], -1 per height for a jump-attack [Jump-Attacks];
3. hit if the result beats Guard, block if it beats only Agility, else miss ("beats": strictly greater)
   [Attack Actions]; a jump-attack that does not miss (beats Guard or Agility) first adds +3 (+ Strength,
   option) per height, so a block can become a hit [Jump-Attacks; docs/wsswnn.md#silent-jump-attack]; a ranged result
   of zero or less is a plain miss, and a ranged block needs a shield [Ranged Attack]; an attack aimed at arms turns a
   hit into a block [Targeting Arms Directly]; an object has no defenses: the result only has to beat 0
   [Attacking Objects];
4. damage: lethal on a hit, guard on a hit or block, awareness on a hit [Damage]; against an object,
   Structure damage = result x guard damage - Toughness [Attacking Objects];
5. a free brace: Take Hold's Grapple / Shove (at -2 on a block) [Take Hold], or a disarm / break on a block
   [Breaking and Disarming Arms];
6. a missed jump-attack falls: 2 lethal and 1 guard per height, the landing roll off the lethal part.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome, null_int
from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.wsswnn.attack_clauses import (
    C_ACTIONS,
    C_ARMS,
    C_BREAK,
    C_FALL,
    C_JUMP,
    C_MIGHTY,
    C_OBJECTS,
    C_RANGED,
    C_TAKE_HOLD,
    C_THROW,
)
from tohit.systems.wsswnn.attack_damage import creature_fields, guard_and_awareness, lethal_damage, object_damage
from tohit.systems.wsswnn.braces import BraceOutcome, opposed_brace
from tohit.systems.wsswnn.fields import BLOCK, EFFECT_OF, HIT, MISS, SUCCESS
from tohit.systems.wsswnn.models import Attack, Target
from tohit.systems.wsswnn.plan import Plan, WsswnnScenario
from tohit.systems.wsswnn.rolls import action_roll

__all__ = ["C_BREAK", "C_FALL", "C_TAKE_HOLD", "resolve_attack"]

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

TAKE_HOLD_STRUGGLE = 2


def resolve_attack(scenario: WsswnnScenario, target: Target, plan: Plan, dice: Dice, steps: Steps) -> Outcome:
    """An attack action, its steps in the page's order (listed in the module docstring) [Attack Actions]."""
    result = _action_roll(scenario, plan, dice, steps)
    result = _modifiers(scenario, result, steps)
    foe = _defenses(target)
    result, hit, block = _hit_block_or_miss(scenario, target, foe, result, steps)
    out = Outcome(len(result))
    out.set("result", np.select([hit, block], [HIT, BLOCK], MISS))
    out.set("attack_roll", result)
    lethal, guard_damage, awareness = _damage(out, scenario, target, foe, result, hit, block, steps)
    brace = _free_brace(scenario, target, plan, dice, hit, block, steps)
    if brace is not None:
        guard_damage = guard_damage + brace.guard_damage
    if not foe.is_object:
        creature_fields(out, target, lethal, guard_damage, awareness, steps)
    _brace_fields(out, brace)
    _falling(out, scenario.attack, dice, hit, block, steps)
    out.set("guard_regained", NULL_INT)
    out.set("attacker_guard_after", NULL_INT)
    return out


def _action_roll(scenario: WsswnnScenario, plan: Plan, dice: Dice, steps: Steps) -> Array:
    """The action roll: the Attack die, and the advantage dice kept if higher, each die after its penalties
    [Attack Actions; docs/wsswnn.md#silent-advantage]; a Mighty Blow is paid for first
    [docs/wsswnn.md#silent-mighty-blow]."""
    if scenario.attack.mighty_blow:
        steps.note(
            "mighty_blow",
            "Mighty Blow: the attacker pays 1 stamina for a melee attack with brace advantage, double lethal"
            " damage and an extra -1 guard",
            clause=C_MIGHTY,
            value=1,
        )
    return action_roll(plan, dice, "attack", steps, scenario.attack.rolled)


def _modifiers(scenario: WsswnnScenario, result: Array, steps: Steps) -> Array:
    """The roll's modifiers, in order: the attack's own, the ranged penalty [Ranged Attack], the jump-attack's
    height penalty [Jump-Attacks]."""
    attack = scenario.attack
    if attack.modifier:
        before = result
        result = result + attack.modifier
        steps.note(
            "modifier",
            "{before} {mod:+d} (modifier) = {after}",
            clause=C_ACTIONS,
            value=result,
            before=before,
            mod=attack.modifier,
            after=result,
        )
    if attack.kind == "ranged":
        result = _ranged_penalty(scenario, result, steps)
    if attack.kind == "jump":
        result = _height_penalty(attack, result, steps)
    return result


def _ranged_penalty(scenario: WsswnnScenario, result: Array, steps: Steps) -> Array:
    """ "All ranged attacks have a -2 penalty", -3 at three spans, -4 at four...: -max(2, spans) [Ranged Attack;
    docs/wsswnn.md#silent-ranged-penalty]; a weapon with the throw trait throws as a normal ranged attack, anything
    else as an improvised one [Throwing Weapons and Objects]."""
    attack, weapon = scenario.attack, scenario.attacker.armament
    penalty = max(2, attack.spans)
    after = result - penalty
    steps.note(
        "range_penalty",
        "ranged attack at {spans} span(s): -{penalty}: {before} - {penalty} = {after}",
        clause=C_RANGED,
        value=after,
        spans=attack.spans,
        penalty=penalty,
        before=result,
        after=after,
    )
    if attack.throw:
        steps.note(
            "throw",
            "thrown weapon with the throw trait: a normal ranged attack"
            if weapon.throw
            else "thrown without the throw trait: an improvised ranged attack, blunted",
            clause=C_THROW,
            value=bool(weapon.throw),
        )
    return after


def _height_penalty(attack: Attack, result: Array, steps: Steps) -> Array:
    """ "take a -1 penalty for each height you leap from" [Jump-Attacks]."""
    after = result - attack.heights
    steps.note(
        "height_penalty",
        "jump-attack from {h} height(s): -{h}: {before} - {h} = {after}",
        clause=C_JUMP,
        value=after,
        h=attack.heights,
        before=result,
        after=after,
    )
    return after


class Defenses(NamedTuple):
    """What the attack roll is compared with: the foe's Guard and Agility [Attack Actions]; an object "has no guard
    or other defenses": 0 for both [Attacking Objects]. A fight feeds Guard as an array (one value per fight)."""

    is_object: bool
    guard: int
    agility: int


def _defenses(target: Target) -> Defenses:
    """The foe's defenses (`Target.is_object` looks at every object field: read once, here)."""
    is_object = target.is_object
    guard = 0 if is_object or target.guard is None else target.guard  # no int(): an array in a fight
    agility = 0 if is_object or target.agility is None else target.agility
    return Defenses(is_object, guard, agility)


def _hit_block_or_miss(
    scenario: WsswnnScenario, target: Target, foe: Defenses, result: Array, steps: Steps
) -> tuple[Array, Mask, Mask]:
    """A hit if the result beats Guard, a block if it only beats Agility, else a miss ("beats": strictly greater)
    [Attack Actions]; a ranged result of zero or less is a plain miss [Ranged Attack]. Then a ranged block needs a
    shield [Ranged Attack] and an attack aimed at arms turns a hit into a block [Targeting Arms Directly].
    Returns the result (after a jump-attack's bonus), the hits and the blocks."""
    kind, (is_object, guard, agility) = scenario.attack.kind, foe
    # Not a miss: the result beats Guard or Agility [Attack Actions] (a Struggle only when it beats Agility).
    not_miss = (result > agility) | (result > guard)
    if kind == "jump":
        result = _jump_bonus(scenario, result, guard, agility, not_miss, steps)
    hit = result > guard
    block = not_miss & ~hit
    plain_miss: Mask = (result <= 0) if kind == "ranged" else np.zeros(len(result), dtype=bool)
    hit &= ~plain_miss
    block &= ~plain_miss
    _note_compare(steps, result, guard, agility, hit, block, plain_miss, is_object, kind)
    if kind == "ranged" and not is_object:
        block = _ranged_block(scenario, target, block, steps)
    if scenario.attack.target_arms:
        hit, block = _target_arms(hit, block, steps)
    return result, hit, block


def _jump_bonus(
    scenario: WsswnnScenario, result: Array, guard: int, agility: int, not_miss: Mask, steps: Steps
) -> Array:
    """A jump-attack that does not miss adds +3 (+ Strength, option) per height, so a block can become a hit
    [Jump-Attacks; docs/wsswnn.md#silent-jump-attack]."""
    # "since Wandu's jump attack doesn't miss, she adds 6": the bonus comes when the attack does not miss,
    # Guard below Agility included (docs/wsswnn.md#silent-jump-attack).
    attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
    per_height = 3 + (attacker.strength if options.jump_strength_bonus else 0)
    bonus = per_height * attack.heights
    after = np.where(not_miss, result + bonus, result)
    if steps.when(not_miss):
        strength = (
            f" + Strength {attacker.strength}"
            if options.jump_strength_bonus
            else " (Strength bonus off: options.jump_strength_bonus)"
        )
        steps.note(
            "jump_bonus",
            "{before} beats {stat} {level}: the jump-attack does not miss: +(3{strength}) x {h} height(s)"
            " = +{bonus}: {after}",
            clause=C_JUMP,
            value=after,
            before=result,
            stat=np.where(result > guard, "Guard", "Agility"),
            level=np.where(result > guard, guard, agility),
            strength=strength,
            h=attack.heights,
            bonus=bonus,
            after=after,
            where=not_miss,
        )
    return after


def _ranged_block(scenario: WsswnnScenario, target: Target, block: Mask, steps: Steps) -> Mask:
    """ "Ranged attacks can only be blocked by a shield": against a foe without one the Struggle is a miss, unless
    options.unshielded_ranged_struggle says otherwise [Ranged Attack]."""
    if not target.shield and scenario.options.unshielded_ranged_struggle == "miss":
        if steps.when(block):
            steps.note(
                "no_shield",
                "ranged attacks can only be blocked by a shield, and the foe has none: the Struggle is a miss",
                clause=C_RANGED,
                value="miss",
                where=block,
            )
        return np.zeros_like(block)
    if steps.when(block):
        steps.note(
            "shield",
            "the foe blocks with its shield" if target.shield else "a block without a shield (option)",
            clause=C_RANGED,
            value="block",
            where=block,
        )
    return block


def _target_arms(hit: Mask, block: Mask, steps: Steps) -> tuple[Mask, Mask]:
    """ "If the attack is a hit, treat it as a block instead" [Targeting Arms Directly]."""
    if steps.when(hit):
        steps.note(
            "target_arms",
            "aimed at the foe's defending arms: the hit counts as a block",
            clause=C_ARMS,
            value="block",
            where=hit,
        )
    return np.zeros_like(hit), block | hit


def _guard_per_attack(scenario: WsswnnScenario) -> int:
    """The attack's guard damage: the weapon's [Guard Damage], +1 per height for a jump-attack [Jump-Attacks;
    docs/wsswnn.md#silent-jump-attack], +1 for a Mighty Blow [docs/wsswnn.md#silent-mighty-blow]."""
    attack = scenario.attack
    guard_per_attack = scenario.attacker.armament.guard_damage
    if attack.kind == "jump":
        guard_per_attack += attack.heights
    if attack.mighty_blow:
        guard_per_attack += 1
    return guard_per_attack


def _damage(
    out: Outcome,
    scenario: WsswnnScenario,
    target: Target,
    foe: Defenses,
    result: Array,
    hit: Mask,
    block: Mask,
    steps: Steps,
) -> tuple[Array, Array, Array]:
    """Lethal damage on a hit, guard damage on a hit or block, awareness on a hit [Damage]; against an object,
    Structure damage [Attacking Objects]; Take Hold itself inflicts none: its brace may [Take Hold]. Returns the
    lethal, guard and awareness damage to a creature (zeros when there is none)."""
    attack, weapon = scenario.attack, scenario.attacker.armament
    zeros = np.zeros(len(result), dtype=np.int64)
    guard_per_attack = _guard_per_attack(scenario)
    if attack.kind == "take_hold":
        _note_take_hold(steps, hit, block)
        return zeros, zeros, zeros
    if foe.is_object:
        object_damage(out, scenario, target, result, hit, guard_per_attack, steps)
        return zeros, zeros, zeros
    blunted = weapon.blunted or (attack.throw and not weapon.throw)
    lethal = lethal_damage(scenario, target, result, foe.guard, hit, blunted, steps)
    guard_damage, awareness = guard_and_awareness(scenario, target, hit, block, guard_per_attack, steps)
    return lethal, guard_damage, awareness


def _free_brace(
    scenario: WsswnnScenario, target: Target, plan: Plan, dice: Dice, hit: Mask, block: Mask, steps: Steps
) -> BraceOutcome | None:
    """A free brace: Take Hold's Grapple or Shove on a hit or a block, "with a -2 penalty" on a block [Take Hold];
    a disarm or a break on a block [Breaking and Disarming Arms]. None when the attack makes none."""
    if plan.free_brace is None:
        return None
    take_hold = scenario.attack.kind == "take_hold"
    raw = dice["brace"]["total"]
    if take_hold:
        rolled = hit | block
        roll = raw - np.where(block, TAKE_HOLD_STRUGGLE, 0)
        clause, why = C_TAKE_HOLD, "Take Hold"
        text = "free {brace} brace: {die}{struggle} = {roll}"
    else:
        rolled, roll = block, raw
        clause, why = C_BREAK, "blocked"
        text = "the block triggers a free {brace} brace: {die}{struggle} = {roll}"
    if steps.when(rolled):
        steps.note(
            "free_brace",
            text,
            clause=clause,
            value=roll,
            brace=plan.free_brace.capitalize(),
            die=dice.text("brace"),
            struggle=np.where(block, " - 2 (struggle)", "") if take_hold else "",
            roll=roll,
            where=rolled,
        )
    brace = opposed_brace(plan.free_brace, roll, rolled, target, steps, why=why)
    if take_hold and steps.when(rolled):
        _note_hold(steps, brace, rolled)
    return brace


def _note_hold(steps: Steps, brace: BraceOutcome, rolled: Mask) -> None:
    """ "if you don't successfully Grapple the character afterward, you no longer hold them" [Take Hold]."""
    grappled = (brace.effect == EFFECT_OF["grapple"]) & (brace.code == SUCCESS)
    steps.note(
        "hold",
        "the Grapple succeeded: the foe stays held",
        clause=C_TAKE_HOLD,
        value=True,
        where=rolled & grappled,
    )
    steps.note(
        "hold",
        "the hold was only temporary contact: unless grappled, the foe is no longer held",
        clause=C_TAKE_HOLD,
        value=False,
        where=rolled & ~grappled,
    )


def _note_compare(
    steps: Steps,
    result: Array,
    guard: int,
    agility: int,
    hit: Mask,
    block: Mask,
    plain_miss: Mask,
    is_object: bool,
    kind: str,
) -> None:
    """One step per attack: hit, block, miss, or a plain miss (ranged); an object only has to be beaten above 0."""
    if not steps.enabled:
        return
    clause = C_RANGED if kind == "ranged" else (C_OBJECTS if is_object else C_ACTIONS)
    miss = ~hit & ~block
    if is_object:
        cases = [
            (hit, "hit", "{r} vs an object (no Guard or other defenses): beats 0: a hit"),
            (miss, "miss", "{r} vs an object (no Guard or other defenses): does not beat 0: a miss"),
        ]
    else:
        cases = [
            (hit, "hit", "{r} beats Guard {g}: a hit (Success)"),
            (block, "block", "{r} beats Agility {a} but not Guard {g}: a block (Struggle)"),
            (plain_miss, "miss", "the range penalty leaves {r}: zero or below, you just plain miss"),
            (
                miss & ~plain_miss,
                "miss",
                "{r} beats neither Guard {g} nor Agility {a}: a miss (Failure), the foe dodges",
            ),
        ]
    for mask, label, text in cases:
        steps.note("compare", text, clause=clause, value=label, r=result, g=guard, a=agility, where=mask)


def _note_take_hold(steps: Steps, hit: Mask, block: Mask) -> None:
    """Take Hold's Success, Struggle or Fail: a free brace, one at -2, or none [Take Hold]."""
    if not steps.enabled:
        return
    for mask, text in (
        (hit, "Take Hold success: close in and make a free brace"),
        (block, "Take Hold struggle: close in and make a free brace at -2"),
        (~hit & ~block, "Take Hold fails: the foe dodges, no brace"),
    ):
        steps.note("take_hold", text, clause=C_TAKE_HOLD, value=text.startswith("Take Hold s"), where=mask)


def _brace_fields(out: Outcome, brace: BraceOutcome | None) -> None:
    """The free brace's fields; null when the attack made none."""
    if brace is None:
        out.set("brace_result", NULL_CODE)
        out.set("brace_effect", NULL_CODE)
        out.set("resist_stamina", NULL_INT)
        out.set("brace_roll", NULL_INT)
        return
    out.set("brace_result", brace.code)
    out.set("brace_effect", brace.effect)
    out.set("resist_stamina", brace.resist)
    out.set("brace_roll", brace.roll)


def _falling(out: Outcome, attack: Attack, dice: Dice, hit: Mask, block: Mask, steps: Steps) -> None:
    """A missed jump-attack falls: 2 lethal and 1 guard per height; the landing roll reduces the lethal part
    [Jump-Attacks; docs/wsswnn.md#silent-jump-attack]. Any other attack does not fall: null."""
    if attack.kind != "jump":
        out.set("falling_lethal", NULL_INT)
        out.set("falling_guard", NULL_INT)
        return
    heights, landed = attack.heights, hit | block
    landing = dice["landing"]["total"]
    fall_lethal = 2 * heights
    reduced = np.maximum(0, fall_lethal - np.maximum(0, landing))
    missed = ~landed
    out.set("falling_lethal", null_int(landed, reduced))
    out.set("falling_guard", null_int(landed, np.full(len(landed), heights)))
    if steps.when(missed):
        steps.note(
            "falling",
            "the jump-attack missed: a fall of {h} height(s), {fl} lethal and {h} guard; landing {die} = {land}"
            " off the lethal part: -{l} life, -{h} guard to the attacker",
            clause=C_FALL,
            value=reduced,
            h=heights,
            fl=fall_lethal,
            die=dice.text("landing"),
            land=landing,
            l=reduced,
            where=missed,
        )
