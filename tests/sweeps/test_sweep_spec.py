"""issue 18, item 1: `--vary PATH=SPEC`: paths into a scenario or fight file, `count:` copies, and the specs
`A..B`, `A..B:STEP`, `v1,v2,...`; every problem one InputError on `--vary`."""

from __future__ import annotations

from typing import Any

import pytest

from tohit.core.errors import InputError
from tohit.sweeps.grid import check_point, make_grid
from tohit.sweeps.spec import parse_path, parse_values, parse_varies, parse_vary

FIGHT: dict[str, Any] = {
    "system": "x",
    "sides": [
        {"name": "A", "combatants": [{"name": "Hero", "target": {"lp": 10}}]},
        {"name": "B", "combatants": [{"name": "Bandit", "target": {"lp": 5}}, {"name": "Boss", "target": {"lp": 9}}]},
    ],
}


def test_paths_as_the_issue_writes_them() -> None:
    assert parse_path("attacker.accuracy") == ("attacker", "accuracy")
    assert parse_path("targets[0].evasion") == ("targets", 0, "evasion")
    assert parse_path("sides[1].combatants[0].target.lp") == ("sides", 1, "combatants", 0, "target", "lp")
    assert parse_path("a[1][2].b") == ("a", 1, 2, "b")


@pytest.mark.parametrize("path", ["", "a..b", "a.[0]", "a[0", "1a", "a b"])
def test_a_malformed_path_is_refused(path: str) -> None:
    with pytest.raises(InputError) as info:
        parse_path(path)
    assert info.value.field == "--vary"


@pytest.mark.parametrize(
    ("spec", "values"),
    [
        ("1..4", (1, 2, 3, 4)),
        ("4..1", (4, 3, 2, 1)),
        ("0..10:5", (0, 5, 10)),
        ("0..1:0.25", (0.0, 0.25, 0.5, 0.75, 1.0)),
        ("0..1:0.4", (0.0, 0.4, 0.8)),
        ("3", (3,)),
        ("1,2.5,true,fire", (1, 2.5, True, "fire")),
        ("-2..0", (-2, -1, 0)),
    ],
)
def test_specs(spec: str, values: tuple[Any, ...]) -> None:
    assert parse_values(spec) == values


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("1..x", "not a number"),
        ("1..3:0", "more than 0"),
        ("1..3:-1", "more than 0"),
        ("0..10000000", "more than"),
        ("1,,2", "empty value"),
        ("1..inf", "finite"),
    ],
)
def test_bad_specs(spec: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_values(spec)


def test_count_takes_whole_numbers_of_a_combatant_in_a_list() -> None:
    vary = parse_vary("count:sides[1].combatants[0]=0..3")
    assert vary.count and vary.values == (0, 1, 2, 3) and vary.where == "sides[1].combatants[0]"
    with pytest.raises(InputError, match="whole number of copies"):
        parse_vary("count:sides[1].combatants[0]=1.5")
    with pytest.raises(InputError, match="combatant in a list"):
        parse_vary("count:sides[1].combatants=2")


def test_a_vary_needs_path_and_spec_and_no_field_twice() -> None:
    for text in ("targets[0].evasion", "=1..2", "targets[0].evasion="):
        with pytest.raises(InputError, match="PATH=SPEC"):
            parse_vary(text)
    with pytest.raises(InputError, match="varied twice"):
        parse_varies(["a.b=1", "a.b=2"])
    with pytest.raises(InputError, match="at least one"):
        parse_varies([])


def test_points_are_row_major_with_the_first_vary_outermost() -> None:
    grid = make_grid(
        FIGHT, "f", parse_varies(["sides[0].combatants[0].target.lp=1..2", "count:sides[1].combatants[0]=0..2"])
    )
    points = list(grid.points())
    assert [p.values for p in points] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert all(grid.point(p.index) == p for p in points)
    assert grid.columns == ["sides[0].combatants[0].target.lp", "count:sides[1].combatants[0]"]


def test_count_copies_a_combatant_and_names_the_copies() -> None:
    grid = make_grid(
        FIGHT, "f", parse_varies(["count:sides[1].combatants[0]=0..3", "sides[1].combatants[0].target.lp=7"])
    )
    names = [[c["name"] for c in grid.document_at(p)["sides"][1]["combatants"]] for p in grid.points()]
    assert names == [
        ["Boss"],
        ["Bandit", "Boss"],
        ["Bandit", "Bandit 2", "Boss"],
        ["Bandit", "Bandit 2", "Bandit 3", "Boss"],
    ]
    third = grid.document_at(grid.point(3))["sides"][1]["combatants"]
    assert [c["target"]["lp"] for c in third] == [7, 7, 7, 9]  # the varied value reaches every copy
    assert FIGHT["sides"][1]["combatants"][0]["target"]["lp"] == 5  # the base document is untouched


@pytest.mark.parametrize(
    ("vary", "says"),
    [
        ("sides[2].name=x", "sides has 2 items, no \\[2\\]"),
        ("sides[0].fighters[0].lp=1", "no field 'fighters'"),
        ("system.id=1", "holds no fields"),
        ("count:sides[1].combatants[5]=1", "no \\[5\\]"),
        ("sides[0].combatants[3]=1", "has no item \\[3\\]"),
    ],
)
def test_an_unknown_path_is_refused_naming_it(vary: str, says: str) -> None:
    with pytest.raises(InputError, match=f"unknown path.*{says}"):
        make_grid(FIGHT, "f", parse_varies([vary]))


def test_the_cap_on_points_says_how_to_raise_it() -> None:
    with pytest.raises(InputError, match=r"12 points \(3 x 4\) is more than the cap of 10; raise it with --max-points"):
        make_grid(FIGHT, "f", parse_varies(["sides[0].name=a,b,c", "sides[1].name=1..4"]), max_points=10)


def test_a_value_the_model_refuses_is_named_by_its_point() -> None:
    scenario = {
        "system": "rtw",
        "attacker": {
            "name": "L",
            "accuracy": 2,
            "weapon": {"name": "bow", "attack_power": 5, "acc": 4, "damage_type": "piercing"},
        },
        "attack": {"name": "Shot", "kind": "basic"},
        "targets": [{"name": "T", "evasion": 12}],
    }
    grid = make_grid(scenario, "s.yaml", parse_varies(["targets[0].evasion=10,-1"]))
    check_point(grid, grid.point(0))
    with pytest.raises(InputError) as info:
        check_point(grid, grid.point(1))
    assert str(info.value).startswith("s.yaml: point 1 (targets[0].evasion=-1): targets[0].evasion: ")
    typo = make_grid(scenario, "s.yaml", parse_varies(["targets[0].evasoin=3"]))
    with pytest.raises(InputError, match=r"unknown path 'targets\[0\].evasoin': unknown field; did you mean `evasion`"):
        check_point(typo, typo.point(0))


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("10-16", "'10-16' is not a range (A-B): for the values from 10 to 16 write 10..16"),
        ("0-12:2", "for the values from 0 to 12 write 0..12:2"),
        ("-4--1", "write -4..-1"),
        ("1,2-3", "'1,2-3': '2-3' is not a range (A-B)"),
    ],
)
def test_a_dashed_range_suggests_dots(spec: str, says: str) -> None:
    """issue 41, item 6: `10-16` for `10..16` was read as the word '10-16', with no hint."""
    with pytest.raises(InputError) as refused:
        parse_values(spec)
    assert says in str(refused.value) and refused.value.field == "--vary"


