"""issue 31, item 2: `tohit solve`: the crossing of a target along one field's range, exact by bisection (only the
points it needs), simulated with 95% intervals refined within a budget of fights, every crossing by a scan."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.loader import read_document
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.sweeps.run import plan
from tohit.sweeps.solve import parse_target, solver

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"
runner = CliRunner()


def p_hit(accuracy: int) -> Fraction:
    """`tohit odds` of the bow with this Accuracy."""
    doc = read_document(BOW)
    doc["attacker"]["accuracy"] = accuracy
    return odds(from_dict(doc)).targets[0].probability("result", "hit")


def test_an_exact_crossing_is_found_by_bisection_as_fractions() -> None:
    """ "Accuracy for 75%": the neighbouring values on either side, as `tohit odds` gives them, from 5 of 13."""
    result = runner.invoke(
        app,
        ["solve", str(BOW), "--vary", "attacker.accuracy=0..12", "--measure", "p_hit", "--target", "75%", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["method"] == "exact" and data["search"] == "bisection"
    assert data["evaluated"] == 5 and data["points"] == 13
    (crossing,) = data["crossings"]
    assert crossing["from"]["value"] == 3 and crossing["to"]["value"] == 4
    assert Fraction(crossing["from"]["measure"]) < Fraction(3, 4) <= Fraction(crossing["to"]["measure"])
    assert Fraction(crossing["from"]["measure"]) == p_hit(3) and Fraction(crossing["to"]["measure"]) == p_hit(4)


def test_the_text_says_where_and_what_it_cost() -> None:
    args = ["solve", str(BOW), "--vary", "attacker.accuracy=0..12", "--measure", "p_hit", "--target", "0.75"]
    lines = runner.invoke(app, args).stdout.splitlines()
    assert lines == [
        "p_hit (Lizalfos) reaches 75.0% between attacker.accuracy = 3 (13/18 = 72.2%) and 4 (5/6 = 83.3%)",
        "exact, bisection: 5 of 13 values evaluated",
    ]


def test_a_scan_reports_every_crossing_and_none_says_so() -> None:
    scanned = runner.invoke(
        app,
        ["solve", str(BOW), "--vary", "targets[0].evasion=12..15", "--measure", "p_hit", "--target", "1/2", "--scan"],
    )
    assert "falls below 50.0% between targets[0].evasion = 13 (7/12 = 58.3%) and 14" in scanned.stdout
    assert "every value (scan): 4 of 4 values evaluated" in scanned.stdout
    never = runner.invoke(
        app, ["solve", str(BOW), "--vary", "targets[0].evasion=2..4", "--measure", "p_hit", "--target", "1/2"]
    )
    assert "stays at or above 50.0% for targets[0].evasion from 2 to 4" in never.stdout


def test_a_simulated_crossing_refines_straddling_points_within_the_budget() -> None:
    """The interval at a point holding the target is narrowed with 4x the fights until it does not, within the
    budget (a count of fights); the same seed gives the same answer."""
    sweep = plan(BANDITS, ["count:Bandit=1..8"], n=100, seed=1, measure="win_Party")
    with solver(sweep, "win_Party", Fraction(1, 2), budget=3000) as s:
        solution = s.solve(scan=False)
    assert solution.method == "simulated" and solution.fights <= 3000
    (crossing,) = solution.crossings
    a, b = crossing
    assert b.value == a.value + 1 and a.measure >= 0.5 > b.measure
    assert any((p.n or 0) > 100 for p in solution.points.values())  # a straddling point was run again
    data = solution.to_json()
    assert data["crossings"][0]["from"]["lo"] is not None and "certain" in data["crossings"][0]
    assert data["budget"] == 3000 and data["evaluated"] < 8
    with solver(sweep, "win_Party", Fraction(1, 2), budget=3000) as s:
        assert s.solve(scan=False).to_json() == data
    with solver(sweep, "win_Party", Fraction(1, 2), budget=100) as s:  # no fights left to refine
        tight = s.solve(scan=False)
    assert all(p.n == 100 for p in tight.points.values()) and tight.fights == 100 * len(tight.points)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--vary", "attacker.accuracy=0..12", "--measure", "p_crit", "--target", "1/2"], "no measure 'p_crit'"),
        (["--vary", "attacker.accuracy=0..12", "--measure", "p_hit", "--target", "most"], "--target: 'most'"),
        (["--vary", "attacker.accuracy=3", "--measure", "p_hit", "--target", "1/2"], "at least two values"),
    ],
)
def test_bad_input_is_one_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["solve", str(BOW), *args])
    assert result.exit_code == 2 and says in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("measure", "target", "says"),
    [
        ("p_hit", "50", "--target: '50' is more than 1 (100%): p_hit is a chance, from 0 to 1"),
        ("p_hit", "150%", "--target: '150%' is more than 1 (100%)"),
        ("p_critical", "-0.1", "--target: '-0.1' is less than 0"),
    ],
)
def test_a_chance_target_above_one_is_refused(measure: str, target: str, says: str) -> None:
    """issue 41, item 6: `--target 50` meant as 50% was answered "stays below 5000.0%", exit 0."""
    args = ["solve", str(BOW), "--vary", "attacker.accuracy=0..12", "--measure", measure, "--target", target]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert says in result.stderr and len(result.stderr.splitlines()) == 1
    if target == "50":
        assert "meant 50%? write 50% or 0.5" in result.stderr


def test_a_target_above_one_is_kept_for_a_measure_that_is_not_a_chance() -> None:
    args = ["solve", str(BOW), "--vary", "attacker.accuracy=0..12", "--measure", "mean_damage", "--target", "5"]
    assert runner.invoke(app, args).exit_code == 0


def test_targets_are_read_exactly() -> None:
    assert parse_target("75%") == parse_target("0.75") == parse_target("3/4") == Fraction(3, 4)


def test_a_simulated_solve_on_a_cluster_gives_the_same_answer(local_client: Any) -> None:
    """The points' seeds depend on their place in the range alone: a LocalCluster of two finds what this process
    finds, fights and intervals alike."""
    sweep = plan(BANDITS, ["count:Bandit=1..8"], n=100, seed=3, measure="win_Party")
    with solver(sweep, "win_Party", Fraction(1, 2), budget=2000) as here:
        alone = here.solve(scan=False).to_json()
    with solver(sweep, "win_Party", Fraction(1, 2), budget=2000, client=local_client) as there:
        assert there.solve(scan=False).to_json() == alone


DESIGNER = EXAMPLES.parent / "docs" / "designer"


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (
            ["trident-vs-concentration.yaml", "--vary", "attacker.accuracy=0..10", "--target", "75%"],
            [
                "p_hit (Wizzrobe) reaches 75.0% between attacker.accuracy = 1 (13/18 = 72.2%) and 2 (5/6 = 83.3%)",
                "exact, bisection: 5 of 11 values evaluated",
            ],
        ),
        (
            ["party-vs-goblins.yaml", "--vary", "count:Goblin=1..12", "--target", "50%", "-n", "500", "--seed", "1"],
            [
                "win_Party falls below 50.0% between count:Goblin = 3 (83.0% (79.5%-86.0%), 500 fights) and 4 "
                "(47.9% (46.8%-49.0%), 8,000 fights)",
                "simulated, bisection: 5 of 12 values evaluated; 12,500 fights of a budget of 25,000",
            ],
        ),
    ],
    ids=["accuracy for 75%", "goblins beaten half the time"],
)
def test_the_readmes_designer_questions(args: list[str], lines: list[str]) -> None:
    """README, "A designer's questions": the answers as printed there."""
    measure = "p_hit" if "trident" in args[0] else "win_Party"
    result = runner.invoke(app, ["solve", str(DESIGNER / args[0]), *args[1:], "--measure", measure])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == lines
