"""What one point of a sweep holds: the measures of its attack (exact odds) or its fight (Monte Carlo, or a
duel solved exactly). `measure` runs where the work runs (in this process, a local worker or a cluster
worker): it takes plain data and returns plain rows, so it pickles the same everywhere.

Attack rows (one per target, all exact): `target`, `p_<result>` for every result the game declares (`p_hit`),
`p_<field>` for every other outcome field `tohit odds` reports (a flag: the chance it is true, `p_critical`,
`p_effect_landed`; a labelled field: the chance it is set at all, `p_falls`, and `p_<field>_<label>` for each
label it declares, `p_falls_perishes`; a number: the chance it is set and not 0, `p_ap_lost`), `mean_damage`,
the damage percentiles `damage_p5` ... `damage_p95`, `beyond_depth`, and `method` ("exact").
Simulated fight rows: `win_<side>`, `win_<side>_lo`, `win_<side>_hi` (95% Wilson interval), `draw`,
`mean_rounds`, per side `survivors_<side>` (mean number standing at the end) and `health_<side>` (mean health
those survivors keep, summed over the side; 0 for a side that falls), per combatant `survives_<name>` (the share
of fights it ends standing) and `dealt_<name>` (mean damage it deals), and `method` ("simulated").
Exact fight rows (a duel solved exactly): `win_<side>`, `draw`, `mean_rounds`, `beyond_depth`, `survives_<name>`
and `method` ("exact"); no interval columns (an exact value has none), and `dealt_<name>` is not solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tohit.core.exact_text import fraction_text
from tohit.core.outcome import Field
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Method
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.engine.stats import wilson
from tohit.engine.tally import value_key

#: The damage percentiles of an attack point.
PERCENTILES = (5, 25, 50, 75, 95)
#: Measures that are probabilities (a share of fights, an exact chance), by how their names start.
CHANCES = ("p_", "win_", "survives_")
#: Columns every row starts with.
POINT = "point"
#: The column saying how a row was measured: "exact" or "simulated".
METHOD = "method"


@dataclass(frozen=True)
class Task:
    """One point's work, as plain data: its index, its document, and how to measure it."""

    index: int
    document: dict[str, Any]
    source: str
    kind: str
    n: int
    seed: int
    exact: bool = False
    method: Method = "table"
    depth: int | None = None


def is_chance(column: str) -> bool:
    """Whether a measure is a probability, from 0 to 1 (shown as a percentage; `solve --target` over 1 refused)."""
    return column.startswith(CHANCES) or column in ("draw", "beyond_depth")


def point_seed(seed: int, index: int) -> int:
    """The seed of point `index`: the `index`-th child of `SeedSequence(seed)` (as `.spawn()` makes it), as a
    128-bit whole number (so `tohit fight FILE -n N --seed <it>` on the point's file repeats the point)."""
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    words = child.generate_state(2, np.uint64)
    return (int(words[0]) << 64) | int(words[1])


def measure(task: Task) -> list[dict[str, Any]]:
    """The rows of one point (without its varied values, which the caller adds)."""
    if task.kind == "fight":
        return [_fight_row(task)]
    return _attack_rows(task)


def _percentile(dist: list[tuple[Any, Fraction]], q: int) -> int:
    """The smallest damage with at least q% of the probability at or below it (over the outcomes counted)."""
    total = sum((p for _, p in dist), Fraction(0))
    running = Fraction(0)
    for value, p in dist:
        running += p
        if running * 100 >= q * total and p:
            return int(value)
    return int(dist[-1][0]) if dist else 0


def result_labels(fields: tuple[Field, ...]) -> tuple[str, ...]:
    """The results the game declares (`hit`, `miss`, ...): each is a `p_<result>` column of every attack row."""
    return next((f.labels for f in fields if f.name == "result"), ())


def field_measures(fields: tuple[Field, ...]) -> list[str]:
    """The `p_` columns of the outcome fields other than result and damage that `tohit odds` reports."""
    names: list[str] = []
    for f in fields:
        if f.name in ("result", "damage") or not f.in_odds:
            continue
        names.append(f"p_{f.name}")
        if f.kind == "label":
            names.extend(f"p_{f.name}_{label}" for label in f.labels)
    return names


def attack_measures(fields: tuple[Field, ...]) -> list[str]:
    """Every measure column of an attack row, known from the game's fields before any point is run."""
    return [
        *(f"p_{label}" for label in result_labels(fields)),
        *field_measures(fields),
        "mean_damage",
        *(f"damage_p{q}" for q in PERCENTILES),
        "beyond_depth",
    ]


