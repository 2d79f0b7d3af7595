"""Aiming on the grid (`tohit aim`): every legal placement of the attack, ranked by exact expected damage.

Each creature's expected damage is the mean of its exact damage distribution (`engine.odds` on the same
rules), given what the placement makes of it: Hard to Hit from cover or from a Projectile with a foe
adjacent, and whether the attack is aimed at it alone (a Helpless creature is harmed only then); a
creature with no targets entry counts 0 and is reported as unresolved. A placement scores the expected
damage to foes minus the expected damage to allies, as a Fraction. The values are cached per (creature,
Hard to Hit, alone, rules range), so a placement costs a sum.

X Targets (or Squares) within Y: every choice is tried while there are at most `MAX_CHOICES`; beyond
that, the X best creatures (or squares) one by one, which is exact for targets since each target's
expected damage does not depend on the others, except through the Helpless rule.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_json
from tohit.core.grid.models import AnyRange, SquaresWithinRange, TargetsWithinRange
from tohit.core.grid.reach import Reach, placements, reach, within_targets
from tohit.core.grid.view import GridView, is_projectile
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.systems.rtw.tactical import rules_range

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


class Aimer:
    """Scores placements of one scenario's attack on its map."""

    def __init__(self, data: dict[str, Any], view: GridView) -> None:
        self.data = data
        self.view = view
        targets = data.get("targets")
        if targets is not None and not isinstance(targets, list):
            raise InputError("targets: must be a list of the creatures' stats")
        self.entries = {t["name"]: t for t in targets or [] if isinstance(t, dict) and isinstance(t.get("name"), str)}
        self.cache: dict[tuple[str, str, bool, str], Fraction] = {}
        #: Creatures some placement reaches that have no targets entry (no stats): counted as 0.
        self.unresolved: set[str] = set()

    def hard_level(self, name: str, placed: AnyRange) -> str:
        view = self.view
        sources = int(view.covers.get(name) is not None)
        sources += int(is_projectile(placed) and view.foe_adjacent and view.field.is_foe(view.user, name))
        given = str(self.entries[name].get("hard_to_hit", "none"))
        if not sources:
            return given
        options = self.data.get("options") or {}
        several = bool(options.get("several_hard_to_hit_sources_are_extreme")) if isinstance(options, dict) else False
        level = "extreme" if several and sources + (given != "none") >= 2 else "hard"
        return "extreme" if "extreme" in (given, level) else level

    def expected(self, name: str, placed: AnyRange, alone: bool) -> Fraction:
        """Exact expected damage to `name` from this attack, as placed."""
        if name not in self.entries:
            self.unresolved.add(name)
            return Fraction(0)
        key = (name, self.hard_level(name, placed), alone, rules_range(placed))
        if key not in self.cache:
            self.cache[key] = self._odds(name, key[1], alone, key[3])
        return self.cache[key]

    def _odds(self, name: str, level: str, alone: bool, range_name: str) -> Fraction:
        entry = {k: v for k, v in copy.deepcopy(self.entries[name]).items() if k != "dice"}
        entry["hard_to_hit"] = level
        options = {k: v for k, v in (self.data.get("options") or {}).items() if k != "cover_rule"}
        plain = {
            "system": "rtw",
            "attacker": self.data.get("attacker"),
            "attack": {**self.data["attack"], "range": range_name, "area": not alone},
            "targets": [entry],
            "options": options,
        }
        return odds(from_dict(plain, source="aim")).targets[0].mean_damage

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
            try:
                where = reach(self.view.field, self.view.user, placed)
            except InputError:
                continue
            if where.hits:
                out.append(self.score(where))
        return sorted(out, key=lambda a: -a.score)
