"""The hit die's checks (rules.py's clauses 2 to 5): a physical or magical attack (d10 - Accuracy + Evasion,
7 or below hits; base damage Attack - Defense + the hit die, at least 1, times the element and Shell
multipliers), a status-inflicting ability (d10 - Status Accuracy + Resistance against the element's
threshold), and an ability used on the other side's targets (leaning in).
"""

from __future__ import annotations

import numpy as np

from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.steps import Steps
from tohit.systems.last_odyssey.columns import constant
from tohit.systems.last_odyssey.damage import (
    damage_factors,
    damage_multiplier,
    element_factor,
    final_damage,
    product,
)
from tohit.systems.last_odyssey.effective import NAMES, StatValue, attacker_stat, target_stat
from tohit.systems.last_odyssey.models import LastOdysseyScenario, Target
from tohit.systems.last_odyssey.shells import apply_to_hp
from tohit.systems.last_odyssey.tables import (
    ATTACK_THRESHOLD,
    INTENDED_SIDE,
    KNOCK_OUT,
    NOTES,
    OTHER_SIDE,
    SECTION,
    STATUS_SECTION,
    STATUS_THRESHOLDS,
    inflicted_status,
    multiplier_text,
)
from tohit.systems.last_odyssey.tables import HIT as HIT
from tohit.systems.last_odyssey.tables import MISS as MISS


def attack_roll(scenario: LastOdysseyScenario, target: Target, die: IntArray, out: Outcome, steps: Steps) -> None:
    """A physical or magical attack [Physical Attacks; Magical Attacks]: the hit check, then the base damage and
    the final damage on a hit, then the HP it costs (Shells included)."""
    kind = scenario.attack.kind
    assert kind == "physical" or kind == "magical"
    accuracy_value, hit_value, hit = _hit_check(scenario, target, die, steps)
    base = _base_damage(scenario, target, die, hit, steps)
    final = _final_damage(scenario, target, base, hit, steps)
    damage = final * hit
    out.set("result", ~hit)  # HIT = 0, MISS = 1
    out.set("accuracy_value", accuracy_value)
    out.set("hit_value", hit_value)
    out.set("base_damage", np.where(hit, base, NULL_INT))
    out.set("damage", damage)
    out.set("status_applied", constant(out.n, NULL_CODE))
    out.set("tracker", constant(out.n, NULL_INT))
    apply_to_hp(scenario, target, damage, out, steps)


def _hit_check(
    scenario: LastOdysseyScenario, target: Target, die: IntArray, steps: Steps
) -> tuple[IntArray, IntArray, BoolArray]:
    """ "roll the hit die, subtract your Physical [Magical] Accuracy from the result, and then add your opponent's
    Evasion. If the resulting number is equal to a 7 or below, you hit" [Physical Attacks; Magical Attacks]; "rolling
    a 1 will still lead to a hit" [General Notes]; the target may lean in [leaning in]; a Paralyzed user's physical
    attacks and a Silenced user's magical attacks miss [Statuses]. Returns the accuracy value, the hit value and
    the hits."""
    attacker, kind, options = scenario.attacker, scenario.attack.kind, scenario.options
    accuracy = attacker_stat(attacker, "physical_accuracy" if kind == "physical" else "magical_accuracy", options)
    evasion = target_stat(target, "evasion")
    accuracy_value = die - accuracy.value
    hit_value = accuracy_value + evasion.value
    # hit_value <= 7, or a natural 1: the faces up to 7 + Accuracy - Evasion, and at least the 1.
    rolled_hit = die <= max(1, ATTACK_THRESHOLD + accuracy.value - evasion.value)
    if steps.enabled:
        _note_hit_check(steps, SECTION[kind], die, (accuracy, evasion), accuracy_value, hit_value)
    hit = _lean_in(target, rolled_hit, steps)
    blocked = "paralyzed" if kind == "physical" else "silenced"
    if blocked in attacker.statuses:
        hit = np.zeros_like(hit)
        steps.note(
            "auto_miss",
            f"the user is {blocked.capitalize()}: its {kind} attacks automatically miss",
            clause=f"Statuses ({blocked.capitalize()}; docs/last-odyssey.md#silent-statuses)",
            value="miss",
        )
    return accuracy_value, hit_value, hit


