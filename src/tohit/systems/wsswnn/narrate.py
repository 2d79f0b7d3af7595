"""When Sky and Sea Were Not Named's game-master words (docs/players.md, "Events are data, told to each audience"):
each a function of an event's data, registered as the fight's `gm_phrases` (core/fight/words.py `gm_told`).

The fight rules (`fight.py`, `fight_turn.py`) decide what happens and emit events with data (their changes and
details); these functions only word them (called when a fight is narrated, never in a simulation or the exact
chain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tohit.core.fight.gm_words import GM_PHRASES
from tohit.core.fight.words import GmPhrase, change_of, gm_told
from tohit.systems.wsswnn.stat_readings import READINGS

PAGE = "wsswnn"
C_BRACES = "wsswnn: Braces, Grapple and Shove (docs/wsswnn.md#silent-braces)"
C_ARMS = "wsswnn: Breaking and Disarming Arms"
C_INTO_GRAPPLE = (
    "wsswnn: Braces, Grapple (ranged attacks into the grapple that roll an odd number; docs/wsswnn.md#silent-braces)"
)
C_MIGHTY = "wsswnn: Mighty Blow, the Champion's (docs/wsswnn.md#silent-mighty-blow)"


def maneuver(name: str, roll: str | None, beats: bool, awareness: int | None, told: bool = True) -> str:
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


def initiative_roll(event: Mapping[str, Any]) -> str:
    """A Maneuver roll (`roll`, `beats`) against the foes' highest Awareness (`awareness`) [Initiative]."""
    return maneuver(str(event["combatant"]), event["roll"], bool(event["beats"]), int(event["awareness"]))


def order(names: Sequence[str]) -> str:
    """A turn order in words."""
    return "order: " + ", ".join(names)


def initiative(event: Mapping[str, Any]) -> str:
    """The turn order the initiative rolls give (`order`)."""
    return order(event["order"])


def stand_fast(event: Mapping[str, Any]) -> str:
    """Stand Fast: Guard restored (the Guard change). Its Brace roll is an event of the same kind, an attack line
    (the common words of an attack)."""
    if "attacker" in event:
        return gm_told({**event, "kind": "attack"}, GM_PHRASES)
    guard = change_of(event, "guard") or {}
    return f"{event['combatant']} Stands Fast: Guard {guard['from']} -> {guard['to']}"


def mighty_blow(event: Mapping[str, Any]) -> str:
    """A Mighty Blow costs 1 stamina (the Stamina change from)."""
    stamina = int((change_of(event, "stamina") or {})["from"])
    return (
        f"{event['combatant']} pays -1 stamina for a Mighty Blow: Stamina {stamina} -> {stamina - 1}"
        f"  [{C_MIGHTY}; docs/wsswnn.md#silent-mighty-blow-cost]"
    )


def into_grapple(event: Mapping[str, Any]) -> str:
    """A ranged attack into a grapple that rolls an odd number (`roll`) hits the other grappler (`struck`), not
    its `target`."""
    return (
        f"{event['attacker']}'s shot into the grapple rolled {event['roll']}, an odd number:"
        f" it hits the other grappler, {event['struck']}, not {event['target']}  [{C_INTO_GRAPPLE}]"
    )


def skip(event: Mapping[str, Any]) -> str:
    """Skipping an action: +1 to a stat (the change's, named by its label), never above its maximum [Tracking Your
    Stats]."""
    ch = event["changes"][0]
    return (
        f"{event['combatant']} skips its action: +1 {READINGS[ch['stat']].label}, never above its maximum"
        f" ({ch['from']} -> {ch['to']})  [{PAGE}: Tracking Your Stats (docs/wsswnn.md#silent-stats)]"
    )


def damage(event: Mapping[str, Any]) -> str:
    """Life, guard and awareness lost (the combatant's changes of each), each by its label; out of the fight at 0
    life."""
    who = event["combatant"]
    changed = [ch for ch in (change_of(event, s, who) for s in ("life", "guard", "awareness")) if ch is not None]
    parts = [f"{READINGS[ch['stat']].label} {ch['from']} -> {ch['to']}" for ch in changed if ch["from"] != ch["to"]]
    life = change_of(event, "life", who)
    out = life is not None and life["to"] <= 0
    return f"{who}: " + ", ".join(parts) + (": out of the fight" if out else "")


def fall(event: Mapping[str, Any]) -> str:
    """A jump-attack's fall (`lethal_damage`, `guard_damage`)."""
    return f"{event['combatant']} falls: -{event['lethal_damage']} life, -{event['guard_damage']} guard"


def grapple_ends(event: Mapping[str, Any]) -> str:
    """A grapple ends when the grappler takes any lethal damage [braces: Grapple]; one holding a foe out of the
    fight lets go (`lets_go`; docs/wsswnn.md#silent-grapple-ends)."""
    if event.get("lets_go"):
        return (
            f"{event['combatant']} lets go: the foe it grappled is out of the fight"
            "  [docs/wsswnn.md#silent-grapple-ends]"
        )
    return f"{event['combatant']} takes lethal damage: its grapple on {event['foe']} ends  [{C_BRACES}]"


def resist(event: Mapping[str, Any]) -> str:
    """On a Struggle the foe pays 1 stamina (`stamina` before) to resist the `brace`."""
    stamina = int(event["stamina"])
    return (
        f"{event['combatant']} pays -1 stamina to resist the {event['brace']}: Stamina {stamina} -> {stamina - 1}"
        f"  [{C_BRACES}]"
    )


def grapple(event: Mapping[str, Any]) -> str:
    """Grapple: brace advantage on the grappler's attacks against the foe; both limited to close melee."""
    return (
        f"{event['combatant']} grapples {event['foe']}: brace advantage on its attacks against it; both limited to"
        f" close melee  [{C_BRACES}]"
    )


def shove(event: Mapping[str, Any]) -> str:
    """Shove: out of the attacker's span or hold; grapples between the two end (`grapple_ends`, `hold_broken`)."""
    return (
        f"{event['combatant']} shoves {event['foe']} out of its span or hold"
        + ("; its grapple ends" if event.get("grapple_ends") else "")
        + ("; the hold is broken" if event.get("hold_broken") else "")
        + f"  [{C_BRACES}]"
    )


def disarm(event: Mapping[str, Any]) -> str:
    """Disarmed: no weapon attacks for the rest of the fight [Breaking and Disarming Arms]."""
    return (
        f"{event['combatant']} is disarmed: no weapon attacks for the rest of the fight"
        f"  [{C_ARMS}; docs/wsswnn.md#silent-disarmed]"
    )


#: WSSWNN's game-master words, by kind (`FightRules.gm_phrases`).
PHRASES: Mapping[str, GmPhrase] = {
    "initiative_roll": initiative_roll,
    "initiative": initiative,
    "stand_fast": stand_fast,
    "mighty_blow": mighty_blow,
    "into_grapple": into_grapple,
    "skip": skip,
    "damage": damage,
    "fall": fall,
    "grapple_ends": grapple_ends,
    "resist": resist,
    "grapple": grapple,
    "shove": shove,
    "disarm": disarm,
}
