"""Results in a notebook: the views of odds, simulate and fight results (`to_dataframe()`,
`_repr_html_`, a one-line `repr()`) are the result classes' own methods, built in `tohit.engine.frames`; a fight's
wins by side name is `FightStats.wins`. `tohit.sweep` already returns a DataFrame. Nothing here is for sweeps
alone: this module keeps the names it had, imported from the engine."""

from __future__ import annotations

from tohit.engine.frames import (
    exact_fight_frame,
    fight_log_frame,
    fight_stats_frame,
    html_table,
    odds_frame,
    side_index,
    simulate_frame,
)

__all__ = [
    "exact_fight_frame",
    "fight_log_frame",
    "fight_stats_frame",
    "html_table",
    "odds_frame",
    "side_index",
    "simulate_frame",
]
