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

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome, null_int
from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.wsswnn.braces import BraceOutcome, opposed_brace
from tohit.systems.wsswnn.consequences import worn
from tohit.systems.wsswnn.fields import BLOCK, EFFECT_OF, HIT, MISS, SUCCESS
from tohit.systems.wsswnn.models import Target
from tohit.systems.wsswnn.objects import TOUGHNESS, average_toughness
from tohit.systems.wsswnn.plan import Plan, WsswnnScenario
from tohit.systems.wsswnn.rolls import action_roll

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

C_ACTIONS = "wsswnn: Attack Actions"
C_MELEE = "wsswnn: Melee Attack"
C_RANGED = "wsswnn: Ranged Attack (docs/wsswnn.md#silent-ranged-penalty)"
C_TAKE_HOLD = "wsswnn: Take Hold"
C_LETHAL = "wsswnn: Lethal Damage (docs/wsswnn.md#silent-lethal-damage)"
C_GUARD = "wsswnn: Guard Damage"
C_AWARENESS = "wsswnn: Awareness Damage"
C_REDUCTION = "wsswnn: Damage Reduction"
C_JUMP = "wsswnn: Jump-Attacks (docs/wsswnn.md#silent-jump-attack)"
C_FALL = "wsswnn: Jump-Attacks, falling (docs/wsswnn.md#silent-jump-attack)"
C_ARMS = "wsswnn: Targeting Arms Directly"
C_BREAK = "wsswnn: Breaking and Disarming Arms"
C_THROW = "wsswnn: Throwing Weapons and Objects"
C_OBJECTS = "wsswnn: Attacking Objects (docs/wsswnn.md#silent-objects)"
C_MULTIPLIER = "wsswnn: Object Toughness and Structure, damage multiplier"
C_MIGHTY = "wsswnn: Mighty Blow, the Champion's (docs/wsswnn.md#silent-mighty-blow)"
TAKE_HOLD_STRUGGLE = 2


