"""Kaiser RPG: where Attacking and Defending is silent, the readings tohit takes. `tohit reference kaiser` lists them
in docs/kaiser.md, section "Where the page is silent", each at its anchor `silent-<anchor>`; traces cite them by
that address."""

from __future__ import annotations

#: (anchor, title, text) of each reading.
SILENT: tuple[tuple[str, str, str], ...] = (
    (
        "open-rolls",
        "Open rolls and fumbles",
        "Offensive and Defensive rolls are 2d6 + skill + modifiers. Both may open (a double 6 adds a d6, and"
        " again on each 6) or fumble (a double 1 rolls 2d6 for severity: 2-5 counts the dice as 0, 6-11 as -5,"
        " 12 or more as -10; the total never goes below 0). Option `open_rolls_and_fumbles: false` gives the"
        " page's bare 2d6.",
    ),
    (
        "successful-attack",
        "A successful attack",
        "When the Offensive roll is greater: DoS = Offensive - Defensive; Units = max(0, DoS - Absorption -"
        " AV for the damage type); damage = Units x Base Damage. The defender loses 1 AP (never below 0) even at 0"
        " Units. Absorption is 2 unless given.",
    ),
    (
        "counter",
        "A failed attack",
        "When the Defensive roll is greater and the attack was hand-to-hand or point-blank, the Counter bonus is"
        " half the DoS, rounded down, and the defender may Counterattack for 1 AP. A ranged attack beyond"
        " point-blank gives no counter.",
    ),
    (
        "tie",
        "A tie",
        "Equal rolls: nothing happens.",
    ),
    (
        "base-damage",
        "Base Damage",
        "Base Damage = the weapon's damage + the Strength modifier of the game's characteristic table.",
    ),
    (
        "exact-depth",
        "Exact odds with open rolls",
        "Exact odds follow open rolls to a stated depth of re-rolls; the probability beyond that depth is reported,"
        " never silently dropped.",
    ),
    (
        "critical-at-0-lp",
        "No Critical at 0 LP",
        "A blow that leaves its target at 0 LP rolls no Critical: the target is unconscious anyway, nothing is"
        " applied, and the trace says so instead of giving a level.",
    ),
    (
        "phr-default",
        "A combatant without Physical Resistance",
        "A combatant whose file gives no `physical_resistance` resists a Critical with PhR 3, a new character's"
        " (Presence 3 and the Constitution modifier +0 of an average Constitution 5); the trace says so.",
    ),
    (
        "critical-penalties",
        "What a Critical leaves",
        "The fading part of the penalty is one pool that fades by 1 a round, however many Criticals are behind it;"
        " the All Action Penalty does not apply to the PhR check itself (a Resistance Check is not an action); AP"
        " lost to a Critical at 0 AP does not make the target Flat-Footed (only a hit does). Hit locations are not"
        " rolled (no General Hit Location Table is given), so a DoF 6+ head hit and the lost limbs of DoF 11+ are"
        " not played.",
    ),
    (
        "action-points",
        "Action Points in a fight",
        "Read from the game's Action Points page: every standing combatant has 6 AP at the start of each round"
        " (round 1: its `ap`), and unused AP is lost when the round ends; an attack costs its `ap_cost`. A hit at"
        " 0 AP leaves the defender Flat-Footed (no Active actions or Reactions) until the round ends.",
    ),
    (
        "critical",
        "Criticals and unconsciousness",
        "Read from the game's Critical page: a single hit costing half or more of the target's current LP is a"
        " Critical of level 2d6 + damage / 10 (rounded down; any amount above 20 halved). The target rolls 2d6 +"
        " Physical Resistance against it; each Degree of Failure gives -1 to all actions and costs 1 AP; a penalty"
        " of DoF 5 or less fades by 1 a round; DoF 16 or more knocks the target out. LP never goes below 0, and a"
        " combatant at 0 LP is unconscious, out of the fight. The level's 2d6 are the dice of the attack's own"
        " `critical` role (typed with the attack's dice at the table) when the Multiple Defense Penalty is off; with"
        " it on (the default), they are rolled anew after the defense, as the fight has always rolled them. The PhR"
        " check's 2d6 are typed as `phr` after the attack's dice, or rolled.",
    ),
    (
        "multiple-defense-penalty",
        "The Multiple Defense Penalty",
        "Read from the game's combat pages: each Defensive Roll after a defender's first in a round is at -2 more"
        " (2 attacks -2, 3 attacks -4, 4 attacks -6, and so on); the penalty starts again each round. Option"
        " `multiple_defense_penalty: false` leaves every defense at +0.",
    ),
    (
        "turn-order",
        "Turn order in a fight",
        "The file's order, sides alternating; a round goes round that order until nobody has the AP for an attack."
        " The pages forbid no delay: a live encounter keeps that order as its own, and the combatant whose turn comes"
        " may delay after another with the AP for an attack (before or after its own place, as the round goes"
        " round); the order as moved holds for the rest of the fight. Ending the turn instead keeps its AP for its"
        " next turn in the round.",
    ),
)
