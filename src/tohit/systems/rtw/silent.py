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
        " after moving holds its ground. A live encounter's preview of an attack shows that move (the square, and"
        " these words) with the odds from where it ends, or that it holds its ground, with no odds (docs/fights.md,"
        ' "The preview is the action").',
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
        "status-effects",
        "Status effects",
        "Read from the game's Status Effects page. Off-Balance: no Evasion in place of Concentration or Vitality and"
        " no Reactions, until the start of the creature's next turn. Prone: no Evasion against, and never Hard to"
        " Hit with, Melee, Line and X-targets attacks, Hard to Hit with every other; a Prone creature cannot attack"
        " and stands up at the start of its next turn, unless Halted. Halted: Evasion 0. Blinded: every foe is"
        " Extremely Hard to Hit for its attacks (a Mini-Boss or Boss is merely Dazzled). Dazzled: every foe is Hard"
        " to Hit for its attacks. Distracted: every foe but the source of the Distraction is Hard to Hit for its"
        " attacks. Invisible: its attackers are treated as Blinded; it ends when an attack hits the creature or when"
        " it attacks. Resistant: see the order of the damage steps. A Burning weapon that lands a blow loses 1"
        " Durability.",
    ),
    (
        "movement",
        "Movement on a map",
        "Read from the game's Movement rules: entering a square costs 1 Movement (1-2-1 diagonals, Difficult Terrain"
        " 1 more); a combatant has its `movement` (default 6, as Heroes typically have), may enter a last square"
        " that costs more than it has left, passes allies but not foes, and never passes a solid square. Sprinting,"
        " unnatural movement and pushes are not played.",
    ),
    (
        "health",
        "Health in a fight",
        "A hit costs its target its damage in Health, never below 0; what 0 Health makes of a creature is the"
        " page's Falling in Battle.",
    ),
    (
        "turn-order",
        "Turn order in a fight",
        "The page gives no initiative: a fight takes the file's order, sides alternating, and each combatant that"
        " is neither Helpless nor perished makes one attack a round. Nor does the page forbid holding a turn: a live"
        " encounter keeps that order as its own, and the combatant whose turn comes may delay, acting after the next"
        " one or one named later in the round; the order as moved holds for the rest of the fight.",
    ),
)