def _field_probabilities(f: Field, dist: list[tuple[Any, Fraction]]) -> dict[str, Fraction]:
    """A field's `p_` measures from its exact distribution (see the module's docstring)."""
    if f.kind == "flag":
        out = {f"p_{f.name}": sum((p for v, p in dist if v is True), Fraction(0))}
    elif f.kind == "label":
        out = {f"p_{f.name}": sum((p for v, p in dist if v is not None), Fraction(0))}
        for label in f.labels:
            out[f"p_{f.name}_{label}"] = sum((p for v, p in dist if v == label), Fraction(0))
    else:
        out = {f"p_{f.name}": sum((p for v, p in dist if v is not None and v != 0), Fraction(0))}
    return out


def _attack_rows(task: Task) -> list[dict[str, Any]]:
    loaded = from_dict(task.document, source=task.source)
    result = odds(loaded, task.depth)
    fields = loaded.system.fields
    rows = []
    for target in result.targets:
        exact: dict[str, Any] = {}
        row: dict[str, Any] = {"target": target.name}
        chances = {f"p_{label}": Fraction(0) for label in result_labels(fields)}
        for value, p in target.distribution("result"):
            chances[f"p_{value_key(value)}"] = p
        for f in fields:
            if f.in_odds and f.name not in ("result", "damage"):
                chances.update(_field_probabilities(f, target.distribution(f.name)))
        for key, p in chances.items():
            row[key] = float(p)
            exact[key] = fraction_text(p)
        row["mean_damage"] = float(target.mean_damage)
        exact["mean_damage"] = fraction_text(target.mean_damage)
        dist = target.distribution("damage")
        for q in PERCENTILES:
            row[f"damage_p{q}"] = _percentile(dist, q)
        row["beyond_depth"] = float(target.beyond_depth)
        exact["beyond_depth"] = fraction_text(target.beyond_depth)
        row[METHOD] = "exact"
        row["exact"] = exact
        rows.append(row)
    return rows


def fight_measures(side_names: tuple[str, ...], names: tuple[str, ...], *, exact: bool) -> list[str]:
    """Every measure column of a fight row with these sides and combatants (see the module's docstring)."""
    wins = [f"win_{side}" for side in side_names]
    if exact:
        return [*wins, "draw", "mean_rounds", "beyond_depth", *(f"survives_{name}" for name in names)]
    return [
        *wins,
        *(f"win_{side}_{end}" for side in side_names for end in ("lo", "hi")),
        "draw",
        "mean_rounds",
        *(f"{what}_{side}" for side in side_names for what in ("survivors", "health")),
        *(f"survives_{name}" for name in names),
        *(f"dealt_{name}" for name in names),
    ]


def _fight_row(task: Task) -> dict[str, Any]:
    from tohit.engine.fight.exact import exact_duel
    from tohit.engine.fight.run import simulate_fights

    fight = fight_from_dict(task.document, source=task.source)
    sides = fight.roster.side_names
    row: dict[str, Any] = {}
    if task.exact:
        result = exact_duel(fight, depth=task.depth)
        chances = {f"win_{name}": p for name, p in zip(sides, result.wins, strict=True)}
        chances["draw"] = result.draw
        for name, p in chances.items():
            row[name] = float(p)
        row["mean_rounds"] = None if result.expected_rounds is None else float(result.expected_rounds)
        row["beyond_depth"] = float(result.beyond)
        chances["beyond_depth"] = result.beyond
        for c, name in enumerate(fight.roster.names):  # a duel: a combatant stands at the end when its side wins
            chances[f"survives_{name}"] = result.wins[fight.roster.side[c]]
            row[f"survives_{name}"] = float(chances[f"survives_{name}"])
        row[METHOD] = "exact"
        row["exact"] = {key: fraction_text(p) for key, p in chances.items()}
        if result.expected_rounds is not None:
            row["exact"]["mean_rounds"] = fraction_text(result.expected_rounds)
        return row
    seed = point_seed(task.seed, task.index)
    stats = simulate_fights(fight, task.n, seed, method=task.method)
    tally, n = stats.tally, task.n
    row["point_seed"] = str(seed)
    for s, name in enumerate(sides):
        low, high = wilson(int(tally.wins[s]), n)
        row[f"win_{name}"] = int(tally.wins[s]) / n
        row[f"win_{name}_lo"] = low
        row[f"win_{name}_hi"] = high
    row["draw"] = tally.draws / n
    row["mean_rounds"] = sum(r * c for r, c in tally.rounds.items()) / n
    side = fight.roster.side
    for s, name in enumerate(sides):
        members = [c for c in range(fight.roster.size) if side[c] == s]
        row[f"survivors_{name}"] = sum(int(tally.standing[c]) for c in members) / n
        row[f"health_{name}"] = sum(int(tally.health_standing[c]) for c in members) / n
    for c, name in enumerate(fight.roster.names):
        row[f"survives_{name}"] = int(tally.standing[c]) / n
    for c, name in enumerate(fight.roster.names):
        row[f"dealt_{name}"] = int(tally.dealt[c]) / n
    row[METHOD] = "simulated"
    return row
