"""A game master's choice of attack and target, checked against what the rules allow now (a GM's
choice reaches the game as a typed argument, `GMChoice`)."""

from __future__ import annotations

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.state import BoolArray, IntArray


def forced_choice(
    fight: LoadedFight, acting: BoolArray, actor: IntArray, options: BoolArray, choice: GMChoice
) -> tuple[IntArray, IntArray]:
    """One fight's (attack, target) as chosen by hand, when the rules' `options` allow it; else an InputError
    naming what the actor may do now (or whose turn the step plays, when it is not the choice's actor's)."""
    attack, target, names = choice.attack, choice.target, fight.roster.names
    if bool(acting[0]) and int(actor[0]) != choice.actor:
        raise InputError(f"{names[choice.actor]} cannot act now: it is {names[int(actor[0])]}'s turn", field="attacker")
    actor = np.full(1, choice.actor, dtype=np.int64)
    who = names[choice.actor]
    if not 0 <= attack < options.shape[1] or not fight.has_attack[int(actor[0]), attack]:
        raise InputError(f"{who} has no attack number {attack}", field="attack")
    for named in choice.targets:  # every target named (the primary first), each one the rules allow now
        _allowed(fight, acting, actor, options, attack, named)
    return np.asarray([attack], dtype=np.int64), np.asarray([target], dtype=np.int64)


def _allowed(
    fight: LoadedFight, acting: BoolArray, actor: IntArray, options: BoolArray, attack: int, target: int
) -> None:
    """An InputError unless the rules' `options` let the actor use `attack` on `target` now."""
    who = fight.roster.names[int(actor[0])]
    if not 0 <= target < options.shape[2]:
        raise InputError(f"no combatant number {target}", field="targets")
    if not bool(acting[0]) or not bool(options[0, attack, target]):
        name = fight.attack(int(actor[0]), attack).name
        allowed = [
            f"{fight.attack(int(actor[0]), int(a)).name} on {fight.roster.names[int(t)]}"
            for a, t in zip(*np.nonzero(options[0]), strict=True)
        ]
        if not allowed:
            raise InputError(
                f"{who} can use none of its attacks now (no AP or cost left for any, or no foe in reach)",
                field="attacker",
            )
        raise InputError(
            f"{who} cannot use {name} on {fight.roster.names[target]} now; allowed now: {', '.join(allowed)}",
            field="targets",
        )
