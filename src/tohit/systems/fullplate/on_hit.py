"""FullPlate: what a hit does, clauses 10, 4, 9 and 5 of rules.py's list.

- Damage (clause 10): weapon dice + Strength (damage bonus) + Enhancement, then Special Defence, then
  Resistance or Vulnerability as a percentage rounded down [wiki Damage], then the natural-20 halvings.
- Severity of a Critical Hit (clause 4), the creature a shot into melee strikes (clause 9) and the
  ammunition spent (clause 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    attacker, options = scenario.attacker, scenario.options
    expr = attacker.weapon.dice
    flat = attacker.damage_bonus + sit.enhancement.damage
    rolled = dice["damage"]["total"]
    normal = rolled + flat
    low = expr.minimum + flat
    mode = options.crit_damage
    if mode == "double_dice":
        again = dice["damage_again"]["total"]
        crit_raw = rolled + again + flat
    elif mode == "max_damage":
        crit_raw = np.full_like(rolled, expr.maximum + flat)
    else:
        crit_raw = normal
    raw = np.maximum(1, np.where(critical, crit_raw, normal)).astype(np.int64)
    # Special Defence's "minimum damage": the weapon's least normal damage (every die a 1, plus modifiers).
    minimum = np.full_like(raw, max(1, low))
    # The creature struck's own Special Defence, Resistance and Vulnerability
    # (docs/fullplate.md#silent-firing-into-melee).
    ways = {(d.special_defence, d.resistance_pct, d.vulnerability_pct) for d in defenders}
    if len(ways) == 1 or index is None:
        d = defenders[-1] if index is None else defenders[0]
        after_sd = special_defence(raw, d.special_defence, minimum)
        after_pct = percent(after_sd, d.resistance_pct, d.vulnerability_pct)
    else:
        after_sd = np.zeros_like(raw)
        after_pct = np.zeros_like(raw)
        for i, d in enumerate(defenders):
            mine = index == i
            sd_i = special_defence(raw, d.special_defence, minimum)
            after_sd = np.where(mine, sd_i, after_sd)
            after_pct = np.where(mine, percent(sd_i, d.resistance_pct, d.vulnerability_pct), after_pct)
    final, missed = halve(after_pct, halved)

    if steps.when(landed):
        bonus = f" + Strength/damage bonus {attacker.damage_bonus:+d}" if attacker.damage_bonus else ""
        ench = f" + Enhancement {sit.enhancement.damage:+d}" if sit.enhancement.damage else ""
        floor = rows_text(np.where(critical, crit_raw, normal) < 1, " (at least 1)", "")
        for crit in (True, False):
            rows = landed & (critical if crit else ~critical)
            if not steps.when(rows):
                continue
            if crit and mode == "double_dice":
                dice_text = each_text(
                    "{a} + {b} (Critical Hit: dice twice)", a=dice.text("damage"), b=dice.text("damage_again")
                )
            elif crit and mode == "max_damage":
                dice_text = f"{expr.maximum} (Critical Hit: maximum normal damage)"
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
        for i, d in enumerate(defenders):
            mine = landed if index is None else landed & (index == i)
            if not steps.when(mine):
                continue
            if d.special_defence_level:
                steps.note(
                    "special_defence",
                    "Special Defence +{sd}{who} vs Enhancement {e:+d} ({how}), {game} game: {effect} damage:"
                    " {raw} -> {d}",
                    clause="fullplate: Special Defence (docs/fullplate.md#silent-enhancement)",
                    value=after_sd,
                    where=mine,
                    sd=d.special_defence_level,
                    who=f" ({d.name})" if len(defenders) > 1 else "",
                    e=sit.enhancement.special_defence,
                    how=sit.enhancement.sd_text,
                    game=options.game,
                    effect=d.special_defence,
                    raw=raw,
                    d=after_sd,
                )
            if d.resistance_pct or d.vulnerability_pct:
                steps.note(
                    "resistance",
                    "Resistance {r}% / Vulnerability {v}%{who}: {d} x {scale}% = {after} (rounded down)",
                    clause="fullplate: Damage, Resistance and Vulnerability (docs/fullplate.md#silent-damage)",
                    value=after_pct,
                    where=mine,
                    r=d.resistance_pct,
                    v=d.vulnerability_pct,
                    who=f" ({d.name})" if len(defenders) > 1 else "",
                    d=after_sd,
                    scale=max(0, 100 - d.resistance_pct + d.vulnerability_pct),
                    after=after_pct,
                )
        if steps.when(landed & (halved > 0)):
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
    return final, missed


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
