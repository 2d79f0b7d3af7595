"""Kaiser RPG fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Sequence

PAGE = "kaiser: Attacking and Defending"
AP_PAGE = "kaiser: Action Points (docs/kaiser.md#silent-action-points)"
CRIT_PAGE = "kaiser: Critical (docs/kaiser.md#silent-critical)"
MDP_PAGE = "kaiser: Multiple Defense Penalty (docs/kaiser.md#silent-multiple-defense-penalty)"


def ap_spent(name: str, cost: int, before: int, after: int) -> str:
    """An attack costs its AP [Action Points]."""
    return f"{name} spends {cost} AP ({before} -> {after})"


def counter(name: str, before: int, after: int, bonus: int) -> str:
    """The defender of a failed close attack takes the Counterattack Reaction [Failed Attack; Counter]."""
    return (
        f"{name} takes the Counterattack Reaction (1 AP, {before} -> {after}) with Counter bonus +{bonus}"
        f"  [{PAGE}, Failed Attack (the Counterattack Reaction)]"
    )


def counter_note(bonus: int, penalty: int) -> str:
    """What a counterattack's Offensive Roll adds, in its trace."""
    return f" (Counter bonus +{bonus}" + (f", All Action Penalty -{penalty})" if penalty else ")")


def penalty_note(penalty: int) -> str:
    """A Critical's All Action Penalty on an Offensive Roll, in its trace."""
    return f" (All Action Penalty -{penalty})"


def new_round(number: int, ap: int) -> str:
    """Every standing combatant has its AP at the start of a round [Action Points]."""
    return f"Round {number}: every standing combatant has {ap} AP  [{AP_PAGE}]"


def damage(name: str, damage: int, before: int, after: int) -> str:
    """LP lost; at 0 LP unconscious [Critical]."""
    return f"{name} loses {damage} LP ({before} -> {after})" + (
        f": unconscious, out of the fight  [{CRIT_PAGE}]" if after <= 0 else ""
    )


def ap_lost(name: str, before: int) -> str:
    """A Successful Attack costs the defender 1 AP, never below 0."""
    return f"{name} loses 1 AP ({before} -> {max(0, before - 1)})  [{PAGE}, Successful Attack]"


def flat_footed(name: str) -> str:
    """Hit at 0 AP: Flat-Footed until the round ends [Action Points]."""
    return f"{name} is hit at 0 AP: Flat-Footed until the round ends  [{AP_PAGE}]"


def critical(
    name: str,
    damage: int,
    level_faces: Sequence[int],
    base: int,
    raw: int,
    level: int,
    check_faces: Sequence[int],
    phr: int,
    check: int,
    default_phr: int | None,
) -> str:
    """A Critical: its level against the PhR check [Critical] (`default_phr`: the PhR a combatant
    without one resists with, said as such)."""
    return (
        f"{name} suffers a Critical ({damage} damage, half or more of its LP): Critical level"
        f" 2d6 ({level_faces[0]}, {level_faces[1]}) + {base} = {raw}"
        + (f" -> {level} (above 20 halved)" if level != raw else "")
        + f" vs PhR 2d6 ({check_faces[0]}, {check_faces[1]}) + {phr} = {check}"
        + (
            ""
            if default_phr is None
            else f" ({name} has no physical_resistance: PhR {default_phr}, a new character's;"
            " docs/kaiser.md#silent-phr-default)"
        )
    )


def no_dof() -> str:
    """A Critical the PhR check resists fully."""
    return f": no DoF, no further effect  [{CRIT_PAGE}]"


def dof(dof: int, lasting: bool, penalty: int, ap_before: int, ap_after: int, knocked_out: bool) -> str:
    """A Critical's Degrees of Failure: -1 to all actions and 1 AP each; DoF 16+ knocks out [Critical]."""
    how = (
        "DoF 6+: it lasts, recovered by Regeneration after the fight"
        if lasting
        else "DoF 5 or less: it fades by 1 each round"
    )
    return (
        f": {dof} DoF: -{dof} to all actions ({how}; All Action Penalty now -{penalty}),"
        f" -{dof} AP ({ap_before} -> {ap_after})"
        + (": unconscious (DoF 16+), out of the fight" if knocked_out else "")
        + f"  [{CRIT_PAGE}]"
    )


def penalty_fades(faded: Sequence[tuple[str, int]]) -> str:
    """The All Action Penalty of Criticals of DoF 5 or less fades by 1 a round [Critical]."""
    return (
        "; ".join(f"{name}'s All Action Penalty fades by 1 (-{p} -> {1 - p})" for name, p in faded) + f"  [{CRIT_PAGE}]"
    )


def multiple_defense(name: str, defenses: int, penalty: int) -> str:
    """The Multiple Defense Penalty: 2 attacks -2, 3 attacks -4, ... in a round [Multiple Defense Penalty]."""
    return (
        f"{name} has defended {defenses} time{'s' if defenses != 1 else ''} this round: its next Defensive Roll"
        f" this round is at -{penalty} (Multiple Defense Penalty)  [{MDP_PAGE}]"
    )


def defense_restored(names: Sequence[str]) -> str:
    """A new round: the Multiple Defense Penalty starts again."""
    return f"{', '.join(names)}: the Multiple Defense Penalty starts again  [{MDP_PAGE}]"
