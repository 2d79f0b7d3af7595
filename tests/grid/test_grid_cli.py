"""`tohit map` and `tohit aim` (issue 4, "Commands")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app

PILLAR = EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_grid_cli_map_draws_squares_targets_and_cover(tmp_path: Path) -> None:
    result = run("map", str(PILLAR), "--png", str(tmp_path / "map.png"))
    assert result.exit_code == 0, result.output
    assert "Cone 3 east from (1, 2)" in result.output
    assert "crosses" in result.output and "(3,1)" in result.output
    assert (tmp_path / "map.png").stat().st_size > 1000
    data = json.loads(run("map", str(PILLAR), "--json").output)
    assert data["reached"] == ["Bokoblin", "Moblin"]
    assert data["cover"]["Moblin"]["square"] == [3, 1]
    assert data["cover"]["Bokoblin"] is None


def test_grid_cli_map_without_a_placement_draws_the_map(tmp_path: Path) -> None:
    data = yaml.safe_load(PILLAR.read_text())
    del data["attack"]["range"]["direction"]
    path = tmp_path / "open.yaml"
    path.write_text(yaml.safe_dump(data))
    out = json.loads(run("map", str(path), "--json").output)
    assert out["squares"] == [] and out["reached"] == []


def test_grid_cli_aim_ranks_placements_by_exact_expected_damage() -> None:
    """Cone 3 east reaches both foes (5 + 5/3 = 20/3); south reaches the ally Keese (-7)."""
    result = run("aim", str(PILLAR), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    best = out["best"]
    assert best[0]["range"] == "Cone 3 east from (1, 2)"
    assert best[0]["score"]["fraction"] == "20/3"
    assert best[0]["foes"] == ["Bokoblin", "Moblin"]
    assert best[-1]["allies"] == ["Keese"] and best[-1]["score"]["fraction"] == "-7/1"
    text = run("aim", str(PILLAR))
    assert text.exit_code == 0 and "best placements" in text.output


def test_grid_cli_aim_json_is_the_same_bytes_every_run() -> None:
    """The clock decides nothing: `tohit aim --json` holds no measured time, so two runs print the same bytes."""
    first, second = run("aim", str(PILLAR), "--json"), run("aim", str(PILLAR), "--json")
    assert first.exit_code == 0, first.output
    assert "seconds" not in json.loads(first.output)
    assert first.output == second.output


def test_grid_cli_aim_blast_and_projectile(tmp_path: Path) -> None:
    data = yaml.safe_load(PILLAR.read_text())
    for rng, first in (
        ({"type": "blast", "size": 2}, "Blast 2 at (2, 1)"),  # ties with (2, 2) and (2, 3): the first tried
        ({"type": "projectile", "size": 8}, "Projectile 8 at Bokoblin"),
    ):
        data["attack"]["range"] = rng
        path = tmp_path / "aim.yaml"
        path.write_text(yaml.safe_dump(data))
        out = json.loads(run("aim", str(path), "--json").output)
        assert out["best"][0]["range"] == first
        assert out["best"][0]["foes"] == ["Bokoblin"] and out["best"][0]["score"]["fraction"] == "5/1"


def test_grid_cli_map_needs_a_map(tmp_path: Path) -> None:
    result = run("map", str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"))
    assert result.exit_code == 2 and "system" in result.output
