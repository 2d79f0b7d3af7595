"""A fight's state as the exact chain and the stalemate check key it: each state row as a hashable key and back
(the round number and the damage-dealt bookkeeping left out), and the depth the fight's open-ended dice are
followed to. Shared by `exact` (the duel's chain) and `stalemate` (the check that ends fights nobody can end)."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import State
from tohit.engine.fight.ending import ENGINE_STATS


class Layout:
    """How a state row maps to a hashable key and back (round and bookkeeping left out)."""

    def __init__(self, fight: LoadedFight, state: State) -> None:
        skip = set(fight.rules.bookkeeping)
        self.per = [k for k in sorted(state.per) if k not in skip]
        self.skipped = [k for k in sorted(state.per) if k in skip]
        self.fight = [k for k in sorted(state.fight) if k not in ENGINE_STATS]
        self.size = fight.roster.size

    def matrix(self, state: State) -> np.ndarray:
        cols = [state.per[k] for k in self.per] + [state.fight[k][:, None] for k in self.fight]
        return np.concatenate(cols, axis=1) if cols else np.zeros((state.n, 0), dtype=np.int64)

    def keys(self, state: State) -> list[tuple[int, ...]]:
        return [tuple(r) for r in self.matrix(state).tolist()]

    def packed(self, state: State) -> list[bytes]:
        """Each row's key as bytes (cheaper to hash and keep than a tuple, for fights of many combatants)."""
        m = np.ascontiguousarray(self.matrix(state), dtype=np.int64)
        return [m[i].tobytes() for i in range(state.n)]

    def unpacked(self, keys: list[bytes]) -> State:
        """The state of rows given by `packed` keys."""
        return self.state(np.frombuffer(b"".join(keys), dtype=np.int64).reshape(len(keys), -1))

    def state(self, keys: list[tuple[int, ...]] | np.ndarray) -> State:
        m = np.asarray(keys, dtype=np.int64).reshape(len(keys), -1)
        n, size = len(keys), self.size
        per = {k: m[:, i * size : (i + 1) * size].copy() for i, k in enumerate(self.per)}
        per.update({k: np.zeros((n, size), dtype=np.int64) for k in self.skipped})
        base = len(self.per) * size
        fights = {k: m[:, base + i].copy() for i, k in enumerate(self.fight)}
        fights.update({"round": np.zeros(n, np.int64), "over": np.zeros(n, np.int64)})
        fights.update({"winner": np.full(n, -1, np.int64), "cut": np.zeros(n, np.int64)})
        return State(per, fights)


def fight_depth(fight: LoadedFight) -> int:
    """The depth the fight's open-ended dice are followed to: its file's `options.depth`, else the system's."""
    return chosen_depth(fight, None)


def chosen_depth(fight: LoadedFight, depth: int | None) -> int:
    """The depth: the caller's, else the fight file's `options.depth`, else the system's default (as -n does)."""
    chosen = getattr(fight.spec.options, "depth", None)
    return depth if depth is not None else fight.system.default_depth if chosen is None else int(chosen)
