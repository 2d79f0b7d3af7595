"""The typed Python API for tool builders (bots, virtual tabletops, notebooks).

    import tohit
    attack = tohit.load("examples/<game>/<scenario>.yaml")          # or tohit.from_dict({...})
    tohit.roll(attack).to_json()                                     # one traced resolution per target
    tohit.odds(attack).target("Bandit").probability("result", "hit") # exact Fraction
    tohit.simulate(attack, 1_000_000, seed=1).to_json()              # Monte Carlo summary
    duel = tohit.load_fight("examples/fights/<fight>.yaml")         # or tohit.fight_from_dict({...})
    tohit.fight(duel, seed=1)                                        # one narrated fight (its events)
    tohit.fight(duel, n=10_000, seed=1)                              # Monte Carlo of whole fights
    tohit.fight(duel, exact=True)                                    # exact duel odds
    tohit.aim({...a scenario with a map...})                         # placements ranked by expected damage
    tohit.sweep("examples/fights/<fight>.yaml", {"count:sides[1].combatants[0]": "1..6"}, n=2000)  # a DataFrame
    tohit.solve("<file>.yaml", "attacker.accuracy=0..10", measure="p_hit", target="75%")   # where it crosses 75%
    tohit.compare("<a>.yaml", "<b>.yaml", exact=True)                                        # B - A, measure by measure

Every input problem raises `tohit.InputError` (with `.source`, `.field` and `.message`), arguments included:
a negative count, a seed that is not a whole number from 0 to 2**128 - 1, a depth past the cap, an unknown method.
The caps are those of the command line and the server: `tohit.engine.requests`, their one home.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from tohit.core.errors import DiceError, FacesError, InputError, TohitError
from tohit.core.fight.contract import LoadedFight
from tohit.engine import odds as _odds
from tohit.engine import roll as _roll
from tohit.engine import simulate as _simulate
from tohit.engine.fight import load as _fight_load
from tohit.engine.odds import OddsResult, TargetOdds
from tohit.engine.registry import systems as list_systems
from tohit.engine.requests import MAX_ATTACKS, MAX_DEPTH, MAX_FIGHTS, MAX_TIMES, MAX_WORKERS
from tohit.engine.requests import MAX_SEED as MAX_SEED
from tohit.engine.requests import seed as _seed
from tohit.engine.requests import whole as _whole
from tohit.engine.roll import RollResult, TargetRoll
from tohit.engine.scenario import Loaded, from_dict, load
from tohit.engine.simulate import SimResult, TargetSim
from tohit.sweeps.limits import MAX_POINTS, MAX_POINTS_LIMIT

__all__ = [
    "DiceError",
    "FacesError",
    "InputError",
    "Loaded",
    "LoadedFight",
    "OddsResult",
    "RollResult",
    "SimResult",
    "TargetOdds",
    "TargetRoll",
    "TargetSim",
    "TohitError",
    "aim",
    "compare",
    "fight",
    "fight_from_dict",
    "from_dict",
    "list_systems",
    "load",
    "load_fight",
    "odds",
    "roll",
    "roll_many",
    "simulate",
    "solve",
    "sweep",
]


def _scenario(loaded: object) -> Loaded:
    if not isinstance(loaded, Loaded):
        raise InputError(f"expected a scenario from tohit.load or tohit.from_dict, not {type(loaded).__name__}")
    return loaded


def _method(method: object) -> Literal["table", "direct"]:
    if method not in ("table", "direct"):
        raise InputError(f"must be table or direct, got {method!r:.40}", field="method")
    return "table" if method == "table" else "direct"


def roll(loaded: Loaded, seed: int | None = None) -> RollResult:
    """Resolve the attack once against each target, with a trace citing each clause."""
    return _roll.roll(_scenario(loaded), _seed(seed))


def roll_many(loaded: Loaded, times: int, seed: int | None = None) -> list[RollResult]:
    """Resolve the attack `times` times against each target, each with its own dice and trace."""
    return _roll.roll_many(_scenario(loaded), _whole(times, "times", 1, MAX_TIMES), _seed(seed))


def odds(loaded: Loaded, depth: int | None = None) -> OddsResult:
    """Exact odds of every outcome field, per target (open-ended dice followed to `depth`, at most 40)."""
    chosen = None if depth is None else _whole(depth, "depth", 0, MAX_DEPTH)
    return _odds.odds(_scenario(loaded), chosen)


def simulate(loaded: Loaded, n: int, seed: int | None = None, *, method: str = "table", workers: int = 1) -> SimResult:
    """Monte Carlo: `n` independent attacks per target (`method` "table" or "direct")."""
    return _simulate.simulate(
        _scenario(loaded),
        _whole(n, "n", 1, MAX_ATTACKS),
        _seed(seed),
        method=_method(method),
        workers=_whole(workers, "workers", 1, MAX_WORKERS),
    )


def load_fight(path: str | Path) -> LoadedFight:
    """Read and validate a fight file (YAML or JSON)."""
    return _fight_load.load_fight(path)


def fight_from_dict(data: dict[str, Any], *, source: str = "<fight>") -> LoadedFight:
    """Validate a fight given as a mapping."""
    return _fight_load.fight_from_dict(data, source=source)


def fight(
    loaded: LoadedFight,
    *,
    n: int | None = None,
    exact: bool = False,
    seed: int | None = None,
    method: str = "table",
    workers: int = 1,
    depth: int | None = None,
) -> Any:
    """A whole fight: narrated (the default: a `FightLog` of events), `n` fights simulated (`FightStats`), or
    with `exact` a duel's exact odds (`ExactResult`). Every result has `to_json()` where the CLI prints JSON."""
    if not isinstance(loaded, LoadedFight):
        raise InputError(
            f"expected a fight from tohit.load_fight or tohit.fight_from_dict, not {type(loaded).__name__}"
        )
    if exact and n is not None:
        raise InputError("exact odds or a simulation of n fights: choose one", field="exact")
    from tohit.engine.fight.exact import exact_duel
    from tohit.engine.fight.run import narrate, simulate_fights

    if exact:
        return exact_duel(loaded, depth=None if depth is None else _whole(depth, "depth", 0, MAX_DEPTH))
    if n is not None:
        return simulate_fights(
            loaded,
            _whole(n, "n", 1, MAX_FIGHTS),
            _seed(seed),
            method=_method(method),
            workers=_whole(workers, "workers", 1, MAX_WORKERS),
        )
    return narrate(loaded, _seed(seed))


