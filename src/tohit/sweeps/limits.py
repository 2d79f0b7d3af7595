"""A sweep's caps and defaults, in a module that imports nothing heavy: the command line reads them when it
declares its options (`tohit --help` shows them), before any command loads the engine. The limits every door
shares (the seed domain) are read from their one home, engine/requests.py."""

from __future__ import annotations

from tohit.engine.requests import MAX_SEED as _MAX_SEED

#: The most points a sweep runs unless told otherwise (`--max-points`).
MAX_POINTS = 10_000
#: The most points `--max-points` may allow.
MAX_POINTS_LIMIT = 1_000_000
#: Fights per point unless told otherwise.
DEFAULT_FIGHTS = 1_000
#: The largest sweep seed: the seed domain of every door (engine/requests.py); past 64 bits the table's `seed`
#: column holds it as text, as it does each point's seed.
MAX_SEED = _MAX_SEED
