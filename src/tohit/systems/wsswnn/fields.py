"""The outcome fields of a WSSWNN action.

The engine's fields are flat, so a nested `falling: null | {lethal, guard}` is the pair of nullable
ints `falling_lethal` / `falling_guard` (both null unless a jump-attack missed). `damage` is the lethal
damage against a creature and the Structure damage against an object.
"""

from __future__ import annotations

from tohit.core.outcome import Field

ATTACK_LABELS = ("hit", "block", "miss")
#: A brace action is not an attack: its outcomes are a success, a struggle or a failure [Attack Actions].
BRACE_LABELS = ("success", "struggle", "failure")
HIT, BLOCK, MISS = 0, 1, 2
SUCCESS, STRUGGLE, FAILURE = 0, 1, 2
EFFECT_LABELS = ("grappled", "shoved", "disarmed", "broken")
EFFECT_OF = {"grapple": 0, "shove": 1, "disarm": 2, "break": 3}

FIELDS = (
    Field(
        "result",
        "label",
        "hit (beats Guard), block (beats only Agility) or miss; a brace action: success, struggle or failure.",
        ATTACK_LABELS,
    ),
    Field("damage", "int", "Lethal damage to a creature's life; Structure damage to an object."),
    Field("lethal", "int", "Lethal damage: result - Guard - Armor on a hit, capped if blunted.", nullable=True),
    Field("guard_damage", "int", "Guard the foe loses (after Unflinching); null for an object.", nullable=True),
    Field("awareness_damage", "int", "Awareness the foe loses on a hit; null for an object.", nullable=True),
    Field("guard_after", "int", "The foe's Guard after the action (never below 0); null for an object.", nullable=True),
    Field("life_after", "int", "The foe's Life after the action, when its Life is given.", nullable=True),
    Field("structure_after", "int", "An object's Structure after the attack (never below 0).", nullable=True),
    Field("destroyed", "flag", "The object's Structure reached zero: it crumbles or shatters.", nullable=True),
    Field("falling_lethal", "int", "A missed jump-attack falls: lethal damage to the attacker.", nullable=True),
    Field("falling_guard", "int", "A missed jump-attack falls: guard damage to the attacker.", nullable=True),
    Field(
        "brace_result",
        "label",
        "The opposed brace rolled (free or as the action): success, struggle or failure; null if none.",
        BRACE_LABELS,
        nullable=True,
    ),
    Field(
        "brace_effect",
        "label",
        "What the brace does to the foe (on a struggle, unless it pays resist_stamina); null if nothing.",
        EFFECT_LABELS,
        nullable=True,
    ),
    Field(
        "resist_stamina",
        "int",
        "Stamina the foe may pay to resist the effect (1 on a struggle, if it has any); null otherwise.",
        nullable=True,
    ),
    Field("guard_regained", "int", "Stand Fast: Guard the attacker regains.", nullable=True),
    Field("attacker_guard_after", "int", "Stand Fast: the attacker's Guard after it.", nullable=True),
    Field("attack_roll", "int", "The final attack result (after advantage, penalties, bonuses).", nullable=True),
    Field("brace_roll", "int", "The brace roll after its penalties.", nullable=True, in_odds=False),
)
