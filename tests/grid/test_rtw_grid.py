"""Reclaim the Wild on the tactical grid: the map feeds the rules (issue 4, "Commands", "Cover").

Cover makes a target Hard to Hit (rtw: Attacking Foes behind Cover; docs/rtw.md#silent-cover); a Projectile with a foe
adjacent makes every foe Hard to Hit (rtw: Projectile X); a Helpless creature caught in an area is not
harmed unless the attack is aimed at it alone (rtw: Falling in Battle); the targets are the creatures the
range reaches; roll, odds and simulate JSON add `squares` and per-target `cover`."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, scenario
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.engine.simulate import simulate

FANGS = {"name": "fangs", "attack_power": 4, "acc": 4, "damage_type": "sharp"}


def grid(
    rows: list[str],
    combatants: list[dict[str, Any]],
    rng: dict[str, Any],
    targets: list[dict[str, Any]],
    *,
    attack: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "system": "rtw",
        "map": {"rows": rows},
        "combatants": combatants,
        "attacker": {"name": "Link", "accuracy": 2, "combat": 3, "weapon": dict(FANGS)},
        "attack": {"kind": "basic", "range": rng, **(attack or {})},
        "targets": copy.deepcopy(targets),
    }
    if options:
        data["options"] = options
    return data


def hero(x: int, y: int, **extra: Any) -> dict[str, Any]:
    return {"name": "Link", "side": "heroes", "position": [x, y], **extra}


def foe(name: str, x: int, y: int, **extra: Any) -> dict[str, Any]:
    return {"name": name, "side": "monsters", "position": [x, y], **extra}


def stats(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "evasion": 10, **extra}


def test_rtw_grid_cover_makes_the_target_hard_to_hit() -> None:
    """The bundled example: the Moblin behind the pillar is Hard to Hit; the Bokoblin in the open is not."""
    result = roll(load(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"))
    data = result.to_json()
    assert [t["name"] for t in data["targets"]] == ["Bokoblin", "Moblin"]  # the Keese is out of the Cone
    moblin, bokoblin = result.target("Moblin"), result.target("Bokoblin")
    assert (bokoblin.row["hard_to_hit"], moblin.row["hard_to_hit"]) == ("none", "hard")
    assert data["targets"][0]["cover"] is None
    assert data["targets"][1]["cover"]["square"] == [3, 1]
    assert data["targets"][1]["cover"]["segment"] == [[2, 2], [5, 0]]
    assert data["range"] == "Cone 3 east from (1, 2)"
    assert len(data["squares"]) == 8
    assert any("crosses solid square (3,1)" in s.text for s in moblin.steps)


def test_rtw_grid_odds_of_a_covered_target_against_brute_force() -> None:
    """Oracle: a Technique vs a Hard-to-Hit target rolls 2d6 + 2 + 4 - 2 >= 12 for 7 - 3 = 4 damage."""
    result = odds(load(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"))
    moblin = result.target("Moblin")
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + 2 + 4 - 2 >= 12)
    assert moblin.mean_damage == Fraction(4 * hits, 36) == Fraction(5, 3)
    assert result.to_json()["targets"][1]["cover"]["square"] == [3, 1]


def test_rtw_grid_creature_without_stats_is_reported_unresolved() -> None:
    """A creature the attack reaches with no targets entry is not resolved, and the JSON says so."""
    import yaml

    data = yaml.safe_load((EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml").read_text())
    data["targets"].pop(0)
    out = roll(scenario(data), seed=1).to_json()
    assert [t["name"] for t in out["targets"]] == ["Moblin"]
    assert out["unresolved"] == ["Bokoblin"]


def test_rtw_grid_scenario_written_back_out_loads_the_same() -> None:
    """model_dump of a placed scenario keeps the placed range (`grid_range`) and loads to the same attack."""
    loaded = load(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml")
    again = scenario(loaded.scenario.model_dump(mode="json"))
    assert again.scenario.grid_range == loaded.scenario.grid_range  # type: ignore[attr-defined]
    assert [t.name for t in again.scenario.targets] == ["Bokoblin", "Moblin"]
    assert roll(again, seed=2).to_json()["targets"] == roll(loaded, seed=2).to_json()["targets"]


def test_rtw_grid_cover_rule_best_corner() -> None:
    """Option cover_rule: best_corner: the attacker picks its corner; this pillar then gives no cover."""
    rows = ["@.#..", ".....", "....."]
    rows = [r.replace("@", ".") for r in rows]
    base = grid(rows, [hero(0, 0), foe("Bokoblin", 4, 2)], {"type": "projectile", "size": 8}, [stats("Bokoblin")])
    plain = roll(scenario(base), seed=1).to_json()["targets"][0]
    assert plain["hard_to_hit"] == "hard" and plain["cover"]["square"] == [2, 0]
    best = roll(scenario({**base, "options": {"cover_rule": "best_corner"}}), seed=1).to_json()
    assert best["targets"][0]["hard_to_hit"] == "none" and best["targets"][0]["cover"] is None
    assert best["cover_rule"] == "best_corner"


def test_rtw_grid_projectile_with_an_adjacent_foe_makes_every_foe_hard_to_hit() -> None:
    """If any foe is adjacent to you, all foes are Hard to Hit with any Projectile attacks (rtw: Projectile X)."""
    rows = ["........"]
    near = grid(
        rows,
        [hero(0, 0), foe("Bokoblin", 1, 0), foe("Moblin", 5, 0)],
        {"type": "projectile", "size": 8, "target": "Bokoblin"},
        [stats("Bokoblin"), stats("Moblin")],
    )
    row = roll(scenario(near), seed=1).targets[0]
    assert row.row["hard_to_hit"] == "hard"
    assert any(s.name == "projectile_adjacent" for s in row.steps)
    melee = grid(rows, near["combatants"], {"type": "melee"}, near["targets"])
    assert roll(scenario(melee), seed=1).targets[0].row["hard_to_hit"] == "none"
    alone = grid(
        rows,
        [hero(0, 0), foe("Moblin", 5, 0)],
        {"type": "projectile", "size": 8},
        [stats("Moblin")],
    )
    assert roll(scenario(alone), seed=1).targets[0].row["hard_to_hit"] == "none"


def test_rtw_grid_helpless_in_an_area_is_unharmed_unless_aimed_at_alone() -> None:
    """A Helpless foe is not harmed by an area that catches it while hitting others; an attack aimed at it
    and only it can harm it (rtw: Falling in Battle)."""
    rows = ["......"]
    fallen = stats("Fallen", helpless=True, health=0, hearts=3)
    both = grid(
        rows,
        [hero(0, 0), foe("Fallen", 1, 0), foe("Bokoblin", 2, 0)],
        {"type": "line", "size": 3, "direction": "east"},
        [fallen, stats("Bokoblin")],
        attack={"damage": {"trait": "combat"}},
    )
    rows_out = {t.name: t.row for t in roll(scenario(both), seed=1).targets}
    assert rows_out["Fallen"]["unharmed"] is True and rows_out["Fallen"]["damage"] == 0
    only = grid(
        rows,
        [hero(0, 0), foe("Fallen", 1, 0), foe("Bokoblin", 4, 0)],
        {"type": "line", "size": 2, "direction": "east"},
        [fallen, stats("Bokoblin")],
    )
    row = roll(scenario(only), seed=1).target("Fallen").row
    assert row["unharmed"] is False and row["damage"] > 0


def test_rtw_grid_area_template_catching_only_the_helpless_creature_harms_it() -> None:
    """rtw: Falling in Battle: "it must target that Helpless creature, and **only** that Helpless creature"
    (docs/rtw.md#silent-helpless-areas): a Blast placed so that the Helpless creature is the only one caught harms it;
    placed to also catch another creature (with or without a targets entry), it does not ("A Helpless foe will not be
    further harmed by an AoE that merely happens to catch them in the blast while hitting other targets")."""
    rows = ["......", "......"]
    fallen = stats("Fallen", helpless=True, health=0, hearts=3)
    people = [hero(0, 0), foe("Fallen", 1, 0), foe("Bokoblin", 2, 1)]
    blast = {"type": "blast", "size": 1, "at": [1, 0]}
    only = grid(rows, people, blast, [fallen, stats("Bokoblin")])
    result = roll(scenario(only), seed=1)
    assert [t.name for t in result.targets] == ["Fallen"]
    row = result.target("Fallen").row
    assert (row["result"], row["unharmed"], row["damage"], row["falls"]) == ("hit", False, 7, "perishes")
    assert odds(scenario(only)).target("Fallen").mean_damage > 0
    both = grid(rows, people, {"type": "blast", "size": 2, "at": [1, 0]}, [fallen, stats("Bokoblin")])
    fallen_row = roll(scenario(both), seed=1).target("Fallen").row
    assert (fallen_row["unharmed"], fallen_row["damage"]) == (True, 0)
    unlisted = grid(rows, people, {"type": "blast", "size": 2, "at": [1, 0]}, [fallen])
    out = roll(scenario(unlisted), seed=1)
    assert out.to_json()["unresolved"] == ["Bokoblin"]
    assert (out.target("Fallen").row["unharmed"], out.target("Fallen").row["damage"]) == (True, 0)
    assert odds(scenario(unlisted)).target("Fallen").mean_damage == 0


def test_rtw_grid_aim_scores_an_area_catching_only_the_helpless_creature(tmp_path: Path) -> None:
    """rtw: Falling in Battle (docs/rtw.md#silent-helpless-areas), in `tohit aim`: a Blast placed on the Helpless
    creature alone scores its damage; one that also catches the Bokoblin scores the Bokoblin's only ("will not be
    further harmed by an AoE that merely happens to catch them in the blast while hitting other targets")."""
    import json

    import yaml
    from typer.testing import CliRunner

    from tohit.cli.app import app

    fallen = stats("Fallen", helpless=True, health=0, hearts=3)
    people = [hero(0, 1), foe("Fallen", 1, 1), foe("Bokoblin", 2, 2)]
    data = grid(["......"] * 3, people, {"type": "blast", "size": 2}, [fallen, stats("Bokoblin")])
    path = tmp_path / "aim.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["aim", str(path), "--json"])
    assert result.exit_code == 0, result.output
    score = {tuple(a["foes"]): Fraction(a["score"]["fraction"]) for a in json.loads(result.output)["best"]}
    assert score[("Fallen",)] > 0
    assert score[("Fallen", "Bokoblin")] == score[("Bokoblin",)] > 0


def test_rtw_grid_swarm_picked_twice_is_two_targets() -> None:
    """X Targets within Y: a Swarm can be affected once per square (rtw: X Targets/Squares within Y)."""
    data = grid(
        ["....", "....", "...."],
        [hero(0, 0), foe("Keese", 2, 0, size="large", swarm=True)],
        {"type": "targets_within", "count": 2, "within": 3, "targets": ["Keese", "Keese"]},
        [stats("Keese")],
    )
    assert [t.name for t in roll(scenario(data), seed=1).targets] == ["Keese", "Keese (2)"]


def test_rtw_grid_chi_square_sampled_vs_exact() -> None:
    """Both samplers agree with the exact odds on a grid scenario (200,000 attacks, fixed seed)."""
    loaded = load(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml")
    exact = odds(loaded).target("Moblin")
    probs = dict(exact.distribution("damage"))
    for method in ("table", "direct"):
        sim = simulate(loaded, 200_000, seed=11, method=method).target("Moblin")  # type: ignore[arg-type]
        counts = sim.histograms["damage"].counts
        chi = sum((counts.get(v, 0) - 200_000 * float(p)) ** 2 / (200_000 * float(p)) for v, p in probs.items())
        assert set(counts) <= set(probs)
        assert chi < 10.83  # 1 degree of freedom, p = 0.001


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda d: d["combatants"][1].update(position=[9, 0]), "combatants[1].position", "runs off the"),
        (lambda d: d["combatants"][1].update(position=[3, 1]), "combatants[1].position", "solid square [3, 1]"),
        (lambda d: d["combatants"][1].update(position=[1, 2]), "combatants[1].position", "overlaps Lizalfos"),
        (lambda d: d["attack"]["range"].update(type="cube"), "attack.range", "does not match any of the expected"),
        (lambda d: d["attack"]["range"].update(direction="up"), "attack.range.direction", "unknown direction"),
        (lambda d: d["attack"].update(range={"type": "blast", "size": 2, "at": [5, 0]}), "attack.range.at", "touch"),
        (lambda d: d.update(targets=d["targets"][2:]), "targets", "reaches Bokoblin, Moblin, with no entry in targets"),
        (lambda d: d["attacker"].update(name="Ganon"), "attacker.name", "not among the combatants"),
        (lambda d: d.update(options={"cover_rule": "some"}), "options.cover_rule", "any_line or best_corner"),
        (lambda d: d["targets"][1].update(evasion=-1), "targets[1].evasion", "greater than or equal to 0"),
        (lambda d: d["attack"]["range"].update(direction="west"), "attack.range", "affects no creature"),
    ],
)
def test_rtw_grid_bad_input_names_the_field(change: Any, field: str, message: str) -> None:
    import yaml

    data = yaml.safe_load((EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml").read_text())
    change(data)
    with pytest.raises(Exception) as exc:
        scenario(data)
    text = str(exc.value)
    assert text.startswith(f"test: {field}: "), text
    assert message in text


def test_rtw_abstract_combat_counts() -> None:
    """Abstract combat: a Cone 3 hits 2 targets, 3 when close together; an isolated foe stands alone."""
    base: dict[str, Any] = {
        "system": "rtw",
        "attacker": {"accuracy": 2, "combat": 3, "weapon": dict(FANGS)},
        "attack": {"range": {"type": "cone", "size": 3}},
        "targets": [stats("a"), stats("b"), stats("c")],
        "abstract": True,
    }
    with pytest.raises(Exception, match="test: targets: in abstract combat this range hits at most 2 targets"):
        scenario(base)
    loaded = scenario({**base, "abstract": {"close_together": True}})
    assert roll(loaded, seed=1).to_json()["abstract"] == {"most_targets": 3}
    with pytest.raises(Exception, match="test: targets: c is isolated"):
        scenario({**base, "abstract": {"close_together": True, "isolated": ["c"]}})
    with pytest.raises(Exception, match=r"test: abstract\.isolated\[0\]: 'z' is not one of the targets"):
        scenario({**base, "abstract": {"isolated": ["z"]}})
    with pytest.raises(Exception, match="test: abstract: abstract combat has no map"):
        scenario({**base, "map": {"rows": ["..."]}})


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["combatants"][1].update(position=[9, 0]), "combatants[1].position"),
        (lambda d: d["combatants"][1].update(position=[3, 1]), "combatants[1].position"),
        (lambda d: d["combatants"][3].update(position=[3, 2]), "combatants[3].position"),
        (lambda d: d["attack"]["range"].update(type="cube"), "attack.range"),
        (lambda d: d["attack"]["range"].update(direction="up"), "attack.range.direction"),
        (lambda d: d["attack"].update(range={"type": "blast", "size": 2, "at": [5, 0]}), "attack.range.at"),
    ],
)
@pytest.mark.parametrize("command", ["roll", "odds", "simulate", "map", "aim"])
def test_rtw_grid_bad_input_cli_exit_2_one_line(tmp_path: Any, change: Any, field: str, command: str) -> None:
    """Bad input: one clear line naming the file and the field, exit code 2, no traceback."""
    import yaml
    from typer.testing import CliRunner

    from tohit.cli.app import app

    data = yaml.safe_load((EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml").read_text())
    change(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    if command == "aim" and field == "attack.range.at":
        return  # aim tries every placement: the one given is not checked
    result = CliRunner().invoke(app, [command, str(path)])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output
    assert f"{path}: {field}: " in lines[0]


def test_map_in_the_terminal_draws_the_blocked_cover_line() -> None:
    """Issue #4, `tohit map`: the terminal picture shows the cover lines (cyan strokes through open squares)."""
    from typer.testing import CliRunner

    from tests.conftest import EXAMPLES
    from tohit.cli.app import app

    out = CliRunner().invoke(app, ["map", str(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml")]).output
    board = out.split("creature")[0]
    assert "╱" in board and "crosses" in out and "(3,1)" in out
