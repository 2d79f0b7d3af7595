"""The map and the combatants: parsing, footprints, and the errors that name the field."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tohit.core.errors import InputError
from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.models import CombatantSpec, MapSpec


def build(rows: list[str], *combatants: dict[str, Any]) -> Battlefield:
    return Battlefield.build(MapSpec(rows=rows), [CombatantSpec.model_validate(c) for c in combatants])


def test_grid_map_from_rows_or_from_solid_squares() -> None:
    a = MapSpec(rows=["..#", "..."]).board()
    b = MapSpec(width=3, height=2, solid=[(2, 0)]).board()
    assert a.rows() == b.rows() == ["..#", "..."]
    text = MapSpec.model_validate({"rows": "..#\n...\n"}).board()
    assert text.rows() == ["..#", "..."]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rows": ["..", "..."]}, "row 1 has 3 squares"),
        ({"rows": [".x"]}, "use '.' for open and '#' for solid"),
        ({"width": 3}, "give rows, or width and height"),
        ({"width": 3, "height": 2, "solid": [[3, 0]]}, "solid[0]: square [3, 0] is off the 3 x 2 map"),
        ({"rows": [".."], "width": 2}, "not both"),
    ],
)
def test_grid_bad_maps_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("[", r"\[")):
        MapSpec.model_validate(data)


def test_grid_footprints_by_size_category_or_feet() -> None:
    bf = build(
        ["......"] * 6,
        {"name": "a", "side": "x", "position": [0, 0], "size": "large"},
        {"name": "b", "side": "x", "position": [2, 0], "size": 20},
        {"name": "c", "side": "x", "position": [0, 3], "size": "Colossal", "squares": 6}
        if False
        else {"name": "c", "side": "x", "position": [5, 5], "size": "tiny"},
    )
    assert bf.creature("a").footprint.side == 2
    assert bf.creature("b").footprint.side == 3 and bf.creature("b").size == "huge"
    assert bf.creature("c").footprint.eighths == 2


def test_grid_small_creatures_share_squares() -> None:
    """Diminutive, Tiny and Small creatures share squares: 8, 4 and 2 to a square."""
    two_small = [{"name": f"s{i}", "side": "x", "position": [0, 0], "size": "small"} for i in range(2)]
    build([".."], *two_small)
    with pytest.raises(InputError, match="s2's footprint overlaps s0"):
        build([".."], *two_small, {"name": "s2", "side": "x", "position": [0, 0], "size": "diminutive"})
    eight = [{"name": f"d{i}", "side": "x", "position": [1, 0], "size": "diminutive"} for i in range(8)]
    build([".."], *eight)


@pytest.mark.parametrize(
    ("combatant", "field", "message"),
    [
        ({"position": [5, 0]}, "combatants[1].position", "runs off the 4 x 3 map at square [5, 0]"),
        ({"position": [3, 2], "size": "large"}, "combatants[1].position", "runs off the 4 x 3 map"),
        ({"position": [2, 0]}, "combatants[1].position", "would stand in solid square [2, 0]"),
        ({"position": [0, 1], "size": "large"}, "combatants[1].position", "overlaps Hero's at [0, 1]"),
        ({"squares": 8}, "combatants[1].squares", "only a Colossal creature"),
        ({"name": "Hero"}, "combatants[1].name", "another combatant is also named 'Hero'"),
    ],
)
def test_grid_bad_combatants_name_the_field(combatant: dict[str, Any], field: str, message: str) -> None:
    """Positions off the map or in solid squares, overlapping footprints: one line naming the field."""
    hero = {"name": "Hero", "side": "heroes", "position": [0, 1]}
    foe = {"name": "Foe", "side": "monsters", "position": [3, 0], **combatant}
    with pytest.raises(InputError) as exc:
        build(["..#.", "....", "...."], hero, foe)
    assert exc.value.field == field
    assert message.replace(" at [0, 1]", "") in exc.value.message
    assert "combatants[" not in exc.value.message  # the field names the place in the file; the words, the names


def test_grid_unknown_size_is_refused() -> None:
    with pytest.raises(ValidationError, match="size"):
        CombatantSpec.model_validate({"name": "a", "side": "x", "position": [0, 0], "size": "enormous"})
