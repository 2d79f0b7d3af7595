"""Exact odds: `resolve` on every point of the joint support, weights summed per outcome as integers.

Probabilities are `Fraction`s; floats appear only for display. Where open-ended dice were cut at a depth,
the probability beyond it is reported as `beyond_depth` (never silently dropped), and the other
probabilities are of the outcomes within the depth (they sum to 1 - beyond_depth).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.core.exact_text import fraction_json
from tohit.core.outcome import Outcome
from tohit.engine import joint
from tohit.engine.frames import Views, odds_frame
from tohit.engine.scenario import Loaded, pick_target
from tohit.engine.tally import Histogram, odds_histograms, value_key


def prob_json(p: Fraction) -> dict[str, Any]:
    """A probability as an exact "p/q" string with a float beside it (a decimal when p/q is too long)."""
    return fraction_json(p)


@dataclass
class TargetOdds:
    name: str
    total: int
    remainder: int
    depth: int
    histograms: dict[str, Histogram]
    outcome: Outcome  # for decoding labels
    #: Extra keys from the system (System.target_json), e.g. a target's cover on a grid.
    extra: dict[str, Any] = field(default_factory=dict)

    def distribution(self, field: str) -> list[tuple[Any, Fraction]]:
        """(value, exact probability) for each value `field` takes, in value order."""
        return [(v, Fraction(n, self.total)) for v, n in self.histograms[field].items(self.outcome)]

    def probability(self, field: str, value: Any) -> Fraction:
        """The exact probability that `field` takes `value` (an InputError for an unknown field or label)."""
        try:
            hist = self.histograms[field]
        except KeyError:
            raise InputError(f"no field {short_repr(field)} in this game's outcome", field="field") from None
        labels = self.outcome.labels.get(field) or hist.field.labels
        if labels and value is not None and value not in labels:
            raise InputError(f"{field} is never {short_repr(value)}; it is one of {', '.join(labels)}", field="value")
        return sum((p for v, p in self.distribution(field) if v == value), Fraction(0))

    @property
    def beyond_depth(self) -> Fraction:
        return Fraction(self.remainder, self.total)

    @property
    def mean_damage(self) -> Fraction:
        """Mean damage over the outcomes within the depth (all of them when nothing is cut)."""
        return self.histograms["damage"].mean()

    def to_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for name, hist in self.histograms.items():
            if name in ("result", "damage") or not hist.field.in_odds:
                continue
            fields[name] = {_key(v): prob_json(p) for v, p in self.distribution(name)}
        return {
            "name": self.name,
            "result": {_key(v): prob_json(p) for v, p in self.distribution("result")},
            "damage": {_key(v): prob_json(p) for v, p in self.distribution("damage")},
            "mean_damage": prob_json(self.mean_damage),
            "beyond_depth": prob_json(self.beyond_depth),
            "fields": fields,
            **self.extra,
        }


_key = value_key


@dataclass
class OddsResult(Views):
    """Exact odds of every outcome field, per target; in a notebook a table (`to_dataframe()`, engine/frames.py)."""

    system: str
    depth: int
    targets: list[TargetOdds]
    #: Extra keys from the system (System.scenario_json), e.g. the squares of a grid attack.
    extra: dict[str, Any] = field(default_factory=dict)

    def target(self, name: str) -> TargetOdds:
        return pick_target(self.targets, name)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "depth": self.depth,
            "targets": [t.to_json() for t in self.targets],
            **self.extra,
        }

    def _frame(self) -> Any:
        return odds_frame(self)

    def _title(self) -> str:
        return f"exact odds ({self.system})"

    def __repr__(self) -> str:
        """One line: what it is, and where the rest is."""
        return f"<OddsResult {self.system}: {len(self.targets)} target(s); .to_dataframe() for every outcome>"


def target_odds(loaded: Loaded, target: Any, depth: int | None = None) -> TargetOdds:
    return _from_table(loaded, target, joint.kept(loaded.system, loaded.scenario, target, depth))


def _from_table(loaded: Loaded, target: Any, table: joint.JointTable) -> TargetOdds:
    """A target's odds from its table; what is counted is kept with the table (a kept table is counted once)."""
    if table.tallies is None:
        weights = table.weights[table.finite]
        table.tallies = {
            "histograms": odds_histograms(loaded.system.fields, table.outcome, weights),
            "remainder": table.total - int(weights.sum()),  # = table.remainder, without indexing the rows again
            "extra": loaded.system.target_json(loaded.scenario, target),
        }
    kept = table.tallies
    return TargetOdds(
        target.name, table.total, kept["remainder"], table.depth, kept["histograms"], table.outcome, kept["extra"]
    )


def odds(loaded: Loaded, depth: int | None = None, progress: Callable[[int], None] | None = None) -> OddsResult:
    """Exact odds of every outcome field, per target (dice shared by every target are tabled once);
    `progress(1)` after each target (a progress bar for many targets)."""
    used = loaded.system.depth(loaded.scenario) if depth is None else depth
    targets = []
    template: joint.JointTable | None = None
    for t in loaded.scenario.targets:
        table = joint.kept(loaded.system, loaded.scenario, t, used, template=template)
        template = template or table
        targets.append(_from_table(loaded, t, table))
        if progress is not None:
            progress(1)
    return OddsResult(loaded.system.id, used, targets, loaded.system.scenario_json(loaded.scenario))
