"""Last Odyssey: Attacking and Defending, with docs/last-odyssey.md#where-the-page-is-silent.

Clauses, in the page's order (sibling pages in brackets, from the game's other pages):
1. Buffs and debuffs succeed no matter what: no roll. Each level moves the statistic one step along the
   Bonus Tracker -7, -3, -1, 0, +1, +3, +7; buffs and debuffs cancel step for step [Buffs and Debuffs].
2. Physical attack: hit die (d10) - Physical Accuracy + the target's Evasion; 7 or below hits. Base damage =
   Physical Attack - Physical Defense + the hit die, at least 1.
3. Magical attack: the same with Magical Accuracy, Magical Attack and Magical Defense.
4. Status-inflicting ability: d10 - Status Accuracy + Resistance; 5 or below inflicts the status. The
   element multiplier changes the threshold: x0.25 immune, x0.5 3 or less, x2 7 or less, x4 cannot be
   evaded [Statuses].
5. One roll of the hit die for every target; each target is compared with its own Evasion or Resistance
   and takes its own damage.
6. Out of reach: a status ability cannot land; a physical or magical attack still hits on a natural 1.
7. Final damage = base damage x every relevant modifier, rounded to nearest (halves up); it may be 0.
8. Shell: a magical attack on an active Shell deals double; a physical attack on a target without one
   deals double. A Shell given as points absorbs the damage; on the hit that breaks it, the overflow takes
   the target's HP only if it is at least the remaining HP (then the target is downed) [Shells;
   docs/last-odyssey.md#silent-shell].
9. Elements: a multiplier of 0.25, 0.5, 1, 2 or 4 per attack and target; colorless x1 [Elemental Types].
10. Statuses of the user and target: Blinded halves accuracies, Petrified halves base Evasion (rounded
    down); Paralyzed makes physical attacks miss, Silenced magical ones [Statuses].
11. Ability types (checks.py): Self, Melee, Ranged, Ally, Special, Passive, Multi, Reaction.
12. An ability used on the other side works as if its user stood on that side; a target may lean in and
    choose to be hit, whatever the roll.
13. Knock-out: declared before the roll; the hit uses the real roll, the damage is computed as if the die
    showed 1; a target downed this way is incapacitated, not killed. HP never goes below 0; at 0 the
    target is downed [Death and Injury].
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tohit.core.models import Scenario
from tohit.core.outcome import NULL_CODE, NULL_INT, Field, Outcome
from tohit.core.roles import Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.last_odyssey import checks
from tohit.systems.last_odyssey.consequences import hp_lost, shell_hit
from tohit.systems.last_odyssey.damage import (
    damage_factors,
    damage_multiplier,
    element_factor,
    final_damage,
    product,
    shell_active,
    shell_points,
)
from tohit.systems.last_odyssey.dice import HIT_DIE_ROLE, NO_ROLL
from tohit.systems.last_odyssey.effective import NAMES, StatValue, attacker_stat, target_stat
from tohit.systems.last_odyssey.models import Attack, Attacker, Options, Target
from tohit.systems.last_odyssey.silent import SILENT
from tohit.systems.last_odyssey.tables import (
    ATTACK_THRESHOLD,
    BONUS_TRACKER,
    INTENDED_SIDE,
    PAGE,
    ROLLED_KINDS,
    STATUS_THRESHOLDS,
    inflicted_status,
    move_tracker,
    multiplier_text,
)
from tohit.systems.last_odyssey.tables import HIT as HIT
from tohit.systems.last_odyssey.tables import MISS as MISS

LastOdysseyScenario = Scenario[Attacker, Attack, Target, Options]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

INTRO = f"{PAGE}, introduction"
NOTES = f"{PAGE}, General Notes"
SECTION = {"physical": f"{PAGE}, Physical Attacks", "magical": f"{PAGE}, Magical Attacks"}
STATUS_SECTION = f"{PAGE}, Status-Inflicting Abilities"
OTHER_SIDE = f"{PAGE}, using abilities on other targets"
KNOCK_OUT = f"{PAGE}, knock out"


class LastOdyssey(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.last_odyssey.fight"
    id = "last-odyssey"
    title = "Last Odyssey"
    summary = "One d10 hit die for every target: d10 - Accuracy + Evasion <= 7 (status <= 5), Shells, elements"
    page = "last-odyssey.md"
    silent = SILENT
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    #: Every conditional note passes `where=`: `roll --times N` traces N attacks in one call.
    batch_trace = True
    fields = (
        Field("result", "label", "hit (the ability lands on this target) or miss.", ("hit", "miss")),
        Field("damage", "int", "Final damage: base damage x every relevant modifier, rounded (0 on a miss)."),
        Field(
            "accuracy_value",
            "int",
            "Hit die - the user's accuracy (shared by every target); null for a buff or debuff.",
            nullable=True,
            in_odds=False,
        ),
        Field(
            "hit_value",
            "int",
            "Accuracy value + this target's Evasion (or Resistance): hits at 7 or below (status: 5).",
            nullable=True,
            in_odds=False,
        ),
        Field(
            "base_damage",
            "int",
            "Attack - Defense + hit die (1 on a knock-out), at least 1; null on a miss or a damageless ability.",
            nullable=True,
        ),
        Field("status_applied", "flag", "The status landed (status-inflicting abilities only).", nullable=True),
        Field(
            "shell_absorbed",
            "int",
            "Damage the target's Shell absorbed (when the Shell is given as points).",
            nullable=True,
        ),
        Field(
            "overflow",
            "int",
            "On the hit that breaks the Shell (given as points): final damage - damage absorbed by the Shell;"
            " null when no Shell breaks.",
            nullable=True,
        ),
        Field(
            "hp_lost",
            "int",
            "HP the target loses (never more than it has); null when its HP or Shell points are unknown.",
            nullable=True,
        ),
        Field("downed", "flag", "The target is at 0 HP; null when its HP or Shell is unknown.", nullable=True),
        Field(
            "incapacitated",
            "flag",
            "Downed by a knock-out: temporarily incapacitated instead of killed.",
            nullable=True,
        ),
        Field(
            "tracker",
            "int",
            "A buff or debuff: the statistic's Bonus Tracker value afterwards.",
            nullable=True,
        ),
    )

    def roles(self, scenario: LastOdysseyScenario, target: Target) -> dict[str, Role]:
        """The hit die, one d10 for every target; buffs and debuffs roll nothing."""
        return {"hit": HIT_DIE_ROLE if scenario.attack.kind in ROLLED_KINDS else NO_ROLL}

    def check(self, scenario: LastOdysseyScenario) -> None:
        checks.check(scenario)

    def resolve(self, scenario: LastOdysseyScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        die = dice["hit"]["total"]
        out = Outcome(len(die))
        attack = scenario.attack
        _note_other_side(scenario, target, steps)
        if attack.kind == "buff" or attack.kind == "debuff":
            _always_succeeds(scenario, target, out, steps)
            return out
        if steps.enabled:
            steps.note(
                "hit_die",
                "hit die: {dice}, one roll for every target of the ability",
                clause=INTRO,
                value=die,
                dice=dice.text("hit"),
            )
        if attack.kind == "status":
            _status(scenario, target, die, out, steps)
        else:
            _attack(scenario, target, die, out, steps)
        return out

    def modifiers(self) -> Sequence[ModifierRow]:
        rows = [
            ModifierRow("hit", "hit die", "d10 - Accuracy + Evasion <= 7", "Physical and magical attacks hit."),
            ModifierRow("natural_1", "hit die", "always hits", "A natural 1 hits with a physical or magical attack."),
            ModifierRow(
                "status", "hit die", "d10 - Status Accuracy + Resistance <= 5", "A status-inflicting ability lands."
            ),
            ModifierRow("shell_magical", "Shell", "x2", "A magical attack on a target with an active Shell."),
            ModifierRow("no_shell_physical", "Shell", "x2", "A physical attack on a target without a Shell."),
        ]
        for m, threshold in STATUS_THRESHOLDS.items():
            effect = (
                "immune to the status"
                if threshold is None
                else "cannot evade the status"
                if threshold == "always"
                else f"status lands on {threshold} or below"
            )
            rows.append(
                ModifierRow(
                    f"element_x{multiplier_text(m)}",
                    "element",
                    f"x{multiplier_text(m)}",
                    f"Damage x{multiplier_text(m)}; a status-inflicting ability: {effect}.",
                )
            )
        for step in BONUS_TRACKER:
            rows.append(ModifierRow(f"tracker_{step:+d}", "Bonus Tracker", f"{step:+d}", "Added to the statistic."))
        rows += [
            ModifierRow("blinded", "status", "accuracy / 2", "Physical, Magical, Status Accuracy halved, down."),
            ModifierRow("petrified", "status", "Evasion / 2", "Base Evasion halved, rounded down."),
            ModifierRow("paralyzed", "status", "miss", "The character's physical attacks automatically miss."),
            ModifierRow("silenced", "status", "miss", "The character's magical attacks automatically miss."),
            ModifierRow("knock_out", "attack", "die = 1", "Damage as if the hit die showed 1; incapacitates."),
        ]
        return rows


# -- physical and magical attacks ------------------------------------------------------------------------


def _attack(scenario: LastOdysseyScenario, target: Target, die: IntArray, out: Outcome, steps: Steps) -> None:
    attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
    kind = attack.kind
    assert kind == "physical" or kind == "magical"
    section = SECTION[kind]
    accuracy = attacker_stat(attacker, "physical_accuracy" if kind == "physical" else "magical_accuracy", options)
    evasion = target_stat(target, "evasion")
    accuracy_value = die - accuracy.value
    hit_value = accuracy_value + evasion.value
    # hit_value <= 7, or a natural 1: the faces up to 7 + Accuracy - Evasion, and at least the 1.
    rolled_hit = die <= max(1, ATTACK_THRESHOLD + accuracy.value - evasion.value)
    if steps.enabled:
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
    hit = _lean_in(target, rolled_hit, steps)
    blocked = "paralyzed" if kind == "physical" else "silenced"
    if blocked in attacker.statuses:
        hit = np.zeros_like(hit)
        steps.note(
            "auto_miss",
            f"the user is {blocked.capitalize()}: its {kind} attacks automatically miss",
            clause=f"Statuses ({blocked.capitalize()})",
            value="miss",
        )

    # Base damage: Attack - Defense + the hit die (1 on a knock-out), at least 1.
    attack_stat = attacker_stat(attacker, "physical_attack" if kind == "physical" else "magical_attack", options)
    defense = target_stat(target, "physical_defense" if kind == "physical" else "magical_defense")
    damage_die = 1 if attack.knock_out else die
    raw = (attack_stat.value - defense.value) + damage_die
    base = np.maximum(raw, 1)
    if attack.knock_out:
        base = np.full(len(die), base, dtype=np.int64)
    multiplier = damage_multiplier(attack, target)
    final = final_damage(base, multiplier, options.rounding)
    damage = final * hit
    out.set("result", ~hit)  # HIT = 0, MISS = 1
    out.set("accuracy_value", accuracy_value)
    out.set("hit_value", hit_value)
    out.set("base_damage", np.where(hit, base, NULL_INT))
    out.set("damage", damage)
    out.set("status_applied", _constant(out.n, NULL_CODE))
    out.set("tracker", _constant(out.n, NULL_INT))
    if steps.when(hit):
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
            "base_damage",
            text + " = {raw}, at least 1, = {base}",
            clause=clause,
            value=base,
            where=hit & floored,
            **values,
        )
        factors = damage_factors(attack, target)
        assert product(factors) == multiplier
        for f in factors:
            steps.note("modifier", f.text(), clause=f.clause, value=multiplier_text(f.value), where=hit)
        how = "to nearest, halves up" if options.rounding == "nearest" else "down (option rounding: down)"
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
    _apply_to_hp(scenario, target, damage, out, steps)


# -- status-inflicting abilities -------------------------------------------------------------------------


def _status(scenario: LastOdysseyScenario, target: Target, die: IntArray, out: Outcome, steps: Steps) -> None:
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
    clause = f"{STATUS_SECTION}; Statuses (elemental multiplier)"
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
            clause=f"{OTHER_SIDE}; Statuses",
            value="miss",
        )
    out.set("result", ~hit)  # HIT = 0, MISS = 1
    out.set("accuracy_value", accuracy_value)
    out.set("hit_value", hit_value)
    out.set("base_damage", _constant(out.n, NULL_INT))
    out.set("damage", _constant(out.n, 0))
    out.set("status_applied", hit)
    out.set("tracker", _constant(out.n, NULL_INT))
    _apply_to_hp(scenario, target, np.zeros(len(die), dtype=np.int64), out, steps)


# -- buffs and debuffs -----------------------------------------------------------------------------------


def _always_succeeds(scenario: LastOdysseyScenario, target: Target, out: Outcome, steps: Steps) -> None:
    attack = scenario.attack
    stat = attack.stat
    assert stat is not None
    current = target.buffs.get(stat, 0)
    levels = attack.levels if attack.kind == "buff" else -attack.levels
    burned = attack.kind == "buff" and "burned" in target.statuses
    after = current if burned else move_tracker(current, levels)
    steps.note(
        "always",
        f"a {attack.kind} succeeds no matter what: no hit die is rolled",
        clause=INTRO,
        value="hit",
    )
    if burned:
        steps.note(
            "tracker",
            f"{target.name} is Burned and cannot be buffed: {NAMES[stat]} stays at {current:+d}",
            clause="Statuses (Burned)",
            value=after,
        )
    else:
        word = "buff" if levels > 0 else "debuff"
        plural = "" if abs(levels) == 1 else "s"
        steps.note(
            "tracker",
            f"{NAMES[stat]}: {current:+d} moved {abs(levels)} level{plural} of {word} along the Bonus Tracker"
            f" (-7, -3, -1, 0, +1, +3, +7) = {after:+d}",
            clause="Buffs and Debuffs (buffs and debuffs cancel step for step)",
            value=after,
        )
    out.set("result", _constant(out.n, HIT))
    out.set("damage", _constant(out.n, 0))
    for name in ("accuracy_value", "hit_value", "base_damage"):
        out.set(name, _constant(out.n, NULL_INT))
    out.set("status_applied", _constant(out.n, NULL_CODE))
    out.set("tracker", after)
    _apply_to_hp(scenario, target, np.zeros(out.n, dtype=np.int64), out, steps)


def _constant(n: int, value: int) -> IntArray:
    """n copies of `value` (Outcome.set copies it); small ones (exact odds, rolls) are made once."""
    return _small_constant(n, value) if n <= 64 else np.full(n, value, dtype=np.int64)


@lru_cache(maxsize=512)
def _small_constant(n: int, value: int) -> IntArray:
    array = np.full(n, value, dtype=np.int64)
    array.flags.writeable = False
    return array


# -- shared steps ----------------------------------------------------------------------------------------


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


def _note_other_side(scenario: LastOdysseyScenario, target: Target, steps: Steps) -> None:
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


def _apply_to_hp(scenario: LastOdysseyScenario, target: Target, damage: IntArray, out: Outcome, steps: Steps) -> None:
    """Shell absorption, overflow, HP lost and downed (Shells; docs/last-odyssey.md#silent-shell; Death and Injury).

    HP lost is null (unknown) only where HP could be lost and the target's HP, or its Shell's points, are
    not given; a target given without HP is alive (a downed character cannot be targeted), so where no HP
    can be lost it is not downed.
    """
    hp = target.hp
    points = shell_points(target)
    unknown: BoolArray | None = None
    lost: IntArray | int = 0
    if points is not None and points > 0:
        hit = shell_hit(damage, points)
        out.set("shell_absorbed", hit.absorbed)
        out.set("overflow", np.where(hit.broken, hit.overflow, NULL_INT))
        if hp is None:
            unknown = damage > points  # broken with an overflow above 0
        else:
            lost = hp_lost(damage, points, hp)  # broken, and the overflow is at least the HP
        if steps.enabled and steps.when(damage > 0):
            _note_shell(steps, points, hit.absorbed, hit.broken, hit.overflow, damage, hp)
    else:
        out.set("shell_absorbed", _constant(out.n, NULL_INT))
        out.set("overflow", _constant(out.n, NULL_INT))
        if shell_active(target) or hp is None:
            unknown = damage > 0
            if steps.enabled and shell_active(target) and steps.when(unknown):
                steps.note(
                    "shell",
                    "the target's Shell is active but its points are not given: the HP lost is unknown",
                    clause="Shells",
                    value=None,
                    where=unknown,
                )
        else:
            lost = hp_lost(damage, 0, hp)
    if unknown is not None:  # where HP is known to be untouched: 0 lost, not downed
        out.set("hp_lost", np.where(unknown, NULL_INT, 0))
        untouched = np.where(unknown, NULL_CODE, 0)
        out.set("downed", untouched)
        out.set("incapacitated", untouched)
        return
    assert hp is not None
    downed = np.asarray(lost) == hp
    out.set("hp_lost", lost)
    out.set("downed", downed)
    out.set("incapacitated", downed if scenario.attack.knock_out else _constant(out.n, 0))
    if steps.enabled and steps.when(np.asarray(lost) > 0):
        lost = np.broadcast_to(np.asarray(lost), damage.shape)
        left = hp - lost
        values = {"hp": hp, "lost": lost, "damage": damage, "left": left}
        clause = "Attributes and Statistics (HP never below 0); Death and Injury (downed)"
        capped = (damage > hp) if points is None else np.zeros(damage.shape, dtype=bool)
        steps.note(
            "hp",
            "HP {hp} - {damage}: HP never goes below 0, so {left}: at 0 HP the target is downed",
            clause=clause,
            value=left,
            where=(lost > 0) & capped,
            **values,
        )
        steps.note(
            "hp",
            "HP {hp} - {lost} = {left}: at 0 HP the target is downed",
            clause=clause,
            value=left,
            where=(lost > 0) & ~capped & downed,
            **values,
        )
        steps.note("hp", "HP {hp} - {lost} = {left}", clause=clause, value=left, where=(lost > 0) & ~downed, **values)
        if scenario.attack.knock_out:
            steps.note(
                "incapacitated",
                f"{target.name} was knocked out: temporarily incapacitated instead of killed",
                clause=f"{KNOCK_OUT} (docs/last-odyssey.md#silent-knock-out)",
                value=True,
                where=downed,
            )


def _note_shell(
    steps: Steps,
    points: int,
    absorbed: IntArray,
    broken: BoolArray,
    overflow: IntArray,
    damage: IntArray,
    hp: int | None,
) -> None:
    """The Shell's part of a damaging hit, for each attack (Shells; docs/last-odyssey.md#silent-shell)."""
    values = {"points": points, "absorbed": absorbed, "damage": damage, "overflow": overflow, "left": points - absorbed}
    hit = damage > 0
    steps.note(
        "shell",
        "Shell {points} absorbs all {damage}: {left} Shell left, no HP lost",
        clause="Shells",
        value=absorbed,
        where=hit & ~broken,
        **values,
    )
    breaks = "Shell {points} absorbs {absorbed} and breaks: overflow {damage} - {absorbed} = {overflow}"
    clause = "Shells (overflow damage); docs/last-odyssey.md#silent-shell"
    if hp is None:
        steps.note("shell", breaks, clause=clause, value=absorbed, where=hit & broken, **values)
        return
    downs = overflow >= hp
    steps.note(
        "shell",
        breaks + f", at least the remaining {hp} HP: the target is downed",
        clause=clause,
        value=absorbed,
        where=hit & broken & downs,
        **values,
    )
    steps.note(
        "shell",
        breaks + f", less than the remaining {hp} HP: no HP lost",
        clause=clause,
        value=absorbed,
        where=hit & broken & ~downs,
        **values,
    )
