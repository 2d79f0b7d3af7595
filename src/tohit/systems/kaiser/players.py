"""What the players are told of Kaiser's own events (core/fight/audience.py; docs/players.md): of a combatant
whose numbers they read, the game master's words; of one kept from them, what a person at the table sees (it
spends AP, it loses AP, it is Flat-Footed, it suffers a Critical, its health word), never its AP, its LP, its
Counter bonus (half the margin of a roll against its defence), its PhR check or its Degrees of Failure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase, attack_said, change_said, changes_said, of_the_kept
from tohit.core.fight.words import change_of

Event = Mapping[str, Any]
#: What the players notice of an attack by a combatant hidden from them entirely (`{verb}`: "attacks",
#: "counterattacks"), in Kaiser's words (an attacker, a defender: Attacking and Defending).
UNSEEN_ATTACK = "an unseen attacker {verb} {target}"


@of_the_kept
def ap_spent(event: Event, audience: Audience, name: str) -> str:
    """An attack's AP [Action Points]: that it spends AP, never how many nor what it has left."""
    return f"{name} spends AP"


def counter(event: Event, audience: Audience) -> str | None:
    """The Counterattack [Failed Attack; Counter]: the Reaction of a combatant kept from the players is told
    without its AP and its Counter bonus ("Bandit takes the Counterattack Reaction"); the counterattack itself is
    told as an attack ("Ceil counterattacks Bandit chief with long sword: hit"). The players' own Counter bonus is
    theirs: they add it to their Offensive Roll."""
    if "attacker" not in event:
        return _reaction(event, audience)
    if not audience.touches(event):
        return str(event.get("text") or "")
    return attack_said(event, audience, "counterattacks")


@of_the_kept
def _reaction(event: Event, audience: Audience, name: str) -> str:
    return f"{name} takes the Counterattack Reaction"


@of_the_kept
def damage(event: Event, audience: Audience, name: str) -> str:
    """LP lost [Critical]: the health word it moves to, or unconscious at 0 LP, never its LP nor the damage."""
    lp = change_of(event, "lp") or {}
    if lp["to"] <= 0:
        return f"{name} is unconscious, out of the fight"
    return change_said(lp, audience) or f"{name} is hurt"


@of_the_kept
def ap_lost(event: Event, audience: Audience, name: str) -> str:
    """A Successful Attack costs the defender 1 AP [Attacking and Defending]: that it loses one, never its AP."""
    return f"{name} loses an AP (a Successful Attack)"


@of_the_kept
def flat_footed(event: Event, audience: Audience, name: str) -> str:
    """Hit at 0 AP [Action Points]: what the table sees, the condition."""
    return f"{name} is Flat-Footed until the round ends"


@of_the_kept
def critical(event: Event, audience: Audience, name: str) -> str:
    """A Critical [Critical]: that it suffers one and what follows (no further effect, a penalty to all its
    actions, unconscious), never the damage, the level, its PhR check or its Degrees of Failure."""
    if not event.get("dof"):
        return f"{name} suffers a Critical: no further effect"
    if any(ch.get("stat") == "knocked_out" for ch in event.get("changes", [])):
        return f"{name} suffers a Critical: unconscious, out of the fight"
    return f"{name} suffers a Critical: a penalty to all its actions"


@of_the_kept
def multiple_defense(event: Event, audience: Audience, name: str) -> str:
    """The Multiple Defense Penalty [Multiple Defense Penalty]: that its next Defensive Roll is at one, never its
    Defensive Roll's modifier."""
    return f"{name} has defended this round: its next Defensive Roll is at a Multiple Defense Penalty"


def penalty_fades(event: Event, audience: Audience) -> str:
    """The All Action Penalty fades by 1 a round [Critical]: of a combatant kept from the players, that it fades;
    of one they do not know of, nothing."""
    if not audience.touches(event):
        return str(event.get("text") or "")
    said = []
    for ch in event.get("changes", []):
        who = ch.get("who")
        if ch.get("stat") != "penalty" or audience.gone(who):
            continue
        if audience.unseen(who):
            said.append(f"{who}'s All Action Penalty fades")
        else:
            said.append(f"{who}'s All Action Penalty fades by 1 (-{ch['from']} -> {-ch['to']})")
    return "; ".join(said)


def defense_restored(event: Event, audience: Audience) -> str:
    """A new round: the Multiple Defense Penalty starts again (no number in its words), said of those the players
    know of."""
    if "combatants" not in event:  # stored before it carried its data: told from its changes
        return changes_said(event, audience) if audience.touches(event) else str(event.get("text") or "")
    names = [n for n in event["combatants"] if not audience.gone(n)]
    if len(names) == len(event["combatants"]):
        return str(event.get("text") or "")
    return f"{', '.join(names)}: the Multiple Defense Penalty starts again"


PHRASES: Mapping[str, Phrase] = {
    "ap_spent": ap_spent,
    "counter": counter,
    "damage": damage,
    "ap_lost": ap_lost,
    "flat_footed": flat_footed,
    "critical": critical,
    "defense": multiple_defense,
    "penalty_fades": penalty_fades,
    "defense_restored": defense_restored,
}
