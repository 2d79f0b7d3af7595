"""When Sky and Sea Were Not Named: where the Taking Actions page is silent, the readings tohit takes. `tohit reference
wsswnn` lists them in docs/wsswnn.md, section "Where the page is silent", each at its anchor `silent-<anchor>`;
traces cite them by that address."""

from __future__ import annotations

#: (anchor, title, text) of each reading.
SILENT: tuple[tuple[str, str, str], ...] = (
    (
        "action-dice",
        "Action dice and beating",
        "Each combatant gives its action dice, each a d4, d6, d8, d10 or d12. One roll beats another only when it"
        " is strictly greater.",
    ),
    (
        "advantage",
        "Advantage",
        "Advantage rolls the named second action die too and keeps the higher; that die's own penalties apply to it.",
    ),
    (
        "ranged-penalty",
        "Ranged attacks",
        "A ranged attack takes -max(2, spans). A Struggle on a ranged attack against a target without a shield is"
        " a miss, with no guard damage (option: a block). A ranged result of 0 or less is a plain miss.",
    ),
    (
        "lethal-damage",
        "Lethal and guard damage",
        "On a hit, lethal damage = result - Guard - Armor, at least 0; a blunted weapon or an unarmed strike caps"
        " it at Strength + 1. Guard damage (-1, or the weapon's) follows a hit or a block, after the lethal"
        " damage.",
    ),
    (
        "jump-attack",
        "Jump-attacks and falling",
        "A jump-attack takes -1 per height on its result; when it does not miss (the result beats Guard or"
        " Agility) it adds +3 per height (and Strength per height, an option on by default), which can turn a block"
        " into a hit; its guard damage is -1, and -1 more per height. A fall deals 2 lethal and 1 guard damage per"
        " height; the landing Maneuver roll reduces only the lethal part.",
    ),
    (
        "objects",
        "Attacking objects",
        "Against an object, damage = result x the guard-damage multiplier - Toughness, with no cap for blunted"
        " weapons. An object of several materials has their average Toughness, rounded down (cloth 0, wicker or"
        " wood 2, bronze 4, stone 6).",
    ),
    (
        "braces",
        "Braces where the braces page breaks off",
        "The braces page is cut short: Grapple, Shove, Disarm, Break and Stand Fast follow the game's own readings"
        " of them as far as they go, and tohit's defaults for the rest, each described with its field.",
    ),
    (
        "cancel",
        "Advantage and disadvantage together",
        "An action with both advantage and disadvantage reads the acting die alone: they cancel, and the trace"
        " says so.",
    ),
    (
        "grapple-ends",
        "A grapple whose foe is out of the fight",
        "A grapple ends when the grappled foe is out of the fight, as it does when the grappler takes lethal"
        " damage or is Shoved.",
    ),
    (
        "disarmed",
        "A disarmed combatant",
        "A fight has no movement to fetch a weapon: a disarmed combatant keeps only its unarmed attacks, Take Hold"
        " and braces for the rest of the fight.",
    ),
    (
        "mighty-blow-cost",
        "Paying for a Mighty Blow",
        "A Mighty Blow's 1 stamina is paid when the blow is made, hit or miss; with 0 stamina it cannot be used.",
    ),
    (
        "mighty-blow",
        "Mighty Blow",
        "Read from the game's Champion calling: a Mighty Blow is a melee attack made with brace advantage for 1"
        " stamina; a hit deals double lethal damage and -1 guard more.",
    ),
    (
        "stats",
        "Tracking life, guard and awareness",
        "Read from the game's Tracking Your Stats page: lethal damage reduces life, guard damage guard (after the"
        " lethal damage) and awareness damage awareness, none of them below 0; at 0 life a combatant is out of the"
        " fight. Skipping an action gives +1 guard (or +1 awareness), never above its maximum; Stand Fast may push"
        " guard above its maximum by up to Strength. Stamina refills only after an hour's rest, never in a fight.",
    ),
    (
        "initiative",
        "Initiative",
        "Read from the game's maneuvers: at the start of a fight each combatant rolls its Maneuver die (with its"
        " penalty) against the highest Awareness among its foes; those who beat it act first, in the file's order"
        " with sides alternating, then the others in the same order, for the whole fight. A combatant with no"
        " Maneuver die does not beat it.",
    ),
)
