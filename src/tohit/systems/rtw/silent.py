"""Reclaim the Wild: where Attacking 101 is silent, the readings tohit takes. `tohit reference rtw` lists them in
docs/rtw.md, section "Where the page is silent", each at its anchor `silent-<anchor>`; traces cite them by that
address."""

from __future__ import annotations

#: (anchor, title, text) of each reading.
SILENT: tuple[tuple[str, str, str], ...] = (
    (
        "defence-stat",
        "Which defence an attack is compared with",
        "An attack is compared with Evasion, Concentration or Vitality, as it names. Against Concentration or"
        " Vitality the defender uses whichever is higher of that stat and its Evasion; an Off-Balance defender"
        " has only the named stat.",
    ),
    (
        "natural-crit",
        "A natural 12 that misses",
        "A natural 12, or a roll inside a widened Critical Hit range, makes a Critical Hit only when the Basic"
        " Attack also hits. Option `natural_crit_always_hits` (default false) makes such a roll hit.",
    ),
    (
        "damage-pipeline",
        "The order of the damage steps",
        "Raw damage (the weapon's Attack Power plus the multiplier times the Trait, and the Attack Power once more"
        " on a Critical Hit), then Defense, then Resistance (2 a rank, or 1 a rank when the target is also"
        " Vulnerable; Vulnerable adds 4), then Reactions that halve, then the floor: at least 1, or 4 when"
        " Vulnerable. An Immune target takes 0. Only the highest Resistance counts.",
    ),
    (
        "rounding",
        "Rounding",
        "Halving and Rank / 2 round down.",
    ),
    (
        "hard-to-hit",
        "Hard to Hit",
        "Hard to Hit is -2 to the roll, Extremely Hard to Hit -5; the worse replaces the other, they never add."
        " Against a Hard-to-Hit target, Spells and Techniques that would hit without a roll roll To-Hit against"
        " Evasion with that penalty.",
    ),
    (
        "unarmed",
        "Unarmed attacks",
        "An attacker without a weapon strikes with a Fist: ACC 5, Attack Power 0, blunt.",
    ),
    (
        "cover",
        "Cover",
        "A target is behind cover when some line from a corner of the attacker's square to a corner of the"
        " target's square passes through a solid square; a line that only touches a solid square's edge or corner"
        " does not. Solid squares that touch are one solid object: a line through the corner where two solid"
        " squares meet, one on each side of it, or along the edge between two solid squares, passes through that"
        " object and is blocked (as the same squares drawn as walls, docs/maps.md). Option `cover_rule:"
        " best_corner` lets the attacker pick its corner: cover then needs a"
        " blocked line from that corner.",
    ),
    (
        "peril",
        "Peril",
        "A creature is in Peril while its Health is at most its Hearts. Maximum Health is 4 x Hearts unless it is"
        " given.",
    ),
    (
        "helpless-areas",
        "Helpless creatures and areas",
        "A Helpless creature is harmed only by an attack aimed at it alone. An area attack (`area: true`, or a"
        " template on a map) harms it when it is the area's only target, and leaves it unharmed when the area"
        " catches anyone else too.",
    ),
    (
        "move-first",
        "Moving before an attack",
        "On a map, a combatant with a foe in reach of an attack it can use attacks from where it stands, without"
        " moving; one without moves first toward the foe its policy picks, and one with no foe in reach even"
        " after moving holds its ground.",
    ),
    (
        "status-ends",
        "How long a status lasts in a fight",
        "Halted and Distracted, for which Status Effects gives no end, end at the end of the creature's next turn,"
        " as Blinded and Dazzled do; a second source of a Distraction joins the first and ends with it. Prone ends"
        " when the creature stands up at the start of its next turn (it then moves with its whole Movement). An"
        " effect that lands on a creature it leaves at 0 Health is not kept, and one that lands on a creature that"
        " already has the status changes nothing.",
    ),
    (
        "turn-order",
        "Turn order in a fight",
        "The page gives no initiative: a fight takes the file's order, sides alternating, and each combatant that"
        " is neither Helpless nor perished makes one attack a round.",
    ),
)
