"""Aiming on the grid (`tohit aim`): every legal placement of the attack, ranked by exact expected damage.

The game's map rules (`System.map_rules()`, found through the registry by the scenario's `system`) say
what a placement makes of each creature (e.g. harder to hit from cover, or aimed at it alone) and give
the one-target scenario for it. Each creature's expected damage is the mean of its exact damage
distribution (`engine.odds` on that scenario); a creature with no targets entry counts 0 and is reported
as unresolved. A placement scores the expected damage to foes minus the expected damage to allies, as a
Fraction. The values are cached per (creature, the map rules' condition), so a placement costs a sum.

X Targets (or Squares) within Y: every choice is tried while there are at most `MAX_CHOICES`; beyond
that, the X best creatures (or squares) one by one, which is exact for targets as long as each target's
expected damage does not depend on the others (only through being aimed at alone).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_json
from tohit.core.grid.models import AnyRange, SquaresWithinRange, TargetsWithinRange
from tohit.core.grid.reach import Reach, placements, reach, within_targets
from tohit.core.grid.rules import MapRules
from tohit.core.grid.view import GridView
from tohit.engine import cancel, registry
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict

MAX_CHOICES = 20_000


@dataclass(frozen=True)
class Aim:
    """One placement with its score."""

    reach: Reach
    score: Fraction
    to_foes: Fraction
    to_allies: Fraction
    foes: tuple[str, ...]
    allies: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "range": self.reach.describe(),
            "squares": [list(sq) for sq in self.reach.squares],
            "foes": list(self.foes),
            "allies": list(self.allies),
            "expected_to_foes": _frac(self.to_foes),
            "expected_to_allies": _frac(self.to_allies),
            "score": _frac(self.score),
        }


def _frac(p: Fraction) -> dict[str, Any]:
    return fraction_json(p)


def map_rules(data: Mapping[str, Any]) -> MapRules:
    """The map rules of the scenario's game, or an InputError on `system` for an unknown game or one with
    no map (naming the registered games that have one)."""
    system = registry.get(data.get("system"))
    rules = system.map_rules()
    if rules is None:
        mapped = [s.id for s in registry.systems().values() if s.map_rules() is not None]
        raise InputError(
            f"system {system.id!r} has no map: map and aim need a game with a map"
            f" ({', '.join(mapped) or 'none registered'})",
            field="system",
        )
    return rules


class Aimer:
    """Scores placements of one scenario's attack on its map."""

    def __init__(self, data: dict[str, Any], view: GridView, rules: MapRules | None = None) -> None:
        self.data = data
        self.view = view
        self.rules = map_rules(data) if rules is None else rules
        targets = data.get("targets")
        if targets is not None and not isinstance(targets, list):
            raise InputError("targets: must be a list of the creatures' stats")
        self.entries = {t["name"]: t for t in targets or [] if isinstance(t, dict) and isinstance(t.get("name"), str)}
        self.cache: dict[tuple[str, Hashable], Fraction] = {}
        #: Creatures some placement reaches that have no targets entry (no stats): counted as 0.
        self.unresolved: set[str] = set()

    def expected(self, name: str, placed: AnyRange, alone: bool) -> Fraction:
        """Exact expected damage to `name` from this attack, as placed."""
        entry = self.entries.get(name)
        if entry is None:
            self.unresolved.add(name)
            return Fraction(0)
        condition = self.rules.aim_condition(self.data, self.view, entry, placed, alone)
        key = (name, condition)
        if key not in self.cache:
            plain = self.rules.aim_scenario(self.data, entry, condition)
            self.cache[key] = odds(from_dict(plain, source="aim")).targets[0].mean_damage
        return self.cache[key]

    def score(self, where: Reach) -> Aim:
        view = self.view
        to_foes = to_allies = Fraction(0)
        foes: list[str] = []
        allies: list[str] = []
        alone = len(where.distinct) == 1
        for name in where.hits:
            value = self.expected(name, where.range, alone)
            if view.field.is_foe(view.user, name):
                to_foes += value
                foes.append(name)
            else:
                to_allies += value
                allies.append(name)
        return Aim(where, to_foes - to_allies, to_foes, to_allies, tuple(foes), tuple(allies))

    def candidates(self) -> Iterator[AnyRange]:
        """Every placement, or (X within Y with too many choices) the best ones creature by creature."""
        view, rng = self.view, self.view.range
        bf, user = view.field, view.user
        if isinstance(rng, TargetsWithinRange):
            names = within_targets(bf, user, rng.within)
            if comb(len(names), min(rng.count, len(names))) > MAX_CHOICES:
                ranked = sorted(names, key=lambda n: -self._net(n, rng))
                best = [n for n in ranked if self._net(n, rng) > 0][: rng.count] or ranked[:1]
                yield rng.model_copy(update={"targets": best})
                return
        if isinstance(rng, SquaresWithinRange):
            from tohit.core.grid import areas

            me = bf.creature(user).footprint
            occupied = [sq for sq in areas.within(bf.board, me, rng.within) if sq in bf.occupants]
            if comb(len(occupied), min(rng.count, len(occupied))) > MAX_CHOICES:
                chosen: list[tuple[int, int]] = []
                taken: set[str] = set()
                for _ in range(rng.count):
                    gains = [
                        (sum(self._net(n, rng) for n in bf.occupants[sq] if n != user and n not in taken), sq)
                        for sq in occupied
                        if sq not in chosen
                    ]
                    if not gains:
                        break
                    gain, sq = max(gains)
                    if gain <= 0 and chosen:
                        break
                    chosen.append(sq)
                    taken.update(bf.occupants[sq])
                yield rng.model_copy(update={"squares": chosen})
                return
        yield from placements(bf, user, rng)

    def _net(self, name: str, rng: AnyRange) -> Fraction:
        value = self.expected(name, rng, alone=False)
        return value if self.view.field.is_foe(self.view.user, name) else -value

    def rank(self) -> list[Aim]:
        """Every legal placement that reaches a creature, best first (ties: in the order tried)."""
        out = []
        for placed in self.candidates():
            cancel.check()  # between placements: stopped when its asker went away
            try:
                where = reach(self.view.field, self.view.user, placed)
            except InputError:
                continue
            if where.hits:
                out.append(self.score(where))
        return sorted(out, key=lambda a: -a.score)