@pytest.mark.parametrize(("spec", "values"), [("2d6-1", ("2d6-1",)), ("-3", (-3,)), ("1e-5", (1e-5,))])
def test_words_and_numbers_with_a_dash_are_kept(spec: str, values: tuple[Any, ...]) -> None:
    assert parse_values(spec) == values


def test_a_dashed_range_is_one_error_line_from_the_cli() -> None:
    from typer.testing import CliRunner

    from tests.conftest import EXAMPLES
    from tohit.cli.app import app

    bow = str(EXAMPLES / "rtw" / "bow-vs-evasion.yaml")
    for args in (["sweep", bow], ["solve", bow, "--measure", "p_hit", "--target", "0.5"]):
        result = CliRunner().invoke(app, [*args, "--vary", "attacker.accuracy=10-16"])
        assert result.exit_code == 2, result.output
        assert result.stderr.splitlines() == [
            "error: --vary: '10-16' is not a range (A-B): for the values from 10 to 16 write 10..16"
        ]


def test_the_help_of_every_command_taking_vary_shows_every_form() -> None:
    """issue 41, item 6: `solve --help` said `A..B` only; every command with `--vary` (sweep, solve, and compare
    when it takes one) lists A..B, A..B:STEP and v1,v2,...."""
    import typer
    from typer.testing import CliRunner

    from tohit.cli.app import app

    group = typer.main.get_command(app)
    commands = getattr(group, "commands", {})
    taking = [name for name, command in commands.items() if any("--vary" in p.opts for p in command.params)]
    assert {"sweep", "solve"} <= set(taking)
    for name in taking:
        text = " ".join(CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "400"}).stdout.split())
        assert all(form in text for form in ("A..B", "A..B:STEP", "v1,v2,...")), (name, text)
