"""A Monte Carlo batch holds its small per-combatant stats as int32 (`state.narrow_dtype`, issue 42): the same values in
half the memory. A stat past `NARROW_LIMIT` stays int64; a write past it widens the stat first; a fight's results
are the same bytes held either way, and what a batch hands back (`FightStats`) is int64 as before."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.fight import state as state_module
from tohit.core.fight.state import (
    NARROW,
    NARROW_LIMIT,
    State,
    apply,
    apply_event_changes,
    change,
    narrow_dtype,
    narrow_fits,
    wide,
)
from tohit.core.fight.state import Event as StateEvent
from tohit.engine.fight import run
from tohit.engine.fight import situation as situation_module
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import Method
from tohit.engine.fight.modes import deep as deep_module
from tohit.engine.fight.run import simulate_fights

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def _narrow(state: State) -> State:
    """`state` with each stat in its `narrow_dtype`, as a batch's start holds it."""
    return State({k: v.astype(narrow_dtype(v)) for k, v in state.per.items()}, state.fight)


def _state(**per: list[list[int]]) -> State:
    rows = len(next(iter(per.values())))
    return State({k: np.asarray(v, dtype=np.int64) for k, v in per.items()}, {"round": np.ones(rows, dtype=np.int64)})


def test_a_stat_is_narrow_while_every_value_is_within_the_limit() -> None:
    assert narrow_dtype(np.asarray([[10, 20], [-NARROW_LIMIT, NARROW_LIMIT]], dtype=np.int64)) == NARROW
    assert narrow_dtype(np.asarray([[NARROW_LIMIT + 1, 0], [0, 0]], dtype=np.int64)) == np.int64  # one past it


