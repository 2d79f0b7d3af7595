"""A sweep's caps and defaults, in a module that imports nothing: the command line reads them when it declares
its options (`tohit --help` shows them), before any command loads the engine."""

from __future__ import annotations

#: The most points a sweep runs unless told otherwise (`--max-points`).
MAX_POINTS = 10_000
#: The most points `--max-points` may allow.
MAX_POINTS_LIMIT = 1_000_000
#: Fights per point unless told otherwise.
DEFAULT_FIGHTS = 1_000
#: The largest sweep seed (kept to 63 bits: it is a column of the table).
MAX_SEED = 2**63 - 1
