"""FullPlate: Attacking, with docs/fullplate.md#where-the-page-is-silent and issue #5.

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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.dice import DiceExpr
from tohit.core.models import Scenario
from tohit.core.outcome import Field, Outcome, null_code, null_int
from tohit.core.roles import DiceRole, FacesRole, PickRole, Role, sum_faces
from tohit.core.steps import Steps, each_text, joined_text, rows_text
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.fullplate.circumstances import OFF_HAND_ROW, TABLE
from tohit.systems.fullplate.damage import halve, halvings, percent, special_defence
from tohit.systems.fullplate.melee import faces, shares
from tohit.systems.fullplate.models import Attack, Attacker, Options, Target
from tohit.systems.fullplate.silent import SILENT
from tohit.systems.fullplate.situation import PAGE, Defender, Situation, Term, engaged_defender, situation
from tohit.systems.fullplate.window import Chance, chance, percent_text

FullPlateScenario = Scenario[Attacker, Attack, Target, Options]
Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

HIT, MISS, FUMBLE = 0, 1, 2
#: Severity points for a target's armour [wiki Severity]: none +2, natural only +1, worn 0.
ARMOUR_SEVERITY = {"none": 2, "natural": 1, "worn": 0}
SEVERITY = "fullplate: Severity (wiki)"
DAMAGE = "fullplate: Damage (wiki)"


@lru_cache(maxsize=64)
def die(name: str, sides: int) -> FacesRole:
    """One die as a role (column "total"); cached, so its support is enumerated once."""
    return FacesRole(name, (sides,), sum_faces, notation=f"d{sides}", columns=("total",))


@lru_cache(maxsize=256)
def dice_role(name: str, expr: DiceExpr) -> DiceRole:
    """A dice-notation role, cached by expression (its exact support is computed once)."""
    return DiceRole(name, expr)


@lru_cache(maxsize=256)
def pick_role(weights: tuple[int, ...]) -> PickRole:
    return PickRole("pick", weights)


@lru_cache(maxsize=256)
def dice_only(expr: DiceExpr) -> DiceExpr:
    """The dice of a damage expression without its flat part (double_dice adds flat modifiers once)."""
    text = " + ".join(t.notation for t in expr.terms)
    return DiceExpr(expr.terms, 0, text)


def thac0_text(thac0: int, terms: Sequence[Term], effective: int) -> str:
    """ "THAC0 14 - 1 (Enhancement) + 4 (target_cover_50) = 17": bonuses subtract, penalties add."""
    parts = [f"THAC0 {thac0}"]
    for t in terms:
        sign = "-" if t.bonus > 0 else "+" if t.bonus < 0 else "±"
        parts.append(f"{sign} {abs(t.bonus)} ({t.label})")
    return " ".join(parts) + f" = {effective}"


def melee_candidates(attacker: Attacker, target: Target) -> list[tuple[str, int]] | None:
    """(name, share) of each creature a shot may hit, the intended target last; None when it is sure."""
    if not attacker.weapon.ranged or not target.engaged_with or attacker.precision:
        return None
    names = [e.name for e in target.engaged_with] + [target.name]
    weights = shares([e.size for e in target.engaged_with] + [target.size])
    return list(zip(names, weights, strict=True))


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
            roles["pick"] = pick_role(tuple(w for _, w in candidates))
        return roles

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
            index = dice["pick"]["index"]
        chances = [hit_chance(attacker, sit, d) for d in defenders]
        ac = per_row([d.ac for d in defenders], index)
        self._note_setup(sit, target, defenders, chances, attack.automatic_hit, steps)

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
            self._note_pick(candidates, defenders, index, dice, steps)
        if attack.automatic_hit:
            landed, fumbled, halved = self._automatic(eff, nat, dice, steps)
        else:
            fumbled = fumble
            landed = ~fumble & ((roll <= ac) | nat20)
            halved = np.where(nat20, halvings(shortfall), 0).astype(np.int64)
            self._note_compare(roll, ac, nat, shortfall, halved, steps)

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
        damage, halved_miss = self._damage(scenario, defenders, index, sit, dice, critical, halved, landed, steps)
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
        self._severity(scenario, target, armour, dice, critical, hit, out, steps)
        hit_index = self._creature_hit(attacker, target, defenders, index, damage, hit, out, steps)
        self._ammunition(attacker, hit, out, steps)
        if target.hp is None:
            out.set("hp_left", null_int(True, 0))
        else:
            out.set("hp_left", np.where(hit & (hit_index == len(target.engaged_with)), target.hp - damage, target.hp))
        return out

    # -- pieces of resolve ---------------------------------------------------------------------------
    def _note_setup(
        self,
        sit: Situation,
        target: Target,
        defenders: Sequence[Defender],
        chances: Sequence[Chance],
        automatic: bool,
        steps: Steps,
    ) -> None:
        if not steps.enabled:
            return
        enh = sit.enhancement
        if enh.to_hit or enh.damage or any(d.special_defence_level for d in defenders):
            steps.note(
                "enhancement",
                "Enhancement {hit:+d} to hit, {dmg:+d} to damage: {desc}",
                clause=f"{PAGE}, Enhancement",
                value=enh.to_hit,
                hit=enh.to_hit,
                dmg=enh.damage,
                desc=enh.text,
            )
        if sit.hand.off_hand and not sit.hand.penalty:
            steps.note(
                "off_hand",
                "{desc}: no Off-Hand penalty",
                clause=f"{PAGE}, Main-Hand vs Off-Hand",
                value=0,
                desc=sit.hand.text,
            )
        for a in sit.rows:
            main_hand = a.row.id == OFF_HAND_ROW
            steps.note(
                "circumstance",
                "{desc}{note}: {mod:+d} to hit{ff}",
                clause=f"{PAGE}, "
                + ("Main-Hand vs Off-Hand" if main_hand else f"Circumstantial Modifiers: {a.row.group}"),
                value=a.modifier,
                desc=a.row.text,
                note=f" ({a.note})" if a.note else "",
                mod=a.modifier,
                ff=", Flatfooted" if a.row.flatfooted else "",
            )
        for r in sit.replaced:
            steps.note(
                "circumstance_replaced",
                "{row} ({mod:+d}, {named}) is replaced by {by} ({by_mod:+d}): one scale, {scale}; the row worse"
                " for the attacker is used",
                clause=f"{PAGE}, Circumstantial Modifiers (docs/fullplate.md#silent-modifier-scales)",
                value=r.row.row.id,
                row=r.row.row.id,
                mod=r.row.modifier,
                named=r.row.where,
                by=r.by.row.id,
                by_mod=r.by.modifier,
                scale=r.row.row.scale,
            )
        steps.note(
            "effective_thac0",
            "Effective THAC0 = {desc}",
            clause=f"{PAGE}, Effective thac0; Circumstantial Modifiers",
            value=sit.effective_thac0,
            desc=thac0_text(sit.thac0, sit.terms, sit.effective_thac0),
        )
        melee = len(defenders) > 1
        # The intended target first, then each creature beside it that has its own stats
        # (docs/fullplate.md#silent-firing-into-melee).
        ordered = [len(defenders) - 1, *range(len(defenders) - 1)]
        for i in ordered:
            d = defenders[i]
            if not d.own:
                continue
            who = f"{d.name}: " if melee else ""
            if d.flatfooted:
                steps.note(
                    "flatfooted",
                    "{who}Flatfooted ({by}): loses Dodge and shield AC: {desc} -> AC {ac} (never above base 10"
                    " from this)",
                    clause="fullplate: Defending (wiki), Flatfooted",
                    value=d.ac + d.defence[1],
                    who=who,
                    by=d.flatfooted_by,
                    desc=d.ac_text,
                    ac=d.ac + d.defence[1],
                )
            if d.defence[1]:
                kind, level = d.defence
                steps.note(
                    "defence",
                    "{who}Defence[{kind}] {level}: +{level} AC against this attack: AC {before} -> {ac}",
                    clause="fullplate: Defence[Type] (wiki)",
                    value=d.ac,
                    kind=kind.replace("_", " ").title(),
                    level=level,
                    who=who,
                    before=d.ac + level,
                    ac=d.ac,
                )
        if automatic:
            return
        like = [d.name for d in defenders if not d.own]
        for i in ordered:
            d = defenders[i]
            if not d.own:
                continue
            who = ""
            if melee:
                who = f" ({d.name}"
                if i == len(defenders) - 1 and like:
                    who += f"; also {', '.join(like)}: no stats of their own, judged as the intended target"
                who += ")"
            self._note_needed(sit, d, chances[i], who, steps)

    def _note_needed(self, sit: Situation, d: Defender, c: Chance, who: str, steps: Steps) -> None:
        """ "needs N+ on the d20 (P%)", P the exact chance to hit (window.py), or "cannot hit (0%)"."""
        extra = ""
        if c.shortfall > 0:
            extra = f" (a natural 20 is short by {c.shortfall}" + (
                ": inside the 10-point window)"
                if c.halvings == 0
                else f", damage halved {c.halvings}x"
                + (
                    ")"
                    if c.survives == 1
                    else f": it hits only with damage rolls that stay at half a point or more, {c.survives} of them)"
                )
            )
        if c.need is None:
            text = (
                "Against AC {ac}{who}: cannot hit (0%): even a natural 20 is short by {s}, and {k} halvings leave"
                " every damage roll below half a point"
            )
        else:
            text = "Against AC {ac}{who}: needs {need}+ on the d20 ({pct}){extra}"
        steps.note(
            "natural_needed",
            text,
            clause=f"{PAGE}, Making The Roll; Fumbles and Criticals",
            value=c.need,
            ac=d.ac,
            who=who,
            need=c.need,
            pct=percent_text(c.chance),
            extra=extra,
            s=c.shortfall,
            k=c.halvings,
        )

    def _note_pick(
        self,
        candidates: Sequence[tuple[str, int]],
        defenders: Sequence[Defender],
        index: Array,
        dice: Dice,
        steps: Steps,
    ) -> None:
        """Firing Into Melee: the pick die's faces, the creature struck, and how it is judged."""
        if not steps.enabled:
            return
        split = ", ".join(
            f"{f} {name}" for (name, _), f in zip(candidates, faces([w for _, w in candidates]), strict=True)
        )
        judged = [
            f"judged against its own AC {d.ac}"
            if d.own
            else f"who has no stats of its own: judged as the intended target (AC {d.ac})"
            for d in defenders
        ]
        names = np.asarray([d.name for d in defenders], dtype=object)[index]
        how = np.asarray(judged, dtype=object)[index]
        steps.note(
            "firing_into_melee",
            "firing into melee: {dice} ({split}): the shot goes to {who}, {how}",
            clause=f"{PAGE}, Firing Into Melee (docs/fullplate.md#silent-firing-into-melee)",
            value=names,
            dice=dice.text("pick"),
            split=split,
            who=names,
            how=how,
        )

    def _note_compare(
        self,
        roll: Array,
        ac: int | Array,
        nat: Array,
        shortfall: Array,
        halved: Array,
        steps: Steps,
    ) -> None:
        if not steps.enabled:
            return
        fumble = nat == 1
        window = ~fumble & (nat == 20) & (shortfall > 0)
        hits = ~fumble & ~window & (roll <= ac)
        misses = ~fumble & ~window & ~hits
        if steps.when(fumble):
            steps.note(
                "fumble",
                "natural 1: a Fumble, the attack fails",
                clause=f"{PAGE}, Fumbles and Criticals",
                value=True,
                where=fumble,
            )
        if steps.when(window):
            steps.note(
                "natural_20",
                "natural 20: AC {ac} is {s} below {roll}{how}",
                clause=f"{PAGE}, Fumbles and Criticals (natural 20 window)",
                value=halved,
                where=window,
                ac=ac,
                s=shortfall,
                roll=roll,
                how=rows_text(
                    shortfall <= 10,
                    ", within 10: the attack hits",
                    each_text(": {k} halving(s) of the damage (one per 5, or part of 5, after the first 10)", k=halved),
                ),
            )
        if steps.when(hits):
            steps.note(
                "compare",
                "{roll} vs AC {ac}: a hit (by {m})",
                clause=f"{PAGE}, Making The Roll",
                value="hit",
                where=hits,
                roll=roll,
                ac=ac,
                m=ac - roll,
            )
        if steps.when(misses):
            steps.note(
                "compare",
                "{roll} vs AC {ac}: a miss (AC {ac} is better than {roll})",
                clause=f"{PAGE}, Making The Roll",
                value="miss",
                where=misses,
                roll=roll,
                ac=ac,
            )

    def _automatic(self, eff: int, nat: Array, dice: Dice, steps: Steps) -> tuple[Mask, Mask, Array]:
        """Clause 8: an Automatic Hit hits; a natural 1 is rolled again, no Fumble if that would hit AC 0."""
        reroll = dice["reroll"]["total"]
        again = eff - reroll
        saved = (reroll != 1) & ((again <= 0) | ((reroll == 20) & (again <= 10)))
        fumbled = (nat == 1) & ~saved
        zeros = np.zeros(len(nat), dtype=np.int64)
        if steps.when(nat == 1):
            steps.note(
                "automatic_hit",
                "Automatic Hit, natural 1: rolled again: {eff} - {dice} = {again}: {verdict}",
                clause=f"{PAGE}, Automatic Hits",
                value=~fumbled,
                where=nat == 1,
                eff=eff,
                dice=dice.text("reroll"),
                again=again,
                verdict=rows_text(saved, "hits AC 0: no Fumble, the Automatic Hit hits", "a Fumble"),
            )
        if steps.when(nat != 1):
            steps.note(
                "automatic_hit",
                "Automatic Hit: it hits; the roll only decides a Critical Hit",
                clause=f"{PAGE}, Automatic Hits",
                value=True,
                where=nat != 1,
            )
        return ~fumbled, fumbled, zeros

    def _damage(
        self,
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
                    clause="fullplate: Damage (wiki); Critical Hits"
                    if crit and mode != "severity"
                    else "fullplate: Damage",
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
                        clause="fullplate: Special Defence (wiki)",
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
                        clause="fullplate: Damage (wiki), Resistance and Vulnerability",
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

    def _severity(
        self,
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

    def _creature_hit(
        self,
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
                why = (
                    "Precision proficiency: the intended target is hit"
                    if attacker.precision and attacker.weapon.ranged
                    else "a melee attack strikes the intended target"
                )
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

    def _ammunition(self, attacker: Attacker, hit: Mask, out: Outcome, steps: Steps) -> None:
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
