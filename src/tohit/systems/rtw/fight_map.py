"""Reclaim the Wild fights on a map: what each combatant's attacks can
reach, worked out once by the grid layer (`tohit.core.grid`), and read per step as arrays.

A `FightMap` is the battlefield with every combatant at one set of positions (the file's, or where moves
have taken them: `rtw_fight_move`, one `FightMap` per set of positions met, built once): every placement of
every attack, the squares it covers and the creatures standing in them, and the cover between every two
combatants, by the same grid code `tohit roll`, `tohit map` and `tohit aim` use (`placements`, `reach`,
`Battlefield.cover`, `path_squares`). What changes between steps at the same positions is who is still
standing, and the arrays below turn that into what each attack reaches now:

- an area placement (Blast, Burst, Cone, Line, Sweep, X Squares within Y) catches the creatures standing in
  its squares, allies included; Helpless and perished creatures in it are skipped (rtw: Falling in Battle:
  an area does not harm a Helpless creature), and a placement that catches no standing foe is not used;
- Melee reaches one standing foe adjacent to the user;
- Projectile X reaches one standing foe within X squares along a centre-to-centre path that crosses no
  solid square and no standing combatant (a fallen one lies on the ground: it does not stop the shot);
- X Targets within Y: the chosen standing foe and the next standing foes within Y in file order, up to X
  picks, each foe taking as many as it may (1, or a Swarm one per square of it within Y);
- Weapon (rtw: Attack Ranges, Weapon): the range of the weapon's Basic Attack; with several, the attacker
  chooses one at the moment of the attack, so every placement of every Basic Attack (or only `use`'s) is an
  option, worded by the grid core ("Weapon (Throw Weapon: Projectile 6 at Far)"); the one case the fight
  cannot derive (Basic Attacks the rules name differently, no `use`, a foe that is Prone or Parries: the
  rules' range decides those) is refused, naming `attack.range.use`.

Swarms (`swarm: true`; rtw: X Targets/Squares within Y Squares, "unless they are a Swarm"): X Targets within Y
may pick a Swarm once per square of it within Y (the grid core's `swarm_squares_within`), X Squares within Y
affects it once per chosen square it fills (`reach` repeats it); any other range affects it once. `counts`
gives how many times an option affects each creature: one roll To-Hit and one damage each.

Hard to Hit (fed to the rules as the target's `hard_to_hit`): a foe behind cover from the attacker
(docs/rtw.md#silent-cover, the fight's `options.cover_rule`), and every foe of a Projectile attack while a standing foe
is adjacent to the attacker (rtw: Attack Ranges, Projectile X; per option, so a Weapon range's thrown Basic
Attack is and its Strike is not); with `several_hard_to_hit_sources_are_extreme`
two sources make it Extremely Hard to Hit, as `tohit roll` does for one attack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.fight.state import narrow_dtype
from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.cover import Cover
from tohit.core.grid.models import (
    AnyRange,
    CombatantSpec,
    MapSpec,
    MeleeRange,
    ProjectileRange,
    TargetsWithinRange,
    WeaponRange,
)
from tohit.core.grid.reach import (
    describe,
    melee_targets,
    path_clear,
    path_squares,
    placements,
    reach,
    swarm_squares_within,
    within_targets,
)
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS
from tohit.systems.rtw.tactical import rules_range

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Kinds of option: a fixed set of squares (area, or Melee on one foe), a Projectile shot, X Targets within Y.
FIXED, PROJECTILE, WITHIN = 0, 1, 2
#: Placements tried per attack before the fight is refused (X Squares within Y can have very many).
MAX_PLACEMENTS = 20_000


@dataclass(frozen=True)
class Option:
    """One way a combatant can use one of its attacks from where it stands."""

    attack: int
    kind: int
    #: FIXED: the creatures in the placement's squares; PROJECTILE: the foe shot at; WITHIN: the foes within Y.
    members: tuple[int, ...]
    #: The foe aimed at (PROJECTILE, WITHIN, Melee); -1 for an area.
    chosen: int = -1
    #: WITHIN: X, how many targets.
    count: int = 0
    #: PROJECTILE: per path clear of solid squares, the combatants standing on it would block it.
    lines: tuple[tuple[int, ...], ...] = ()
    #: The placement in the page's words ("Cone 3 east from (2, 3)").
    text: str = ""
    #: Per member, how many times the option may affect it: 1, or for a Swarm under X Squares within Y the
    #: chosen squares it fills, under X Targets within Y its squares within Y (empty: once each).
    times: tuple[int, ...] = ()
    #: A Projectile (directly or as a Weapon range's Basic Attack): Hard to Hit while a foe is adjacent.
    projectile: bool = False


def file_position(comb: Any) -> tuple[int, int]:
    """A combatant's position in the file (checked at load: on a map every combatant has one)."""
    x, y = comb.position or (0, 0)
    return (int(x), int(y))


