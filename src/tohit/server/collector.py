"""The garbage collector of a running server: a flat tail as history grows (docs in README, "The server").

`tohit serve` freezes what its start made (gc.freeze: modules, the app, its schemas), and then, after each full
collection, what that collection found alive: an encounter's events, once they have lived through a full pass,
are not walked by the next one. A full pass then walks only what was made since the last, and its cost stays
flat however long the fights in memory grow, where it grew with them before (benchmarks/bench_server_gc.py
measures both).

What is frozen is still freed by reference counting (events, encounters dropped from memory: none of them is
held in a cycle); only a cycle that dies after it was frozen is not collected, and `frozen_cycles` counts them
for the benchmark.
"""

from __future__ import annotations

import gc
from typing import Any


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """After a full collection: what it found alive is frozen (the next full pass does not walk it again)."""
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()


def freeze_survivors() -> None:
    """From now on, each full collection's survivors are frozen (once: installing it again changes nothing)."""
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def stop_freezing() -> None:
    """Full collections' survivors no longer frozen (tests and benchmarks that run in one process)."""
    if _freeze_survivors in gc.callbacks:
        gc.callbacks.remove(_freeze_survivors)


def frozen_cycles() -> int:
    """The objects frozen that are garbage held in cycles (what freezing kept from the collector): everything
    unfrozen, collected, and the count of what that collection freed. It unfreezes the process."""
    gc.unfreeze()
    return gc.collect()
