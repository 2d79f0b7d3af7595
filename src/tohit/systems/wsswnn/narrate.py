"""When Sky and Sea Were Not Named fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Sequence

from tohit.systems.wsswnn.stat_readings import READINGS

PAGE = "wsswnn"
C_BRACES = "wsswnn: Braces, Grapple and Shove (docs/wsswnn.md#silent-braces)"
C_ARMS = "wsswnn: Breaking and Disarming Arms"
C_INTO_GRAPPLE = (
    "wsswnn: Braces, Grapple (ranged attacks into the grapple that roll an odd number; docs/wsswnn.md#silent-braces)"
)
C_MIGHTY = "wsswnn: Mighty Blow, the Champion's (docs/wsswnn.md#silent-mighty-blow)"


def initiative_roll(name: str, roll: str | None, beats: bool, awareness: int | None, told: bool = True) -> str:
    """A Maneuver roll against the foes' highest Awareness (`roll`: "face - penalty = total", None: no die). For
    the players (docs/players.md): `told` False, the roll of a combatant whose numbers they do not read is not
    said; `awareness` None, nor is the foes' highest Awareness when one of those foes is such a combatant."""
    verdict = "beats" if beats else "does not beat"
    rolled = (" " + (roll if roll is not None else "(no Maneuver die)")) if told else ""
    return (
        f"Initiative: {name} rolls Maneuver"
        + rolled
        + f", which {verdict} the foes' highest Awareness"
        + (f" {awareness}" if awareness is not None else "")
        + f"  [{PAGE}: Initiative (docs/wsswnn.md#silent-initiative)]"
    )


def initiative(order: Sequence[str]) -> str:
    """The turn order the initiative rolls give."""
    return "order: " + ", ".join(order)


def stand_fast(name: str, before: int, after: int) -> str:
    """Stand Fast: Guard restored."""
    return f"{name} Stands Fast: Guard {before} -> {after}"


def mighty_blow(name: str, stamina: int) -> str:
    """A Mighty Blow costs 1 stamina."""
    return (
        f"{name} pays -1 stamina for a Mighty Blow: Stamina {stamina} -> {stamina - 1}"
        f"  [{C_MIGHTY}; docs/wsswnn.md#silent-mighty-blow-cost]"
    )


def into_grapple(name: str, kept: int, partner: str, target: str) -> str:
    """A ranged attack into a grapple that rolls an odd number hits the other grappler."""
    return (
        f"{name}'s shot into the grapple rolled {kept}, an odd number:"
        f" it hits the other grappler, {partner}, not {target}  [{C_INTO_GRAPPLE}]"
    )


def skip(name: str, stat: str, before: int, after: int) -> str:
    """Skipping an action: +1 to a stat (named by its label), never above its maximum [Tracking Your Stats]."""
    return (
        f"{name} skips its action: +1 {READINGS[stat].label}, never above its maximum ({before} -> {after})"
        f"  [{PAGE}: Tracking Your Stats (docs/wsswnn.md#silent-stats)]"
    )


def damage(name: str, changed: Sequence[tuple[str, int, int]], out: bool) -> str:
    """Life, guard and awareness lost (`changed`: (stat, before, after) of those that changed), each by its label."""
    parts = [f"{READINGS[what].label} {before} -> {after}" for what, before, after in changed if before != after]
    return f"{name}: " + ", ".join(parts) + (": out of the fight" if out else "")


def fall(name: str, lethal: int, guard: int) -> str:
    """A jump-attack's fall."""
    return f"{name} falls: -{lethal} life, -{guard} guard"


def grapple_ends(name: str, foe: str) -> str:
    """A grapple ends when the grappler takes any lethal damage [braces: Grapple]."""
    return f"{name} takes lethal damage: its grapple on {foe} ends  [{C_BRACES}]"


def lets_go(name: str) -> str:
    """A grapple ends when the grappled foe is out of the fight (docs/wsswnn.md#silent-grapple-ends)."""
    return f"{name} lets go: the foe it grappled is out of the fight  [docs/wsswnn.md#silent-grapple-ends]"


def resist(name: str, brace: str, stamina: int) -> str:
    """On a Struggle the foe pays 1 stamina to resist the brace."""
    return f"{name} pays -1 stamina to resist the {brace}: Stamina {stamina} -> {stamina - 1}  [{C_BRACES}]"


def grapple(name: str, foe: str) -> str:
    """Grapple: brace advantage on the grappler's attacks against the foe; both limited to close melee."""
    return (
        f"{name} grapples {foe}: brace advantage on its attacks against it; both limited to close melee  [{C_BRACES}]"
    )


def shove(name: str, foe: str, grapple_ends: bool, hold_broken: bool) -> str:
    """Shove: out of the attacker's span or hold; grapples between the two end."""
    return (
        f"{name} shoves {foe} out of its span or hold"
        + ("; its grapple ends" if grapple_ends else "")
        + ("; the hold is broken" if hold_broken else "")
        + f"  [{C_BRACES}]"
    )


def disarm(name: str) -> str:
    """Disarmed: no weapon attacks for the rest of the fight [Breaking and Disarming Arms]."""
    return (
        f"{name} is disarmed: no weapon attacks for the rest of the fight  [{C_ARMS}; docs/wsswnn.md#silent-disarmed]"
    )
