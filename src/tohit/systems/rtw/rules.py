"""Reclaim the Wild: Attacking 101 (shared/rules/reclaim-the-wild.md), with decisions.md §rtw.

Clauses, in the page's order (the grid ranges, cover geometry and sizes belong to the grid layer, which feeds
`targets[].hard_to_hit` and `attack.area`):
- Landing the Blow: To-Hit = 2d6 + Accuracy + weapon ACC (unarmed 5), compared with the stat the attack names;
  Evasion may stand in for Concentration or Vitality unless the defender is Off-Balance. Hit when To-Hit >= stat.
  A miss does nothing (no damage, durability or effect) but a Magic or Stamina cost is spent. An Effect that
  misses leaves the damage. A Basic Attack's natural 12 (or a widened range) is a Critical Hit. Spells and
  Techniques hit automatically unless the target is Hard to Hit (then To-Hit vs Evasion with the penalty); their
  effect rolls To-Hit vs Concentration or Vitality, not rolled when the spell missed. One roll per target.
- Damage: Weapon + k x Trait, then Defense, Resistance, other factors; at least 1 unless immune.
- Critical Hits: the Attack Power again; one critical however many sources; only for attacks that can miss.
- Vulnerability: +4, half Resistance, never below 4, once per hit.
- Weapon Durability, Peril, Falling in Battle: reported as outcome fields for a fight to apply.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.outcome import Field, Outcome, null_code, null_int
from tohit.core.roles import DiceRole, Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.rtw.conditions import CLAUSE_GUARD
from tohit.systems.rtw.damage import Damage
from tohit.systems.rtw.models import Attack, Attacker, Options, Target
from tohit.systems.rtw.plan import Plan, RtwScenario, make_plan
from tohit.systems.rtw.state import CLAUSE_DURABILITY, CLAUSE_FALLING, CLAUSE_PERIL, FALLS_LABELS, PERISHES
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS, PARRY_RANGES

PAGE = "rtw: Landing the Blow"
CLAUSE_CRIT = "rtw: Landing the Blow; Critical Hits (decisions 2)"
CLAUSE_EFFECT = "rtw: Landing the Blow, additional effects"
HIT, MISS = 0, 1
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The two dice roles; their supports are computed once and shared by every attack.
TO_HIT = DiceRole("to_hit", "2d6")
EFFECT = DiceRole("effect", "2d6")


class ReclaimTheWild(System[Attacker, Attack, Target, Options]):
    id = "rtw"
    title = "Reclaim the Wild"
    summary = "2d6 + Accuracy + weapon ACC vs Evasion / Concentration / Vitality; critical hits, Weapon + k x Trait"
    page = "reclaim-the-wild.md"
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    fields = (
        Field(
            "result",
            "label",
            "hit (To-Hit >= the stat, or an automatic hit) or miss (Landing the Blow).",
            ("hit", "miss"),
        ),
        Field(
            "damage", "int", "Health lost: Weapon + k x Trait (+ AP on a critical) - Defense - Resistance ... (Damage)."
        ),
        Field(
            "critical",
            "flag",
            "A Critical Hit (natural roll in range on a Basic Attack, Burning weapon, Frozen target).",
        ),
        Field("effect_landed", "flag", "The additional effect landed; null when the attack has none.", nullable=True),
        Field(
            "peril",
            "flag",
            "After the attack Health <= Hearts; null when Health or Hearts is not given.",
            nullable=True,
        ),
        Field(
            "falls",
            "label",
            "At 0 Health: helpless or perishes (Falling in Battle); null when it does not fall.",
            FALLS_LABELS,
            nullable=True,
        ),
        Field("durability_used", "flag", "The weapon was used successfully: 1 Durability at the end of the encounter."),
        Field("cost_spent", "int", "Magic + Stamina the attack cost, spent hit or miss (once per attack)."),
        Field(
            "health_after",
            "int",
            "Health after the attack; null when Health is not given.",
            nullable=True,
            in_odds=False,
        ),
        Field("to_hit", "int", "The Roll To-Hit total; null for an automatic hit.", nullable=True, in_odds=False),
        Field(
            "defence_stat",
            "int",
            "The stat the To-Hit was compared with; null for an automatic hit.",
            nullable=True,
            in_odds=False,
        ),
        Field("effect_to_hit", "int", "The effect's Roll To-Hit; null when not rolled.", nullable=True, in_odds=False),
        Field(
            "hard_to_hit",
            "label",
            "The target's Hard-to-Hit level against this attack.",
            HARD_TO_HIT_LEVELS,
            in_odds=False,
        ),
        Field(
            "unharmed",
            "flag",
            "A Helpless creature caught by an attack not aimed at it alone is not harmed.",
            in_odds=False,
        ),
        Field(
            "burning_wear",
            "flag",
            "A Burning weapon loses 1 Durability for this foe hit (status_effects.md).",
            in_odds=False,
        ),
        Field("frozen_ends", "flag", "The hit releases a Frozen target (status_effects.md).", in_odds=False),
        Field("magic_spent", "int", "Magic spent by the attack.", in_odds=False),
        Field("stamina_spent", "int", "Stamina spent by the attack.", in_odds=False),
    )

    def roles(self, scenario: RtwScenario, target: Target) -> dict[str, Role]:
        """`to_hit`: 2d6 per target; `effect`: 2d6 per target when the attack has an additional effect."""
        roles: dict[str, Role] = {"to_hit": TO_HIT}
        if scenario.attack.effect is not None:
            roles["effect"] = EFFECT
        return roles

    def check(self, scenario: RtwScenario) -> None:
        attacker, attack = scenario.attacker, scenario.attack
        for i, target in enumerate(scenario.targets):
            where = f"targets[{i}]"
            needed = []
            if attack.kind == "basic" and attack.against != "evasion":
                needed.append((attack.against, "the attack rolls To-Hit vs"))
            if attack.effect is not None:
                needed.append((attack.effect.against, "the effect rolls To-Hit vs"))
            for stat, why in needed:
                if getattr(target, stat) is None:
                    raise InputError(f"required: {why} {stat.capitalize()}", field=f"{where}.{stat}")
            if target.reaction == "parry" and attack.range not in PARRY_RANGES:
                raise InputError(
                    f"Parry works only against Line, Melee or Sweep attacks, not {attack.range}",
                    field=f"{where}.reaction",
                )
            if target.distracting and not attacker.distracted:
                raise InputError("the attacker is not Distracted", field=f"{where}.distracting")

    def resolve(self, scenario: RtwScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        p = make_plan(scenario, target)
        natural = dice["to_hit"]["total"]
        n = len(natural)
        out = Outcome(n)
        zeros = np.zeros(n, dtype=bool)
        if steps.enabled:
            _note_standing(p, steps)

        # Landing the Blow.
        if p.rolls:
            assert p.defence is not None
            to_hit = natural + p.bonus
            hit = to_hit >= p.defence.value
            in_range = natural >= p.crit_low if p.crit_low is not None else zeros
            if p.natural_always_hits:
                hit = hit | in_range
            roll_crit = in_range & hit
            out.set("to_hit", to_hit)
            out.set("defence_stat", p.defence.value)
            if steps.enabled:
                _note_to_hit(p, steps, dice.text("to_hit"), to_hit, hit, in_range)
        else:
            hit = np.ones(n, dtype=bool)
            roll_crit = zeros
            out.set("to_hit", null_int(True, 0))
            out.set("defence_stat", null_int(True, 0))
            clause = f"{PAGE}; status_effects.md Hard to Hit"
            steps.note("auto_hit", p.why_auto[0].upper() + p.why_auto[1:], clause=clause, value="hit")
        landed = zeros if p.unharmed else hit
        if steps.when(hit) and p.unharmed:
            steps.note(
                "unharmed",
                "Helpless, and the attack is not aimed at it alone: not harmed",
                clause=CLAUSE_FALLING,
                value=True,
            )

        # Critical Hits.
        critical = landed & (roll_crit | bool(p.other_crit)) if p.able_to_miss else zeros
        if steps.enabled:
            _note_critical(p, steps, landed, roll_crit, critical)

        # Damage.
        if p.normal is not None and p.critical is not None:
            damage = np.where(landed, np.where(critical, p.critical.final, p.normal.final), 0)
            if steps.when(landed):
                _note_damage(p, steps, p.critical if steps.when(critical) else p.normal, bool(steps.when(critical)))
        else:
            damage = np.zeros(n, dtype=np.int64)
            if steps.when(landed):
                steps.note("damage", "The attack deals no damage", clause="rtw: Damage", value=0)
        out.set("result", np.where(hit, HIT, MISS))
        out.set("critical", critical)
        out.set("damage", damage)
        out.set("hard_to_hit", HARD_TO_HIT_LEVELS.index(p.standing.level))
        out.set("unharmed", hit & p.unharmed)

        # The additional effect.
        if p.effect is None:
            out.set("effect_landed", null_code(True, 0))
            out.set("effect_to_hit", null_int(True, 0))
        elif p.effect.rolls:
            assert p.effect.defence is not None
            eff_total = dice["effect"]["total"] + p.effect.bonus
            effect_landed = landed & (eff_total >= p.effect.defence.value)
            out.set("effect_landed", effect_landed)
            out.set("effect_to_hit", null_int(~landed, eff_total))
            if steps.enabled:
                _note_effect(p, steps, dice.text("effect"), landed, eff_total, effect_landed)
        else:
            out.set("effect_landed", landed)
            out.set("effect_to_hit", null_int(True, 0))
            if steps.when(landed):
                steps.note("effect", f"{p.effect.name}: {p.effect.why_auto}", clause=CLAUSE_EFFECT, value=True)

        # State for the fight to apply: Durability, Peril, Falling in Battle.
        self._state(p, out, steps, hit, landed, damage)
        return out

    @staticmethod
    def _state(p: Plan, out: Outcome, steps: Steps, hit: BoolArray, landed: BoolArray, damage: IntArray) -> None:
        target = p.target
        used = landed if p.with_weapon else np.zeros_like(landed)
        out.set("durability_used", used)
        out.set("burning_wear", used & p.burning)
        out.set("frozen_ends", landed & target.frozen)
        magic, stamina = p.attack.cost.magic, p.attack.cost.stamina
        out.set("cost_spent", p.cost)
        out.set("magic_spent", magic)
        out.set("stamina_spent", stamina)
        if steps.when(used):
            text = "the weapon was used successfully: 1 Durability damage at the end of the encounter"
            if p.burning:
                text += "; Burning: it also loses 1 Durability for this foe"
            steps.note("durability", text, clause=CLAUSE_DURABILITY, value=1)
        if steps.when(~hit):
            text = "a missed attack acts as if it never happened: no damage, no Durability lost, no effect"
            steps.note("miss", text, clause=PAGE, value="miss")
        if p.cost and steps.enabled:
            paid = " and ".join(f"{v} {k}" for k, v in (("Magic", magic), ("Stamina", stamina)) if v)
            steps.note("cost", f"cost spent: {paid}, hit or miss", clause=PAGE, value=p.cost)

        if target.health is None:
            health = null_int(np.ones(out.n, dtype=bool), 0)
            out.set("health_after", health)
            out.set("peril", null_code(True, 0))
            after = None
        else:
            after = np.maximum(0, target.health - damage)
            out.set("health_after", after)
            if target.hearts is None:
                out.set("peril", null_code(True, 0))
            else:
                peril = after <= target.hearts
                out.set("peril", peril)
                if steps.when(landed):
                    state = "in Peril" if bool(peril[0]) else "not in Peril"
                    steps.note(
                        "peril",
                        "Health {before} - {damage} = {after} vs Hearts {hearts}: {state}",
                        clause=CLAUSE_PERIL,
                        value=peril,
                        before=target.health,
                        damage=damage,
                        after=after,
                        hearts=target.hearts,
                        state=state,
                    )

        if target.helpless:
            killed = landed & (damage > 0)
            out.set("falls", null_code(~killed, PERISHES))
            if steps.when(killed):
                steps.note(
                    "falls",
                    "struck while Helpless by an attack aimed at it alone: it perishes",
                    clause=f"{CLAUSE_FALLING}; status_effects.md Helplessness",
                    value="perishes",
                )
        elif after is not None:
            falls = landed & (damage > 0) & (after == 0)
            out.set("falls", null_code(~falls, p.fall_code))
            if steps.when(falls):
                steps.note("falls", _fall_text(p), clause=CLAUSE_FALLING, value=FALLS_LABELS[p.fall_code])
        else:
            out.set("falls", null_code(True, 0))

    def modifiers(self) -> Sequence[ModifierRow]:
        """The conditions a scenario can set, with what they do to the attack."""
        rows = [
            (
                "hard_to_hit: hard",
                "target",
                "-2 To-Hit",
                "Hard to Hit (cover...): Spells and Techniques must roll vs Evasion.",
            ),
            ("hard_to_hit: extreme", "target", "-5 To-Hit", "Extremely Hard to Hit; replaces Hard, never stacks."),
            ("blinded", "attacker", "-5 To-Hit", "Every foe Extremely Hard to Hit (a Boss: merely Dazzled, -2)."),
            ("dazzled", "attacker", "-2 To-Hit", "Every foe Hard to Hit."),
            (
                "distracted",
                "attacker",
                "-2 To-Hit",
                "Every foe but the distraction Hard to Hit; the source drops a level.",
            ),
            ("invisible", "target", "-5 To-Hit", "The attacker is treated as Blinded."),
            (
                "prone",
                "target",
                "Evasion 0 / -2",
                "No Evasion, never Hard to Hit vs Melee, Line, X targets; else Hard to Hit.",
            ),
            ("halted", "target", "Evasion 0", "Halted."),
            ("frozen", "target", "Evasion 0, crit", "Halted; the next non-Fire hit is a Critical Hit; no Reactions."),
            ("helpless", "target", "Guard Stats 0", "Prone, no Reactions; unharmed by attacks not aimed at it alone."),
            (
                "off_balance",
                "target",
                "no Evasion swap",
                "Cannot use Evasion for Concentration/Vitality, no Reactions.",
            ),
            ("reaction: deflect", "target", "damage / 2", "Halves the damage after Defense (Defensive weapon)."),
            ("reaction: parry", "target", "damage / 2", "Halves the damage after Defense; only vs Line, Melee, Sweep."),
            ("intercepting", "target", "auto-hit", "The interceptor is hit automatically; no Reactions; effects hit."),
            ("interceptor_feat", "target", "damage / 2", "Halves after Defense; effects roll normally."),
            ("vulnerable", "target", "+4, floor 4", "Vulnerability: +4 once per hit, half Resistance, never below 4."),
            ("resistance", "target", "-2 / rank", "Only the highest; 1 per rank when also Vulnerable."),
            ("immune", "target", "0 damage", "Immune to the damage type: 0 damage whatever else applies."),
            (
                "weapon.burning",
                "attacker",
                "critical, fire",
                "Every attack with it is a Critical Hit and deals Fire damage.",
            ),
            ("weapon.enchantments.critical_hit", "attacker", "+1 + rank/2", "Critical Hit range (rounded down)."),
            ("weapon.enchantments.perfectly_balanced", "attacker", "ACC/ATK/CRIT", "By rank, per enchantments.md."),
        ]
        return [ModifierRow(i, g, m, d) for i, g, m, d in rows]


def _fall_text(p: Plan) -> str:
    if p.target.hero:
        return "0 Health: a Hero always falls Helpless"
    if p.attack.mindless:
        return "0 Health: the source cannot have whims, so the creature falls Helpless"
    if p.attack.at_zero_health == "helpless":
        return "0 Health: the attacker chooses to leave it Helpless"
    return "0 Health: the attacker chooses that it perishes"


def _note_standing(p: Plan, steps: Steps) -> None:
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


def _note_to_hit(p: Plan, steps: Steps, faces: str, to_hit: IntArray, hit: BoolArray, in_range: BoolArray) -> None:
    assert p.defence is not None
    acc = f"weapon ACC {p.weapon.acc}" if p.attacker.weapon is not None else "unarmed ACC 5"
    word = "Extremely Hard to Hit" if p.standing.level == "extreme" else "Hard to Hit"
    penalty = f" - {-p.penalty} ({word})" if p.penalty else ""
    lead = ""
    if p.attack.kind != "basic":
        lead = f"a {p.attack.kind.capitalize()} vs a Hard-to-Hit target must roll: "
    verdict = "hit" if bool(hit[0]) else "miss"
    forced = p.natural_always_hits and bool(in_range[0]) and int(to_hit[0]) < p.defence.value
    if forced:
        verdict = "hit (a natural roll in the critical range always hits: option)"
    steps.note(
        "to_hit",
        lead + "To-Hit {faces} + Accuracy {accuracy} + {acc}{penalty} = {total} vs {defence}: {verdict}",
        clause=f"{PAGE} (decisions 1)",
        value=verdict.split(" ")[0],
        faces=faces,
        accuracy=p.attacker.accuracy,
        acc=acc,
        penalty=penalty,
        total=to_hit,
        defence=p.defence.text,
        verdict=verdict,
    )


def _note_critical(p: Plan, steps: Steps, landed: BoolArray, roll_crit: BoolArray, critical: BoolArray) -> None:
    if not steps.when(landed):
        return
    reasons: list[str] = []
    if bool(roll_crit[0]):
        low = p.crit_low if p.crit_low is not None else 12
        parts = ", ".join(p.weapon.range_parts)
        window = "a natural 12" if low >= 12 else f"a natural {low}-12 (range +{12 - low}: {parts})"
        reasons.append(f"{window} on a Basic Attack")
    reasons.extend(p.other_crit)
    if not reasons:
        return
    if bool(critical[0]):
        one = " (several sources: still one Critical Hit)" if len(reasons) > 1 else ""
        steps.note("critical", "Critical Hit: " + "; ".join(reasons) + one, clause=CLAUSE_CRIT, value=True)
    else:
        kind = p.attack.kind.capitalize()
        text = f"no Critical Hit: a {kind} cannot normally miss, so it is not eligible ({'; '.join(reasons)})"
        steps.note("critical", text, clause="rtw: Critical Hits", value=False)


def _note_damage(p: Plan, steps: Steps, dmg: Damage, critical: bool) -> None:
    assert p.raw is not None and p.crit_item is not None
    steps.note(p.raw.step, p.raw.text + f" ({', '.join(p.types)})", clause=p.raw.clause, value=p.raw.total)
    if critical:
        steps.note(p.crit_item.step, p.crit_item.text, clause=p.crit_item.clause, value=p.crit_item.total)
    for item in dmg.items:
        steps.note(item.step, item.text, clause=item.clause, value=item.total)
    steps.note("damage", f"Health lost: {dmg.final}", clause="rtw: Damage", value=dmg.final)


def _note_effect(
    p: Plan, steps: Steps, faces: str, landed: BoolArray, total: IntArray, effect_landed: BoolArray
) -> None:
    assert p.effect is not None and p.effect.defence is not None
    if not steps.when(landed):
        why = "the Helpless creature is not harmed" if p.unharmed else "the attack missed, so the effect misses too"
        steps.note(
            "effect",
            f"{p.effect.name}: not rolled, {why}",
            clause=CLAUSE_EFFECT,
            value=False,
        )
        return
    verdict = "lands" if bool(effect_landed[0]) else "misses (the damage still stands)"
    steps.note(
        "effect",
        "{effect}: To-Hit {faces} + {bonus} = {total} vs {defence}: {verdict}",
        clause=CLAUSE_EFFECT + " (decisions 1)",
        value=effect_landed,
        effect=p.effect.name,
        faces=faces,
        bonus=p.effect.bonus,
        total=total,
        defence=p.effect.defence.text,
        verdict=verdict,
    )