def aim(scenario: dict[str, Any] | str | Path, *, top: int = 5) -> list[dict[str, Any]]:
    """A scenario with a map: its attack's placements ranked by exact expected damage to foes minus allies
    (the best `top`, each as `tohit aim --json` gives it)."""
    from tohit.core.loader import read_document
    from tohit.engine.aim import Aimer, map_rules

    data = read_document(scenario) if isinstance(scenario, (str, Path)) else scenario
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping of fields")
    rules = map_rules(data)
    ranked = Aimer(data, rules.view(data, place=False), rules).rank()
    return [a.to_json() for a in ranked[: _whole(top, "top", 1, 1000)]]


def sweep(
    file: str | Path | dict[str, Any],
    vary: dict[str, str] | list[str],
    *,
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    out: str | Path | None = None,
    resume: bool = False,
    max_points: int = MAX_POINTS,
    method: str = "table",
    measure: str | None = None,
    fractions: bool = False,
) -> Any:
    """A scenario or fight (a file or a mapping) across a grid of values, one pandas DataFrame row per point (per
    target, for an attack): `vary` maps each PATH to its SPEC, e.g. `{"targets[0].evasion": "0..6"}` or
    `{"count:sides[1].combatants[0]": "1..6"}` (or is a list of "PATH=SPEC"). Points run on a Dask `LocalCluster`
    (`workers` processes, default one per core; 1: in this process), on the cluster at `scheduler`, or on a
    given Dask `client`; `out` (.csv or .parquet) is written as points complete, with what produced it (also in
    `df.attrs["tohit"]`), and `resume` finishes it; `measure` (checked before any work) is recorded with it.
    The table is a `SweepFrame` (tohit/sweeps/frame.py): `.plot()` draws it (the curve or the heatmap), a varied
    column answers to the end of its path (`df["weapon.damage"]`); `fractions` adds beside each exact measure
    `m` the column `m_fraction`, its exact value as a Fraction."""
    from tohit.sweeps.frame import sweep_frame
    from tohit.sweeps.run import plan, run

    if not isinstance(vary, (dict, list)):
        raise InputError(f"expected a mapping of PATH to SPEC, not {type(vary).__name__}", field="vary")
    planned = plan(
        file,
        vary,
        n=None if n is None else _whole(n, "n", 1, MAX_FIGHTS),
        seed=_seed(seed),
        exact=bool(exact),
        method=_method(method),
        out=None if out is None else Path(out),
        resume=bool(resume),
        max_points=_whole(max_points, "max_points", 1, MAX_POINTS_LIMIT),
        measure=measure if measure is None else str(measure),
    )
    chosen = None if workers is None else _whole(workers, "workers", 1, MAX_WORKERS)
    return sweep_frame(run(planned, workers=chosen, scheduler=scheduler, client=client).frame(bool(fractions)))


