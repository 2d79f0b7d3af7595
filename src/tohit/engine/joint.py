"""The joint support of an attack's dice roles, and the outcomes `resolve` gives on it.

For one target, the roles' supports are crossed into one table: a row per combination of role rows, with
the product of their integer weights. A role cut at a depth adds a BEYOND row carrying its remainder, so
the table always sums to its `total`. `resolve` runs once on the finite rows (rows with no BEYOND part):
that is the exact odds, and the same table drives the fast sampler in `simulate`. `kept` keeps each
target's (small) table beside its validated scenario (`engine/memo.py`), so the dice are crossed and
`resolve` runs once per scenario, target and depth, however many times `odds` asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import mul
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.outcome import Outcome
from tohit.core.roles import Role
from tohit.core.steps import Silent
from tohit.core.support import Columns, Support
from tohit.core.system import AnySystem, Dice
from tohit.engine.memo import memo
from tohit.engine.scenario import AnyScenario

#: Most rows the joint support of one attack may have.
MAX_JOINT_ROWS = 4_000_000
#: Most rows of a table `kept` beside its scenario.
KEEP_ROWS = 4096


@dataclass
class JointTable:
    """Every combination of role outcomes for one target, with exact weights and their outcomes."""

    roles: dict[str, Role]
    supports: dict[str, Support]
    #: Per role, the row of its support on each joint row; equal to the support's size for BEYOND.
    index: dict[str, npt.NDArray[np.int64]]
    weights: npt.NDArray[Any]
    total: int
    finite: npt.NDArray[np.bool_]
    outcome: Outcome  # on the finite rows, in order
    depth: int
    #: Role columns on the finite rows (what `resolve` was fed), kept for tables built from this one.
    finite_columns: dict[str, Columns] | None = None
    #: What `odds` counted on this table (its histograms, by field), kept with a kept table.
    tallies: dict[str, Any] | None = None

    @property
    def remainder(self) -> int:
        """Weight of the rows beyond the depth (not resolved, never dropped)."""
        return self.total - int(self.weights[self.finite].sum())

    def columns(self, rows: npt.NDArray[np.int64], rng: np.random.Generator | None = None) -> dict[str, Columns]:
        """Role columns on the given joint rows; BEYOND parts are sampled from each role's tail."""
        out: dict[str, Columns] = {}
        for name, role in self.roles.items():
            sup = self.supports[name]
            ri = self.index[name][rows]
            beyond = ri == sup.size
            cols = {c: v[np.minimum(ri, sup.size - 1)] for c, v in sup.columns.items()}
            if beyond.any():
                if rng is None:
                    raise ValueError("rows beyond the depth need a generator")
                tail = role.sample_beyond(rng, int(beyond.sum()), self.depth)
                for c in cols:
                    cols[c] = cols[c].copy()
                    cols[c][beyond] = tail[c]
            out[name] = cols
        return out


def held(support: Support) -> Support:
    """A detail role held at its first outcome (its whole weight on one row)."""
    columns = {c: v[:1] for c, v in support.columns.items()}
    return Support(columns, np.asarray([support.total], dtype=np.int64), support.total)


