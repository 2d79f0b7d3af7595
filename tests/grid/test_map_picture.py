"""`tohit map` as a newcomer sees it (issue 20, items 8 and 9): the attack's squares marked by a character as
well as colour (so a pipe keeps them), and `--png` framing the attack and the creatures involved even on a
1000 x 1000 map with a creature far away."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.grid_draw import MAX_DRAWN, _window
from tohit.engine.scenario import from_dict

BIG = {
    "system": "rtw",
    "map": {"width": 1000, "height": 1000, "solid": [[903, 901]]},
    "combatants": [
        {"name": "Link", "side": "heroes", "position": [900, 900]},
        {"name": "Chuchu", "side": "monsters", "position": [2, 3], "size": "small"},
        {"name": "Moblin", "side": "monsters", "position": [905, 902], "size": "large"},
    ],
    "attacker": {
        "name": "Link",
        "accuracy": 3,
        "combat": 2,
        "weapon": {"name": "bow", "attack_power": 5, "acc": 4, "damage_type": "piercing"},
    },
    "attack": {
        "name": "Shoot Arrow",
        "range": {"type": "projectile", "size": 8, "target": "Moblin"},
        "damage": {"trait": "combat", "multiplier": 1, "weapon": True},
    },
    "targets": [{"name": "Moblin", "evasion": 11, "defense": 2, "health": 24, "hearts": 6}],
}


def _view(data: dict[str, object]):  # type: ignore[no-untyped-def]
    from tohit.systems.rtw.tactical import tactical_of

    tactical = tactical_of(from_dict(data, source="test").scenario)
    assert tactical is not None and tactical.view is not None
    return tactical.view


def test_the_picture_frames_the_attacker_and_its_target_on_a_huge_map() -> None:
    x0, y0, x1, y1 = _window(_view(BIG))
    assert x0 <= 900 and x1 >= 906 and y0 <= 900 and y1 >= 903  # Link, the Moblin (2 x 2) and the cover square
    assert x1 - x0 < MAX_DRAWN and y1 - y0 < MAX_DRAWN


def test_the_picture_keeps_every_creature_when_they_fit() -> None:
    data = yaml.safe_load((EXAMPLES / "rtw" / "grid-arrow-past-the-crowd.yaml").read_text())
    x0, y0, x1, _ = _window(_view(data))
    assert (x0, y0) == (0, 0) and x1 >= 8


def test_map_png_on_a_huge_map(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(yaml.safe_dump(BIG))
    out = tmp_path / "big.png"
    result = CliRunner().invoke(app, ["map", str(path), "--png", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_attacks_squares_show_without_colour() -> None:
    """CliRunner's output has no colour: the reached squares are `*`, a creature in them its letter and `*`."""
    result = CliRunner().invoke(app, ["map", str(EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml")])
    assert result.exit_code == 0, result.output
    board = result.output.split("@ attacker")[0]
    assert board.count(" *") >= 5 and "B*" in board and "▓▓" in board
    assert "squares the attack reaches" in result.output


def test_map_png_reports_its_progress(tmp_path: Path) -> None:
    """Issue 20, item 4: the drawing advances a progress bar a row at a time (shown on a terminal after 0.5 s)."""
    from tohit.cli.grid_draw import board_png, png_steps

    view = _view(BIG)
    seen: list[int] = []
    board_png(view, tmp_path / "p.png", progress=seen.append)
    assert len(seen) == png_steps(view) and png_steps(view) > 2