def resolve_attack(scenario: WsswnnScenario, target: Target, plan: Plan, dice: Dice, steps: Steps) -> Outcome:
    attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
    weapon = attacker.armament
    kind = attack.kind
    is_object = target.is_object

    # 1. The action roll (advantage keeps the higher, each die after its penalties).
    if attack.mighty_blow:
        steps.note(
            "mighty_blow",
            "Mighty Blow: the attacker pays 1 stamina for a melee attack with brace advantage, double lethal"
            " damage and an extra -1 guard",
            clause=C_MIGHTY,
            value=1,
        )
    result = action_roll(plan, dice, "attack", steps, attack.rolled)
    n = len(result)

    # 2. Modifiers.
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
    if kind == "ranged":
        penalty = max(2, attack.spans)
        before = result
        result = result - penalty
        steps.note(
            "range_penalty",
            "ranged attack at {spans} span(s): -{penalty}: {before} - {penalty} = {after}",
            clause=C_RANGED,
            value=result,
            spans=attack.spans,
            penalty=penalty,
            before=before,
            after=result,
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
    if kind == "jump":
        before = result
        result = result - attack.heights
        steps.note(
            "height_penalty",
            "jump-attack from {h} height(s): -{h}: {before} - {h} = {after}",
            clause=C_JUMP,
            value=result,
            h=attack.heights,
            before=before,
            after=result,
        )

    # 3. Hit, block or miss.
    # A fight feeds Guard as an array (one value per fight): no int() on it.
    guard = 0 if is_object or target.guard is None else target.guard
    agility = 0 if is_object or target.agility is None else target.agility
    # Not a miss: the result beats Guard or Agility [Attack Actions] (a Struggle only when it beats Agility).
    not_miss = (result > agility) | (result > guard)
    if kind == "jump":
        # "since Wandu's jump attack doesn't miss, she adds 6": the bonus comes when the attack does not miss,
        # Guard below Agility included (docs/wsswnn.md#silent-jump-attack).
        per_height = 3 + (attacker.strength if options.jump_strength_bonus else 0)
        bonus = per_height * attack.heights
        before = result
        result = np.where(not_miss, result + bonus, result)
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
                value=result,
                before=before,
                stat=np.where(before > guard, "Guard", "Agility"),
                level=np.where(before > guard, guard, agility),
                strength=strength,
                h=attack.heights,
                bonus=bonus,
                after=result,
                where=not_miss,
            )
    hit = result > guard
    block = not_miss & ~hit
    plain_miss: Mask = (result <= 0) if kind == "ranged" else np.zeros(n, dtype=bool)
    hit &= ~plain_miss
    block &= ~plain_miss
    _note_compare(steps, result, guard, agility, hit, block, plain_miss, is_object, kind)

    unshielded = (
        kind == "ranged" and not is_object and not target.shield and options.unshielded_ranged_struggle == "miss"
    )
    if unshielded:
        if steps.when(block):
            steps.note(
                "no_shield",
                "ranged attacks can only be blocked by a shield, and the foe has none: the Struggle is a miss",
                clause=C_RANGED,
                value="miss",
                where=block,
            )
        block = np.zeros_like(block)
    elif kind == "ranged" and not is_object and steps.when(block):
        steps.note(
            "shield",
            "the foe blocks with its shield" if target.shield else "a block without a shield (option)",
            clause=C_RANGED,
            value="block",
            where=block,
        )
    if attack.target_arms:
        if steps.when(hit):
            steps.note(
                "target_arms",
                "aimed at the foe's defending arms: the hit counts as a block",
                clause=C_ARMS,
                value="block",
                where=hit,
            )
        block = block | hit
        hit = np.zeros_like(hit)
    code = np.select([hit, block], [HIT, BLOCK], MISS)

    out = Outcome(n)
    out.set("result", code)
    out.set("attack_roll", result)

    # 4. Damage.
    zeros = np.zeros(n, dtype=np.int64)
    lethal, guard_damage, awareness = zeros, zeros, zeros
    guard_per_attack = weapon.guard_damage
    if kind == "jump":
        guard_per_attack += attack.heights
    if attack.mighty_blow:
        guard_per_attack += 1
    blunted = weapon.blunted or (attack.throw and not weapon.throw)
    if kind == "take_hold":
        _note_take_hold(steps, hit, block)  # Take Hold itself inflicts no damage: its brace may
    elif is_object:
        _object_damage(out, scenario, target, result, hit, guard_per_attack, steps)
    else:
        lethal = _lethal(scenario, target, result, guard, hit, blunted, steps)
        guard_damage, awareness = _guard_and_awareness(scenario, target, hit, block, guard_per_attack, steps)

    # 5. A free brace: Take Hold's (at -2 on a block), or a disarm / break on a block.
    brace: BraceOutcome | None = None
    if plan.free_brace is not None:
        raw = dice["brace"]["total"]
        if kind == "take_hold":
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
                struggle=np.where(block, " - 2 (struggle)", "") if kind == "take_hold" else "",
                roll=roll,
                where=rolled,
            )
        brace = opposed_brace(plan.free_brace, roll, rolled, target, steps, why=why)
        guard_damage = guard_damage + brace.guard_damage
        if kind == "take_hold" and steps.when(rolled):
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
    if not is_object:
        _creature_fields(out, target, lethal, guard_damage, awareness, steps)
    _brace_fields(out, brace)

    # 6. Falling.
    if kind == "jump":
        _falling(out, attack.heights, dice, hit | block, steps)
    else:
        out.set("falling_lethal", NULL_INT)
        out.set("falling_guard", NULL_INT)
    out.set("guard_regained", NULL_INT)
    out.set("attacker_guard_after", NULL_INT)
    return out


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
    if not steps.enabled:
        return
    for mask, text in (
        (hit, "Take Hold success: close in and make a free brace"),
        (block, "Take Hold struggle: close in and make a free brace at -2"),
        (~hit & ~block, "Take Hold fails: the foe dodges, no brace"),
    ):
        steps.note("take_hold", text, clause=C_TAKE_HOLD, value=text.startswith("Take Hold s"), where=mask)


