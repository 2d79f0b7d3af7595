"""When Sky and Sea Were Not Named: attacks (Taking Actions), with docs/wsswnn.md#where-the-page-is-silent.

The system: its models, outcome fields, dice roles and the dispatch of `resolve` to the action's rules
(`attacks` for melee, ranged, Take Hold and jump-attacks; `brace_action` for a brace as the action).

Readings tohit takes where the page and the game's other pages are silent (more in
docs/wsswnn.md#where-the-page-is-silent):
- A bare `penalty: N` is the Maneuver die's (Chom's "d4 Maneuver die with a -2 penalty from his shield and
  armor"; his Attack 2 is read as rolled); a mapping gives each action die its own. Penalties are per die,
  so an advantage die takes its own; penalties on the whole roll (range, height, `modifier`) come after
  the higher die is kept.
- Disadvantage mirrors advantage: roll the named second action die (or dice) too, its own penalties applied,
  and keep the lowest; the foe a combatant grapples attacks with brace disadvantage [braces: Grapple]
  (`attacker.grappled`). Any advantage and any disadvantage cancel: the acting die alone is rolled.
- Several advantage sources (a named die, a jump's Maneuver, Brace against a grappled foe, Mighty Blow)
  roll each named die once and keep the highest; the acting die is never an advantage die.
- A jump-attack's guard damage is the weapon's plus 1 per height (-1 - 1 per height for the usual -1).
- A landing roll below 0 reduces nothing; falling damage ignores armor and Unflinching.
- Unflinching (amount, `true` = 1) reduces every guard damage the foe takes: attacks and braces.
- Opposed braces share one shape: success = the effect (Grapple and Shove also -1 guard), struggle = the
  effect unless the foe pays 1 stamina (only if it has any), failure = nothing; disarm and break too.
- Stand Fast is not opposed: Guard regained = the Brace roll (0 if the roll is 0 or below), capped at
  maximum Guard + Strength; its result is success (roll above 0) or failure.
- A brace action's `result` is success / struggle / failure: hit / block / miss are attack terms only.
- An object has Guard and Agility 0 for the comparison (an attack above 0 hits; a block is impossible);
  the multiplier is the attack's guard damage including jump heights and Mighty Blow, never Unflinching;
  an attack with no lethal damage (`lethal: false`) does no Structure damage; Mighty Blow's doubling is
  of lethal damage only.
- An improvised throw is blunted and keeps the thrown weapon's guard damage.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.role_needs import Need, only
from tohit.core.roles import Role
from tohit.core.steps import Steps
from tohit.core.system import Dice, ModifierRow, System
from tohit.systems.wsswnn import checks
from tohit.systems.wsswnn.attacks import C_BREAK, C_FALL, C_TAKE_HOLD, resolve_attack
from tohit.systems.wsswnn.brace_action import resolve_brace_action
from tohit.systems.wsswnn.dice import ROLE_LABELS, action_role, advantage_role, disadvantage_role
from tohit.systems.wsswnn.fields import FIELDS
from tohit.systems.wsswnn.models import Attack, Attacker, Options, Target
from tohit.systems.wsswnn.plan import WsswnnScenario, action_die, plan
from tohit.systems.wsswnn.silent import SILENT


def _brace_rolled(out: Outcome) -> npt.NDArray[np.bool_]:
    """The rows where the free brace is rolled (its result is not null)."""
    return np.asarray(out["brace_result"] != NULL_CODE, dtype=bool)


def _fell(out: Outcome) -> npt.NDArray[np.bool_]:
    """The rows where a jump-attack missed and falls (its falling damage is not null)."""
    return np.asarray(out["falling_guard"] != NULL_INT, dtype=bool)


MODIFIERS = (
    ModifierRow("ranged", "range", "-2", "Every ranged attack [Ranged Attack]."),
    ModifierRow("ranged_spans", "range", "-N", "A ranged attack N spans away, N >= 3: -N instead of -2."),
    ModifierRow("jump_height", "jump-attack", "-1 per height", "A jump-attack, to the roll [Jump-Attacks]."),
    ModifierRow(
        "jump_bonus",
        "jump-attack",
        "+3 (+ Strength) per height",
        "A jump-attack that does not miss: its result beats Guard or Agility (options.jump_strength_bonus for"
        " the Strength part).",
    ),
    ModifierRow("take_hold_struggle", "brace", "-2", "The free brace of a Take Hold that was blocked."),
    ModifierRow("penalty", "dice", "-N", "Armor and shield penalties to a die; its advantage die takes its own."),
    ModifierRow("advantage", "dice", "keep higher", "Roll the named second action die too and keep the higher."),
    ModifierRow(
        "disadvantage",
        "dice",
        "keep lower",
        "Roll the named second action die too and keep the lower (a grappled attacker: Brace); cancels advantage.",
    ),
    ModifierRow("modifier", "any", "+/-N", "attack.modifier: any other bonus or penalty to the roll."),
)


class Wsswnn(System[Attacker, Attack, Target, Options]):
    fight_module = "tohit.systems.wsswnn.fight"
    id = "wsswnn"
    title = "When Sky and Sea Were Not Named"
    summary = "Action die d4-d12 (advantage keeps the higher) vs Guard / Agility: hit, block or miss; lethal and guard"
    page = "wsswnn.txt"
    silent = SILENT
    role_labels = ROLE_LABELS
    attacker_model = Attacker
    attack_model = Attack
    target_model = Target
    options_model = Options
    fields = FIELDS
    #: Every conditional step passes `where=`: `roll --times N` traces N attacks in one vectorised call.
    batch_trace = True

    def check(self, scenario: WsswnnScenario) -> None:
        checks.check(scenario)

    def roles(self, scenario: WsswnnScenario, target: Target) -> dict[str, Role]:
        p = plan(scenario, target)
        acting = "brace" if scenario.attack.kind == "brace" else "attack"
        roles: dict[str, Role] = {acting: action_role(acting, p.main)}
        if p.advantage:
            roles["advantage"] = advantage_role(p.advantage)
        if p.disadvantage:
            roles["disadvantage"] = disadvantage_role(p.disadvantage)
        if p.free_brace is not None:
            roles["brace"] = action_role("brace", action_die(scenario.attacker, "brace"))
        if p.landing is not None:
            roles["landing"] = action_role("landing", p.landing)
        return roles

    def needs(self, scenario: WsswnnScenario, target: Target) -> dict[str, Need]:
        """The action die and its advantage or disadvantage die are read by every attack (rolled together, the
        higher or lower kept); a free brace only when it is rolled: Take Hold's on a hit or a block [Take Hold], a
        disarm's or a break's on a block [Breaking and Disarming Arms]; the landing roll only when a jump-attack
        missed [Jump-Attacks]. A brace action's own die ("brace") is its action die: read always."""
        if scenario.attack.kind == "brace":
            return {}
        rolled = ("attack", "advantage", "disadvantage")
        return {
            "brace": only(rolled, _brace_rolled, f"{C_TAKE_HOLD}; {C_BREAK}"),
            "landing": only(rolled, _fell, C_FALL),
        }

    def resolve(self, scenario: WsswnnScenario, target: Target, dice: Dice, steps: Steps) -> Outcome:
        p = plan(scenario, target)
        if scenario.attack.kind == "brace":
            return resolve_brace_action(scenario, target, p, dice, steps)
        return resolve_attack(scenario, target, p, dice, steps)

    def modifiers(self) -> Sequence[ModifierRow]:
        return MODIFIERS
