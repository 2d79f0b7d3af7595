"""issue 41, item 1: `solve A --against B`: where a measure of A equals the same measure of B along one axis
(applied to both unless a `--vary` names one), exact where both are exact, simulated on common random numbers
with the paired interval otherwise; values said as decimals with the fraction beside, never a bare long one."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.loader import read_document
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.sweeps.against import against_solver
from tohit.sweeps.pair import plan_pair

DESIGNER = EXAMPLES / "designer"
SWORD, MACE = DESIGNER / "sword.yaml", DESIGNER / "mace.yaml"
GREATSWORD, PLUS_TWO_MACE = DESIGNER / "fullplate-greatsword.yaml", DESIGNER / "fullplate-mace.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
CUT = "targets[0].armor.cut=0..12"
runner = CliRunner()


def mean_damage(path: Path, field: str, value: int) -> Fraction:
    """`tohit odds` of the file with targets[0].<field> set."""
    doc = read_document(path)
    node = doc["targets"][0]
    *parents, last = field.split(".")
    for key in parents:
        node = node[key]
    node[last] = value
    return odds(from_dict(doc)).targets[0].mean_damage


def test_the_break_even_is_found_exactly_between_neighbouring_values() -> None:
    """The long sword (cut) beats the mace (impact) until the bandit's cut armour is 4: each side's mean damage
    as `tohit odds` gives it, as fractions, with A - B beside."""
    args = ["solve", str(SWORD), "--against", str(MACE), "--vary", CUT, "--measure", "mean_damage", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["file"], data["against"], data["method"], data["target"]) == (str(SWORD), str(MACE), "exact", "A = B")
    (crossing,) = data["crossings"]
    low, high = crossing["from"], crossing["to"]
    assert (low["value"], high["value"]) == (3, 4)
    for point in (low, high):
        a = mean_damage(SWORD, "armor.cut", point["value"])
        b = mean_damage(MACE, "armor.cut", point["value"])
        assert (Fraction(point["a"]["measure"]), Fraction(point["b"]["measure"])) == (a, b)
        assert Fraction(point["measure"]) == a - b
    assert Fraction(low["measure"]) > 0 > Fraction(high["measure"])


def test_the_answer_is_decimals_with_the_fraction_beside() -> None:
    """Short fractions beside their decimals; a long one (the Kaiser odds: 16 digits and more) never bare."""
    args = ["solve", str(GREATSWORD), "--against", str(PLUS_TWO_MACE), "--vary", "targets[0].ac=-4..10"]
    lines = runner.invoke(app, [*args, "--measure", "mean_damage"]).stdout.splitlines()
    assert lines == [
        "mean_damage (Orc) of fullplate-greatsword.yaml reaches fullplate-mace.yaml's between targets[0].ac = 6 and 7",
        "  targets[0].ac = 6: A 4.5 (9/2), B 4.55 (91/20)",
        "  targets[0].ac = 7: A 4.875 (39/8), B 4.875 (39/8)",
        "exact, bisection: 6 of 15 values evaluated",
    ]
    kaiser = runner.invoke(
        app, ["solve", str(SWORD), "--against", str(MACE), "--vary", CUT, "--measure", "mean_damage"]
    )
    text = kaiser.stdout
    assert "A 11.483 (exact), B 9.84254 (exact)" in text
    assert not any(len(word) > 16 and "/" in word for word in text.split())


def test_a_vary_named_for_one_side_leaves_the_other_at_its_file() -> None:
    """`A:targets[0].ac=...`: the greatsword across AC against the +2 mace at its file's AC 6 (4.55)."""
    args = ["solve", str(GREATSWORD), "--against", str(PLUS_TWO_MACE), "--vary", "A:targets[0].ac=-4..10"]
    data = json.loads(runner.invoke(app, [*args, "--measure", "mean_damage", "--json"]).stdout)
    (crossing,) = data["crossings"]
    assert (crossing["from"]["value"], crossing["to"]["value"]) == (6, 7)
    assert crossing["from"]["b"]["measure"] == crossing["to"]["b"]["measure"] == "91/20"
    assert crossing["to"]["a"]["measure"] == "39/8"


