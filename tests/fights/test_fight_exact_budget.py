"""`fight --exact` sizes its chain up front (issue 20, item 10; issue 21, item 7): from its first few hundred
states explored it estimates the states, outcome rows, time and memory the chain will take, and refuses one
over a cap, naming the estimate and the cap; the time and memory budgets are checked inside the exploration and
the solver."""

from __future__ import annotations

import copy
import re

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight import exact
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict, load_fight

DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"


def test_a_chain_estimated_over_a_cap_is_refused_early_naming_estimate_and_cap() -> None:
    with pytest.raises(InputError) as caught:
        exact_duel(load_fight(DUEL), probe=0.0, max_rows=200_000)
    err = caught.value
    assert err.field == "--exact"
    assert "is estimated at" in err.message and "outcome rows (the cap: 200,000 outcome rows)" in err.message
    assert "states explored" in err.message and "simulate it with -n" in err.message


class Growing:
    """A process's resident memory that grows by a megabyte each time it is read: the process's real memory
    depends on what it held before the chain began (freed pages are used again), so the test says how it grows."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> int:
        self.reads += 1
        return 100_000_000 + 1_000_000 * self.reads


def test_the_memory_budget_is_checked_while_the_chain_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    resident = Growing()
    monkeypatch.setattr(exact, "_resident", resident)
    with pytest.raises(InputError, match=r"passed its memory budget of 5 MB \(at [\d,]+ states\)") as caught:
        exact_duel(load_fight(DUEL), memory=5_000_000, probe=float("inf"))
    assert caught.value.field == "--exact" and "simulate it with -n" in caught.value.message
    assert resident.reads == 7  # read at the start, then once a check: refused at the sixth megabyte grown


@pytest.mark.usefixtures("exact_uncapped")  # a cap on seconds only refuses: lifted, the test is load-independent
def test_memory_that_does_not_grow_passes_the_same_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "_resident", lambda: 100_000_000)
    result = exact_duel(load_fight(DUEL), memory=5_000_000, probe=float("inf"))
    assert sum(result.wins) + result.draw + result.beyond == 1 and result.wins[0] > 0


def test_the_estimate_names_the_state_cap_too() -> None:
    """The duel's chain has 1,901 states: over a cap of 600, refused from the estimate."""
    with pytest.raises(InputError, match=r"states \(the cap: 600 states\)"):
        exact_duel(load_fight(DUEL), probe=0.0, limit=600)


def _variant(change: str) -> dict[str, object]:
    data = yaml.safe_load(DUEL.read_text())
    chief = data["sides"][1]["combatants"][0]
    ceil = data["sides"][0]["combatants"][0]
    if change == "no chief resistance":
        del chief["physical_resistance"]
    elif change == "weak chief":
        chief["physical_resistance"] = 2
    else:  # "long duel"
        chief["target"]["lp"] = ceil["target"]["lp"] = 120
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize("change", ["no chief resistance", "weak chief", "long duel"])
def test_the_issues_duels_are_refused_from_an_early_estimate(change: str) -> None:
    """Issue 20, item 10: the estimate comes from the first few hundred states explored (a fraction of a second),
    not after a second of exploring: the chain is refused at an early exploration size, naming the cap."""
    with pytest.raises(InputError, match="is estimated at") as caught:
        exact_duel(fight_from_dict(_variant(change)))
    explored = int(re.search(r"\(([\d,]+) states explored", caught.value.message)[1].replace(",", ""))  # type: ignore[index]
    assert explored < 256, caught.value.message  # before: the first step after 1 s, at 481 states explored
    assert "(the cap: " in caught.value.message


def test_a_chain_within_its_caps_is_solved_as_before() -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "fullplate-skirmish.yaml").read_text())
    data["sides"] = [copy.deepcopy(s) for s in data["sides"]]
    for side in data["sides"]:
        side["combatants"] = side["combatants"][:1]
    result = exact_duel(fight_from_dict(data), probe=0.0)
    assert sum(result.wins) + result.draw + result.beyond == 1


def test_the_kaiser_duel_without_physical_resistance_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The issue's reproducer: it ran 34 s and 816 MB, then a traceback; now one line, from the estimate."""
    data = yaml.safe_load(DUEL.read_text())
    del data["sides"][1]["combatants"][0]["physical_resistance"]
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path), "--exact"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--exact" in lines[0], lines


def test_the_solver_reports_its_progress_to_the_time_estimate() -> None:
    """Issue 21, item 7 (`max_guard: 100` ran past 900 s in the solver): before each strongly connected component
    of more than one state the solver reports how many states it has solved, and that report may refuse the
    chain (`exact_duel` refuses one whose solve, at the rate so far, passes the time cap, naming it)."""
    from fractions import Fraction

    from tohit.engine.fight.chain_solve import solve as _solve

    half = Fraction(1, 2)
    edges = [{1: half, -1: half}, {0: half, -2: half}, {0: Fraction(1)}]  # a 2-cycle, and a state into it
    reports: list[int] = []
    values = _solve(edges, [Fraction(1)] * 3, 2, lambda: None, reports.append)
    assert reports == [0] and values[0][0] == Fraction(2, 3) and values[2][0] == Fraction(2, 3)

    def refuse(solved: int) -> None:
        raise InputError("estimated at 999 s (the cap: 60 s)", field="--exact")

    with pytest.raises(InputError, match="the cap: 60 s"):
        _solve(edges, [Fraction(1)] * 3, 2, lambda: None, refuse)


def test_the_issues_max_guard_100_duel_is_refused_naming_the_time_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, item 7 (`max_guard: 100` on the wrestler-and-axe duel ran past 900 s): its chain of 195,109
    states is within the state cap, but its solve is estimated past the time cap once it has run a second, and
    refused in one message naming the estimate and the cap. The clock is a counter (a thousandth of a second a
    reading), so no machine's speed or load decides it."""
    import time

    clock = iter(range(10**9))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock) / 1000)
    data = yaml.safe_load((EXAMPLES / "fights" / "wsswnn-wrestler-and-axe.yaml").read_text())
    for side in data["sides"]:
        side["combatants"][0]["attacker"]["max_guard"] = 100
    with pytest.raises(InputError, match=r"is estimated at [\d,]+ s \(the cap: 60 s\)") as caught:
        exact_duel(fight_from_dict(data))
    assert "195,109 states" in caught.value.message and "simulate it with -n" in caught.value.message


def test_the_clock_only_refuses_an_exact_duel_never_changes_its_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every budget that can change the exact answer counts work (states, outcome rows); the clock is read only to
    refuse, in one line naming the cap. So under a clock that stands still the answer is the real clock's to the
    last fraction, and under a clock that jumps an hour at every reading the duel is refused on `--exact`, never
    answered otherwise."""
    import time

    from tohit.engine.fight.exact import OverTime

    quiet = exact_duel(load_fight(DUEL)).to_json()
    monkeypatch.setattr(time, "monotonic", lambda: 0.0)
    assert exact_duel(load_fight(DUEL)).to_json() == quiet
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    with pytest.raises(OverTime) as refused:
        exact_duel(load_fight(DUEL))
    assert refused.value.field == "--exact" and "time budget" in refused.value.message
