"""Reclaim the Wild: Attacking 101, with docs/rtw.md#where-the-page-is-silent.

Clauses, in the page's order (the grid ranges, cover geometry and sizes belong to the grid layer, which feeds
`targets[].hard_to_hit` and `attack.area` / `attack.catches_others`):
- Landing the Blow: To-Hit = 2d6 + Accuracy + weapon ACC (unarmed 5), compared with the stat the attack names;
  Evasion may stand in for Concentration or Vitality unless the defender is Off-Balance. Hit when To-Hit >= stat.
  A miss does nothing (no damage, durability or effect) but a Magic or Stamina cost is spent. An Effect that
  misses leaves the damage. A Basic Attack's natural 12 (or a widened range) is a Critical Hit. Spells and
  Techniques hit automatically unless the target is Hard to Hit (then To-Hit vs Evasion with the penalty); their
  effect rolls To-Hit vs Concentration or Vitality, not rolled when the spell missed. One roll per target.
- Damage: Weapon + k x Trait, then Defense, Resistance, other factors; at least 1 unless immune.
- Critical Hits: the Attack Power again; one critical however many sources; only for attacks that can miss.
- Vulnerability: +4, half Resistance, never below 4, once per hit.
- Weapon Durability, Peril, Falling in Battle: reported as outcome fields for a fight to apply. A Helpless
  creature is harmed only by an attack aimed at it alone: an area attack whose only target it is
  (docs/rtw.md#silent-helpless-areas).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.outcome import NULL_CODE, NULL_INT, Field, Outcome
from tohit.core.role_needs import Need, never, only
from tohit.core.roles import DiceRole, Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.rtw import notes
from tohit.systems.rtw.consequences import FALLS_LABELS, PERISHES, health_after, in_peril
from tohit.systems.rtw.models import Attack, Attacker, Options, Target
from tohit.systems.rtw.plan import RtwScenario, make_plan
from tohit.systems.rtw.silent import SILENT
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS, PARRY_RANGES
from tohit.systems.rtw.tables import HIT as HIT
from tohit.systems.rtw.tables import MISS as MISS

IntArray = npt.NDArray[np.int64]

#: The dice roles in the page's words (rtw: Landing the Blow): "you will be asked to “Roll To-Hit”", and an
#: additional effect lands "if you succeed at a roll To-Hit" noted in the Spell or Technique's Effect section.
ROLE_LABELS = {"to_hit": "Roll To-Hit", "effect": "Roll To-Hit for the Effect"}
#: The two dice roles; their supports are computed once and shared by every attack.
TO_HIT = DiceRole("to_hit", "2d6", label=ROLE_LABELS["to_hit"])
EFFECT = DiceRole("effect", "2d6", label=ROLE_LABELS["effect"])


def _effect_rolled(out: Outcome) -> npt.NDArray[np.bool_]:
    """The rows where the effect's To-Hit is rolled (the attack landed) on a creature that did not perish from the
    hit (one that perishes is out of the fight [Falling in Battle]: no effect lands on it)."""
    return np.asarray((out["effect_to_hit"] != NULL_INT) & (out["falls"] != PERISHES), dtype=bool)


class ReclaimTheWild(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.rtw.fight"
    id = "rtw"
    title = "Reclaim the Wild"
    summary = "2d6 + Accuracy + weapon ACC vs Evasion / Concentration / Vitality; critical hits, Weapon + k x Trait"
    page = "reclaim-the-wild.md"
    silent = SILENT
    role_labels = ROLE_LABELS
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    #: Every conditional note passes `where=`: `roll --times N` traces N attacks in one call.
    batch_trace = True
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
            "A Burning weapon loses 1 Durability for this foe hit (Status Effects).",
            in_odds=False,
        ),
        Field("frozen_ends", "flag", "The hit releases a Frozen target (Status Effects).", in_odds=False),
    )

    def roles(self, scenario: RtwScenario, target: Target) -> dict[str, Role]:
        """`to_hit`: 2d6 per target; `effect`: 2d6 per target when the attack has an additional effect."""
        roles: dict[str, Role] = {"to_hit": TO_HIT}
        if scenario.attack.effect is not None:
            roles["effect"] = EFFECT
        return roles

    def needs(self, scenario: RtwScenario, target: Target) -> dict[str, Need]:
        """The Roll To-Hit is read unless the attack hits automatically [Landing the Blow]; the effect's roll only
        when the attack landed: "If the Spell or Technique misses for any reason, then you do not even roll to see
        if any additional effects land" (never when the effect lands with the hit, e.g. Intercepted), and on a
        creature that did not perish from the hit."""
        p = make_plan(scenario, target)
        out: dict[str, Need] = {}
        if not p.rolls:
            out["to_hit"] = never(f"{notes.PAGE}: {p.why_auto}")
        if p.effect is not None:
            rolled = only(("to_hit",), _effect_rolled, f"{notes.CLAUSE_EFFECT}; rtw: Falling in Battle")
            out["effect"] = rolled if p.effect.rolls else never(f"{notes.CLAUSE_EFFECT}: {p.effect.why_auto}")
        return out

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
        trace = steps.enabled
        no = np.zeros(n, dtype=bool)
        if trace:
            notes.standing(p, steps)

        # Landing the Blow: To-Hit vs the stat, or an automatic hit.
        roll_crit = no
        if p.rolls:
            assert p.defence is not None
            to_hit = natural + p.bonus
            hit = to_hit >= p.defence.value
            in_range = no
            if p.crit_low is not None:
                in_range = natural >= p.crit_low
                if p.natural_always_hits:
                    hit = hit | in_range
                roll_crit = in_range & hit
            out.set("to_hit", to_hit)
            out.set("defence_stat", _full(n, p.defence.value))
            if trace:
                notes.to_hit(p, steps, dice.text("to_hit"), to_hit, hit, in_range)
        else:
            hit = np.ones(n, dtype=bool)
            out.set("to_hit", _full(n, NULL_INT))
            out.set("defence_stat", _full(n, NULL_INT))
            if trace:
                notes.automatic(p, steps)
        landed = no if p.unharmed else hit
        if trace and p.unharmed:
            notes.unharmed(steps, hit)
        elif trace and target.helpless and scenario.attack.area:
            notes.area_alone(steps, hit)

        # Critical Hits: one critical whatever the sources, only for attacks that can normally miss.
        if not p.able_to_miss:
            critical = no
        elif p.other_crit:
            critical = landed
        else:
            critical = roll_crit & landed
        if trace:
            notes.critical(p, steps, landed, roll_crit, critical)

        # Damage.
        if p.normal is None or p.critical is None:
            damage = np.zeros(n, dtype=np.int64)
        else:
            damage = np.where(landed, np.where(critical, p.critical.final, p.normal.final), 0)
        if trace:
            notes.damage(p, steps, landed, critical, damage)
        out.set("result", np.where(hit, HIT, MISS))
        out.set("critical", critical)
        out.set("damage", damage)
        out.set("hard_to_hit", _full(n, HARD_TO_HIT_LEVELS.index(p.standing.level)))
        out.set("unharmed", hit if p.unharmed else no)

        # The additional effect: rolled To-Hit vs Concentration or Vitality, only when the attack landed.
        if p.effect is None:
            out.set("effect_landed", _full(n, NULL_CODE))
            out.set("effect_to_hit", _full(n, NULL_INT))
        elif p.effect.rolls:
            assert p.effect.defence is not None
            effect_total = dice["effect"]["total"] + p.effect.bonus
            effect_landed = landed & (effect_total >= p.effect.defence.value)
            out.set("effect_landed", effect_landed)
            out.set("effect_to_hit", np.where(landed, effect_total, NULL_INT))
            if trace:
                notes.effect(p, steps, dice.text("effect"), landed, effect_total, effect_landed)
        else:
            out.set("effect_landed", landed)
            out.set("effect_to_hit", _full(n, NULL_INT))
            if trace:
                notes.effect(p, steps, "", landed, None, landed)

        # State for a fight to apply: Durability, Peril, Falling in Battle.
        used = landed if p.with_weapon else no
        out.set("durability_used", used)
        out.set("burning_wear", used if p.burning else no)
        out.set("frozen_ends", landed if target.frozen else no)
        out.set("cost_spent", _full(n, p.cost))
        after = None
        if target.health is None:
            out.set("health_after", _full(n, NULL_INT))
        else:
            after = health_after(target.health, damage)
            out.set("health_after", after)
        peril = None
        if after is None or target.hearts is None:
            out.set("peril", _full(n, NULL_CODE))
        else:
            peril = in_peril(after, target.hearts)
            out.set("peril", peril)
        falls = no
        if target.helpless:
            # Already fallen: an attack aimed at it alone may finish it, if the attacker so chooses.
            falls = landed & (damage > 0) if p.finishes else no
            out.set("falls", np.where(falls, PERISHES, NULL_CODE))
        elif after is not None:
            falls = landed & (damage > 0) & (after == 0)
            out.set("falls", np.where(falls, p.fall_code, NULL_CODE))
        else:
            out.set("falls", _full(n, NULL_CODE))
        if trace:
            notes.state(p, steps, hit, landed, used, damage, after, peril, falls)
        return out

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
            ("weapon.enchantments.perfectly_balanced", "attacker", "ACC/ATK/CRIT", "By rank, per Enchantments."),
        ]
        return [ModifierRow(i, g, m, d) for i, g, m, d in rows]


def _full(n: int, value: int) -> IntArray:
    """A constant column (cheaper than letting the outcome broadcast a scalar)."""
    return np.full(n, value, dtype=np.int64)