def test_a_simulated_break_even_runs_both_sides_on_one_seed_with_the_paired_interval() -> None:
    """A fight: each evaluated point has A - B with its interval, both sides' fights counted in the budget; the
    same seed gives the same answer."""
    axis = "A:sides[Bandits].combatants[Bandit chief].target.lp=10,40"
    pair = plan_pair(DUEL, DUEL, [axis], n=40, seed=5)
    with against_solver(pair, "win_Ceil", budget=400) as solver:
        solution = solver.solve(scan=True)
    assert solution.method == "simulated" and len(solution.points) == 2
    for point in solution.points.values():
        assert point.lo is not None and point.hi is not None and point.lo <= point.measure <= point.hi
        assert isinstance(point.a, float) and isinstance(point.b, float) and point.measure == point.a - point.b
    assert 2 * sum(p.n or 0 for p in solution.points.values()) <= solution.fights <= 400
    last = solution.points[1]  # LP 40 is B's own file: one seed, the same fights, A - B exactly 0
    assert (last.measure, last.lo, last.hi) == (0, 0, 0)
    with against_solver(plan_pair(DUEL, DUEL, [axis], n=40, seed=5), "win_Ceil", budget=400) as again:
        assert again.solve(scan=True).to_json() == solution.to_json()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--against", str(MACE), "--vary", CUT, "--measure", "mean_damage", "--target", "5"], "leave --target out"),
        (["--against", str(DUEL), "--vary", CUT, "--measure", "mean_damage"], "not one of each"),
        (["--against", str(MACE), "--vary", CUT, "--measure", "win_Ceil"], "no measure 'win_Ceil'"),
        (["--vary", CUT, "--measure", "mean_damage"], "--target: give the value"),
    ],
)
def test_bad_input_is_one_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["solve", str(SWORD), *args])
    assert result.exit_code == 2 and says in result.stderr and len(result.stderr.splitlines()) == 1, result.output


def test_a_long_exact_value_is_its_decimal_said_exact_never_rounded() -> None:
    """`solve --target`: a Kaiser mean damage (a fraction of dozens of digits) was shown rounded ("20, exact" for
    19.99972); now to six digits."""
    args = ["solve", str(SWORD), "--vary", CUT, "--measure", "mean_damage", "--target", "10"]
    assert "targets[0].armor.cut = 3 (11.483, exact) and 4 (8.37375, exact)" in runner.invoke(app, args).stdout


README = EXAMPLES.parent / "README.md"


def readme_output(command: str) -> list[str]:
    """The lines the README shows under `$ <command>` (its continuation lines skipped), up to the block's end."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"$ {command}"))
    continued = lines[start].endswith("\\")
    out = []
    for line in lines[start + 1 :]:
        if continued:
            continued = line.endswith("\\")
        elif line.startswith("```"):
            return out
        else:
            out.append(line.rstrip())
    raise AssertionError(f"no end of the block of {command}")


@pytest.mark.parametrize(
    "command",
    [
        "solve examples/designer/sword.yaml --against examples/designer/mace.yaml"
        " --vary targets[0].armor.cut=0..12 --measure mean_damage",
        "compare examples/designer/fullplate-greatsword.yaml examples/designer/fullplate-mace.yaml"
        " --vary targets[0].ac=-4..10",
        "sweep examples/designer/fullplate-greatsword.yaml --zip attacker.weapon.damage=1d12,1d6"
        " --zip attacker.weapon.enhancement=0,2 --vary targets[0].ac=0..8:4 --measure mean_damage --workers 1",
    ],
    ids=["sword stops beating the mace", "across AC", "builds as an axis"],
)
def test_the_readmes_designer_answers(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """README, "A designer's questions": the output printed there is the command's (the plot left out)."""
    monkeypatch.chdir(EXAMPLES.parent)
    args = command.split()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    shown = readme_output(f"tohit {args[0]} {args[1]}")
    got = [line.rstrip() for line in result.stdout.splitlines()]
    assert got == [line for line in shown if not line.startswith("wrote docs/")]
