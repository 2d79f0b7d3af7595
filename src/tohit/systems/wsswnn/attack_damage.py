"""The damage of an attack action (Damage; Attacking Objects): lethal, guard and awareness damage to a creature,
Structure damage to an object, and what the foe loses.

Array code over a batch of faces, as in `attacks`: every branch is computed and picked with masks.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.steps import Steps
from tohit.systems.wsswnn.attack_clauses import (
    C_AWARENESS,
    C_GUARD,
    C_JUMP,
    C_LETHAL,
    C_MIGHTY,
    C_MULTIPLIER,
    C_REDUCTION,
    C_THROW,
)
from tohit.systems.wsswnn.consequences import worn
from tohit.systems.wsswnn.models import Target
from tohit.systems.wsswnn.objects import TOUGHNESS, average_toughness
from tohit.systems.wsswnn.plan import WsswnnScenario

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


def lethal_damage(
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


def guard_and_awareness(
    scenario: WsswnnScenario,
    target: Target,
    hit: Mask,
    block: Mask,
    guard_per_attack: int,
    steps: Steps,
) -> tuple[Array, Array]:
    """Guard damage on a hit or block (after lethal on a hit), less Unflinching; awareness on a hit [Guard Damage;
    Damage Reduction; Awareness Damage]."""
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


def creature_fields(
    out: Outcome, target: Target, lethal: Array, guard_damage: Array, awareness: Array, steps: Steps
) -> None:
    """A creature's damage fields: life, guard and awareness lost, and what is left [Damage]."""
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


def object_damage(
    out: Outcome,
    scenario: WsswnnScenario,
    target: Target,
    result: Array,
    hit: Mask,
    multiplier: int,
    steps: Steps,
) -> None:
    """Structure damage = result x the attack's guard damage - Toughness; blunted is uncapped [Attacking Objects;
    Object Toughness and Structure]."""
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