def build(
    system: AnySystem,
    scenario: AnyScenario,
    target: Any,
    depth: int | None = None,
    *,
    template: JointTable | None = None,
) -> JointTable:
    """The joint table of `target`'s roles at `depth` (the system's default when None).

    `template`: a table built for another target of the same attack; when its roles have the very same
    supports (dice shared by every target, e.g. one hit die), its rows are reused and only `resolve` runs.
    """
    depth = system.depth(scenario) if depth is None else depth
    roles = system.roles(scenario, target)
    if template is not None and not system.detail_roles and template.depth == depth:
        supports = {name: role.support(depth) for name, role in roles.items()}
        if list(template.supports) == list(supports) and all(
            template.supports[name] is sup for name, sup in supports.items()
        ):
            columns = template.finite_columns or template.columns(np.flatnonzero(template.finite))
            table = JointTable(
                roles,
                supports,
                template.index,
                template.weights,
                template.total,
                template.finite,
                Outcome(0),
                depth,
                columns,
            )
            table.outcome = system.resolve(scenario, target, Dice(columns), Silent())
            return table
    supports = _supports(system, roles, depth)
    radix = [s.size + (1 if s.remainder else 0) for s in supports.values()]
    rows = reduce(mul, radix, 1)
    if rows > MAX_JOINT_ROWS:
        raise InputError(
            f"the dice of this attack have {rows} joint outcomes, more than {MAX_JOINT_ROWS} for exact odds;"
            " lower options.depth or simulate instead",
            field=f"targets.{target.name}",
        )
    grids = _grids(tuple(radix))
    index = {name: grids[i] for i, name in enumerate(supports)}
    total = reduce(mul, (s.total for s in supports.values()), 1)
    use_object = total >= 2**62
    weights: npt.NDArray[Any] = np.ones(rows, dtype=object if use_object else np.int64)
    finite = np.ones(rows, dtype=bool)
    for name, sup in supports.items():
        w = [int(x) for x in sup.weights] + ([sup.remainder] if sup.remainder else [])
        role_w = np.asarray(w, dtype=object if use_object else np.int64)
        weights = weights * role_w[index[name]]
        finite &= index[name] < sup.size
    table = JointTable(roles, supports, index, weights, total, finite, Outcome(0), depth)
    finite_rows = np.flatnonzero(finite)
    table.finite_columns = table.columns(finite_rows)
    table.outcome = system.resolve(scenario, target, Dice(table.finite_columns), Silent())
    return table


def _supports(system: AnySystem, roles: dict[str, Role], depth: int) -> dict[str, Support]:
    """Each role's support at `depth` (a detail role's held at its first outcome), as `build` lays them out."""
    return {
        name: held(role.support(depth)) if name in system.detail_roles else role.support(depth)
        for name, role in roles.items()
    }


def row_count(system: AnySystem, scenario: AnyScenario, target: Any, depth: int) -> int:
    """How many joint rows `build` makes for `target` at `depth`, without building them (nor resolving)."""
    supports = _supports(system, system.roles(scenario, target), depth)
    return reduce(mul, (s.size + (1 if s.remainder else 0) for s in supports.values()), 1)


#: The index grids of small joint tables, by their radix (`_grids`).
_SHARED_GRIDS: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}
#: Most bytes the shared grids hold in all (a process that meets many dice, a server, keeps no more).
SHARED_GRIDS_BYTES = 16 << 20


def _grids(radix: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Each role's row on each joint row (one row of the result per role), read-only. Tables of the same radix have
    the same grids: a small one's (`KEEP_ROWS` rows or fewer) is made once and shared, as a fight's thousands of
    situations with the same dice would otherwise each hold a copy. The shared ones hold at most
    `SHARED_GRIDS_BYTES`; past it a table's grids are its own."""
    found = _SHARED_GRIDS.get(radix)
    if found is None:
        found = np.indices(radix, dtype=np.int64).reshape(len(radix), -1) if radix else np.zeros((0, 1), np.int64)
        found.flags.writeable = False
        shared_bytes = sum(grids.nbytes for grids in _SHARED_GRIDS.values())
        if found.shape[1] <= KEEP_ROWS and shared_bytes + found.nbytes <= SHARED_GRIDS_BYTES:
            _SHARED_GRIDS[radix] = found
    return found


def kept(
    system: AnySystem,
    scenario: AnyScenario,
    target: Any,
    depth: int | None = None,
    *,
    template: JointTable | None = None,
) -> JointTable:
    """`build`, once per validated scenario, target (by name, unique in a scenario) and depth: a table of at
    most `KEEP_ROWS` rows is kept as long as the scenario lives, and handed back as it was built (read it,
    never change it). A bigger one is built again on each call: its work is the rows, not a fixed cost, and
    a server answering many scenarios keeps only small tables."""
    depth = system.depth(scenario) if depth is None else depth
    tables = memo(scenario)
    key = ("joint", target.name, depth)
    found = tables.get(key)
    if found is None:
        found = build(system, scenario, target, depth, template=template)
        if len(found.weights) <= KEEP_ROWS:
            tables[key] = found
    return found
