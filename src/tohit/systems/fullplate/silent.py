"""FullPlate: where the Attacking page is silent, the readings tohit takes. `tohit reference fullplate` lists them in
docs/fullplate.md, section "Where the page is silent", each at its anchor `silent-<anchor>`; traces cite them by
that address."""

from __future__ import annotations

#: (anchor, title, text) of each reading.
SILENT: tuple[tuple[str, str, str], ...] = (
    (
        "effective-thac0",
        "The To-Hit Roll and the signs of modifiers",
        "To-Hit Roll = effective THAC0 - d20, and effective THAC0 = THAC0 - bonuses + penalties: a modifier in the"
        " table is signed from the attacker's side (+ helps it). The roll hits when it is at most the target's AC.",
    ),
    (
        "natural-1",
        "A natural 1",
        "A natural 1 always misses, as the page says (not as the game's later revision has it).",
    ),
    (
        "natural-20",
        "A natural 20 short of the AC",
        "With a natural 20, let the shortfall be the To-Hit Roll minus the AC. Up to 10 it hits; beyond 10 it hits"
        " with its damage halved once per 5 (or part of 5) beyond the first 10. After halving, damage from 0.5 to"
        " below 1 becomes 1, and below 0.5 becomes 0: a miss.",
    ),
    (
        "critical-hit",
        "Critical Hits",
        "A Critical Hit needs a natural 20 or a roll in the weapon's critical range, and a hit by 5 or more (AC"
        " minus To-Hit Roll at least 5). The critical range never makes a miss hit. By default a Critical reports"
        " 1d4 Severity points; option `crit_damage` may instead roll the weapon's dice twice (flat bonuses once)"
        " or take their maximum.",
    ),
    (
        "modifier-scales",
        "Circumstance rows that overlap",
        "Each circumstance row measures one scale (relative position with climbing, the attacker's stance, the"
        " target's stance, balance, underwater, light, concealment, cover, darkness distance, range band, and each"
        " Condition row on its own). Rows on one scale replace each other and the row worse for the attacker"
        " counts; rows on different scales add; Flatfooted counts once however many rows grant it. The trace names"
        " each row replaced. Option `modifier_stacking: all` adds every row instead. Flanking is +1 per level of"
        " Outnumbered (enemies engaged with the target, minus one).",
    ),
    (
        "target-conditions",
        "A target's conditions",
        "A target's conditions from the table (Prone, Kneeling/Sitting, Off-Balance, Invisible, Stunned, Unaware,"
        " Helpless: the target block's `conditions`) each give the row that fits the attack: a melee or a ranged"
        " one, and for a ranged attack within 10 feet or beyond by `attack.distance`; a ranged attack without a"
        " distance takes the row beyond 10 feet, the worse for the attacker (as rows on one scale are read). An"
        " attacker's own Prone, Kneeling/Sitting and Off-Balance (the attacker block's `conditions`) give its"
        " stance rows by its weapon's kind; a Prone attacker's melee or throwing row by the weapon's `size` against"
        " its own (default: the same, a weapon sized for its wielder). In a live encounter a condition is the"
        " combatant's: the game master sets and clears each, and Flatfooted, from the table, and it counts when the"
        " combatant is attacked and (Prone, Kneeling/Sitting, Off-Balance) when it attacks; a fight the engine runs"
        " keeps them as its file gives them.",
    ),
    (
        "range-bands",
        "Range bands",
        "A ranged weapon gives Short, Medium and Long distances; Extreme reaches up to twice Long, and anything"
        " beyond is out of range, refused with a clear error.",
    ),
    (
        "firing-into-melee",
        "Firing into melee",
        "Each creature that may be struck takes a share of the pick of 2 to the power of its size steps from"
        " Medium (Small 1, Medium 2, Large 4). The creature struck is picked first; the roll is then judged against"
        " its AC, and its own Special Defence, Resistance and Vulnerability adjust the damage. A creature given"
        " without stats of its own is judged as the intended target, and the trace says so; in a fight, a"
        " combatant of the fight named beside the target has its own stats (its `target` block), and those decide."
        " Only the creatures standing in the melee share the pick: one that is down (0 HP) is out of it, and a"
        " stray shot never goes to it. A fight tracks this from its combatants' hit points in every mode"
        " (narrated, sampled, exact tables); a single attack says it with the target's `engaged_down` (the"
        " positions, from 0, of the `engaged_with` entries that are down). When every creature beside the target"
        " is down, the shot goes to the target."
        " A pick die a GM enters follows the page: equal shares reduce (three Medium creatures: d3), unequal ones"
        " do not. Precision proficiency always strikes the intended target.",
    ),
    (
        "automatic-hit",
        "Automatic hits",
        "An attack that hits automatically rolls only for a critical or a fumble; a natural 1 is rolled again, and"
        " is no fumble when the new roll would hit AC 0.",
    ),
    (
        "enhancement",
        "Enhancement and Special Defence",
        "Only the highest Enhancement counts, except that a launcher's and its ammunition's add up. Special Defence"
        " follows the game style (`game: heroic`, `epic` or `traditional`) as the game's Special Defence page"
        " gives it.",
    ),
    (
        "damage",
        "Damage",
        "Read from the game's Damage page: the weapon's dice + Strength (the damage bonus) + Enhancement, then"
        " Special Defence, then Resistance or Vulnerability as a percentage, rounded down (Vulnerability 25%: 6"
        " -> 7), then the natural-20 halvings. In a fight a hit costs the creature struck its damage in hit"
        " points, never below 0.",
    ),
    (
        "severity",
        "Severity",
        "Read from the game's Severity page: a Critical Hit grants 1d4 Severity, a Backstab its level - 1 (a Sneak"
        " Attack: its level), a Called Attack 1d3; a target with no armour +2 more, with natural armour only +1. All"
        " of them add up. The Severity Effects the points buy are not played.",
    ),
    (
        "flatfooted",
        "AC, Flatfooted and Defence[Type]",
        "Read from the game's Defending and Defence pages: base AC is 10. A Flatfooted target loses its Dodge and"
        " Deflection (shield) AC, Deflection kept when the shield covers the part targeted, and losing them never"
        " takes its AC above 10. Defence[Type] is +1 AC a level against attacks of that type; only the best"
        " matching type counts, and Flatfooted keeps it.",
    ),
    (
        "turn-order",
        "Turn order in a fight",
        "The page gives no initiative: a fight takes the file's order, sides alternating, and each standing"
        " combatant makes one attack a round. Nor does the page forbid holding a turn: a live encounter keeps that"
        " order as its own, and the combatant whose turn comes may delay, acting after the next one or one named"
        " later in the round; the order as moved holds for the rest of the fight.",
    ),
)
