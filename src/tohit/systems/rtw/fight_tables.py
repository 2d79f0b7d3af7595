"""What a Reclaim the Wild fight reads once from its file (fight.py's rules): each attack's weapon slot and
its Weapon Durability, the Magic and Stamina costs, what Falling in Battle makes of a target, the area
attacks; and which attacks a combatant can use (a weapon not shattered, the pools for the cost).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.rows import rows_of
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.grid.abstract import abstract_targets, isolated_problem
from tohit.core.grid.models import AbstractSpec
from tohit.core.grid.reach import describe
from tohit.systems.rtw.consequences import (
    fall_outcome,
)
from tohit.systems.rtw.fight_map import FightMap
from tohit.systems.rtw.live import RtwLive

NO_POOL = -1

UNBREAKABLE = -1


class Flags(NamedTuple):
    """What a fight's attacks and combatants have, to skip what none of them needs."""

    #: Some weapon can shatter mid-fight (Burning, with Durability).
    burning: bool
    #: Some combatant counts a Magic or Stamina cost.
    pools: bool
    #: Some attack is an area attack.
    area: bool
    #: Some weapon has a Durability to lose.
    wears: bool


class WeaponSlots(NamedTuple):
    """(combatants, attacks) -> the weapon slot of each attack (-1: unarmed), and each combatant's weapons."""

    slot: IntArray
    weapons: list[list[Any]]


class FallTables(NamedTuple):
    """Per combatant its Hearts (-1: not given); (attacker, attack, target): what 0 Health makes of the target."""

    hearts: IntArray
    code: IntArray
    #: The one code of every attack on every target, when they share one (else -1).
    only: int = -1


class AreaTables(NamedTuple):
    """(combatants, attacks): whether the attack is an area attack, and how many foes it may catch."""

    area: BoolArray
    reach: IntArray


