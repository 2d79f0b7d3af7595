"""The trace of a Reclaim the Wild attack: one short step per rule applied, each citing its clause.

Called by `resolve` only when recording. Every note that applies to some attacks only passes `where=`, and
values that differ by attack are arrays (one per attack), so `roll --times N` traces N attacks in one call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.steps import Steps
from tohit.systems.rtw.conditions import CLAUSE_GUARD
from tohit.systems.rtw.consequences import CLAUSE_DURABILITY, CLAUSE_FALLING, CLAUSE_PERIL, FALLS_LABELS
from tohit.systems.rtw.damage import Damage
from tohit.systems.rtw.plan import Plan

PAGE = "rtw: Landing the Blow"
CLAUSE_CRIT = "rtw: Landing the Blow; Critical Hits (docs/rtw.md#silent-natural-crit)"
CLAUSE_EFFECT = "rtw: Landing the Blow, additional effects"
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def _note(steps: Steps, name: str, text: str, *, clause: str, value: Any, where: BoolArray, **values: Any) -> None:
    """`steps.note` for the attacks in `where`: skipped when none, unmasked when all (the cheap common cases)."""
    if bool(where.all()):
        steps.note(name, text, clause=clause, value=value, **values)
    elif bool(where.any()):
        steps.note(name, text, clause=clause, value=value, where=where, **values)


def _pick(mask: BoolArray, yes: str, no: str) -> Any:
    """Per attack: `yes` where `mask`, else `no` (an object array, or one str when all agree)."""
    if bool(mask.all()):
        return yes
    if not bool(mask.any()):
        return no
    out = np.empty(len(mask), dtype=object)
    out[:] = no
    out[mask] = yes
    return out


def standing(p: Plan, steps: Steps) -> None:
    """The Hard-to-Hit level and any Guard Stat a condition changed."""
    if p.standing.level != "none" or p.standing.reasons != ("not Hard to Hit",):
        word = {"none": "not Hard to Hit", "hard": "Hard to Hit (-2)", "extreme": "Extremely Hard to Hit (-5)"}
        steps.note(
            "hard_to_hit",
            f"{p.standing.text}: {word[p.standing.level]}",
            clause=p.standing.clause,
            value=p.standing.level,
        )
    if p.guard.reasons:
        steps.note("guard_stats", "; ".join(p.guard.reasons), clause=CLAUSE_GUARD, value=p.guard.evasion)


def to_hit(p: Plan, steps: Steps, faces: Any, total: IntArray, hit: BoolArray, in_range: BoolArray) -> None:
    assert p.defence is not None
    acc = f"weapon ACC {p.weapon.acc}" if p.attacker.weapon is not None else "unarmed ACC 5"
    word = "Extremely Hard to Hit" if p.standing.level == "extreme" else "Hard to Hit"
    penalty = f" - {-p.penalty} ({word})" if p.penalty else ""
    lead = f"a {p.attack.kind.capitalize()} vs a Hard-to-Hit target must roll: " if p.attack.kind != "basic" else ""
    forced = in_range & (total < p.defence.value) if p.natural_always_hits else np.zeros_like(hit)
    verdict = _pick(hit, "hit", "miss")
    if bool(forced.any()):
        verdict = np.where(forced, "hit (a natural roll in the critical range always hits: option)", verdict)
    steps.note(
        "to_hit",
        lead + "To-Hit {faces} + Accuracy {accuracy} + {acc}{penalty} = {total} vs {defence}: {verdict}",
        clause=f"{PAGE} (docs/rtw.md#silent-defence-stat)",
        value=_pick(hit, "hit", "miss"),
        faces=faces,
        accuracy=p.attacker.accuracy,
        acc=acc,
        penalty=penalty,
        total=total,
        defence=p.defence.text,
        verdict=verdict,
    )


def automatic(p: Plan, steps: Steps) -> None:
    text = p.why_auto[0].upper() + p.why_auto[1:]
    steps.note(
        "auto_hit", text, clause=f"{PAGE}; Status Effects, Hard to Hit (docs/rtw.md#silent-hard-to-hit)", value="hit"
    )


def unharmed(steps: Steps, hit: BoolArray) -> None:
    text = "Helpless, and the attack is not aimed at it alone: not harmed"
    _note(steps, "unharmed", text, clause=CLAUSE_FALLING, value=True, where=hit)


def area_alone(steps: Steps, hit: BoolArray) -> None:
    text = "Helpless, and the area's only target (it catches nobody else): aimed at it alone, so it can be harmed"
    _note(steps, "alone", text, clause=f"{CLAUSE_FALLING} (docs/rtw.md#silent-helpless-areas)", value=True, where=hit)


def critical(p: Plan, steps: Steps, landed: BoolArray, roll_crit: BoolArray, crit: BoolArray) -> None:
    window = ""
    if p.crit_low is not None:
        low = p.crit_low
        parts = ", ".join(p.weapon.range_parts)
        natural = "a natural 12" if low >= 12 else f"a natural {low}-12 (range +{12 - low}: {parts})"
        window = f"{natural} on a Basic Attack"
    others = list(p.other_crit)
    with_roll = [window, *others]
    if bool(crit.any()):
        text_roll = (
            "Critical Hit: " + "; ".join(with_roll) + (" (several sources: still one Critical Hit)" if others else "")
        )
        text_other = (
            "Critical Hit: "
            + "; ".join(others)
            + (" (several sources: still one Critical Hit)" if len(others) > 1 else "")
        )
        _note(
            steps,
            "critical",
            "{why}",
            clause=CLAUSE_CRIT,
            value=True,
            where=crit,
            why=_pick(roll_crit, text_roll, text_other),
        )
    if not p.able_to_miss and others:
        kind = p.attack.kind.capitalize()
        text = f"no Critical Hit: a {kind} cannot normally miss, so it is not eligible ({'; '.join(others)})"
        _note(steps, "critical", text, clause="rtw: Critical Hits", value=False, where=landed)


def damage(p: Plan, steps: Steps, landed: BoolArray, crit: BoolArray, dealt: IntArray) -> None:
    if not bool(landed.any()):
        return
    if p.raw is None or p.crit_item is None or p.normal is None or p.critical is None:
        _note(steps, "damage", "The attack deals no damage", clause="rtw: Damage", value=0, where=landed)
        return
    raw = p.raw
    _note(steps, raw.step, raw.text + f" ({', '.join(p.types)})", clause=raw.clause, value=raw.total, where=landed)
    crit_rows = landed & crit
    _note(
        steps, p.crit_item.step, p.crit_item.text, clause=p.crit_item.clause, value=p.crit_item.total, where=crit_rows
    )
    _items(steps, p.normal, landed & ~crit)
    _items(steps, p.critical, crit_rows)
    _note(steps, "damage", "Health lost: {dealt}", clause="rtw: Damage", value=dealt, where=landed, dealt=dealt)


def _items(steps: Steps, dmg: Damage, where: BoolArray) -> None:
    if not bool(where.any()):
        return
    for item in dmg.items:
        _note(steps, item.step, item.text, clause=item.clause, value=item.total, where=where)


def effect(
    p: Plan, steps: Steps, faces: Any, landed: BoolArray, total: IntArray | None, effect_landed: BoolArray
) -> None:
    assert p.effect is not None
    why = "the Helpless creature is not harmed" if p.unharmed else "the attack missed, so the effect misses too"
    _note(steps, "effect", f"{p.effect.name}: not rolled, {why}", clause=CLAUSE_EFFECT, value=False, where=~landed)
    if total is None:
        _note(steps, "effect", f"{p.effect.name}: {p.effect.why_auto}", clause=CLAUSE_EFFECT, value=True, where=landed)
        return
    assert p.effect.defence is not None
    _note(
        steps,
        "effect",
        "{effect}: To-Hit {faces} + {bonus} = {total} vs {defence}: {verdict}",
        clause=CLAUSE_EFFECT + " (docs/rtw.md#silent-defence-stat)",
        value=effect_landed,
        where=landed,
        effect=p.effect.name,
        faces=faces,
        bonus=p.effect.bonus,
        total=total,
        defence=p.effect.defence.text,
        verdict=_pick(effect_landed, "lands", "misses (the damage still stands)"),
    )


def state(
    p: Plan,
    steps: Steps,
    hit: BoolArray,
    landed: BoolArray,
    used: BoolArray,
    dealt: IntArray,
    after: IntArray | None,
    peril: BoolArray | None,
    falls: BoolArray,
) -> None:
    """Durability, the miss, the cost, Peril and Falling in Battle."""
    text = "the weapon was used successfully: 1 Durability damage at the end of the encounter"
    if p.burning:
        text += "; Burning: it also loses 1 Durability for this foe"
    _note(steps, "durability", text, clause=CLAUSE_DURABILITY, value=1, where=used)
    text = "a missed attack acts as if it never happened: no damage, no Durability lost, no effect"
    _note(steps, "miss", text, clause=PAGE, value="miss", where=~hit)
    if p.cost:
        cost = p.attack.cost
        paid = " and ".join(f"{v} {k}" for k, v in (("Magic", cost.magic), ("Stamina", cost.stamina)) if v)
        steps.note("cost", f"cost spent: {paid}, hit or miss", clause=PAGE, value=p.cost)
    target = p.target
    if peril is not None and after is not None:
        _note(
            steps,
            "peril",
            "Health {before} - {dealt} = {after} vs Hearts {hearts}: {state}",
            clause=CLAUSE_PERIL,
            value=peril,
            where=landed,
            before=target.health,
            dealt=dealt,
            after=after,
            hearts=target.hearts,
            state=_pick(peril, "in Peril", "not in Peril"),
        )
    if target.helpless:
        text = "struck while Helpless by an attack aimed at it alone: it perishes (even a Hero)"
        clause = f"{CLAUSE_FALLING}; Status Effects Helplessness"
        _note(steps, "falls", text, clause=clause, value="perishes", where=falls)
        if not p.finishes:
            why = "the source has no whims" if p.attack.mindless else "the attacker chooses to spare it"
            text = f"Helpless, but {why}: it stays Helpless"
            _note(steps, "falls", text, clause=CLAUSE_FALLING, value=None, where=landed)
    else:
        _note(steps, "falls", fall_text(p), clause=CLAUSE_FALLING, value=FALLS_LABELS[p.fall_code], where=falls)


def fall_text(p: Plan) -> str:
    if p.target.hero:
        return "0 Health: a Hero always falls Helpless"
    if p.attack.mindless:
        return "0 Health: the source cannot have whims, so the creature falls Helpless"
    if p.attack.at_zero_health == "helpless":
        return "0 Health: the attacker chooses to leave it Helpless"
    return "0 Health: the attacker chooses that it perishes"
