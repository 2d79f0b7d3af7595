"""The games registry: games are found through the `tohit.systems` entry-point group (issue 14, item 4),
the built-in games registered the same way, so a third-party package adds a game without touching tohit."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES, ROOT
from tests.entry_points import RTW_COPY, GamePackages
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine import registry

BUILT_IN = {"fullplate", "kaiser", "last-odyssey", "rtw", "wsswnn"}


def pyproject_games() -> dict[str, str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    games: dict[str, str] = data["project"]["entry-points"][registry.GROUP]
    return games


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_registry_finds_the_five_built_in_games() -> None:
    assert set(registry.systems()) == BUILT_IN
    assert list(registry.systems()) == sorted(BUILT_IN)
    assert registry.get("last-odyssey").id == "last-odyssey"


def test_registry_pyproject_registers_every_built_in_game_by_its_id() -> None:
    """tohit's own metadata lists each built-in package's `SYSTEM` under its id, and nothing else."""
    scanned = registry.built_in()
    assert set(scanned) == BUILT_IN
    assert pyproject_games() == {
        system_id: f"{type(system).__module__.rsplit('.', 1)[0]}:SYSTEM" for system_id, system in scanned.items()
    }
    for system_id, value in pyproject_games().items():
        module = value.split(":")[0]
        assert type(scanned[system_id]).__module__.startswith(module + ".")


def test_registry_built_in_games_come_from_the_entry_points_alone(
    game_packages: GamePackages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With tohit's metadata listing its games (here a `tohit` distribution first on sys.path, written from
    pyproject.toml), the package is not scanned: the entry points alone give the five."""

    def no_scan() -> dict[str, object]:
        raise AssertionError("the package was scanned although tohit registers its games")

    monkeypatch.setattr(registry, "built_in", no_scan)
    for name, value in pyproject_games().items():
        game_packages.register(name, value, dist="tohit")
    assert set(registry.systems()) == BUILT_IN
    assert registry.get("rtw") is importlib.import_module("tohit.systems.rtw").SYSTEM


def test_registry_with_tohit_metadata_from_before_the_entry_points_scans_its_package(
    game_packages: GamePackages,
) -> None:
    """The fallback: a tohit installed before it registered its games (no entry point of the group points
    into `tohit.systems`) still has the five, found by scanning the package, beside the registered ones."""
    game_packages.distribution("tohit")
    assert set(registry.systems()) == BUILT_IN
    game_packages.register("rtw-copy", "tests.entry_points:RTW_COPY")
    assert set(registry.systems()) == {*BUILT_IN, "rtw-copy"}
    assert registry.get("kaiser") is importlib.import_module("tohit.systems.kaiser").SYSTEM


def test_registry_finds_a_game_registered_by_entry_point(game_packages: GamePackages) -> None:
    game_packages.register("rtw-copy", "tests.entry_points:RTW_COPY")
    assert set(registry.systems()) == {*BUILT_IN, "rtw-copy"}
    assert registry.get("rtw-copy") is RTW_COPY
    assert registry.systems()["rtw"] is not RTW_COPY


def test_registry_a_registered_game_with_a_map_gets_map_and_aim(game_packages: GamePackages, tmp_path: Path) -> None:
    """`tohit map` and `tohit aim` find the map rules through the registry, not by the game's id: the same
    scenario under another game id that has the same map rules draws and aims the same."""
    game_packages.register("rtw-copy", "tests.entry_points:RTW_COPY")
    pillar = EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"
    copy = tmp_path / "copy.yaml"
    copy.write_text(yaml.safe_dump({**yaml.safe_load(pillar.read_text()), "system": "rtw-copy"}))
    for args in (("map",), ("map", "--json"), ("aim",)):
        code, out = run(*args, str(copy))
        assert code == 0, out
        assert (code, out) == run(*args, str(pillar))


def test_registry_a_broken_entry_point_is_one_clear_error(game_packages: GamePackages) -> None:
    """A package whose game does not import stops with one line naming the entry point and its
    distribution, not a traceback, in the API and in every command."""
    game_packages.register("broken", "tohit_no_such_game_package:SYSTEM", dist="tohit-broken-game")
    with pytest.raises(InputError) as info:
        registry.systems()
    message = str(info.value)
    assert "'broken'" in message and "tohit-broken-game 0.1" in message and "ModuleNotFoundError" in message
    assert info.value.field == "system"
    for args in (("systems",), ("odds", str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"))):
        code, out = run(*args)
        assert code == 2, out
        assert out.startswith("error: ") and len(out.strip().splitlines()) == 1
        assert "system: game entry point 'broken' (tohit_no_such_game_package:SYSTEM, from tohit-broken-game" in out


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("not-a-game", "tests.entry_points:NOT_A_GAME", "is a dict, not a tohit System instance"),
        ("renamed", "tests.entry_points:RTW_COPY", "another name than its game's id 'rtw-copy'"),
        ("rtw", "tests.entry_points:RTW_COPY", "another name than its game's id 'rtw-copy'"),
    ],
)
def test_registry_an_entry_point_that_is_not_a_game_is_refused(
    game_packages: GamePackages, name: str, value: str, expected: str
) -> None:
    game_packages.register(name, value)
    with pytest.raises(InputError, match=expected):
        registry.systems()


@pytest.mark.parametrize("tohit_registers", [False, True], ids=["scanned", "by-entry-point"])
def test_registry_a_game_id_taken_twice_is_refused(
    game_packages: GamePackages, monkeypatch: pytest.MonkeyPatch, tohit_registers: bool
) -> None:
    """A third-party game may not take a built-in game's id (nor another's): the error names the newcomer
    and the game that has the id, whether tohit's games come from its metadata or from the scan."""
    if tohit_registers:
        for name, value in pyproject_games().items():
            game_packages.register(name, value, dist="tohit")
    else:
        game_packages.distribution("tohit")
    monkeypatch.setattr(type(RTW_COPY), "id", "rtw")
    game_packages.register("rtw", "tests.entry_points:RTW_COPY")
    with pytest.raises(InputError) as info:
        registry.systems()
    message = str(info.value)
    assert message.startswith("system: game entry point 'rtw' (tests.entry_points:RTW_COPY, from tohit-test-games")
    owner = (
        "game entry point 'rtw' (tohit.systems.rtw:SYSTEM, from tohit 0.1"
        if tohit_registers
        else "built-in game 'rtw' (found in"
    )
    assert f"game id 'rtw' is already taken by {owner}" in message