def _lethal(
    scenario: WsswnnScenario,
    target: Target,
    result: Array,
    guard: int,
    hit: Mask,
    blunted: bool,
    steps: Steps,
) -> Array:
    """Lethal Damage = result - Guard - Armor on a hit, at least 0; blunted cap Strength + 1 [Lethal Damage]."""
    attacker, attack = scenario.attacker, scenario.attack
    weapon = attacker.armament
    margin = np.maximum(0, result - guard - target.armor)
    lethal = margin if weapon.lethal else np.zeros_like(margin)
    if attack.mighty_blow:
        lethal = 2 * lethal
    cap = (attacker.strength + 1) * (2 if attack.mighty_blow else 1)
    capped = np.minimum(lethal, cap) if blunted else lethal
    lethal_on_hit = np.where(hit, capped, 0).astype(np.int64)
    if steps.when(hit):
        if not weapon.lethal:
            steps.note("lethal", "this attack inflicts no lethal damage", clause=C_AWARENESS, value=0, where=hit)
        else:
            steps.note(
                "lethal",
                "Lethal damage = {r} - Guard {g} - Armor {armor} = {margin}",
                clause=C_LETHAL,
                value=margin,
                r=result,
                g=guard,
                armor=target.armor,
                margin=margin,
                where=hit,
            )
        if attack.mighty_blow and weapon.lethal:
            steps.note(
                "mighty_blow",
                "Mighty Blow: double lethal damage: {l}",
                clause=C_MIGHTY,
                value=lethal,
                l=lethal,
                where=hit,
            )
        if blunted and weapon.lethal:
            what = "unarmed strike" if scenario.attacker.weapon is None else "blunted"
            if attack.throw and not weapon.throw:
                what = "improvised throw (blunted)"
            steps.note(
                "blunted_cap",
                "{what}: capped at (Strength {s} + 1){mult} = {cap}: {l}",
                clause=C_THROW if what.startswith("improvised") else C_LETHAL,
                value=capped,
                what=what,
                s=attacker.strength,
                mult=" x 2 (Mighty Blow)" if attack.mighty_blow else "",
                cap=cap,
                l=capped,
                where=hit,
            )
    return lethal_on_hit


def _guard_and_awareness(
    scenario: WsswnnScenario,
    target: Target,
    hit: Mask,
    block: Mask,
    guard_per_attack: int,
    steps: Steps,
) -> tuple[Array, Array]:
    """Guard damage on a hit or block (after lethal on a hit), less Unflinching; awareness on a hit."""
    attacker, attack = scenario.attacker, scenario.attack
    weapon = attacker.armament
    per_attack = max(0, guard_per_attack - target.unflinching)
    landed = hit | block
    guard_damage = np.where(landed, per_attack, 0).astype(np.int64)
    awareness = np.where(hit, weapon.awareness_damage, 0).astype(np.int64)
    if steps.when(landed):
        parts = [f"weapon -{weapon.guard_damage}"]
        if attack.kind == "jump":
            parts.append(f"-1 x {attack.heights} height(s)")
        if attack.mighty_blow:
            parts.append("Mighty Blow -1")
        text = "Guard damage -{total} ({parts})"
        if target.unflinching:
            text += ", Unflinching {u}: -{gd}"
        text += "{when}"
        clause = C_JUMP if attack.kind == "jump" else C_GUARD
        if target.unflinching:
            clause += "; " + C_REDUCTION
        steps.note(
            "guard_damage",
            text,
            clause=clause,
            value=guard_damage,
            total=guard_per_attack,
            parts=", ".join(parts),
            u=target.unflinching,
            gd=per_attack,
            when=np.where(hit, " (after the lethal damage)", " (a block: guard damage only)"),
            where=landed,
        )
    if weapon.awareness_damage and steps.when(hit):
        steps.note(
            "awareness_damage",
            "-{a} awareness (ignores armor and the margin)",
            clause=C_AWARENESS,
            value=weapon.awareness_damage,
            a=weapon.awareness_damage,
            where=hit,
        )
    return guard_damage, awareness


