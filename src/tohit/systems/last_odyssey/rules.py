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

The attack's steps: the hit die's checks in hit_die.py (clauses 2 to 6, 12, 13), buffs and debuffs in
buffs.py (clause 1), the Shell and HP in shells.py (clauses 8, 13).
"""

from __future__ import annotations

from collections.abc import Sequence

from tohit.core.outcome import Field, Outcome
from tohit.core.roles import Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.last_odyssey import checks
from tohit.systems.last_odyssey.buffs import always_succeeds
from tohit.systems.last_odyssey.dice import HIT_DIE_ROLE, NO_ROLL, ROLE_LABELS
from tohit.systems.last_odyssey.hit_die import attack_roll, note_other_side, status_roll
from tohit.systems.last_odyssey.models import Attack, Attacker, LastOdysseyScenario, Options, Target
from tohit.systems.last_odyssey.silent import SILENT
from tohit.systems.last_odyssey.tables import (
    BONUS_TRACKER,
    INTRO,
    ROLLED_KINDS,
    STATUS_THRESHOLDS,
    multiplier_text,
)
from tohit.systems.last_odyssey.tables import HIT as HIT
from tohit.systems.last_odyssey.tables import MISS as MISS


class LastOdyssey(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.last_odyssey.fight"
    id = "last-odyssey"
    title = "Last Odyssey"
    summary = "One d10 hit die for every target: d10 - Accuracy + Evasion <= 7 (status <= 5), Shells, elements"
    page = "last-odyssey.md"
    silent = SILENT
    role_labels = ROLE_LABELS
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
        note_other_side(scenario, target, steps)
        if attack.kind == "buff" or attack.kind == "debuff":
            always_succeeds(scenario, target, out, steps)
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
            status_roll(scenario, target, die, out, steps)
        else:
            attack_roll(scenario, target, die, out, steps)
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
