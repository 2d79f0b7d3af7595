"""Kaiser RPG's game master's words: each kind of event the fight emits, written from the event's data (its
`combatant`, its changes with their `from` and `to`, and the details named in the rulebook's terms: `cost`,
`bonus`, `damage`, `dof`...; docs/players.md, "Events are data, told to each audience").

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain). `GM_PHRASES` registers them on
`KaiserFight.gm_phrases`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.gm_words import GM_PHRASES as COMMON
from tohit.core.fight.words import GmPhrase, change_of, gm_told
from tohit.systems.kaiser.consequences import KNOCKOUT_DOF, LASTING_DOF

PAGE = "kaiser: Attacking and Defending"
AP_PAGE = "kaiser: Action Points (docs/kaiser.md#silent-action-points)"
CRIT_PAGE = "kaiser: Critical (docs/kaiser.md#silent-critical)"
MDP_PAGE = "kaiser: Multiple Defense Penalty (docs/kaiser.md#silent-multiple-defense-penalty)"

Event = Mapping[str, Any]


def turn(event: Event) -> str:
    """Whose turn it is, and the round."""
    return f"{event['combatant']}'s turn (round {event['round']})"


def ap_spent(event: Event) -> str:
    """An attack costs its AP [Action Points]: its `cost`, the attacker's AP from and to."""
    ap = change_of(event, "ap") or {}
    return f"{event['combatant']} spends {event['cost']} AP ({ap['from']} -> {ap['to']})"


def counter(event: Event) -> str:
    """The defender of a failed close attack takes the Counterattack Reaction [Failed Attack; Counter]: its `cost`
    (1 AP), its AP from and to, its Counter `bonus`. The counterattack itself (an attack: `attacker`) is worded
    as every game's attack is."""
    if "attacker" in event:
        return gm_told(event, COMMON)
    ap = change_of(event, "ap") or {}
    return (
        f"{event['combatant']} takes the Counterattack Reaction ({event['cost']} AP, {ap['from']} -> {ap['to']})"
        f" with Counter bonus +{event['bonus']}  [{PAGE}, Failed Attack (the Counterattack Reaction)]"
    )


def counter_note(bonus: int, penalty: int) -> str:
    """What a counterattack's Offensive Roll adds, in its trace."""
    return f" (Counter bonus +{bonus}" + (f", All Action Penalty -{penalty})" if penalty else ")")


def penalty_note(penalty: int) -> str:
    """A Critical's All Action Penalty on an Offensive Roll, in its trace."""
    return f" (All Action Penalty -{penalty})"


def new_round(event: Event) -> str:
    """Every standing combatant has its `ap` at the start of a `round` [Action Points]."""
    return f"Round {event['round']}: every standing combatant has {event['ap']} AP  [{AP_PAGE}]"


def damage(event: Event) -> str:
    """LP lost (the hit's `damage`, never below 0 LP); at 0 LP unconscious [Critical]."""
    lp = change_of(event, "lp") or {}
    return f"{event['combatant']} loses {event['damage']} LP ({lp['from']} -> {lp['to']})" + (
        f": unconscious, out of the fight  [{CRIT_PAGE}]" if lp["to"] <= 0 else ""
    )


def ap_lost(event: Event) -> str:
    """A Successful Attack costs the defender 1 AP, never below 0."""
    ap = change_of(event, "ap") or {}
    return f"{event['combatant']} loses 1 AP ({ap['from']} -> {ap['to']})  [{PAGE}, Successful Attack]"


def flat_footed(event: Event) -> str:
    """Hit at 0 AP: Flat-Footed until the round ends [Action Points]."""
    return f"{event['combatant']} is hit at 0 AP: Flat-Footed until the round ends  [{AP_PAGE}]"


def critical(event: Event) -> str:
    """A Critical [Critical]: its level (2d6 `level_dice` + `base`, above 20 halved: `level`) against the PhR check
    (2d6 `phr_dice` + `phr`; `default_phr`: the combatant has none and resists as a new character), then its
    Degrees of Failure (`dof`)."""
    name, level_faces, check_faces = event["combatant"], event["level_dice"], event["phr_dice"]
    raw, level, phr = sum(level_faces) + event["base"], event["level"], event["phr"]
    said = (
        f"{name} suffers a Critical ({event['damage']} damage, half or more of its LP): Critical level"
        f" 2d6 ({level_faces[0]}, {level_faces[1]}) + {event['base']} = {raw}"
        + (f" -> {level} (above 20 halved)" if level != raw else "")
        + f" vs PhR 2d6 ({check_faces[0]}, {check_faces[1]}) + {phr} = {sum(check_faces) + phr}"
        + (
            f" ({name} has no physical_resistance: PhR {phr}, a new character's; docs/kaiser.md#silent-phr-default)"
            if event["default_phr"]
            else ""
        )
    )
    return said + (_dof(event) if event["dof"] else f": no DoF, no further effect  [{CRIT_PAGE}]")


def _dof(event: Event) -> str:
    """A Critical's Degrees of Failure: -1 to all actions and 1 AP each; DoF 16+ knocks out [Critical]."""
    dof, ap, penalty = event["dof"], change_of(event, "ap") or {}, change_of(event, "penalty") or {}
    how = (
        "DoF 6+: it lasts, recovered by Regeneration after the fight"
        if dof >= LASTING_DOF
        else "DoF 5 or less: it fades by 1 each round"
    )
    return (
        f": {dof} DoF: -{dof} to all actions ({how}; All Action Penalty now -{penalty['to']}),"
        f" -{dof} AP ({ap['from']} -> {ap['to']})"
        + (": unconscious (DoF 16+), out of the fight" if dof >= KNOCKOUT_DOF else "")
        + f"  [{CRIT_PAGE}]"
    )


def penalty_fades(event: Event) -> str:
    """The All Action Penalty of Criticals of DoF 5 or less fades by 1 a round [Critical]: each combatant's
    penalty from and to."""
    faded = [ch for ch in event.get("changes", []) if ch.get("stat") == "penalty"]
    return (
        "; ".join(f"{ch['who']}'s All Action Penalty fades by 1 (-{ch['from']} -> {-ch['to']})" for ch in faded)
        + f"  [{CRIT_PAGE}]"
    )


def multiple_defense(event: Event) -> str:
    """The Multiple Defense Penalty: 2 attacks -2, 3 attacks -4, ... in a round [Multiple Defense Penalty]: the
    `defenses` made this round and the `penalty` of the next."""
    defenses = event["defenses"]
    return (
        f"{event['combatant']} has defended {defenses} time{'s' if defenses != 1 else ''} this round: its next"
        f" Defensive Roll this round is at -{event['penalty']} (Multiple Defense Penalty)  [{MDP_PAGE}]"
    )


def defense_restored(event: Event) -> str:
    """A new round: the Multiple Defense Penalty starts again for the `combatants` who defended."""
    return f"{', '.join(event['combatants'])}: the Multiple Defense Penalty starts again  [{MDP_PAGE}]"


#: The game master's words of Kaiser's own kinds (`KaiserFight.gm_phrases`).
GM_PHRASES: Mapping[str, GmPhrase] = {
    "turn": turn,
    "ap_spent": ap_spent,
    "counter": counter,
    "round": new_round,
    "damage": damage,
    "ap_lost": ap_lost,
    "flat_footed": flat_footed,
    "critical": critical,
    "penalty_fades": penalty_fades,
    "defense": multiple_defense,
    "defense_restored": defense_restored,
}
