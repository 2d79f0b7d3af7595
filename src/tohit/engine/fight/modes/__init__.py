"""How a fight step's dice are fed (docs/architecture.md, "One fight driver"), one class each:
`Narration` (one fight, at the table), `DirectSample` and `TableSample` (Monte Carlo batches), `Exact` (the
exact chain); what they share is `StepContext` (modes/base.py)."""

from __future__ import annotations

from typing import Literal

from tohit.engine.fight.modes.base import StepContext
from tohit.engine.fight.modes.exact import EXACT_DEPTH, Exact
from tohit.engine.fight.modes.narrate import Narration
from tohit.engine.fight.modes.sample import DirectSample
from tohit.engine.fight.modes.table import TableSample

#: Monte Carlo: "table" samples each attack's outcome from its exact joint table (built by `resolve` once per
#: attack and stats, cached); "direct" samples the dice and runs `resolve` on every batch, with the fight's stats
#: fed in as arrays. Both are exact samplers of the same distribution.
Method = Literal["table", "direct"]


def sampler(method: Method) -> type[DirectSample]:
    """The Monte Carlo step class of `method`."""
    return TableSample if method == "table" else DirectSample


__all__ = ["EXACT_DEPTH", "DirectSample", "Exact", "Method", "Narration", "StepContext", "TableSample", "sampler"]
