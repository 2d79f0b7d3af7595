"""`tohit fight --exact`: the duel as an absorbing Markov chain, tested by hand, against simulation and
against the plain-Python reference fight (benchmarks/fight_reference.py)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
import yaml
from benchmarks.fight_reference import kaiser_fight as reference_fight

from tests.conftest import EXAMPLES
from tests.fights.helpers import duel, kaiser_combatant, kaiser_fight, load
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import simulate_fights

Z = 4.0  # agreement within 4 standard errors (fixed seeds: deterministic)


def test_fight_exact_one_sided_duel_matches_a_geometric_count_of_rounds() -> None:
    """A kills with one Unit (p per attack, brute force over 2d6 x 2d6); B never hits (ranged, no counter).

    A attacks twice a round (6 AP, 3 each), so A wins surely and the rounds are geometric:
    E[rounds] = 1 / (1 - (1 - p)^2).
    """
    a = kaiser_combatant("A", attacks=[{"name": "bow", "attack": {"range": "ranged"}}], target={"defensive_skill": 100})
    b = kaiser_combatant(
        "B",
        attacker={"offensive_skill": 0},
        target={"lp": 7},
        attacks=[{"name": "sling", "attack": {"range": "ranged"}}],
    )
    fight = load(kaiser_fight([a], [b], options={"open_rolls_and_fumbles": False, "multiple_defense_penalty": False}))
    kills = sum(1 for o1, o2, d1, d2 in product(range(1, 7), repeat=4) if (o1 + o2 + 10) - (d1 + d2 + 8) - 2 >= 1)
    p = Fraction(kills, 6**4)
    result = exact_duel(fight)
    assert result.wins == [Fraction(1), Fraction(0)]
    assert result.draw == 0 and result.beyond == 0
    assert result.expected_rounds == 1 / (1 - (1 - p) ** 2)


def test_fight_exact_probabilities_sum_to_one() -> None:
    fight = load(kaiser_fight([kaiser_combatant("A", target={"lp": 20})], [kaiser_combatant("B", target={"lp": 14})]))
    result = exact_duel(fight)
    assert sum(result.wins) + result.draw + result.beyond == 1
    assert 0 < result.beyond < Fraction(1, 10**5)


def test_fight_exact_agrees_with_simulation() -> None:
    """Exact win probability and expected rounds within 4 standard errors of 200,000 simulated fights."""
    data = kaiser_fight(
        [kaiser_combatant("A", target={"lp": 24})],
        [kaiser_combatant("B", attacker={"offensive_skill": 11}, target={"lp": 20, "armor": {"cut": 1}})],
    )
    fight = load(data)
    exact = exact_duel(fight)
    n = 200_000
    sim = simulate_fights(fight, n, seed=11)
    p = float(exact.wins[0])
    assert abs(sim.wins(0) / n - p) < Z * (p * (1 - p) / n) ** 0.5
    assert sim.draws == 0
    assert exact.expected_rounds is not None
    mean, sd = float(sim.rounds.mean()), float(sim.rounds.std())
    assert abs(mean - float(exact.expected_rounds)) < Z * sd / n**0.5


def test_fight_exact_agrees_with_the_plain_python_reference() -> None:
    """The independent plain-Python fight (no engine code) against the exact chain."""
    fight = load(kaiser_fight([kaiser_combatant("A", target={"lp": 20})], [kaiser_combatant("B", target={"lp": 20})]))
    exact = exact_duel(fight)
    rng = random.Random(3)
    n = 20_000
    wins = sum(1 for _ in range(n) if reference_fight(fight, rng)[0] == 0)
    p = float(exact.wins[0])
    assert abs(wins / n - p) < Z * (p * (1 - p) / n) ** 0.5


def test_fight_exact_agrees_with_the_plain_python_reference_with_the_multiple_defense_penalty() -> None:
    """The bundled Kaiser duel (the fights bench's), whose Multiple Defense Penalty is on, as by default: the
    plain-Python fight plays the penalty too (each defense after the first in a round at -2 more), and its wins and
    rounds agree with the exact chain's. Without the penalty a fight lasts some 0.6 rounds longer: the rounds tell the
    two apart by dozens of standard errors."""
    data = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    fight = load(data)
    assert fight.spec.options.multiple_defense_penalty
    exact = exact_duel(fight)
    rng = random.Random(5)
    n = 20_000
    played = [reference_fight(fight, rng) for _ in range(n)]
    p = float(exact.wins[0])
    assert abs(sum(1 for won, _ in played if won == 0) / n - p) < Z * (p * (1 - p) / n) ** 0.5
    rounds = [r for _, r in played]
    mean = sum(rounds) / n
    error = (sum((r - mean) ** 2 for r in rounds) / (n - 1) / n) ** 0.5
    assert exact.expected_rounds is not None and abs(mean - float(exact.expected_rounds)) < Z * error
    without = exact_duel(load({**data, "options": {"multiple_defense_penalty": False}}))
    assert without.expected_rounds is not None and abs(mean - float(without.expected_rounds)) > 5 * Z * error


def test_fight_exact_nobody_can_hurt_anybody_is_a_draw_that_never_ends() -> None:
    """Bare 2d6 (no open rolls, which could always pierce the armour in the end): no hit does damage."""
    armour = {"armor": {"cut": 100}}
    data = kaiser_fight([kaiser_combatant("A", target=armour)], [kaiser_combatant("B", target=armour)])
    fight = load({**data, "options": {"open_rolls_and_fumbles": False}})
    result = exact_duel(fight)
    assert result.wins == [0, 0]
    assert result.never_ends == 1 and result.draw == 1
    assert result.expected_rounds is None


def test_fight_exact_is_refused_for_more_than_two_combatants() -> None:
    fight = load(kaiser_fight([kaiser_combatant("A"), kaiser_combatant("A2")], [kaiser_combatant("B")]))
    with pytest.raises(InputError) as err:
        exact_duel(fight)
    assert "sides" in str(err.value) and "two combatants" in str(err.value)


def test_fight_exact_is_refused_past_the_state_limit() -> None:
    with pytest.raises(InputError) as err:
        exact_duel(load(duel()), limit=50)
    assert "more than 50 states" in str(err.value) and "--exact" in str(err.value)


@pytest.mark.usefixtures("exact_uncapped")  # a cap on seconds only refuses: lifted, the test is load-independent
def test_fight_exact_is_refused_past_the_outcome_row_limit() -> None:
    """A chain of few states whose attacks have many outcomes (Kaiser penalties stacking) is refused by the
    work it takes, not only by its states: `max_rows` (MAX_ROWS by default) counts every state's outcome rows."""
    fight = load(duel())
    assert exact_duel(fight).states < 50_000  # the chain itself is small
    with pytest.raises(InputError) as err:
        exact_duel(fight, max_rows=500)
    assert "more than 500 outcome rows" in str(err.value) and "--exact" in str(err.value)


@pytest.mark.parametrize("method", ["table", "direct"])
def test_fight_both_samplers_agree_with_the_exact_chain(method: str) -> None:
    """Monte Carlo draws attacks from their exact joint tables ("table", default) or rolls dice through
    `resolve` with the fight's stats as arrays ("direct"): both agree with the exact chain (open rolls
    included: rolls beyond the table's depth are drawn from the dice's tails)."""
    fight = load(kaiser_fight([kaiser_combatant("A", target={"lp": 20})], [kaiser_combatant("B", target={"lp": 20})]))
    exact = exact_duel(fight)
    n = 100_000
    sim = simulate_fights(fight, n, seed=21, method=method)  # type: ignore[arg-type]
    p = float(exact.wins[0])
    assert abs(sim.wins(0) / n - p) < Z * (p * (1 - p) / n) ** 0.5
    assert exact.expected_rounds is not None
    assert abs(float(sim.rounds.mean()) - float(exact.expected_rounds)) < Z * float(sim.rounds.std()) / n**0.5