class RtwTables(RtwLive):
    """The fight's tables, each built once per fight (`fight.memo`), and the usable attacks."""

    @staticmethod
    def grid(fight: LoadedFight) -> FightMap | None:
        """The fight's map and what each attack reaches on it (None without a map)."""
        found: FightMap | None = fight.memo("rtw_map", lambda: None)  # built by `check` when there is a map
        return found

    def _weapons(self, fight: LoadedFight) -> WeaponSlots:
        """(combatants, attacks) -> weapon slot of each attack (-1: unarmed); each combatant's weapons."""

        def build() -> WeaponSlots:
            slot = np.full((fight.roster.size, fight.max_attacks), -1, dtype=np.int64)
            weapons: list[list[Any]] = []
            for c, comb in enumerate(fight.combatants):
                mine: list[Any] = []
                seen: dict[str, int] = {}
                for a, entry in enumerate(comb.attacks):
                    weapon = entry.attacker.weapon
                    if weapon is None:
                        continue
                    k = weapon.model_dump_json()
                    if k not in seen:
                        seen[k] = len(mine)
                        mine.append(weapon)
                    slot[c, a] = seen[k]
                weapons.append(mine)
            found = WeaponSlots(slot, weapons)
            return found

        return fight.memo("rtw_weapons", build)

    def item_names(self, fight: LoadedFight, combatant: int) -> list[str]:
        """Each weapon's name (its `durability<slot>` and `used<slot>` count it), "" for one without a name."""
        return [str(w.name or "") for w in self._weapons(fight).weapons[combatant]]

    def _flags(self, fight: LoadedFight) -> Flags:
        """(some weapon can shatter mid-fight (Burning, with Durability), some cost is counted, some area, some
        weapon has a Durability to lose)."""

        def build() -> Flags:
            burning = pools = area = wears = False
            for comb in fight.combatants:
                pools |= comb.magic is not None or comb.stamina is not None
                for entry in comb.attacks:
                    w = entry.attacker.weapon
                    burning |= w is not None and w.burning and w.durability is not None
                    wears |= w is not None and w.durability is not None
                    area |= entry.attack.area
            found = Flags(burning, pools, area, wears)
            return found

        return fight.memo("rtw_flags", build)

    def _fall_tables(self, fight: LoadedFight) -> FallTables:
        """Per combatant its Hearts (-1: not given), and (attacker, attack, target): what a creature brought to 0
        Health becomes (the system's `fall_outcome`: Heroes and mindless sources Helpless, else the attack's
        `at_zero_health`). Peril and Falling in Battle depend on the Health left, which the fight applies."""

        def build() -> FallTables:
            size = fight.roster.size
            hearts = np.asarray([-1 if c.target.hearts is None else c.target.hearts for c in fight.combatants])
            code = np.zeros((size, fight.max_attacks, size), dtype=np.int64)
            used: set[int] = set()
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    for t in range(size):
                        code[c, a, t] = fall_outcome(
                            hero=fight.target(t).hero,
                            mindless=entry.attack.mindless,
                            choice=entry.attack.at_zero_health,
                        )
                        used.add(int(code[c, a, t]))
            found = FallTables(hearts.astype(np.int64), code, used.pop() if len(used) == 1 else -1)
            return found

        return fight.memo("rtw_fall_tables", build)

    def _wearable(self, fight: LoadedFight) -> BoolArray:
        """(combatants, attacks): the attack's weapon has a Durability (a weapon without one never wears, so
        whether it was used successfully is not kept)."""

        def build() -> BoolArray:
            found = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = entry.attacker.weapon is not None and entry.attacker.weapon.durability is not None
            return found

        return fight.memo("rtw_wearable", build)

    def usable_of(self, fight: LoadedFight, state: State, who: IntArray) -> BoolArray:
        burning, pools, _, _ = self._flags(fight)
        if not burning and not pools:
            return rows_of(fight.has_attack, who)
        return super().usable_of(fight, state, who)

    def usable(self, fight: LoadedFight, state: State) -> BoolArray:
        """(fights, combatants, attacks): a weapon not shattered, and Magic / Stamina for the cost."""
        burning, pools, _, _ = self._flags(fight)
        if not burning and not pools:
            return np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape))
        slot, _ = self._weapons(fight)
        costs = self._costs(fight)
        ok = np.broadcast_to(fight.has_attack[None], (state.n, *fight.has_attack.shape)).copy()
        for w in range(slot.max(initial=-1) + 1):
            broken = state.per[f"durability{w}"] == 0  # (n, C)
            ok &= ~(broken[:, :, None] & (slot == w)[None])
        for pool, i in (("magic", 0), ("stamina", 1)):
            have = state.per[pool][:, :, None]
            ok &= (have == NO_POOL) | (have >= costs[None, :, :, i])
        return ok

    def _costs(self, fight: LoadedFight) -> IntArray:
        """(combatants, attacks, 2): Magic and Stamina each attack costs."""

        def build() -> IntArray:
            found = np.zeros((fight.roster.size, fight.max_attacks, 2), dtype=np.int64)
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    found[c, a] = (entry.attack.cost.magic, entry.attack.cost.stamina)
            return found

        return fight.memo("rtw_costs", build)

    def _area(self, fight: LoadedFight) -> AreaTables:
        def build() -> AreaTables:
            area = np.zeros((fight.roster.size, fight.max_attacks), dtype=bool)
            reach = np.ones((fight.roster.size, fight.max_attacks), dtype=np.int64)
            close = abstract_of(fight).close_together
            for c, comb in enumerate(fight.combatants):
                for a, entry in enumerate(comb.attacks):
                    area[c, a] = entry.attack.area
                    reach[c, a] = area_count(entry, fight.roster.size, close)
            found = AreaTables(area, reach)
            return found

        return fight.memo("rtw_area", build)

    def isolated(self, fight: LoadedFight) -> BoolArray:
        """(combatants,): the foes the file's `abstract.isolated` names, which "cannot be included in an attack
        with other foes" [Abstract Combat Ranges]."""
        names = abstract_of(fight).isolated
        return fight.memo("rtw_isolated", lambda: np.array([n in names for n in fight.roster.names], dtype=bool))

    # -- several targets, named by a game master ---------------------------------------------------------------
    def max_targets(self, fight: LoadedFight, actor: int, attack: int) -> int:
        """Abstract Combat (a fight with no map): an area attack hits a number of foes from its range ("Burst:
        Hits 2 targets for every 1 in the Range"; "Blast, Cone, Line, or Sweep: Hits 1 target, plus 1 additional
        target for every 2 in the Range beyond the first"; both "May hit 1 additional foe if all targeted foes
        are described as being close together": the file's `abstract.close_together`): its `area_count` (the
        file's `area_size`, else its range's count); the game master may name up to that many [Abstract Combat
        Ranges]. Any other attack, and any attack on a map (whom an area catches comes from its placement),
        names one foe ("Melee, Projectile: Hit 1 foe")."""
        area, reach = self._area(fight)
        if self.grid(fight) is not None or not area[actor, attack]:
            return 1
        return int(reach[actor, attack])

    def targets_rule(self, fight: LoadedFight, actor: int, attack: int) -> str:
        """The words of the refusal: the attack's count of foes in Abstract Combat, or why it names one."""
        name = fight.attack(actor, attack).name
        if self.grid(fight) is not None:
            return f"{name} names one foe on a map: whom an area catches comes from where it is placed"
        most = self.max_targets(fight, actor, attack)
        if most == 1 and not self._area(fight).area[actor, attack]:
            return f"{name} is not an area attack: it hits 1 foe"
        entry = fight.attack(actor, attack)
        why = "its area_size" if entry.area_size is not None else _range_words(entry.grid_range)
        close = entry.area_size is None and entry.grid_range is not None and abstract_of(fight).close_together
        why += ", the foes close together" if close else ""
        return f"{name} hits at most {most} {'foe' if most == 1 else 'foes'} in Abstract Combat ({why})"

    def targets_problem(self, fight: LoadedFight, actor: int, attack: int, targets: list[str]) -> str | None:
        """A foe the file's `abstract.isolated` names "cannot be included in an attack with other foes"
        [Abstract Combat Ranges]: named with others, it is refused."""
        return isolated_problem(targets, abstract_of(fight).isolated)


def abstract_of(fight: LoadedFight) -> AbstractSpec:
    """The fight file's Abstract Combat description (`abstract`: close together, isolated foes), or none given."""
    spec: AbstractSpec | None = getattr(fight.spec, "abstract", None)
    return spec if spec is not None else AbstractSpec()


def area_count(entry: Any, every: int, close_together: bool = False) -> int:
    """How many foes an area attack hits in a fight with no map: the entry's `area_size` when given; else its
    range's count in Abstract Combat when the range is given with its size ("Burst: Hits 2 targets for every 1 in
    the Range"; "Blast, Cone, Line, or Sweep: Hits 1 target, plus 1 additional target for every 2 in the Range
    beyond the first"; "May hit 1 additional foe if all targeted foes are described as being close together")
    [Abstract Combat Ranges]; else every foe (`every`)."""
    if entry.area_size is not None:
        return int(entry.area_size)
    if entry.grid_range is not None:
        return abstract_targets(entry.grid_range, close_together)
    return every


def _range_words(rng: Any) -> str:
    """Where the count comes from, in the page's words: the range and its size ("Burst 2", "3 Targets within 6
    Squares", a Weapon's chosen Basic Attack and its range), or that none is given."""
    if rng is None:
        return "every foe: no area_size or range size given"
    return describe(rng)
