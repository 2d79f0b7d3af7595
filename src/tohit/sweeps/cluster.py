"""`tohit simulate --scheduler ADDR` and `tohit fight -n N --scheduler ADDR`: one big run on a Dask cluster.

The run is split as `--workers W` splits it on this machine (the same shares, each with its stream spawned from
the seed), W being the cluster's worker count unless given; so the same seed and W give the same result here
and on the cluster. Each share is sent as the file's document and loaded by the worker (nothing but plain data
crosses the network); the shares' results are merged here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Method
from tohit.engine.fight.run import FightStats, FightTally, Part, share_streams, simulate_share, stats_from_shares
from tohit.engine.scenario import from_dict
from tohit.engine.seeds import fresh_seed
from tohit.engine.simulate import Share as AttackShare
from tohit.engine.simulate import SimResult, result_from_shares
from tohit.engine.simulate import share_streams as attack_streams
from tohit.engine.simulate import simulate_share as attack_share
from tohit.sweeps.execute import cluster_workers, connect, dask

Progress = Callable[[int], None]


def _fight_share(
    document: dict[str, Any], source: str, n: int, stream: np.random.SeedSequence, method: Method, keep: bool
) -> tuple[FightTally, list[Part]]:
    """On a worker: load the fight and run its share."""
    return simulate_share(fight_from_dict(document, source=source), n, stream, method=method, keep=keep)


def _attack_share(
    document: dict[str, Any], source: str, n: int, stream: np.random.SeedSequence, method: Method
) -> AttackShare:
    """On a worker: load the scenario and run its share."""
    return attack_share(from_dict(document, source=source), n, stream, method)


def fights_on(
    address: str,
    document: dict[str, Any],
    source: str,
    n: int,
    seed: int | None,
    *,
    method: Method = "table",
    workers: int | None = None,
    progress: Progress | None = None,
) -> FightStats:
    """n fights of the fight file `document` on the cluster at `address`."""
    from tohit.engine.fight.run import KEEP_FIGHTS

    fight = fight_from_dict(document, source=source)
    if seed is None:
        seed = fight.spec.seed if fight.spec.seed is not None else fresh_seed()
    with connect(address) as client:
        tasks = workers or cluster_workers(client)
        shares = share_streams(n, seed, tasks)
        futures = [
            client.submit(_fight_share, document, source, share, stream, method, n <= KEEP_FIGHTS, pure=False)
            for share, stream in shares
        ]
        results = _gather(client, futures, [share for share, _ in shares], progress)
    return stats_from_shares(fight, n, seed, results)


def simulate_on(
    address: str,
    document: dict[str, Any],
    source: str,
    n: int,
    seed: int | None,
    *,
    method: Method = "table",
    workers: int | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """n attacks per target of the scenario `document` on the cluster at `address`."""
    loaded = from_dict(document, source=source)
    if seed is None:
        seed = loaded.scenario.seed if loaded.scenario.seed is not None else fresh_seed()
    targets = len(loaded.scenario.targets)
    with connect(address) as client:
        tasks = workers or cluster_workers(client)
        shares = attack_streams(n, seed, tasks)
        futures = [
            client.submit(_attack_share, document, source, share, stream, method, pure=False)
            for share, stream in shares
        ]
        results = _gather(client, futures, [share * targets for share, _ in shares], progress)
    return result_from_shares(loaded, n, seed, method, results)


def _gather(client: Any, futures: list[Any], sizes: list[int], progress: Progress | None) -> list[Any]:
    """The futures' results (of `client`) in submission order, advancing `progress` by each one's size as it
    completes; the rest are cancelled if this is interrupted. Their completions are awaited on the client's own
    event loop (Dask's default client may be another's)."""
    position = {future.key: i for i, future in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    try:
        for future in dask().as_completed(futures, loop=client.loop):
            i = position[future.key]
            results[i] = future.result()
            if progress:
                progress(sizes[i])
    finally:
        for future in futures:
            future.cancel()
    return results
