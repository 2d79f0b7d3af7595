"""What a When Sky and Sea Were Not Named fight reads once from its file (fight.py's rules): each combatant's
Stand Fast, its weapon attacks, its braces against its foes, its skipping and the Mighty Blow's cost.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.systems.wsswnn.fight_file import free_brace, is_stand_fast, uses_weapon
from tohit.systems.wsswnn.live import WsswnnLive
from tohit.systems.wsswnn.models import die_sides

NEVER = -1


class WsswnnTables(WsswnnLive):
    """The fight's tables, built once per fight (`fight.memo`)."""

    def _tables(self, fight: LoadedFight) -> dict[str, Any]:
        def build() -> dict[str, Any]:
            size, na = fight.roster.size, fight.max_attacks
            stand = np.full(size, -1, dtype=np.int64)
            strike = np.zeros((size, na), dtype=bool)
            sides = np.zeros(size, dtype=np.int64)
            penalty = np.zeros(size, dtype=np.int64)
            stand_at = np.full(size, NEVER, dtype=np.int64)
            skip_at = np.full(size, NEVER, dtype=np.int64)
            gains = np.zeros(size, dtype=np.int64)
            weapon = np.zeros((size, na), dtype=bool)
            hold = np.zeros((size, na), dtype=bool)
            far = np.zeros((size, na), dtype=bool)
            resists = np.zeros(size, dtype=bool)
            mighty = np.zeros((size, na), dtype=bool)
            ranged = np.zeros((size, na), dtype=bool)
            offset = np.zeros((size, na), dtype=np.int64)
            braces: set[str] = set()
            jumps = aware = False
            for c, comb in enumerate(fight.combatants):
                resists[c] = comb.resists
                for a, entry in enumerate(comb.attacks):
                    if is_stand_fast(entry):
                        stand[c] = a if stand[c] < 0 else stand[c]
                    else:
                        strike[c, a] = True
                    weapon[c, a] = uses_weapon(entry)
                    hold[c, a] = entry.attack.kind == "take_hold"
                    far[c, a] = entry.attack.kind in ("ranged", "jump")
                    mighty[c, a] = entry.attack.mighty_blow
                    ranged[c, a] = entry.attack.kind == "ranged"
                    jumps |= entry.attack.kind == "jump"
                    aware |= entry.attacker.armament.awareness_damage > 0
                    # The kept roll of a ranged attack = its result - modifier + the range penalty.
                    offset[c, a] = max(2, entry.attack.spans) - entry.attack.modifier
                    brace = free_brace(entry)
                    if brace is not None:
                        braces.add(brace)
                die = comb.attacker.maneuver_die
                sides[c] = 0 if die is None else die_sides(die)
                penalty[c] = comb.attacker.penalty_of("maneuver")
                stand_at[c] = NEVER if comb.stand_fast_at is None else comb.stand_fast_at
                skip_at[c] = NEVER if comb.skip_at is None else comb.skip_at
                gains[c] = int(comb.skip_gains == "awareness")
            # A ranged attack into a grapple needs a third combatant to shoot (the grapple's two cannot).
            into = "grapple" in braces and bool(ranged.any()) and size > 2
            found = {
                "stand": stand,
                "strike": strike,
                "sides": sides,
                "penalty": penalty,
                "stand_at": stand_at,
                "skip_at": skip_at,
                "gains": gains,
                "weapon": weapon,
                "hold": hold,
                "far": far,
                "resists": resists,
                "mighty": mighty,
                "ranged": ranged,
                "offset": offset,
                "usable": np.asarray(bool(braces) or bool(mighty.any())),
                # Every attack of everyone is a strike it can always make (no costs, no grapples, no Stand Fast).
                "always": np.asarray(not (braces or mighty.any()) and bool(strike.all())),
                "into": np.asarray(into),
                # Whether the fight has a brace against a foe at all, and a Grapple (else no state changes).
                "braces": np.asarray(bool(braces)),
                "grapples": np.asarray("grapple" in braces),
                # Some combatant may Stand Fast or skip on its Guard (else every actor strikes).
                "holds_back": np.asarray(bool((stand_at >= 0).any() or (skip_at >= 0).any())),
                "fields": strike_fields(bool(braces), jumps, aware, into),
                "jumps": np.asarray(jumps),
            }
            return found

        return fight.memo("wsswnn_tables", build)


def strike_fields(braces: bool, jumps: bool, aware: bool, into: bool) -> tuple[str, ...]:
    """The outcome fields a strike's consequences read (fight_turn.py): the result, lethal damage and the Guard it
    leaves; awareness damage where some weapon deals it, a missed jump-attack's fall where some attack jumps, the
    brace's effect and the stamina paid to resist it where some attack braces a foe, and the kept attack roll
    where a shot into a grapple can happen. Fewer fields: fewer columns read from the tables, and fewer outcomes
    the exact chain tells apart."""
    fields = ["result", "damage", "guard_after"]
    fields += ["awareness_damage"] if aware else []
    fields += ["falling_lethal", "falling_guard"] if jumps else []
    fields += ["brace_effect", "resist_stamina"] if braces else []
    fields += ["attack_roll"] if into else []
    return tuple(fields)