def test_a_batch_starts_a_stat_past_the_limit_as_int64(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit of 10 puts the Kaiser duel's LP past it and leaves its 6 AP within: the LP start int64, the AP int32
    (a file's own caps keep every start within the real limit today)."""
    fight = load_fight(EXAMPLES / "fights" / "kaiser-duel.yaml")
    monkeypatch.setattr(state_module, "NARROW_LIMIT", 10)
    start = initial_state(fight, 3, narrow=True)
    assert int(start.per["lp"].min()) > 10 and start.per["lp"].dtype == np.int64
    assert int(start.per["ap"].max()) <= 10 and start.per["ap"].dtype == NARROW


@pytest.mark.parametrize(
    ("values", "fits"),
    [
        ([NARROW_LIMIT, -NARROW_LIMIT, 0], True),
        ([NARROW_LIMIT + 1], False),
        ([-NARROW_LIMIT - 1, 3], False),
        ([], True),
    ],
)
def test_narrow_fits_says_whether_every_value_is_within_the_limit(values: list[int], fits: bool) -> None:
    assert narrow_fits(np.asarray(values, dtype=np.int64)) is fits


def test_wide_gives_int64_values_and_keeps_int64_arrays_as_they_are() -> None:
    narrow = np.asarray([1, -2, NARROW_LIMIT], dtype=NARROW)
    made = wide(narrow)
    assert made.dtype == np.int64 and made.tolist() == narrow.tolist()
    held = np.asarray([3, 4], dtype=np.int64)
    assert wide(held) is held


def test_narrow_fits_answers_for_a_one_value_view() -> None:
    one = np.broadcast_to(np.asarray([NARROW_LIMIT + 5], dtype=np.int64), (4,))
    assert narrow_fits(one) is False
    assert narrow_fits(np.broadcast_to(np.asarray([7], dtype=np.int64), (4,))) is True


def test_a_write_past_the_limit_widens_a_narrow_stat_first_with_every_value_exact() -> None:
    held = _narrow(_state(dealt=[[1, 2], [3, 4], [5, 6]]))
    assert held.per["dealt"].dtype == NARROW
    past = 3 * NARROW_LIMIT  # far past int32's own limit too: a narrow write would wrap
    after = apply(held, [StateEvent("damage", (change("dealt", [0, 2], [past, 2**40], [1, 0]),))])
    assert after.per["dealt"].dtype == np.int64
    assert after.per["dealt"].tolist() == [[1, past], [3, 4], [2**40, 6]]
    assert held.per["dealt"].dtype == NARROW and held.per["dealt"].tolist() == [[1, 2], [3, 4], [5, 6]]  # untouched


def test_a_write_within_the_limit_keeps_the_stat_narrow_with_its_values_exact() -> None:
    held = _narrow(_state(ap=[[6, 6], [6, 6]]))
    owned: set[tuple[bool, str]] = set()
    wide_values = np.asarray([5, 4], dtype=np.int64)  # int64 values into an int32 stat
    after = apply_event_changes(held, [change("ap", [0, 1], wide_values, [0, 1])], owned)
    assert after.per["ap"].dtype == NARROW
    assert after.per["ap"].tolist() == [[5, 6], [6, 4]]
    one = apply_event_changes(after, [change("ap", [0, 1], 0, [1, 0])], owned)  # one value for every row
    assert one.per["ap"].tolist() == [[5, 0], [0, 4]]


def test_a_narrow_change_keeps_its_int32_values_as_they_are() -> None:
    values = np.asarray([1, 2], dtype=np.int32)
    assert change("ap", [0, 1], values, [0, 0]).to is values


def _plain(fight: Any, method: Method) -> dict[str, Any]:
    out: dict[str, Any] = simulate_fights(fight, 400, seed=3, method=method).to_json()
    return out


@pytest.mark.parametrize("method", ["table", "direct"])
@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: Path(p).stem)
def test_a_bundled_fight_gives_the_same_result_narrow_wide_and_widened_mid_fight(
    path: Path, method: Method, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held narrow (the default), held int64 throughout, and held as int16 under a limit of 2**8 (the real limit's
    headroom: some stats start int64, others widen as they pass 2**8 mid-fight, and a missing widening would wrap):
    the same result for the same seed, in both samplers."""
    fight = load_fight(path)
    narrow = _plain(fight, method)
    with monkeypatch.context() as m:
        m.setattr(run, "initial_state", lambda fight, n, narrow=False: initial_state(fight, n))
        wide = _plain(fight, method)
    with monkeypatch.context() as m:
        m.setattr(state_module, "NARROW", np.dtype(np.int16))
        m.setattr(state_module, "NARROW_LIMIT", 1 << 8)
        widened = _plain(fight, method)
    assert narrow == wide
    assert widened == wide


@pytest.mark.parametrize("policy", ["weakest", "random", "best"])
@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: Path(p).stem)
def test_every_policy_gives_the_same_result_narrow_and_wide(
    path: Path, policy: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each bundled fight with every combatant on one policy (rtw's movers head for the weakest foe by health,
    read from a narrow stat): the same result narrow and wide."""
    data = yaml.safe_load(path.read_text())
    for side in data["sides"]:
        for combatant in side["combatants"]:
            combatant["policy"] = policy
    variant = tmp_path / path.name
    variant.write_text(yaml.safe_dump(data, sort_keys=False))
    fight = load_fight(variant)
    narrow = _plain(fight, "table")
    with monkeypatch.context() as m:
        m.setattr(run, "initial_state", lambda fight, n, narrow=False: initial_state(fight, n))
        wide = _plain(fight, "table")
    assert narrow == wide


def test_a_stat_that_passes_the_limit_mid_fight_widens_and_gives_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Last Odyssey's Bonus Tracker packs each statistic's place in base 7, Resistance the ninth digit (7**8): the
    Ogre's Roar on Resistance (0 -> +1 -> +3 -> +7) takes its `buffs` past 2**24 mid-fight, under the real limit."""
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-ogre.yaml").read_text())
    data["sides"][1]["combatants"][0]["attacks"][0]["attack"]["stat"] = "resistance"
    variant = tmp_path / "roar-on-resistance.yaml"
    variant.write_text(yaml.safe_dump(data, sort_keys=False))
    fight = load_fight(variant)
    past: list[int] = []
    fits = state_module.narrow_fits

    def counted(values: Any) -> bool:
        found = fits(values)
        past.extend([] if found else [1])
        return found

    with monkeypatch.context() as m:
        m.setattr(state_module, "narrow_fits", counted)
        narrow = _plain(fight, "table")
    assert past  # the stat widened (every starting value is within the limit: no other call says no)
    with monkeypatch.context() as m:
        m.setattr(run, "initial_state", lambda fight, n, narrow=False: initial_state(fight, n))
        wide = _plain(fight, "table")
    assert narrow == wide


@pytest.mark.parametrize("method", ["table", "direct"])
def test_resolve_is_fed_int64_from_a_narrow_batch(method: Method, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a game's `resolve` reads of a batch's stats is int64 (`state.wide`): the direct sampler's stats and
    overrides, and the table sampler's rows past its table's depth (here every one of them: no deeper table)."""
    fight = load_fight(EXAMPLES / "fights" / "kaiser-duel.yaml")
    fed: list[Any] = []
    blocks = situation_module.blocks

    def recorded(fight: Any, c: int, a: int, t: int, values: Any) -> Any:
        fed.extend(v for block in values for v in block.values() if isinstance(v, np.ndarray))
        return blocks(fight, c, a, t, values)

    monkeypatch.setattr(situation_module, "blocks", recorded)
    monkeypatch.setattr(deep_module, "DEEP_ROWS", 0)
    simulate_fights(fight, 300, seed=2, method=method)
    assert fed  # stats fed as arrays
    assert {v.dtype for v in fed} == {np.dtype(np.int64)}


def test_an_unpickled_narrow_stat_still_widens_past_the_limit() -> None:
    held = pickle.loads(pickle.dumps(_narrow(_state(dealt=[[1, 2]]))))
    assert held.per["dealt"].dtype == NARROW
    past = 2**33 + 5
    after = apply(held, [StateEvent("damage", (change("dealt", [0], [past], [1]),))])
    assert after.per["dealt"].tolist() == [[1, past]]


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: Path(p).stem)
def test_a_narrow_start_is_the_start_in_its_narrow_dtypes(path: Path) -> None:
    fight = load_fight(path)
    made, then = initial_state(fight, 5, narrow=True), _narrow(initial_state(fight, 5))
    assert made.per.keys() == then.per.keys() and made.fight.keys() == then.fight.keys()
    for k in made.per:
        assert made.per[k].dtype == then.per[k].dtype
        assert made.per[k].tolist() == then.per[k].tolist()
    assert any(v.dtype == NARROW for v in made.per.values())
    assert all(v.dtype == np.int64 for v in initial_state(fight, 5).per.values())  # every other start: int64


def test_a_batch_hands_back_its_fights_ends_as_int64() -> None:
    fight = load_fight(EXAMPLES / "fights" / "kaiser-duel.yaml")
    found = simulate_fights(fight, 200, seed=1)
    assert found.health is not None and found.dealt is not None
    assert found.health.dtype == np.int64
    assert found.dealt.dtype == np.int64