def level(given: str, sources: int, several: bool) -> str:
    """Hard to Hit from `sources` grid reasons on top of the target's own level (as `rtw.tactical.place`)."""
    if not sources:
        return given
    found = "extreme" if several and sources + (given != "none") >= 2 else "hard"
    levels: tuple[str, ...] = HARD_TO_HIT_LEVELS
    return given if levels.index(given) >= levels.index(found) else found


class FightMap:
    """The battlefield of a fight and, per combatant, every option its attacks give it (see the module doc)."""

    def __init__(self, fight: Any, positions: tuple[tuple[int, int], ...] | None = None) -> None:
        self.fight = fight
        roster = fight.roster
        size = roster.size
        self.names = list(roster.names)
        self.index = {name: i for i, name in enumerate(self.names)}
        #: Where each combatant stands (top-left squares): the file's positions unless given.
        self.positions: tuple[tuple[int, int], ...] = (
            positions if positions is not None else tuple(file_position(c) for c in fight.combatants)
        )
        self.field = self._battlefield(fight, positions)
        #: Policy `best`: each option's expected damage on each creature (built on first use).
        self.expected_table: Any = None
        self.rule = fight.spec.options.cover_rule
        self.foe: BoolArray = roster.foe_matrix
        self.covers: list[list[Cover | None]] = [
            [None if c == t else self.field.cover(self.names[c], self.names[t], self.rule) for t in range(size)]
            for c in range(size)
        ]
        fps = [self.field.creature(n).footprint for n in self.names]
        self.near: BoolArray = np.asarray(
            [[c != t and fps[c].distance(fps[t]) <= 1 for t in range(size)] for c in range(size)], dtype=bool
        )
        self.options: list[list[Option]] = [
            [o for a, entry in enumerate(comb.attacks) for o in self._options(c, a, entry)]
            for c, comb in enumerate(fight.combatants)
        ]
        self._arrays()

    # -- building ----------------------------------------------------------------------------------------------
    @staticmethod
    def _battlefield(fight: Any, positions: tuple[tuple[int, int], ...] | None = None) -> Battlefield:
        specs = []
        for c, comb in enumerate(fight.combatants):
            where = fight.paths[c]
            if comb.position is None:
                raise InputError("on a map every combatant needs its position [x, y]", field=f"{where}.position")
            specs.append(
                CombatantSpec(
                    name=comb.name,
                    side=str(fight.roster.side[c]),
                    position=comb.position if positions is None else positions[c],
                    size=comb.size,
                    squares=comb.squares,
                    swarm=comb.swarm,
                )
            )
        map_spec: MapSpec = fight.spec.map
        try:
            return Battlefield.build(map_spec, specs)
        except InputError as exc:
            field = exc.field or ""
            for k in range(len(specs) - 1, -1, -1):  # "combatants[k].position" -> "sides[i].combatants[j].position"
                head = f"combatants[{k}]"
                if field == head or field.startswith(head + "."):
                    field = fight.paths[k] + field[len(head) :]
                    break
            raise InputError(exc.message, field=field or "map") from None

    def _options(self, c: int, a: int, entry: Any) -> list[Option]:
        rng: AnyRange | None = entry.grid_range
        where = f"{self.fight.paths[c]}.attacks[{a}].attack.range"
        if rng is None:
            rng = MeleeRange(type="melee")
        if not isinstance(rng, WeaponRange):
            return self._placed(c, a, rng, where, describe)
        # rtw: Attack Ranges, Weapon: the range of the weapon's Basic Attack; with several, the attacker
        # chooses one at the moment of the attack (every one is an option, unless `use` names one).
        self._check_weapon(c, rng, where)
        out: list[Option] = []
        for i, basic in enumerate(rng.basic_attacks):
            if rng.use is not None and basic.name != rng.use:
                continue

            def say(placed: AnyRange, i: int = i, weapon: WeaponRange = rng) -> str:
                """The grid core's words for the Weapon range with this Basic Attack chosen and placed."""
                chosen = weapon.basic_attacks[i]
                attacks = list(weapon.basic_attacks)
                attacks[i] = chosen.model_copy(update={"range": placed})
                return describe(weapon.model_copy(update={"use": chosen.name, "basic_attacks": attacks}))

            out += self._placed(c, a, basic.range, f"{where}.basic_attacks[{i}].range", say)
        return out

    def _check_weapon(self, c: int, rng: WeaponRange, where: str) -> None:
        """Refuse the one Weapon range the fight cannot derive: Basic Attacks the rules name differently (Prone
        and Parry depend on the range) with no `use`, against a foe that is Prone or Parries."""
        if rng.use is not None:
            return
        names = {b.name: rules_range(b.range) for b in rng.basic_attacks}
        if len(set(names.values())) < 2:
            return
        for t in range(len(self.names)):
            target = self.fight.target(t)
            if self.foe[c, t] and (target.prone or target.reaction == "parry"):
                why = "is Prone" if target.prone else "Parries"
                ranges = ", ".join(f"{k}: {v}" for k, v in names.items())
                raise InputError(
                    f"the Basic Attacks of this Weapon range have different ranges ({ranges}) and {self.names[t]}"
                    f" {why}, which depends on the range: name the Basic Attack used",
                    field=f"{where}.use",
                )

    def _placed(self, c: int, a: int, rng: AnyRange, where: str, say: Any) -> list[Option]:
        """The options of attack a of c with the plain range `rng` (`say` words a placement of it)."""
        user = self.names[c]
        foes = [t for t in range(len(self.names)) if self.foe[c, t]]
        if isinstance(rng, MeleeRange):
            near = set(melee_targets(self.field, user))
            return [
                Option(a, FIXED, (t,), t, text=say(rng.model_copy(update={"target": self.names[t]})))
                for t in foes
                if self.names[t] in near
            ]
        if isinstance(rng, ProjectileRange):
            out = []
            me = self.field.creature(user).footprint
            for t in foes:
                if me.distance(self.field.creature(self.names[t]).footprint) > rng.size:
                    continue
                lines = self._lines(c, t)
                if lines:
                    text = say(rng.model_copy(update={"target": self.names[t]}))
                    out.append(Option(a, PROJECTILE, (t,), t, lines=lines, text=text, projectile=True))
            return out
        if isinstance(rng, TargetsWithinRange):
            within = set(within_targets(self.field, user, rng.within))
            members = tuple(t for t in foes if self.names[t] in within)
            # rtw: X Targets within Y: a target is affected once, however many squares it fills, unless a
            # Swarm: then once per square of it within Y (the grid core's count).
            me = self.field.creature(user).footprint
            times = tuple(
                swarm_squares_within(me, creature, rng.within) if creature.swarm else 1
                for creature in (self.field.creature(self.names[t]) for t in members)
            )
            text = say(rng.model_copy(update={"targets": None}))
            return [Option(a, WITHIN, members, t, rng.count, text=text, times=times) for t in members]
        seen: set[tuple[tuple[int, int], ...]] = set()
        out = []
        for tried, placed in enumerate(placements(self.field, user, rng)):
            if tried >= MAX_PLACEMENTS:
                raise InputError(
                    f"the {describe(rng)} has more than {MAX_PLACEMENTS:,} placements from {user}'s square: too many"
                    " for a fight; use a smaller range",
                    field=where,
                )
            try:
                found = reach(self.field, user, placed)
            except InputError:
                continue
            # A Swarm in several chosen squares of X Squares within Y is affected once per square (`reach`
            # repeats it); any other creature once.
            counted = tuple(sorted({self.index[n]: found.hits.count(n) for n in found.hits}.items()))
            if counted in seen or not any(self.foe[c, t] for t, _ in counted):
                continue
            seen.add(counted)
            members = tuple(t for t, _ in counted)
            out.append(Option(a, FIXED, members, text=say(found.range), times=tuple(k for _, k in counted)))
        return out

    def _lines(self, c: int, t: int) -> tuple[tuple[int, ...], ...]:
        """The centre-to-centre paths a Projectile from c to t may take (`reach.projectile_shot`'s: nearest
        squares to nearest squares), those clear of solid squares, each with the combatants standing on it."""
        field = self.field
        me = field.creature(self.names[c]).footprint
        it = field.creature(self.names[t]).footprint
        lines: list[tuple[int, ...]] = []
        for a in me.nearest_squares(it):
            for b in it.nearest_squares(me):
                path = path_squares(a, b)
                if not path_clear(field.board, a, b):
                    continue
                on = {self.index[n] for sq in path for n in field.occupants.get(sq, ())} - {c, t}
                lines.append(tuple(sorted(on)))
        return tuple(dict.fromkeys(lines))

    def _arrays(self) -> None:
        """The options as padded arrays over (combatants, options)."""
        size = len(self.names)
        width = max(1, max(len(o) for o in self.options))
        lines = max([1] + [len(o.lines) for opts in self.options for o in opts])
        self.width = width
        self.attack = np.full((size, width), -1, dtype=np.int64)
        self.kind = np.zeros((size, width), dtype=np.int64)
        self.members = np.zeros((size, width, size), dtype=bool)
        self.chosen = np.zeros((size, width), dtype=np.int64)
        self.count = np.zeros((size, width), dtype=np.int64)
        self.rotation = np.tile(np.arange(size, dtype=np.int64), (size, width, 1))
        self.line_ok = np.zeros((size, width, lines), dtype=bool)
        self.blockers = np.zeros((size, width, lines, size), dtype=bool)
        self.times = np.zeros((size, width, size), dtype=np.int64)
        self.projectile = np.zeros((size, width), dtype=bool)
        for c, opts in enumerate(self.options):
            for o, opt in enumerate(opts):
                self.attack[c, o] = opt.attack
                self.kind[c, o] = opt.kind
                self.members[c, o, list(opt.members)] = True
                self.times[c, o, list(opt.members)] = opt.times or 1
                self.projectile[c, o] = opt.projectile
                self.chosen[c, o] = max(opt.chosen, 0)
                self.count[c, o] = opt.count
                if opt.kind == WITHIN:
                    self.rotation[c, o] = (opt.chosen + np.arange(size)) % size
                for k, line in enumerate(opt.lines):
                    self.line_ok[c, o, k] = True
                    self.blockers[c, o, k, list(line)] = True
        self.any_projectile = bool((self.kind == PROJECTILE).any())
        self.any_within = bool((self.kind == WITHIN).any())
        self.single = self.kind != FIXED
        fixed_single = np.asarray(
            [
                [len(o.members) == 1 and o.chosen >= 0 for o in opts] + [False] * (width - len(opts))
                for opts in self.options
            ]
        )
        self.single |= fixed_single
        #: The most times an option can affect each creature (a Swarm: more than once).
        self.most: list[int] = [max(1, int(self.times[:, :, t].max(initial=1))) for t in range(size)]
        # int32 where the times fit (`narrow_dtype`: any map under 2^24 squares): `counts` makes a batch's (n, O, C)
        # of them, some 20 MB as int64 for rtw-map.yaml
        self.times = self.times.astype(narrow_dtype(self.times))
        self.levels = self._levels()

    def _levels(self) -> IntArray:
        """(combatants, options, combatants, 2): the Hard to Hit code of each target of each option, without
        and with a standing foe adjacent to the attacker."""
        fight = self.fight
        size = len(self.names)
        several = bool(fight.spec.options.several_hard_to_hit_sources_are_extreme)
        out = np.zeros((size, self.width, size, 2), dtype=np.int64)
        levels: tuple[str, ...] = HARD_TO_HIT_LEVELS
        for c in range(size):
            for o in range(len(self.options[c])):
                for t in range(size):
                    given = fight.target(t).hard_to_hit
                    for adj in (0, 1):
                        sources = int(self.covers[c][t] is not None)
                        sources += int(bool(adj) and bool(self.projectile[c, o]) and bool(self.foe[c, t]))
                        out[c, o, t, adj] = levels.index(level(given, sources, several))
        return out

    # -- a step ------------------------------------------------------------------------------------------------
    def reachable(self, actor: IntArray, standing: BoolArray) -> tuple[BoolArray, BoolArray, BoolArray]:
        """(valid, caught, adjacent) for each row's actor: valid (rows, options) options that reach a standing
        foe now; caught (rows, options, combatants) who each would affect; adjacent (rows,) a standing foe
        adjacent to the actor (Projectiles are then Hard to Hit)."""
        n = actor.size
        who = np.maximum(actor, 0)
        caught = self.members[who] & standing[:, None, :]  # (n, O, C)
        rows = np.arange(n)
        chosen = self.chosen[who]  # (n, O)
        chosen_up = standing[rows[:, None], chosen]
        valid = (self.attack[who] >= 0) & (caught & self.foe[who][:, None, :]).any(axis=2)
        single = self.single[who]
        valid &= ~single | chosen_up
        kind = self.kind[who]
        if self.any_projectile:
            blocked = (self.blockers[who] & standing[:, None, None, :]).any(axis=3)  # (n, O, L)
            clear = (self.line_ok[who] & ~blocked).any(axis=2)
            valid &= (kind != PROJECTILE) | clear
        if self.any_within:
            within = kind == WITHIN
            caught = np.where(within[:, :, None], self._picks(who, caught) > 0, caught)
        adjacent: BoolArray = np.asarray((self.near[who] & self.foe[who] & standing).any(axis=1))
        return valid, caught, adjacent

    def _picks(self, who: IntArray, caught: BoolArray) -> IntArray:
        """(rows, options, combatants): for X Targets within Y, the X picks shared out among the standing foes
        within Y: the chosen foe first, then the next in file order, each taking as many as it may (1, or a
        Swarm one per square within Y) until X are taken."""
        rot = self.rotation[who]  # (n, O, C)
        times = np.take_along_axis(self.times[who] * caught, rot, axis=2)
        before = np.cumsum(times, axis=2) - times
        taken = np.clip(self.count[who][:, :, None] - before, 0, times)
        back = np.empty_like(taken)
        np.put_along_axis(back, rot, taken, axis=2)
        out: IntArray = back
        return out

    def counts(self, who: IntArray, caught: BoolArray) -> IntArray:
        """(rows, options, combatants): how many times each option affects each creature it catches (one roll
        To-Hit each: rtw, "you must roll all To-Hit checks once for each foe"); a Swarm may be more than once. As
        int32 where the map holds its times so (`times`), int64 where an option shares out picks (X Targets)."""
        fixed: IntArray = self.times[who]  # a copy (fancy indexing): multiplied in place, one array of (n, O, C)
        fixed *= caught
        if not self.any_within:
            return fixed
        within = (self.kind[who] == WITHIN)[:, :, None]
        out: IntArray = np.where(within, self._picks(who, caught), fixed)
        return out

    def level_codes(self, actor: IntArray, option: IntArray, target: int, adjacent: BoolArray) -> IntArray:
        """The Hard to Hit code of `target` for each row's option."""
        out: IntArray = self.levels[np.maximum(actor, 0), np.maximum(option, 0), target, adjacent.astype(np.int64)]
        return out

    def why_hard(self, c: int, o: int, t: int, adjacent: bool) -> str:
        """Words for the narration: why the grid makes t Hard to Hit for c's option o ("" when it does not)."""
        reasons = []
        cover = self.covers[c][t]
        if cover is not None:
            reasons.append(f"behind cover ({cover.describe()})")
        if adjacent and self.projectile[c, o] and self.foe[c, t]:
            reasons.append(f"a foe is adjacent to {self.names[c]}, so every foe is Hard to Hit for Projectiles")
        return "; ".join(reasons)

    def expected(self, c: int, o: int, expected: Any) -> FloatArray:
        """(combatants, 2): the expected damage of one roll of option o of c on each combatant it may catch,
        without and with a standing foe adjacent (`expected(c, a, t, code)` gives one value); 0 elsewhere.
        (`counts` gives how many rolls.)"""
        size = len(self.names)
        opt = self.options[c][o]
        out = np.zeros((size, 2))
        for t in opt.members:
            for adj in (0, 1):
                out[t, adj] = expected(c, opt.attack, t, int(self.levels[c, o, t, adj]))
        return out