def solve(
    file: str | Path | dict[str, Any],
    vary: str | dict[str, str],
    *,
    measure: str,
    target: str | int | float | Fraction | None = None,
    against: str | Path | None = None,
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    budget: int | None = None,
    scan: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    method: str = "table",
) -> Any:
    """`tohit solve` in Python: where `measure` crosses `target` (0.75, "75%", "3/4" or a Fraction) along one
    field's range, `vary` "PATH=SPEC" (or `{PATH: SPEC}`), or with `against=B` where it equals B's (`A:PATH=SPEC`
    or `B:PATH=SPEC` varies one file only); the keywords are the command's flags. The `Solution`
    has `.crossings` (pairs of neighbouring evaluated points), `to_json()`, `to_dataframe()`, and draws as a
    table in a notebook."""
    from tohit.sweeps.run import plan
    from tohit.sweeps.solve import BUDGET_TIMES, check, check_target, parse_target, solver

    text = _one_vary(vary)
    if against is not None:
        return _solve_against(file, against, text, str(measure), target, n, seed, exact, budget, scan, method)
    if target is None:
        raise InputError("give the value the measure crosses (0.75, '75%' or '3/4'), or against=B", field="target")
    wanted = parse_target(str(target))
    planned = plan(
        file,
        [text],
        n=None if n is None else _whole(n, "n", 1, MAX_FIGHTS),
        seed=_seed(seed),
        exact=bool(exact),
        method=_method(method),
        measure=str(measure),
    )
    check(planned, str(measure))
    check_target(str(measure), wanted, str(target))
    fights = None if budget is None else _whole(budget, "budget", 1, MAX_FIGHTS * BUDGET_TIMES)
    chosen = 1 if workers is None else _whole(workers, "workers", 1, MAX_WORKERS)
    with solver(planned, str(measure), wanted, budget=fights, workers=chosen, scheduler=scheduler, client=client) as s:
        return s.solve(bool(scan))


def _solve_against(
    a: str | Path | dict[str, Any],
    b: str | Path,
    text: str,
    measure: str,
    target: object,
    n: int | None,
    seed: int | None,
    exact: bool,
    budget: int | None,
    scan: bool,
    method: str,
) -> Any:
    """`solve(..., against=B)`: the break-even of `tohit solve A --against B` (sweeps/against.py), in this process."""
    from tohit.sweeps.against import against_solver
    from tohit.sweeps.pair import plan_pair
    from tohit.sweeps.solve import BUDGET_TIMES

    if target is not None:
        raise InputError("is not for against=B (the target is B's own value)", field="target")
    if isinstance(a, dict):
        raise InputError("against=B compares two files: give A as a file", field="file")
    pair = plan_pair(
        a,
        b,
        [text],
        n=None if n is None else _whole(n, "n", 1, MAX_FIGHTS),
        seed=_seed(seed),
        exact=bool(exact),
        method=_method(method),
    )
    fights = None if budget is None else _whole(budget, "budget", 1, MAX_FIGHTS * BUDGET_TIMES)
    with against_solver(pair, measure, budget=fights) as s:
        return s.solve(bool(scan))


def _one_vary(vary: object) -> str:
    """`solve`'s one field: "PATH=SPEC" or a mapping of one PATH to its SPEC."""
    if isinstance(vary, dict) and len(vary) == 1:
        return "=".join(str(part) for part in next(iter(vary.items())))
    if isinstance(vary, str):
        return vary
    raise InputError(f"expected one PATH=SPEC (or {{PATH: SPEC}}), not {vary!r:.60}", field="vary")


def compare(
    a: str | Path,
    b: str | Path | Sequence[str | Path],
    *,
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    method: str = "table",
    systems_differ: bool = False,
    vary: str | Sequence[str] | dict[str, str] = (),
    zips: Sequence[str] = (),
) -> Any:
    """`tohit compare A B` in Python: the same measures of two files with B - A (exact Fractions, or for a simulated
    chance a 95% interval); the keywords are the command's flags. The `Comparison` has `.rows`, `to_json()`,
    `to_dataframe()`, and draws as a table in a notebook. Along an axis (`vary`, `zips` as `--zip`, or `b` a list
    of files), B - A at every point on common random numbers: an `Along`, whose `.frame()` is a DataFrame."""
    from tohit.sweeps.compare import compare as compared

    texts = (
        [vary]
        if isinstance(vary, str)
        else [f"{k}={v}" for k, v in vary.items()]
        if isinstance(vary, dict)
        else list(vary)
    )
    if texts or zips or not isinstance(b, (str, Path)):
        from tohit.sweeps.compare import compare_along
        from tohit.sweeps.pair import plan_pair

        return compare_along(
            plan_pair(
                a,
                b,
                texts,
                zips=list(zips),
                n=None if n is None else _whole(n, "n", 1, MAX_FIGHTS),
                seed=_seed(seed),
                exact=bool(exact),
                method=_method(method),
                systems_differ=bool(systems_differ),
            )
        )

    return compared(
        a,
        b,
        n=None if n is None else _whole(n, "n", 1, MAX_FIGHTS),
        seed=_seed(seed),
        exact=bool(exact),
        method=_method(method),
        systems_differ=bool(systems_differ),
    )
