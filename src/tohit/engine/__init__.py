"""Engine layer: feeds a system's one `resolve` three ways (roll, odds, simulate) and aggregates."""
