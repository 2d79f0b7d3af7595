"""The engine's caps on the size of one request, in a module that imports nothing: the command line reads them
when it declares its options (`tohit --help` shows them), before any command loads the engine."""

from __future__ import annotations

#: Most rolls of one attack in one call (`roll --times`).
MAX_TIMES = 100_000
#: The exact chain of a duel is refused past this many states (simulate instead).
MAX_STATES = 200_000
#: ... and once it has run this long, checked inside the exploration and the solver (a chain of few states
#: whose exact values grow to thousands of digits can take minutes to solve; simulate instead).
MAX_SECONDS = 60.0
