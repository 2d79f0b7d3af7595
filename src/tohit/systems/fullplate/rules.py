"""FullPlate: Attacking, with docs/fullplate.md#where-the-page-is-silent.

Clauses, in the page's order (each has a test named after it in tests/fullplate/):
1. Effective THAC0 = THAC0 - To-Hit bonuses + To-Hit penalties; To-Hit Roll = effective THAC0 - d20. The
   roll hits every AC at or above it ("AC 6 or worse"). Reported: the AC hit, and the natural needed
   against this target with its chance.
2. Fumble: a natural 1 always misses (the page's rule, not the wiki's later revision;
   docs/fullplate.md#silent-natural-1).
3. A natural 20 hits when it is short by 10 or less; beyond, damage halves once per 5 (or part of 5) after
   the first 10; after halving, 0.5 to 1 becomes 1 and below 0.5 becomes 0 and a miss
   (docs/fullplate.md#silent-natural-20). The natural needed and its chance are exact (window.py): "cannot hit" (0%)
   when even a natural 20's every damage roll halves below half a point.
4. Critical Hit: a natural 20 or a natural inside the weapon's Critical Range, and a hit by 5 or more;
   the Critical Range never grants the automatic hit. Severity 1d4 (+ Backstab, Called Attack and
   armourless points), or `crit_damage: double_dice | max_damage` instead of the 1d4
   (docs/fullplate.md#silent-critical-hit).
5. Enhancement, Special Defence and the ammunition's Enhancement after a hit (docs/fullplate.md#silent-enhancement).
6. The Circumstantial Modifiers table (circumstances.py; docs/fullplate.md#silent-modifier-scales,
   docs/fullplate.md#silent-range-bands), with Flatfooted: rows on one scale replace each other (the row worse for the
   attacker is used, the trace names the row replaced), scales add; `modifier_stacking: all` adds every row.
7. Main-Hand vs Off-Hand (situation.py).
8. Automatic Hits: roll only for Critical Hit or Fumble; a natural 1 is rolled again and is no Fumble
   if the new roll would hit AC 0 (docs/fullplate.md#silent-automatic-hit).
9. Firing Into Melee: the creature struck is picked first, with shares 2^(size step) on the page's die
   (melee.py; docs/fullplate.md#silent-firing-into-melee), and the roll is judged against its AC, its own Special
   Defence, Resistance and Vulnerability adjusting the damage (a creature given without stats is judged as the
   intended target); Precision always hits the intended target.
10. Damage: weapon dice + Strength (damage bonus) + Enhancement, then Special Defence, then Resistance or
    Vulnerability as a percentage rounded down [wiki Damage], then the natural-20 halvings.

The attack's steps: the To-Hit Roll's trace and Automatic Hits in to_hit.py, what a hit does (damage,
Severity, the creature struck, ammunition) in on_hit.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tohit.core.dice import DiceExpr
from tohit.core.outcome import Field, Outcome, null_int
from tohit.core.role_needs import Need, flag_set, only
from tohit.core.roles import DiceRole, FacesRole, PickRole, Role, sum_faces
from tohit.core.steps import Steps, each_text, rows_text
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.fullplate import on_hit, to_hit
from tohit.systems.fullplate.circumstances import TABLE
from tohit.systems.fullplate.damage import halvings
from tohit.systems.fullplate.melee import shares
from tohit.systems.fullplate.models import Attack, Attacker, FullPlateScenario, Options, Target
from tohit.systems.fullplate.silent import SILENT
from tohit.systems.fullplate.situation import PAGE, Defender, Situation, engaged_defender, situation
from tohit.systems.fullplate.window import Chance, chance

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

HIT, MISS, FUMBLE = 0, 1, 2
#: Severity points for a target's armour [wiki Severity]: none +2, natural only +1, worn 0.
ARMOUR_SEVERITY = {"none": 2, "natural": 1, "worn": 0}
DAMAGE = "fullplate: Damage (docs/fullplate.md#silent-damage)"
#: The dice roles in the page's words: the To-Hit Roll (thac0 - 1d20); a Critical Hit lets a player "roll for
#: Severity" or "instead roll damage twice" (Critical Hits); the Severity wiki's Critical Hit +1d4 and Called
#: Attack +1d3; an Automatic Hit that would be a Fumble makes "a new attack roll" (Automatic Hits); firing into
#: melee, "roll a dice to determine which is hit" (Firing Into Melee).
ROLE_LABELS = {
    "to_hit": "To-Hit Roll",
    "damage": "Damage roll",
    "damage_again": "Damage rolled twice",
    "severity": "Severity (Critical Hit)",
    "called": "Severity (Called Attack)",
    "reroll": "New attack roll (Automatic Hit)",
    "pick": "Which is hit (Firing Into Melee)",
}


#: The roles whose faces decide whether the attack hits, and how well (the others wait on them).
ROLLED = ("to_hit", "pick", "reroll")


def _hit(out: Outcome) -> Mask:
    return np.asarray(out["result"] == HIT, dtype=bool)


def _damaged(out: Outcome) -> Mask:
    """A hit, or a natural 20 beyond the window whose damage the halvings decide (it may halve to a miss)."""
    return _hit(out) | np.asarray(out["halvings"] > 0, dtype=bool)


def _natural_1(out: Outcome) -> Mask:
    return np.asarray(out["effective_thac0"] - out["to_hit_roll"] == 1, dtype=bool)


def _not_fumbled(out: Outcome) -> Mask:
    return np.asarray(out["result"] != FUMBLE, dtype=bool)


@lru_cache(maxsize=64)
def die(name: str, sides: int) -> FacesRole:
    """One die as a role (column "total"); cached, so its support is enumerated once."""
    return FacesRole(name, (sides,), sum_faces, notation=f"d{sides}", columns=("total",), label=ROLE_LABELS[name])


@lru_cache(maxsize=256)
def dice_role(name: str, expr: DiceExpr) -> DiceRole:
    """A dice-notation role, cached by expression (its exact support is computed once)."""
    return DiceRole(name, expr, label=ROLE_LABELS[name])


@lru_cache(maxsize=256)
def pick_role(weights: tuple[int, ...]) -> PickRole:
    return PickRole("pick", weights, label=ROLE_LABELS["pick"])


@lru_cache(maxsize=256)
def dice_only(expr: DiceExpr) -> DiceExpr:
    """The dice of a damage expression without its flat part (double_dice adds flat modifiers once)."""
    text = " + ".join(t.notation for t in expr.terms)
    return DiceExpr(expr.terms, 0, text)


def standing_engaged(target: Target) -> list[int]:
    """The positions in `engaged_with` of the creatures standing in the melee: one that is down (`engaged_down`)
    is out of it, and a stray shot never goes to it (docs/fullplate.md#silent-firing-into-melee)."""
    down = set(target.engaged_down)
    return [i for i in range(len(target.engaged_with)) if i not in down]


def melee_candidates(attacker: Attacker, target: Target) -> list[tuple[int, str, int]] | None:
    """(position in engaged_with + [target], name, share) of each creature a shot may hit, the intended target
    last: only the creatures standing in the melee; None when the shot is sure."""
    standing = standing_engaged(target)
    if not attacker.weapon.ranged or not standing or attacker.precision:
        return None
    where = [*standing, len(target.engaged_with)]
    names = [target.engaged_with[i].name for i in standing] + [target.name]
    weights = shares([target.engaged_with[i].size for i in standing] + [target.size])
    return list(zip(where, names, weights, strict=True))


def per_row(values: Sequence[int], index: Array | None) -> int | Array:
    """One value per attack: the value of the creature picked (`index`), or the one value when all agree."""
    if index is None or len(set(values)) == 1:
        return values[0]
    return np.asarray(values, dtype=np.int64)[index]


@lru_cache(maxsize=1024)
def _chance(
    eff: int, ac: int, expr: DiceExpr, flat: int, effect: str, resistance_pct: int, vulnerability_pct: int
) -> Chance:
    return chance(eff, ac, expr, flat, effect, resistance_pct, vulnerability_pct)


def hit_chance(attacker: Attacker, sit: Situation, defender: Defender) -> Chance:
    """The natural needed against `defender` and the exact chance to hit it (window.py)."""
    flat = attacker.damage_bonus + sit.enhancement.damage
    return _chance(
        sit.effective_thac0,
        defender.ac,
        attacker.weapon.dice,
        flat,
        defender.special_defence,
        defender.resistance_pct,
        defender.vulnerability_pct,
    )


class FullPlate(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.fullplate.fight"
    id = "fullplate"
    title = "FullPlate"
    summary = "THAC0 - d20 vs AC: fumbles, natural-20 window, Critical Hits and Severity, circumstance table"
    page = "fullplate.txt"
    silent = SILENT
    role_labels = ROLE_LABELS
    #: Every note whose words depend on the roll passes `where=` or takes its words per attack
    #: (tests/fullplate/test_fullplate_batch_trace.py).
    batch_trace = True
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    fields = (
        Field("result", "label", "hit, miss or fumble (a natural 1).", ("hit", "miss", "fumble")),
        Field("damage", "int", "Damage dealt: dice + Strength + Enhancement, Special Defence, %, halvings."),
        Field("critical", "flag", "A Critical Hit: natural 20 or in the Critical Range, and a hit by 5 or more."),
        Field("halvings", "int", "Times a natural 20 beyond the 10-point window halves the damage."),
        Field("severity", "int", "Severity points: Critical Hit 1d4, Backstab, Called 1d3, armour.", nullable=True),
        Field(
            "creature_hit",
            "label",
            "Who the attack hit (firing into melee may hit another, judged with its own defences).",
            nullable=True,
        ),
        Field("to_hit_roll", "int", "Effective THAC0 - d20: the roll hits this AC or worse.", in_odds=False),
        Field(
            "ac_hit",
            "int",
            "Best AC the roll hits at full effect (natural 20: 10 lower).",
            nullable=True,
            in_odds=False,
        ),
        Field("effective_thac0", "int", "THAC0 - To-Hit bonuses + To-Hit penalties.", in_odds=False),
        Field(
            "target_ac",
            "int",
            "The AC the roll is compared with (Flatfooted included; firing into melee: the creature picked).",
            in_odds=False,
        ),
        Field(
            "natural_needed",
            "int",
            "Lowest natural d20 that hits that AC (null for an Automatic Hit, or when even a natural 20 cannot).",
            nullable=True,
            in_odds=False,
        ),
        Field(
            "natural_chance_pct",
            "int",
            "Chance in % of rolling the natural needed or more (0 when even a natural 20 cannot hit).",
            nullable=True,
            in_odds=False,
        ),
        Field(
            "ammunition_enhancement",
            "int",
            "The ammunition's Enhancement after the attack (1 lost on a hit; penalties kept).",
            nullable=True,
        ),
        Field("hp_left", "int", "The intended target's hit points after the attack.", nullable=True, in_odds=False),
    )

    # -- input ---------------------------------------------------------------------------------------
    def check(self, scenario: FullPlateScenario) -> None:
        """Every target's circumstances, hands and range band (raises InputError on the field)."""
        for i, target in enumerate(scenario.targets):
            situation(scenario.attacker, scenario.attack, target, scenario.options, index=i)

    def modifiers(self) -> Sequence[ModifierRow]:
        return [ModifierRow(row.id, row.group, row.shown, row.description, scale=row.scale) for row in TABLE]

    def roles(self, scenario: FullPlateScenario, target: Target) -> dict[str, Role]:
        attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
        expr = attacker.weapon.dice
        roles: dict[str, Role] = {"to_hit": die("to_hit", 20), "damage": dice_role("damage", expr)}
        if options.crit_damage == "double_dice":
            roles["damage_again"] = dice_role("damage_again", dice_only(expr))
        if options.crit_damage == "severity":
            roles["severity"] = die("severity", 4)
        if attack.called:
            roles["called"] = die("called", 3)
        if attack.automatic_hit:
            roles["reroll"] = die("reroll", 20)
        candidates = melee_candidates(attacker, target)
        if candidates is not None:
            roles["pick"] = pick_role(tuple(w for _, _, w in candidates))
        return roles

    def needs(self, scenario: FullPlateScenario, target: Target) -> dict[str, Need]:
        """When each role is read, by the page: the To-Hit Roll always; the damage dice on a hit (or a natural 20
        whose window halves the damage); Severity and the second damage roll on a Critical Hit; a Called Attack's
        Severity on a hit; the new roll of an Automatic Hit on a natural 1; the die of Firing Into Melee unless
        the roll is a Fumble (whoever the shot goes to, a natural 1 fumbles)."""
        return {
            "damage": only(ROLLED, _damaged, f"{PAGE}, To-Hit Roll; Fumbles and Criticals (halving)"),
            "damage_again": only(ROLLED, flag_set("critical"), f"{PAGE}, Critical Hits"),
            "severity": only(ROLLED, flag_set("critical"), f"{PAGE}, Critical Hits; {on_hit.SEVERITY}"),
            "called": only(ROLLED, _hit, on_hit.SEVERITY),
            "reroll": only(("to_hit",), _natural_1, f"{PAGE}, Automatic Hits"),
            "pick": only(("to_hit", "reroll"), _not_fumbled, f"{PAGE}, Firing Into Melee"),
        }

    # -- rules ---------------------------------------------------------------------------------------
    def resolve(self, scenario: FullPlateScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
        weapon = attacker.weapon
        sit = situation(attacker, attack, target, options)
        nat = dice["to_hit"]["total"]
        n = len(nat)
        out = Outcome(n)
        eff = sit.effective_thac0
        # Clause 9: firing into melee picks the creature struck first (docs/fullplate.md#silent-firing-into-melee);
        # the roll is judged against its AC. `index` runs over engaged_with + [target]; None when the shot is sure.
        candidates = melee_candidates(attacker, target)
        if candidates is None:
            defenders = [sit.target]
            index: Array | None = None
        else:
            defenders = [engaged_defender(attacker, options, sit, e) for e in target.engaged_with] + [sit.target]
            # The pick die runs over the standing creatures only: its index, as a position in engaged_with + [target].
            index = np.asarray([i for i, _, _ in candidates], dtype=np.int64)[dice["pick"]["index"]]
        chances = [hit_chance(attacker, sit, d) for d in defenders]
        ac = per_row([d.ac for d in defenders], index)
        to_hit.note_setup(sit, target, defenders, chances, attack.automatic_hit, steps)

        # Clause 1: the To-Hit Roll and what it hits.
        roll = eff - nat
        fumble = nat == 1
        nat20 = nat == 20
        shortfall = roll - ac
        if steps.enabled:
            steps.note(
                "to_hit_roll",
                "To-Hit Roll = {eff} - {dice} = {roll}{hits}",
                clause=f"{PAGE}, To-Hit Roll; Making The Roll",
                value=roll,
                eff=eff,
                dice=dice.text("to_hit"),
                roll=roll,
                hits=rows_text(fumble, " (a natural 1)", each_text(": hits AC {roll} or worse", roll=roll)),
            )
        if candidates is not None and index is not None:
            to_hit.note_pick(candidates, defenders, index, dice, steps)
        if attack.automatic_hit:
            landed, fumbled, halved = to_hit.automatic(eff, nat, dice, steps)
        else:
            fumbled = fumble
            landed = ~fumble & ((roll <= ac) | nat20)
            halved = np.where(nat20, halvings(shortfall), 0).astype(np.int64)
            to_hit.note_compare(roll, ac, nat, shortfall, halved, steps)

        # Clause 4: Critical Hit.
        in_range = nat20 | (nat >= weapon.critical_range)
        margin = ac - roll
        critical = landed & ~fumble & in_range & (margin >= 5)
        judged = landed & ~fumble & in_range
        if steps.when(judged):
            steps.note(
                "critical",
                "{which}, {by}: {verdict}",
                clause=f"{PAGE}, Critical Hits",
                value=critical,
                where=judged,
                which=rows_text(nat20, "a natural 20", f"inside the Critical Range ({weapon.critical_range}-20)"),
                by=rows_text(
                    margin >= 0,
                    each_text("hit by {margin}", margin=margin),
                    each_text("short of AC {ac} (the window only)", ac=ac),
                ),
                verdict=rows_text(critical, "a Critical Hit", "not a Critical Hit (needs a hit by 5 or more)"),
            )

        # Clause 10: damage.
        damage, halved_miss = on_hit.damage(scenario, defenders, index, sit, dice, critical, halved, landed, steps)
        hit = landed & ~halved_miss
        damage = np.where(hit, damage, 0).astype(np.int64)
        result = np.where(fumbled, FUMBLE, np.where(hit, HIT, MISS))
        out.set("result", result)
        out.set("damage", damage)
        out.set("critical", critical & hit)
        out.set("halvings", halved)
        out.set("to_hit_roll", roll)
        out.set("ac_hit", null_int(fumble, np.where(nat20, roll - 10, roll)))
        out.set("effective_thac0", eff)
        out.set("target_ac", ac)
        if attack.automatic_hit:
            out.set("natural_needed", null_int(True, 0))
            out.set("natural_chance_pct", null_int(True, 0))
        else:
            need = per_row([c.need or 0 for c in chances], index)
            out.set("natural_needed", null_int(np.equal(need, 0), need))
            out.set("natural_chance_pct", np.where(np.equal(need, 0), 0, 5 * (21 - np.asarray(need))))

        armour = per_row([ARMOUR_SEVERITY[d.armour] for d in defenders], index)
        on_hit.severity(scenario, target, armour, dice, critical, hit, out, steps)
        hit_index = on_hit.creature_hit(attacker, target, defenders, index, damage, hit, out, steps)
        on_hit.ammunition(attacker, hit, out, steps)
        if target.hp is None:
            out.set("hp_left", null_int(True, 0))
        else:
            out.set("hp_left", np.where(hit & (hit_index == len(target.engaged_with)), target.hp - damage, target.hp))
        return out
