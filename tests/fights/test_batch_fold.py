"""Issue 42, "peak memory for 10,000,000 fights": a batch adds its fights' ends to the run's totals as they come, once
FOLD_ROWS of them have ended (`run._Batch.fold`), instead of holding every fight's end (some 150 bytes a fight in a
4-v-4, in hundreds of small arrays among the step's own) until the batch is over. The totals, and the order the
rounds are counted in, are the same: the same bytes (tests/fights/test_fight_example_digests.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.fights.test_fight_example_digests import DIGESTS, digest
from tohit.engine.fight import run
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.stalemate import Stalemates
from tohit.engine.fight.tally import FightTally, Part

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"
GROUP = EXAMPLES / "last-odyssey-cops.yaml"


def _folds(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Each `add_parts` call's parts' sizes, as the run makes them."""
    calls: list[list[int]] = []
    add_parts = FightTally.add_parts

    def counted(self: FightTally, parts: list[Part]) -> None:
        calls.append([part[0].size for part in parts])
        add_parts(self, parts)

    monkeypatch.setattr(FightTally, "add_parts", counted)
    return calls


@pytest.mark.parametrize("keep", [False, True])
def test_a_batch_adds_its_fights_ends_to_the_totals_as_they_come_with_the_same_result(
    keep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With FOLD_ROWS of 64 a batch of 2,000 fights adds its ends many times, each time once 64 or more have ended
    (never holding more than that and one step's ends); the summary is the very one a single addition at the
    batch's end gives, whether the run keeps every fight's end (a small run) or only its totals (a large one)."""
    fight = load_fight(GROUP)
    monkeypatch.setattr(run, "KEEP_FIGHTS", 10_000 if keep else 0)
    monkeypatch.setattr(run, "FOLD_ROWS", 10**9)  # one addition at each batch's end, as before
    calls = _folds(monkeypatch)
    once = run.simulate_fights(fight, 2_000, seed=5, batch=1_000)
    assert len(calls) == 2 and sum(map(sum, calls)) == 2_000
    calls.clear()
    monkeypatch.setattr(run, "FOLD_ROWS", 64)
    folded = run.simulate_fights(fight, 2_000, seed=5, batch=1_000)
    assert folded.to_json() == once.to_json()
    assert list(folded.tally.rounds.items()) == list(once.tally.rounds.items())  # the rounds in the same order
    assert folded.tally.wins.tolist() == once.tally.wins.tolist() and folded.tally.draws == once.tally.draws
    assert len(calls) > 10 and sum(map(sum, calls)) == 2_000
    assert all(sum(sizes[:-1]) < 64 for sizes in calls)  # it adds as soon as 64 have ended
    done = 0
    for sizes in calls:  # ... and not before, but at a batch's end
        done += sum(sizes)
        assert sum(sizes) >= 64 or done % 1_000 == 0


def test_a_batch_keeps_no_fights_end_once_added_when_the_run_keeps_only_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large run's batch holds no fight's end after adding it: what it returns is empty."""
    fight = load_fight(GROUP)
    monkeypatch.setattr(run, "FOLD_ROWS", 64)
    tally = FightTally.empty(len(fight.roster.side_names), len(fight.roster.names))
    kept = run._run_batch(fight, 500, np.random.default_rng(1), None, "table", Stalemates(), tally, keep=False)
    assert kept == [] and int(tally.wins.sum()) + tally.draws == 500


@pytest.mark.parametrize("name", ["kaiser-party-vs-bandits", "rtw-map", "wsswnn-grapple-and-archer"])
def test_a_bundled_fight_folded_every_64_fights_gives_its_pinned_bytes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundled fights' digests (2,000 fights, one batch) with the batch adding its ends every 64 fights."""
    monkeypatch.setattr(run, "FOLD_ROWS", 64)
    calls = _folds(monkeypatch)
    result = run.simulate_fights(load_fight(EXAMPLES / f"{name}.yaml"), 2_000, seed=1).to_json()
    assert len(calls) >= 3  # one batch, added to more than once
    assert digest(result) == DIGESTS[name][0]