def _creature_fields(
    out: Outcome, target: Target, lethal: Array, guard_damage: Array, awareness: Array, steps: Steps
) -> None:
    guard = 0 if target.guard is None else target.guard  # an array in a fight
    guard_after = worn(guard, guard_damage)
    out.set("damage", lethal)
    out.set("lethal", lethal)
    out.set("guard_damage", guard_damage)
    out.set("awareness_damage", awareness)
    out.set("guard_after", guard_after)
    if target.life is None:
        out.set("life_after", NULL_INT)
    else:
        out.set("life_after", worn(target.life, lethal))
    out.set("structure_after", NULL_INT)
    out.set("destroyed", NULL_CODE)
    if steps.enabled:
        _note_totals(steps, target, lethal, guard_damage, guard_after, awareness)


def _note_totals(
    steps: Steps, target: Target, lethal: Array, guard_damage: Array, guard_after: Array, awareness: Array
) -> None:
    """What the foe loses, one step per kind of damage it takes."""
    if target.life is None:
        steps.note("life", "the foe takes -{l} life", clause=C_LETHAL, value=lethal, l=lethal, where=lethal > 0)
    else:
        steps.note(
            "life",
            "the foe takes -{l} life: Life {life} -> {after}",
            clause=C_LETHAL,
            value=lethal,
            l=lethal,
            life=target.life,
            after=worn(target.life, lethal),
            where=lethal > 0,
        )
    steps.note(
        "guard",
        "the foe takes -{gd} guard: Guard {g} -> {after}",
        clause=C_GUARD,
        value=guard_damage,
        gd=guard_damage,
        g=int(target.guard or 0),
        after=guard_after,
        where=guard_damage > 0,
    )
    if target.awareness is None:
        steps.note(
            "awareness",
            "the foe takes -{a} awareness",
            clause=C_AWARENESS,
            value=awareness,
            a=awareness,
            where=awareness > 0,
        )
    else:
        steps.note(
            "awareness",
            "the foe takes -{a} awareness: Awareness {aw} -> {after}",
            clause=C_AWARENESS,
            value=awareness,
            a=awareness,
            aw=target.awareness,
            after=worn(target.awareness, awareness),
            where=awareness > 0,
        )


def _object_damage(
    out: Outcome,
    scenario: WsswnnScenario,
    target: Target,
    result: Array,
    hit: Mask,
    multiplier: int,
    steps: Steps,
) -> None:
    """Structure damage = result x the attack's guard damage - Toughness; blunted is uncapped."""
    weapon = scenario.attacker.armament
    if target.toughness is not None:
        toughness, source = target.toughness, "Toughness"
    else:
        materials = list(target.materials or [])
        toughness = average_toughness(materials)
        each = " + ".join(f"{m} {TOUGHNESS[m]}" for m in materials)
        source = f"Toughness ({each}: average, rounded down)"
    raw = np.maximum(0, result * multiplier - toughness)
    structure_damage = np.where(hit & weapon.lethal, raw, 0).astype(np.int64)
    structure = int(target.structure or 0)
    after = np.maximum(0, structure - structure_damage)
    out.set("damage", structure_damage)
    for name in ("lethal", "guard_damage", "awareness_damage", "guard_after", "life_after"):
        out.set(name, NULL_INT)
    out.set("structure_after", after)
    out.set("destroyed", after == 0)
    if steps.when(hit):
        steps.note(
            "structure_damage",
            "Structure damage = {r} x {m} (guard damage) - {source} {t} = {d}"
            + ("; blunted weapons are not capped against Structure" if weapon.blunted else "")
            + ": Structure {s} -> {after}{crumbles}",
            clause=C_MULTIPLIER,
            value=structure_damage,
            r=result,
            m=multiplier,
            source=source,
            t=toughness,
            d=structure_damage,
            s=structure,
            after=after,
            crumbles=np.where(after == 0, "; it crumbles", ""),
            where=hit,
        )


def _brace_fields(out: Outcome, brace: BraceOutcome | None) -> None:
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


def _falling(out: Outcome, heights: int, dice: Dice, landed: Mask, steps: Steps) -> None:
    """A missed jump-attack falls: 2 lethal and 1 guard per height; the landing roll reduces the lethal part."""
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
