"""The exact chain's solve (issue 42, item 3): each state's values over one denominator, the components of one or two
states in closed form, the budget checked whole once every few states. The answers stay the exact rationals of a
plain elimination over every state; the work it does is counted, never timed."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tohit.engine.fight import exact
from tohit.engine.fight.chain_solve import Vector, solve
from tohit.engine.fight.exact import SOLVE_STRIDE, exact_duel
from tohit.engine.fight.load import fight_from_dict

SIDES = 2
K = SIDES + 4  # win per side, draw, beyond, never ends, expected rounds


def _random_chain(rng: random.Random, n: int) -> tuple[list[dict[int, Fraction]], list[Fraction]]:
    """A chain of n states whose edges go to a few states near it (loops, pairs, longer cycles) or to the
    absorbing outcomes; some states only lead among themselves (a fight that never ends from there)."""
    edges: list[dict[int, Fraction]] = []
    for s in range(n):
        closed = s >= n - 3 and rng.random() < 0.5  # the last states may lead only among themselves
        choices = [t for t in range(max(0, s - 2), min(n, s + 3)) if not closed or t >= n - 3]
        if not closed:
            choices += [-1, -2, -3, -4]
        targets = rng.sample(choices, min(len(choices), rng.randint(1, 4)))
        weights = [rng.randint(1, 9) for _ in targets]
        edges.append({t: Fraction(w, sum(weights)) for t, w in zip(targets, weights, strict=True)})
    reward = [Fraction(rng.randint(0, 2)) for _ in range(n)]
    return edges, reward


def _eliminated(edges: list[dict[int, Fraction]], reward: list[Fraction]) -> list[list[Fraction | None]]:
    """Each state's values by a plain Gauss-Jordan elimination over every state (the reference): absorbing outcome
    probabilities from (I - P) x = b; the states that cannot leave the states that never end get 'never ends' 1;
    the expected rounds only where no state that never ends is reachable."""
    n = len(edges)
    reach = [{s} for s in range(n)]
    for _ in range(n):
        for s in range(n):
            for t in list(reach[s]):
                reach[s] |= {u for u in edges[t] if u >= 0}
    ends = [any(u < 0 for t in reach[s] for u in edges[t]) for s in range(n)]
    columns = [-1, -2, -3, -4]
    rows = []
    for s in range(n):
        row = [Fraction(int(s == t)) - (edges[s].get(t, Fraction(0)) if ends[s] else 0) for t in range(n)]
        rhs = [edges[s].get(c, Fraction(0)) for c in columns] + [reward[s] if ends[s] else Fraction(0)]
        rows.append(row + rhs)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [x / rows[col][col] for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                rows[r] = [x - rows[r][col] * y for x, y in zip(rows[r], rows[col], strict=True)]
    out: list[list[Fraction | None]] = []
    for s in range(n):
        wins_draw_beyond = rows[s][n : n + 4]
        never = 1 - sum(wins_draw_beyond)
        rounds = None if any(not ends[t] for t in reach[s]) else rows[s][n + 4]
        out.append([*wins_draw_beyond, never, rounds])
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_solve_agrees_with_a_plain_elimination_over_every_state(seed: int) -> None:
    """Components of one state with a loop, of two states (both in closed form), of more (through a feedback set),
    and states that never end: every state's every value is the plain elimination's, to the last digit."""
    rng = random.Random(seed)
    edges, reward = _random_chain(rng, rng.randint(3, 12))
    values = solve(edges, reward, SIDES, lambda: None)
    expected = _eliminated(edges, reward)
    for s, want in enumerate(expected):
        got = [values[s][i] for i in range(K)]
        assert [None if x is None else Fraction(int(x.numerator), int(x.denominator)) for x in got] == want, s


def test_a_pair_of_states_that_lead_to_each_other_is_solved_in_closed_form() -> None:
    """Two states that hand the turn back and forth (both miss): v_a = (c_a (1 - p_bb) + p_ab c_b) / det."""
    half, third = Fraction(1, 2), Fraction(1, 3)
    edges = [{1: half, -1: half}, {0: third, 1: third, -2: third}]
    values = solve(edges, [Fraction(1), Fraction(0)], SIDES, lambda: None)
    # a = 1/2 b + 1/2; b = 1/3 a + 1/3 b: b = a / 2, so a = a / 4 + 1/2: a = 2/3 (side 0), b = 1/3.
    assert values[0][0] == Fraction(2, 3) and values[1][0] == Fraction(1, 3)
    assert values[0][1] == Fraction(1, 3) and values[1][1] == Fraction(2, 3)
    # rounds: r_a = 1 + r_b / 2, r_b = r_a / 3 + r_b / 3: r_b = r_a / 2, r_a = 4/3.
    assert values[0][K - 1] == Fraction(4, 3) and values[1][K - 1] == Fraction(2, 3)


def test_a_vector_reads_its_entries_back_as_reduced_fractions() -> None:
    from gmpy2 import mpz

    v = Vector([mpz(2), None, mpz(0)], mpz(6))
    assert v[0] == Fraction(1, 3) and v[0].denominator == 3 and v[1] is None and v[2] == 0 and len(v) == 3


def _wsswnn_duel(life: int) -> dict[str, object]:
    def one(name: str, die: str) -> dict[str, object]:
        return {
            "name": name,
            "attacker": {"attack_die": die, "maneuver_die": "d6", "strength": 2, "weapon": {"name": "dagger"}},
            "target": {"guard": 4, "agility": 1, "armor": 1, "life": life, "awareness": 2},
            "attacks": [{"name": "strike"}],
        }

    return {
        "system": "wsswnn",
        "sides": [
            {"name": "Wandu", "combatants": [one("Wandu", "d8")]},
            {"name": "Brute", "combatants": [one("Brute", "d10")]},
        ],
    }


@pytest.mark.usefixtures("exact_uncapped")  # the time cap only refuses: lifted, the test is load-independent
def test_the_solver_reads_the_memory_once_every_few_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the process's memory costs more than solving a small state: the solver checks its budget once a
    state, the memory is read on every SOLVE_STRIDE-th of those checks (a count of work, not of time)."""
    reads = {"exploring": 0, "solving": 0}
    phase = ["exploring"]
    real_solve = exact.solve

    def counted() -> int:
        reads[phase[0]] += 1
        return 100_000_000

    def solving(*args: object) -> object:
        phase[0] = "solving"
        return real_solve(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(exact, "_resident", counted)
    monkeypatch.setattr(exact, "solve", solving)
    result = exact_duel(fight_from_dict(_wsswnn_duel(5)), probe=float("inf"))
    assert result.states > 4 * SOLVE_STRIDE
    assert 1 <= reads["solving"] <= 2 * result.states // SOLVE_STRIDE + 1, (reads, result.states)
