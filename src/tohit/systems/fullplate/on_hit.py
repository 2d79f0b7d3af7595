"""FullPlate: what a hit does, clauses 10, 4, 9 and 5 of rules.py's list.

- Damage (clause 10): weapon dice + Strength (damage bonus) + Enhancement, then Special Defence, then
  Resistance or Vulnerability as a percentage rounded down [wiki Damage], then the natural-20 halvings.
- Severity of a Critical Hit (clause 4), the creature a shot into melee strikes (clause 9) and the
  ammunition spent (clause 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from tohit.core.outcome import Outcome, null_code, null_int
from tohit.core.steps import Steps, each_text, joined_text, rows_text
from tohit.core.system import Dice
from tohit.systems.fullplate.damage import Array, Mask, halve, percent, special_defence
from tohit.systems.fullplate.models import Attacker, FullPlateScenario, Target
from tohit.systems.fullplate.situation import PAGE, Defender, Situation

SEVERITY = "fullplate: Severity (docs/fullplate.md#silent-severity)"


def damage(
    scenario: FullPlateScenario,
    defenders: Sequence[Defender],
    index: Array | None,
    sit: Situation,
    dice: Dice,
    critical: Mask,
    halved: Array,
    landed: Mask,
    steps: Steps,
) -> tuple[Array, Mask]:
    """Clause 10, in the wiki Damage's order: the weapon's damage (a Critical Hit's way of it), the creature
    struck's Special Defence, then its Resistance or Vulnerability, then the natural-20 halvings. Returns the
    damage and whether the halvings made the attack miss."""
    raw, minimum = _weapon_damage(scenario, sit, dice, critical, landed, steps)
    after_sd, after_pct = _through_defences(raw, minimum, defenders, index)
    final, missed = halve(after_pct, halved)
    if steps.when(landed):
        struck = Struck(defenders, index, raw, after_sd, after_pct)
        _note_defences(scenario, sit, struck, landed, steps)
        _note_halvings(after_pct, final, missed, halved, landed, steps)
    return final, missed


def _weapon_damage(
    scenario: FullPlateScenario, sit: Situation, dice: Dice, critical: Mask, landed: Mask, steps: Steps
) -> tuple[Array, Array]:
    """Damage = weapon dice + Strength (damage bonus) + Enhancement, at least 1 [Damage;
    docs/fullplate.md#silent-damage]; a Critical Hit may "roll damage twice or do maximum normal weapon damage"
    (options.crit_damage) [Critical Hits]. Returns it, and Special Defence's "minimum damage": the weapon's least
    normal damage (every die a 1, plus modifiers)."""
    attacker = scenario.attacker
    expr = attacker.weapon.dice
    flat = attacker.damage_bonus + sit.enhancement.damage
    rolled = dice["damage"]["total"]
    normal = rolled + flat
    mode = scenario.options.crit_damage
    if mode == "double_dice":
        crit_raw = rolled + dice["damage_again"]["total"] + flat
    elif mode == "max_damage":
        crit_raw = np.full_like(rolled, expr.maximum + flat)
    else:
        crit_raw = normal
    unfloored = np.where(critical, crit_raw, normal)
    raw = np.maximum(1, unfloored).astype(np.int64)
    minimum = np.full_like(raw, max(1, expr.minimum + flat))
    if steps.when(landed):
        _note_weapon_damage(scenario, sit, dice, critical, raw, unfloored < 1, landed, steps)
    return raw, minimum


def _note_weapon_damage(
    scenario: FullPlateScenario,
    sit: Situation,
    dice: Dice,
    critical: Mask,
    raw: Array,
    floored: Mask,
    landed: Mask,
    steps: Steps,
) -> None:
    """The weapon's damage, one step for the Critical Hits and one for the other hits [Damage; Critical Hits]."""
    attacker, mode = scenario.attacker, scenario.options.crit_damage
    bonus = f" + Strength/damage bonus {attacker.damage_bonus:+d}" if attacker.damage_bonus else ""
    ench = f" + Enhancement {sit.enhancement.damage:+d}" if sit.enhancement.damage else ""
    floor = rows_text(floored, " (at least 1)", "")
    for crit in (True, False):
        rows = landed & (critical if crit else ~critical)
        if not steps.when(rows):
            continue
        if crit and mode == "double_dice":
            dice_text = each_text(
                "{a} + {b} (Critical Hit: dice twice)", a=dice.text("damage"), b=dice.text("damage_again")
            )
        elif crit and mode == "max_damage":
            dice_text = f"{attacker.weapon.dice.maximum} (Critical Hit: maximum normal damage)"
        else:
            dice_text = dice.text("damage")
        steps.note(
            "damage",
            "Damage = {dice}{bonus}{ench} = {raw}{floor}",
            clause="fullplate: Damage (docs/fullplate.md#silent-damage); Critical Hits"
            if crit and mode != "severity"
            else "fullplate: Damage (docs/fullplate.md#silent-damage)",
            value=raw,
            where=rows,
            dice=dice_text,
            bonus=bonus,
            ench=ench,
            raw=raw,
            floor=floor,
        )


def _through_defences(
    raw: Array, minimum: Array, defenders: Sequence[Defender], index: Array | None
) -> tuple[Array, Array]:
    """The creature struck's own Special Defence, then its Resistance or Vulnerability as a percentage rounded
    down [Damage; docs/fullplate.md#silent-firing-into-melee]. Returns the damage after each."""
    ways = {(d.special_defence, d.resistance_pct, d.vulnerability_pct) for d in defenders}
    if len(ways) == 1 or index is None:
        d = defenders[-1] if index is None else defenders[0]
        after_sd = special_defence(raw, d.special_defence, minimum)
        return after_sd, percent(after_sd, d.resistance_pct, d.vulnerability_pct)
    after_sd = np.zeros_like(raw)
    after_pct = np.zeros_like(raw)
    for i, d in enumerate(defenders):
        mine = index == i
        sd_i = special_defence(raw, d.special_defence, minimum)
        after_sd = np.where(mine, sd_i, after_sd)
        after_pct = np.where(mine, percent(sd_i, d.resistance_pct, d.vulnerability_pct), after_pct)
    return after_sd, after_pct


class Struck(NamedTuple):
    """The creatures a hit may strike (engaged_with + [target]), which one each attack struck (None: the target),
    and the damage before and after its Special Defence and its Resistance or Vulnerability."""

    defenders: Sequence[Defender]
    picked: Array | None
    raw: Array
    after_sd: Array
    after_pct: Array


def _note_defences(scenario: FullPlateScenario, sit: Situation, struck: Struck, landed: Mask, steps: Steps) -> None:
    """Each creature struck: its Special Defence [Special Defence; docs/fullplate.md#silent-enhancement], then its
    Resistance or Vulnerability [Damage; docs/fullplate.md#silent-damage]."""
    defenders, index = struck.defenders, struck.picked
    for i, d in enumerate(defenders):
        mine = landed if index is None else landed & (index == i)
        if not steps.when(mine):
            continue
        who = f" ({d.name})" if len(defenders) > 1 else ""
        if d.special_defence_level:
            steps.note(
                "special_defence",
                "Special Defence +{sd}{who} vs Enhancement {e:+d} ({how}), {game} game: {effect} damage: {raw} -> {d}",
                clause="fullplate: Special Defence (docs/fullplate.md#silent-enhancement)",
                value=struck.after_sd,
                where=mine,
                sd=d.special_defence_level,
                who=who,
                e=sit.enhancement.special_defence,
                how=sit.enhancement.sd_text,
                game=scenario.options.game,
                effect=d.special_defence,
                raw=struck.raw,
                d=struck.after_sd,
            )
        if d.resistance_pct or d.vulnerability_pct:
            steps.note(
                "resistance",
                "Resistance {r}% / Vulnerability {v}%{who}: {d} x {scale}% = {after} (rounded down)",
                clause="fullplate: Damage, Resistance and Vulnerability (docs/fullplate.md#silent-damage)",
                value=struck.after_pct,
                where=mine,
                r=d.resistance_pct,
                v=d.vulnerability_pct,
                who=who,
                d=struck.after_sd,
                scale=max(0, 100 - d.resistance_pct + d.vulnerability_pct),
                after=struck.after_pct,
            )


def _note_halvings(after_pct: Array, final: Array, missed: Mask, halved: Array, landed: Mask, steps: Steps) -> None:
    """A natural 20 beyond the window halves the damage per 5 points past 10; "between 1 and half a point", 1; below
    half a point, none: the attack misses [Fumbles and Criticals; docs/fullplate.md#silent-natural-20]."""
    if not steps.when(landed & (halved > 0)):
        return
    verdict = rows_text(
        missed,
        "below half a point: no damage, the attack misses",
        rows_text(
            (final == 1) & (after_pct < np.left_shift(1, halved)),
            "from half a point up to 1: 1 point",
            rows_text(np.left_shift(final, halved) != after_pct, "rounded down", "exact"),
        ),
    )
    steps.note(
        "halvings",
        "natural 20 beyond the window: {d} / 2^{k} -> {final} ({verdict})",
        clause=f"{PAGE}, Fumbles and Criticals (halving)",
        value=final,
        where=landed & (halved > 0),
        d=after_pct,
        k=halved,
        final=final,
        verdict=verdict,
    )


def severity(
    scenario: FullPlateScenario,
    target: Target,
    armour: int | Array,
    dice: Dice,
    critical: Mask,
    hit: Mask,
    out: Outcome,
    steps: Steps,
) -> None:
    """Severity [wiki Severity]: Critical Hit 1d4; Backstab level - 1 (a Sneak Attack: the level);
    Called Attack 1d3; no armour +2, natural armour only +1. All stack."""
    attack, options = scenario.attack, scenario.options
    n = len(hit)
    points = np.zeros(n, dtype=np.int64)
    granted = np.zeros(n, dtype=bool)
    parts: list[Any] = []  # each a str, or one per attack (dice in words)
    crit: Mask = np.zeros(n, dtype=bool)
    if options.crit_damage == "severity":
        crit = critical & hit
        points = points + np.where(crit, dice["severity"]["total"], 0)
        granted |= crit
    if attack.backstab:
        sneak = any(rid == "sneak_attack" for rid in (*attack.circumstances, *target.circumstances))
        stab = attack.backstab if sneak else attack.backstab - 1
        points = points + np.where(hit, stab, 0)
        granted |= hit
        how = f"Backstab {attack.backstab}, Sneak Attack" if sneak else f"Backstab {attack.backstab} - 1"
        parts.append(f"{stab} ({how})")
    if attack.called:
        points = points + np.where(hit, dice["called"]["total"], 0)
        granted |= hit
        parts.append(each_text("{d} (Called Attack)", d=dice.text("called")))
    # `armour`: the Severity points of the armour of the creature struck (its own, firing into melee).
    points = points + np.where(granted, armour, 0)
    out.set("severity", null_int(~granted, points))
    if steps.when(granted):
        words = {0: "", 1: " + 1 (natural armour only)", 2: " + 2 (no armour)"}
        extra = np.asarray([words[int(a)] for a in np.broadcast_to(armour, (n,))], dtype=object)
        critical_part = []
        if options.crit_damage == "severity":
            critical_part = [each_text("{d} (Critical Hit)", d=dice.text("severity"))]
        steps.note(
            "severity",
            "Severity = {parts}{armour} = {points}",
            clause=SEVERITY,
            value=points,
            where=granted,
            parts=rows_text(crit, joined_text([*critical_part, *parts]), joined_text(parts)),
            armour=extra,
            points=points,
        )


def creature_hit(
    attacker: Attacker,
    target: Target,
    defenders: Sequence[Defender],
    index: Array | None,
    damage: Array,
    hit: Mask,
    out: Outcome,
    steps: Steps,
) -> Array:
    """Clause 9: who the hit lands on (picked before the roll was judged); returns the index into
    engaged_with + [target], -1 on a miss."""
    n = len(hit)
    labels = [e.name for e in target.engaged_with] + [target.name]
    if index is None:
        index = np.full(n, len(target.engaged_with), dtype=np.int64)
        if steps.when(hit) and target.engaged_with:
            if attacker.precision and attacker.weapon.ranged:
                why = "Precision proficiency: the intended target is hit"
            elif attacker.weapon.ranged:
                why = "every creature engaged with the target is down, out of the melee: the shot goes to it"
            else:
                why = "a melee attack strikes the intended target"
            steps.note("firing_into_melee", why, clause=f"{PAGE}, Firing Into Melee", value=target.name, where=hit)
    elif steps.enabled:
        for i, d in enumerate(defenders[:-1]):
            mine = hit & (index == i)
            if d.hp is not None and steps.when(mine):
                steps.note(
                    "creature_hit",
                    "{who} takes the hit: {dmg} damage (HP {hp} -> {left})",
                    clause=f"{PAGE}, Firing Into Melee",
                    value=d.name,
                    where=mine,
                    who=d.name,
                    dmg=damage,
                    hp=d.hp,
                    left=d.hp - damage,
                )
    out.set("creature_hit", null_code(~hit, index), labels=labels)
    return np.where(hit, index, -1)


def ammunition(attacker: Attacker, hit: Mask, out: Outcome, steps: Steps) -> None:
    """Magical ammunition retrieved after a hit loses 1 Enhancement (or all); penalties stay."""
    ammo = attacker.ammunition
    if ammo is None:
        out.set("ammunition_enhancement", null_int(True, 0))
        return
    e = ammo.enhancement
    after = e if e <= 0 else (0 if ammo.loses_all_on_hit else e - 1)
    out.set("ammunition_enhancement", np.where(hit, after, e))
    if steps.when(hit) and e > 0:
        steps.note(
            "ammunition",
            "the ammunition, retrieved after a hit, loses {lost} Enhancement: {e:+d} -> {after:+d}",
            clause=f"{PAGE}, Enhancement",
            value=after,
            where=hit,
            lost="all its" if ammo.loses_all_on_hit else "1",
            e=e,
            after=after,
        )
