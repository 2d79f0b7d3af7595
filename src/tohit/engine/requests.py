"""The limits of one request, in one home: the seed domain and the caps on the work one call may
ask for, checked alike by every door (the command line, the Python API `tohit.api`, the server and sweeps).

A module that imports nothing heavy: the command line reads it when it declares its options (`tohit --help` shows
them), before any command loads the engine. A server may lower a cap by a flag (`tohit serve --max-fights ...`),
never raise it past the one here. The caps a file's own models check (combatants and max_rounds of a fight
file, targets of a scenario) are written with those models in core, which validate every file and cannot import
the engine; they are read here under the names below (`MAX_COMBATANTS`, `MAX_ROUNDS`, `MAX_TARGETS`), loaded
only when asked for.
"""

from __future__ import annotations

from tohit.core.errors import InputError

# The seed domain of every door and every file: 0 to 2**128 - 1 (written in `tohit.core.seeds`, where the file
# models check it too).
from tohit.core.seeds import MAX_SEED as MAX_SEED

#: The longest name a request gives (a combatant's, a side's, an attack's, a stat's...), in characters.
MAX_NAME = 200
#: Open-ended dice followed this deep at the most (`--depth`, `options.depth`).
MAX_DEPTH = 40
#: Most rolls of one attack in one call (`roll --times`).
MAX_TIMES = 100_000
#: Most attacks simulated per target (`simulate -n`).
MAX_ATTACKS = 10_000_000_000
#: Most fights simulated in one call (`fight -n`).
MAX_FIGHTS = 100_000_000
#: Most processes one call shares its work among (`--workers`).
MAX_WORKERS = 64
#: The exact chain of a duel is refused past this many states (simulate instead).
MAX_STATES = 200_000
#: ... and once it has run this long, checked inside the exploration and the solver (a chain of few states
#: whose exact values grow to thousands of digits can take minutes to solve; simulate instead). A time limit
#: that only refuses: every budget that can change a result counts work.
MAX_SECONDS = 60.0


def __getattr__(name: str) -> int:
    """`MAX_COMBATANTS`, `MAX_ROUNDS`, `MAX_TARGETS`: the file models' caps, loaded when first read (PEP 562)."""
    if name in ("MAX_COMBATANTS", "MAX_ROUNDS"):
        from tohit.core.fight import spec

        return spec.MAX_COMBATANTS if name == "MAX_COMBATANTS" else spec.MAX_ROUNDS_LIMIT
    if name == "MAX_TARGETS":
        from tohit.core.models import MAX_TARGETS

        return MAX_TARGETS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def whole(value: object, name: str, low: int, high: int) -> int:
    """`value` as a whole number from `low` to `high`, else an InputError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"must be a whole number, not {type(value).__name__}", field=name)
    if not low <= value <= high:
        raise InputError(f"must be from {low:,} to {high:,}, got {value:,}", field=name)
    return value


def seed(value: object, name: str = "seed") -> int | None:
    """A seed given (None: none given) within the seed domain, else an InputError naming it."""
    return None if value is None else whole(value, name, 0, MAX_SEED)