def _note_hit_check(
    steps: Steps,
    section: str,
    die: IntArray,
    stats: tuple[StatValue, StatValue],
    accuracy_value: IntArray,
    hit_value: IntArray,
) -> None:
    """The hit check's steps: the accuracy value, then the hit value against 7, a natural 1 hitting anyway
    [General Notes; docs/last-odyssey.md#silent-hit-check]."""
    accuracy, evasion = stats
    in_range = hit_value <= ATTACK_THRESHOLD
    natural_one = die == 1
    _note_stat(steps, "accuracy", accuracy, section)
    steps.note(
        "accuracy_value",
        "accuracy value: hit die {die} - {acc_name} {acc} = {av}",
        clause=section,
        value=accuracy_value,
        die=die,
        acc_name=NAMES[accuracy.stat],
        acc=accuracy.value,
        av=accuracy_value,
    )
    _note_stat(steps, "evasion", evasion, section)
    compare = "{av} + Evasion {eva} = {hv}: "
    values = {"av": accuracy_value, "eva": evasion.value, "hv": hit_value}
    steps.note("compare", compare + "7 or below, a hit", clause=section, value="hit", where=in_range, **values)
    steps.note(
        "compare",
        compare + "above 7, but a natural 1 still hits",
        clause=f"{NOTES} (docs/last-odyssey.md#silent-hit-check)",
        value="hit",
        where=~in_range & natural_one,
        **values,
    )
    steps.note(
        "compare",
        compare + "above 7, a miss",
        clause=section,
        value="miss",
        where=~in_range & ~natural_one,
        **values,
    )


def _base_damage(
    scenario: LastOdysseyScenario, target: Target, die: IntArray, hit: BoolArray, steps: Steps
) -> IntArray:
    """ "The base damage of the attack is equal to your Physical [Magical] Attack minus the enemy's Physical
    [Magical] Defense plus the result of the hit die" [Physical Attacks; Magical Attacks], "calculated as though
    they had rolled a 1" on a knock-out [knock out]; "The minimum amount of base damage ... is 1" [General Notes]."""
    attacker, attack = scenario.attacker, scenario.attack
    physical = attack.kind == "physical"
    attack_stat = attacker_stat(attacker, "physical_attack" if physical else "magical_attack", scenario.options)
    defense = target_stat(target, "physical_defense" if physical else "magical_defense")
    damage_die = 1 if attack.knock_out else die
    raw = (attack_stat.value - defense.value) + damage_die
    base = np.maximum(raw, 1)
    if attack.knock_out:
        base = np.full(len(die), base, dtype=np.int64)
    if not steps.when(hit):
        return base
    section = SECTION[attack.kind]
    _note_stat(steps, "attack_stat", attack_stat, section, where=hit)
    _note_stat(steps, "defense", defense, section, where=hit)
    if attack.knock_out:
        steps.note(
            "knock_out",
            "knock-out declared before the roll: the hit used the real roll, the damage counts the die as 1",
            clause=f"{KNOCK_OUT} (docs/last-odyssey.md#silent-knock-out)",
            value=1,
            where=hit,
        )
    text = "base damage: {atk_name} {atk} - {dfn_name} {dfn} + " + (
        "{die} (knock-out)" if attack.knock_out else "hit die {die}"
    )
    values = {
        "atk_name": NAMES[attack_stat.stat],
        "atk": attack_stat.value,
        "dfn_name": NAMES[defense.stat],
        "dfn": defense.value,
        "die": damage_die,
        "base": base,
        "raw": raw,
    }
    clause = f"{section}; {NOTES} (minimum base damage 1)"
    floored = np.asarray(raw) < 1
    steps.note("base_damage", text + " = {base}", clause=clause, value=base, where=hit & ~floored, **values)
    steps.note(
        "base_damage", text + " = {raw}, at least 1, = {base}", clause=clause, value=base, where=hit & floored, **values
    )
    return base


def _final_damage(
    scenario: LastOdysseyScenario, target: Target, base: IntArray, hit: BoolArray, steps: Steps
) -> IntArray:
    """ "the final damage they take is equal to the base damage of the attack multiplied by any relevant modifiers
    and then rounded to the nearest integer", Shells' doubling among them [General Notes;
    docs/last-odyssey.md#silent-damage]."""
    attack, rounding = scenario.attack, scenario.options.rounding
    multiplier = damage_multiplier(attack, target)
    final = final_damage(base, multiplier, rounding)
    if not steps.when(hit):
        return final
    factors = damage_factors(attack, target)
    assert product(factors) == multiplier
    for f in factors:
        steps.note("modifier", f.text(), clause=f.clause, value=multiplier_text(f.value), where=hit)
    how = "to nearest, halves up" if rounding == "nearest" else "down (option rounding: down)"
    exact = np.empty(len(base), dtype=object)
    texts = {b: multiplier_text(b * multiplier) for b in set(base.tolist())}  # each distinct base once
    exact[:] = [texts[b] for b in base.tolist()]
    steps.note(
        "final_damage",
        "final damage: {base} x {m} = {exact}, rounded " + how + ": {final}",
        clause=f"{NOTES} (docs/last-odyssey.md#silent-damage)",
        value=final,
        where=hit,
        base=base,
        m=multiplier_text(multiplier),
        exact=exact if len(base) > 1 else exact[0],
        final=final,
    )
    return final


