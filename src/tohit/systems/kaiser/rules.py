"""Kaiser RPG: Attacking and Defending, with docs/kaiser.md#where-the-page-is-silent.

Clauses, in the page's order:
1. Final Offensive Roll = 2d6 + Offensive Skill + factors.
2. Final Defensive Roll = 2d6 + Defensive Skill + modifiers.
   Both rolls are open (double 6) and fumble (double 1) unless `open_rolls_and_fumbles` is false, and take
   advantage An / disadvantage Dn [Dice].
3. Offensive greater: a Successful Attack. Defensive greater: a Failed Attack. A tie: nothing happens.
Successful Attack: the defender loses 1 AP (never below 0; at 0 AP it becomes Flat-Footed instead
[Action Points]); Units = max(0, DoS - Absorption - AV[damage type]); damage = Units x Base Damage.
Failed Attack: for a hand-to-hand or point-blank attack the defender gains Counter bonus = floor(DoS / 2)
and may Counterattack (1 AP); a ranged attack beyond point-blank gives no counter.
Critical [Critical]: a hit costing at least half the target's current LP; level = 2d6 (no open
roll or fumble) + floor(damage / 10), the excess over 20 halved.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from tohit.core.models import Scenario
from tohit.core.outcome import Field, Outcome, null_int
from tohit.core.role_needs import Need, flag_set, only
from tohit.core.roles import FacesRole, Role, sum_faces
from tohit.core.steps import Steps
from tohit.core.system import Dice, System
from tohit.systems.kaiser.consequences import critical_level, is_critical
from tohit.systems.kaiser.dice import ROLE_LABELS, kaiser_roll
from tohit.systems.kaiser.models import Attack, Attacker, Options, Target
from tohit.systems.kaiser.silent import SILENT
from tohit.systems.kaiser.tables import HIT as HIT
from tohit.systems.kaiser.tables import MISS as MISS
from tohit.systems.kaiser.tables import TIE as TIE
from tohit.systems.kaiser.tables import characteristic_modifier

KaiserScenario = Scenario[Attacker, Attack, Target, Options]

PAGE = "kaiser: Attacking and Defending"
CRITICAL = "kaiser: Critical (docs/kaiser.md#silent-critical)"
COUNTER_RANGES = ("hand_to_hand", "point_blank")
Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]


#: The Critical level's 2d6 (no Open Roll or Fumble) [Critical]: one role for every attack, so that its exact
#: support is worked out once (a fight builds a joint table for each situation, each reading it).
CRITICAL_ROLE = FacesRole(
    "critical", (6, 6), sum_faces, notation="2d6", columns=("total",), label=ROLE_LABELS["critical"]
)


def base_damage(attacker: Attacker) -> int:
    """Base Damage = weapon damage + Strength modifier, always above 0 [Combat Terms]."""
    return max(1, attacker.weapon.damage + characteristic_modifier(attacker.strength))


class Kaiser(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.kaiser.fight"
    id = "kaiser"
    title = "Kaiser RPG"
    summary = "Opposed 2d6 + skill, open rolls and fumbles, degrees of success, Units of damage x Base Damage"
    page = "kaiser.md"
    silent = SILENT
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    default_depth = 8
    detail_roles = frozenset({"critical"})
    role_labels = ROLE_LABELS
    batch_trace = True
    fields = (
        Field(
            "result",
            "label",
            "hit (Offensive greater), miss (Defensive greater) or tie.",
            ("hit", "miss", "tie"),
        ),
        Field("damage", "int", "Life Points lost: Units x Base Damage."),
        Field("critical", "flag", "The hit cost at least half the target's current LP (Critical)."),
        Field(
            "critical_level", "int", "2d6 + floor(damage / 10), excess over 20 halved.", nullable=True, in_odds=False
        ),
        Field("dos", "int", "Offensive - Defensive roll: the attacker's DoS (negative: the defender's)."),
        Field("units", "int", "Units of Damage: max(0, DoS - Absorption - AV)."),
        Field("ap_lost", "int", "AP the defender loses: 1 on a successful attack, never below 0 AP."),
        Field("flat_footed", "flag", "Hit at 0 AP: the defender becomes Flat-Footed.", in_odds=False),
        Field("counter_bonus", "int", "floor(defender DoS / 2) on a failed close attack.", nullable=True),
        Field("counterattack", "flag", "The defender may take the Counterattack Reaction (1 AP)."),
        Field("offensive_roll", "int", "The Final Offensive Roll.", in_odds=False),
        Field("defensive_roll", "int", "The Final Defensive Roll.", in_odds=False),
    )

    def roles(self, scenario: KaiserScenario, target: Target) -> dict[str, Role]:
        special = scenario.options.open_rolls_and_fumbles
        return {
            "offense": kaiser_roll("offense", scenario.attack.advantage, special),
            "defense": kaiser_roll("defense", target.advantage, special),
            "critical": CRITICAL_ROLE,
        }

    def needs(self, scenario: KaiserScenario, target: Target) -> dict[str, Need]:
        """The Offensive and Defensive Rolls are read by every attack; the Critical level's 2d6 only when the hit
        costs the target half its current LP or more [Critical] (docs/kaiser.md#silent-critical)."""
        return {"critical": only(("offense", "defense"), flag_set("critical"), CRITICAL)}

    def resolve(self, scenario: KaiserScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        """An attack, the page's steps in order: the two Final Rolls, their comparison, then a Successful Attack
        (and its Critical [Critical]), a Failed Attack or a tie [Attacking and Defending]."""
        attacker, attack = scenario.attacker, scenario.attack
        offense = _final_roll(
            steps,
            dice,
            "offense",
            "Offensive",
            ("Offensive Skill", attacker.offensive_skill),
            ("factors", attack.modifiers),
            step=1,
        )
        defense = _final_roll(
            steps,
            dice,
            "defense",
            "Defensive",
            ("Defensive Skill", target.defensive_skill),
            ("modifiers", target.modifiers),
            step=2,
        )
        rolls = Opposed(offense, defense, offense - defense)
        hit, miss = rolls.dos > 0, rolls.dos < 0
        out = _compare(rolls, hit, miss)
        damage = _successful_attack(out, attacker, target, rolls, hit, steps)
        _critical(out, target, dice, damage, hit, steps)
        _failed_attack(out, attack, target, rolls, miss, steps)
        _tie(steps, rolls)
        return out


class Opposed(NamedTuple):
    """The Final Offensive and Defensive Rolls and the attacker's DoS (negative: the defender's) [Attacking and
    Defending, steps 1 to 3]."""

    offense: Array
    defense: Array
    dos: Array


def _compare(rolls: Opposed, hit: Mask, miss: Mask) -> Outcome:
    """Step 3: "Compare the Offensive Roll and Defensive Roll": greater, a Successful Attack; lower, a Failed
    Attack; a tie, nothing happens [Attacking and Defending, step 3]. The outcome with the rolls and the result."""
    out = Outcome(len(rolls.dos))
    out.set("result", np.where(hit, HIT, np.where(miss, MISS, TIE)))  # `np.select` costs several times more
    out.set("dos", rolls.dos)
    out.set("offensive_roll", rolls.offense)
    out.set("defensive_roll", rolls.defense)
    return out


def _successful_attack(
    out: Outcome, attacker: Attacker, target: Target, rolls: Opposed, hit: Mask, steps: Steps
) -> Array:
    """Successful Attack: "The defender loses 1 AP" (at 0 AP it becomes Flat-Footed [Action Points]); Units of
    Damage = max(0, DoS - Absorption - AV against the Damage Type); Damage Dealt = Units x Base Damage [Successful
    Attack]. Returns the damage (0 where the attack did not succeed)."""
    dos = rolls.dos
    av = target.armor.get(attacker.weapon.damage_type, 0)
    units = np.where(hit, np.maximum(0, dos - target.absorption - av), 0)
    per_unit = base_damage(attacker)
    damage = units * per_unit
    out.set("units", units)
    out.set("damage", damage)
    out.set("ap_lost", hit & (target.ap > 0))
    out.set("flat_footed", hit & (target.ap == 0))
    if steps.when(hit):
        steps.note(
            "compare",
            "{off} vs {dfn}: Offensive Roll greater by {dos}: a Successful Attack with {dos} DoS",
            clause=f"{PAGE}, step 3; Successful Attack",
            value="hit",
            where=hit,
            off=rolls.offense,
            dfn=rolls.defense,
            dos=dos,
        )
        _note_ap_lost(steps, target, hit)
        steps.note(
            "units",
            "Units = max(0, {dos} DoS - Absorption {absorption} - AV {av} ({kind})) = {units}",
            clause=f"{PAGE}, Successful Attack",
            value=units,
            where=hit,
            dos=dos,
            absorption=target.absorption,
            av=av,
            kind=attacker.weapon.damage_type,
            units=units,
        )
        steps.note(
            "damage",
            "Damage = {units} Units x Base Damage {base} (weapon {weapon} + Strength modifier {smod:+d}) = {damage}",
            clause=f"{PAGE}, Damage Dealt = (DoS - Absorption - AV) x Base Damage",
            value=damage,
            where=hit,
            units=units,
            base=per_unit,
            weapon=attacker.weapon.damage,
            smod=characteristic_modifier(attacker.strength),
            damage=damage,
        )
    return damage


def _note_ap_lost(steps: Steps, target: Target, hit: Mask) -> None:
    """ "The defender loses 1 AP this round" [Successful Attack]; with none left, Flat-Footed [Action Points]."""
    ap_text = (
        f"the defender loses 1 AP ({target.ap} -> {target.ap - 1})"
        if target.ap > 0
        else "the defender has no AP left to lose and becomes Flat-Footed"
    )
    steps.note(
        "ap_lost",
        ap_text,
        clause=f"{PAGE}, Successful Attack (Action Points)",
        value=int(target.ap > 0),
        where=hit,
    )


def _critical(out: Outcome, target: Target, dice: Dice, damage: Array, hit: Mask, steps: Steps) -> None:
    """Critical: at least half the target's current LP in one hit (the outcome's `critical`, the page's test); level
    = 2d6 + floor(damage / 10), the excess over 20 halved [Critical; docs/kaiser.md#silent-critical]. A blow that
    leaves the target at 0 LP has nothing applied (it is unconscious anyway; a fight rolls no Critical): its trace
    says so instead of giving a level [docs/kaiser.md#silent-critical-at-0-lp]."""
    critical = hit & is_critical(damage, target.lp)
    lethal = critical & (damage >= target.lp)
    level = np.where(critical, critical_level(dice["critical"]["total"], damage), 0)
    out.set("critical", critical)
    out.set("critical_level", null_int(~critical, level))
    if steps.when(critical & ~lethal):
        steps.note(
            "critical",
            "{damage} damage is at least half of {lp} LP: Critical, level {dice} + floor({damage} / 10)"
            " = {level} (excess over 20 halved)",
            clause="kaiser: Critical (docs/kaiser.md#silent-critical)",
            value=level,
            where=critical & ~lethal,
            damage=damage,
            lp=target.lp,
            dice=dice.text("critical"),
            level=level,
        )
    if steps.when(lethal):
        steps.note(
            "critical",
            "{damage} damage leaves {lp} LP at 0: unconscious, no Critical is rolled",
            clause="kaiser: Critical (docs/kaiser.md#silent-critical-at-0-lp)",
            value=0,
            where=lethal,
            damage=damage,
            lp=target.lp,
        )


def _failed_attack(out: Outcome, attack: Attack, target: Target, rolls: Opposed, miss: Mask, steps: Steps) -> None:
    """Failed Attack: a hand-to-hand attack (or a ranged one at point-blank) gives the defender a Counter bonus
    "equal to half the DoS, round down" and the Counterattack Reaction (1 AP); a ranged attack beyond point-blank
    gives no Counter [Failed Attack]."""
    dos = rolls.dos
    close = attack.range in COUNTER_RANGES
    counter = miss & close
    out.set("counter_bonus", null_int(~counter, (-dos) // 2))
    out.set("counterattack", counter & (target.ap >= 1))
    if not steps.when(miss):
        return
    if close:
        text = (
            "{off} vs {dfn}: Defensive Roll greater by {dd}: a Failed Attack; {range} attack: Counter bonus"
            " floor({dd} / 2) = {bonus}"
            + ("; the defender may Counterattack (1 AP)" if target.ap else "; no AP left to Counterattack")
        )
    else:
        text = "{off} vs {dfn}: Defensive Roll greater by {dd}: a Failed Attack; ranged beyond point-blank: no Counter"
    steps.note(
        "compare",
        text,
        clause=f"{PAGE}, step 3; Failed Attack",
        value="miss",
        where=miss,
        off=rolls.offense,
        dfn=rolls.defense,
        dd=-dos,
        range=attack.range.replace("_", "-"),
        bonus=(-dos) // 2,
    )


def _tie(steps: Steps, rolls: Opposed) -> None:
    """ "If there is a tie: nothing happens" [Attacking and Defending, step 3]."""
    tie = rolls.dos == 0
    if steps.when(tie):
        steps.note(
            "compare",
            "{off} vs {dfn}: a tie: nothing happens",
            clause=f"{PAGE}, step 3 (a tie)",
            value="tie",
            where=tie,
            off=rolls.offense,
            dfn=rolls.defense,
        )


def _final_roll(
    steps: Steps, dice: Dice, role: str, side: str, skill: tuple[str, int], mods: tuple[str, int], *, step: int
) -> np.ndarray:
    """Steps 1 and 2: Final Roll = 2d6 + skill + modifiers (with open rolls and fumbles [Dice]).

    On a fumble the dice count as the severity table says and the total is never below 0.
    """
    cols = dice[role]
    total = cols["dice"] + skill[1] + mods[1]
    total = np.where(cols["fumble"] == 1, np.maximum(total, 0), total)
    steps.note(
        f"{side.lower()}_roll",
        f"{side} Roll: {{dice}} + {skill[0]} {{skill}} + {mods[0]} {{mods:+d}} = {{total}}",
        clause=f"{PAGE}, step {step}",
        value=total,
        dice=dice.text(role),
        skill=skill[1],
        mods=mods[1],
        total=total,
    )
    if steps.when(cols["fumble"]):
        steps.note(
            f"{side.lower()}_fumble",
            f"{side} Roll fumbled: the dice count as rolled on the severity table, the total never below 0",
            clause="kaiser: Dice, Fumble (docs/kaiser.md#silent-open-rolls)",
            where=cols["fumble"] == 1,
        )
    return total
