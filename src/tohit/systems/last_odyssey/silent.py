"""Last Odyssey: where Attacking and Defending is silent, the readings tohit takes. `tohit reference last-odyssey`
lists them in docs/last-odyssey.md, section "Where the page is silent", each at its anchor `silent-<anchor>`; traces
cite them by that address."""

from __future__ import annotations

#: (anchor, title, text) of each reading.
SILENT: tuple[tuple[str, str, str], ...] = (
    (
        "hit-die",
        "The hit die",
        "The hit die is a d10.",
    ),
    (
        "hit-check",
        "When an ability hits",
        "A physical or magical attack hits when d10 - Accuracy + Evasion is 7 or less, and a natural 1 always"
        " hits. A status ability lands when d10 - Status Accuracy + Resistance is 5 or less, with no automatic"
        " success.",
    ),
    (
        "damage",
        "Damage and rounding",
        "Base damage = Attack - Defense + d10, at least 1. The final damage is the base times the multipliers,"
        " rounded to the nearest whole number with halves rounded up; it may be 0.",
    ),
    (
        "one-roll",
        "Multi-target abilities",
        "One roll of the hit die serves every target of the ability; each target compares it with its own defences.",
    ),
    (
        "shell",
        "Shells",
        "Magical attacks on a Shelled target, and physical attacks on a target without a Shell, deal double. In a"
        " fight a Shell is a pool of temporary HP: on the hit that breaks it, the damage left over comes off HP only"
        " when it is at least the HP left (the target is then downed); otherwise no HP is lost.",
    ),
    (
        "knock-out",
        "Knocking out",
        "A knock-out attack checks the hit with the real roll but works out its damage as if the die showed 1; a"
        " target it downs is incapacitated, not killed.",
    ),
    (
        "leaning-in",
        "Leaning in",
        "A target may choose to be hit; the roll is then ignored for that target.",
    ),
    (
        "initiative-ties",
        "Initiative ties",
        "A player character's call breaks a tie with an enemy only (below the GM's 2d4: first; at or above it:"
        " last). Other ties (between player characters, between enemies, or with one who did not call) follow the"
        " file's order, sides alternating.",
    ),
    (
        "advance-at-once",
        "Coming forward without the Effect Phase",
        "With `effect_phase: false`, a side's back row comes forward as soon as its front row has nobody standing,"
        " which may be so from the start of the fight, before anyone acts.",
    ),
    (
        "statuses",
        "Statuses",
        "Read from the game's Statuses page: a status-inflicting ability that lands gives its target the status."
        " Blinded halves its bearer's accuracies (option `blinded_halves`), Petrified halves its base Evasion,"
        " Paralyzed makes its physical attacks miss and Silenced its magical ones, Burned stops buffs, and Poisoned"
        " costs 1/10 of its base maximum HP (rounded down, at least 1) at each round's Effect Phase; Confused,"
        " Frostbitten and Fatigued are kept and narrated only. A status's elemental multiplier scales its hit.",
    ),
    (
        "buffs-and-debuffs",
        "Buffs and debuffs",
        "Read from the game's Buffs and Debuffs page: they succeed no matter what. Each moves the Bonus Tracker of"
        " one statistic by its levels along -7, -3, -1, 0, +1, +3, +7, stopping at the ends, so buffs and debuffs"
        " cancel step for step; the tracker feeds its bearer's accuracies, attacks and defences, and resets after"
        " each battle.",
    ),
    (
        "death-and-injury",
        "Death and injury",
        "Read from the game's Attributes and Statistics and Death and Injury pages: HP never goes below 0; at 0 a"
        " combatant is downed, out of the fight (incapacitated instead of killed when knocked out). A downed"
        " combatant loses every effect but Poisoned, Frostbitten and Burned, its Bonus Tracker too, and cannot be"
        " targeted.",
    ),
    (
        "combat-round",
        "The combat round",
        "Read from the game's The Combat Round page: every ability costs 1 AP, and a combatant uses abilities until"
        " its AP (option `action_points`, default 2) are spent or it has none it can use; each round every"
        " combatant has its AP again. At the Effect Phase, at each round's end, Poisoned damage comes first; then a"
        " side whose front row has nobody standing sees the opposing side advance, and its back row counts as the"
        " front row.",
    ),
    (
        "elemental-types",
        "Elemental types",
        "Read from the game's Elemental Types page: an attack's element against its target's gives the elemental"
        " multiplier of the element table (a target's own `element_multiplier` replaces it; colorless: x1).",
    ),
    (
        "body-armor",
        "Body Armor",
        "Read from the Cop's passive Body Armor: the first physical hit on it deals no damage, and the armour is"
        " then used up.",
    ),
    (
        "status-duration",
        "How long a status lasts",
        "A status lasts for the rest of the battle, or until its bearer is downed, which keeps only Poisoned,"
        " Frostbitten and Burned; a character that already has a status cannot gain it again (a status is on or"
        " off).",
    ),
)