def status_roll(scenario: LastOdysseyScenario, target: Target, die: IntArray, out: Outcome, steps: Steps) -> None:
    attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
    status = inflicted_status(attack.status, attack.element)
    accuracy = attacker_stat(attacker, "status_accuracy", options)
    resistance = target_stat(target, "resistance")
    accuracy_value = die - accuracy.value
    hit_value = accuracy_value + resistance.value
    element = element_factor(attack, target)
    threshold = STATUS_THRESHOLDS[element.value]
    if steps.enabled:
        _note_stat(steps, "accuracy", accuracy, STATUS_SECTION)
        steps.note(
            "accuracy_value",
            "accuracy value: hit die {die} - Status Accuracy {acc} = {av}",
            clause=STATUS_SECTION,
            value=accuracy_value,
            die=die,
            acc=accuracy.value,
            av=accuracy_value,
        )
        _note_stat(steps, "resistance", resistance, STATUS_SECTION)
    compare = "{av} + Resistance {res} = {hv}: "
    values = {"av": accuracy_value, "res": resistance.value, "hv": hit_value}
    clause = f"{STATUS_SECTION}; Statuses (elemental multiplier; docs/last-odyssey.md#silent-statuses)"
    element_text = f"element x{multiplier_text(element.value)} ({element.why})"
    if threshold is None:
        rolled_hit = np.zeros(len(die), dtype=bool)
        steps.note("compare", compare + f"{element_text}: immune to {status}", clause=clause, value="miss", **values)
    elif threshold == "always":
        rolled_hit = np.ones(len(die), dtype=bool)
        steps.note("compare", compare + f"{element_text}: cannot evade {status}", clause=clause, value="hit", **values)
    else:
        rolled_hit = hit_value <= threshold
        if steps.enabled:
            where = "" if element.value == 1 else f" (element x{multiplier_text(element.value)}, {element.why})"
            missed = f"above {threshold}{where}, a miss"
            if 1 - accuracy.value + resistance.value > threshold:
                missed += " (out of reach: a status ability cannot land, not even on a 1)"
            landed = f"{threshold} or below{where}, {status} inflicted"
            steps.note("compare", compare + landed, clause=clause, value="hit", where=rolled_hit, **values)
            steps.note("compare", compare + missed, clause=clause, value="miss", where=~rolled_hit, **values)
    hit = rolled_hit if threshold is None else _lean_in(target, rolled_hit, steps)
    if threshold is None and target.lean_in:
        steps.note(
            "lean_in",
            f"{target.name} leans in, but is immune to {status}",
            clause=f"{OTHER_SIDE}; Statuses (docs/last-odyssey.md#silent-statuses)",
            value="miss",
        )
    out.set("result", ~hit)  # HIT = 0, MISS = 1
    out.set("accuracy_value", accuracy_value)
    out.set("hit_value", hit_value)
    out.set("base_damage", constant(out.n, NULL_INT))
    out.set("damage", constant(out.n, 0))
    out.set("status_applied", hit)
    out.set("tracker", constant(out.n, NULL_INT))
    apply_to_hp(scenario, target, np.zeros(len(die), dtype=np.int64), out, steps)


def _note_stat(steps: Steps, name: str, stat: StatValue, clause: str, where: BoolArray | None = None) -> None:
    """Note a statistic only when a status or the Bonus Tracker changed it (else the comparison shows it)."""
    if steps.enabled and stat.clauses:
        extra = "; ".join(stat.clauses)
        steps.note(name, stat.text, clause=f"{clause}; {extra}", value=stat.value, where=where)


def _lean_in(target: Target, rolled_hit: BoolArray, steps: Steps) -> BoolArray:
    """Leaning in: the target may choose to be hit whatever the roll (docs/last-odyssey.md#silent-leaning-in)."""
    if not target.lean_in:
        return rolled_hit
    steps.note(
        "lean_in",
        f"{target.name} leans in and chooses to be hit: the roll is ignored for this target",
        clause=f"{OTHER_SIDE} (leaning in; docs/last-odyssey.md#silent-leaning-in)",
        value="hit",
    )
    return np.ones_like(rolled_hit)


def note_other_side(scenario: LastOdysseyScenario, target: Target, steps: Steps) -> None:
    """An ability used on the side it is not meant for works as though its user stood on that side."""
    if not steps.enabled:
        return
    for t in scenario.attack.type:
        intended = INTENDED_SIDE.get(t)
        if intended is not None and intended != target.side:
            steps.note(
                "other_side",
                f"a {t.capitalize()} ability used on {'an' if target.side == 'enemy' else 'a'} {target.side}:"
                f" it works as though the user stood on the other side ({target.name} counts as"
                f" {'an' if intended == 'enemy' else 'a'} {intended})",
                clause=OTHER_SIDE,
                value=target.side,
            )
            return
