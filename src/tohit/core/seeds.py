"""The seed domain, written once: whole numbers from 0 to 2**128 - 1, through every door (the
command line, the Python API, HTTP, sweeps) and in every file (a fight's or a scenario's `seed`).

numpy's `default_rng` takes any whole number from 0 (its `SeedSequence` mixes 128 bits of entropy); a sweep
point's seed (`sweeps.measure.point_seed`) is a 128-bit number that `tohit fight --seed` repeats, so every door
takes that much, and JSON carries it exactly in the CLI's and the server's output (Python's whole numbers). The
doors read it from `tohit.engine.requests`, the home of every request limit; it is written here, in core, because
the file models check it too and core imports nothing above it.
"""

from __future__ import annotations

#: The largest seed.
MAX_SEED = 2**128 - 1
