"""One home for request limits (issue 27, item 8): `engine/requests.py` holds the seed domain and the caps every
door checks; the seed domain is the same in the CLI, the Python API, over HTTP and in sweeps (a seed of 2**63 or
2**64 was a 422 over HTTP while the CLI and the API took it, so a result made in one could not be reproduced
through the other); a server may lower a cap by a flag, never raise it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.cli.app import app as cli
from tohit.engine import requests
from tohit.server.app import create_app
from tohit.server.settings import Settings

DUEL_FILE = EXAMPLES / "fights" / "kaiser-duel.yaml"
DUEL = yaml.safe_load(DUEL_FILE.read_text())
CEIL_FILE = EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"
CEIL = yaml.safe_load(CEIL_FILE.read_text())
SEEDS = (0, 2**63 - 1, 2**63, 2**64, requests.MAX_SEED)


def test_the_seed_domain_is_whole_numbers_below_2_to_the_128() -> None:
    """numpy's default_rng takes any whole number from 0; every door takes 0 to 2**128 - 1 (the 128 bits of a
    sweep point's seed, which `tohit fight --seed` repeats)."""
    assert requests.MAX_SEED == 2**128 - 1
    assert requests.seed(None) is None and requests.seed(2**64) == 2**64
    for bad in (-1, 2**128, True, 1.0, "1"):
        with pytest.raises(tohit.InputError) as caught:
            requests.seed(bad)
        assert caught.value.field == "seed"


def test_every_door_reads_its_limits_from_one_home() -> None:
    from tohit import api
    from tohit.cli import fight, serve
    from tohit.core.fight import spec
    from tohit.core.models import MAX_TARGETS
    from tohit.engine import roll
    from tohit.engine.fight import exact
    from tohit.sweeps import limits

    assert api.MAX_SEED is limits.MAX_SEED is requests.MAX_SEED
    assert (exact.MAX_STATES, roll.MAX_TIMES, fight.MAX_FIGHTS) == (
        requests.MAX_STATES,
        requests.MAX_TIMES,
        requests.MAX_FIGHTS,
    )
    assert requests.MAX_COMBATANTS == spec.MAX_COMBATANTS and requests.MAX_ROUNDS == spec.MAX_ROUNDS_LIMIT
    assert requests.MAX_TARGETS == MAX_TARGETS and serve.MAX_FIGHTS == requests.MAX_FIGHTS
    assert not (Path(requests.__file__).parent / "limits.py").exists()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_gives_the_same_result_through_the_cli_the_api_and_http(tmp_path: Path, seed: int) -> None:
    """The same seed, 0 to 2**128 - 1, through every door: a narrated fight and a roll (CLI and API), a fight
    simulation and a roll over HTTP: each door takes it and gives the same result as the others."""
    runner = CliRunner()
    narrated = runner.invoke(cli, ["fight", str(DUEL_FILE), "--seed", str(seed), "--json"])
    assert narrated.exit_code == 0, narrated.output
    played = tohit.fight(tohit.load_fight(DUEL_FILE), seed=seed)
    assert json.loads(narrated.output)["events"] == json.loads(json.dumps(played.events))
    assert played.events[0]["seed"] == seed
    simulated = runner.invoke(cli, ["fight", str(DUEL_FILE), "--seed", str(seed), "-n", "40", "--json"])
    assert simulated.exit_code == 0, simulated.output
    rolled = runner.invoke(cli, ["roll", str(CEIL_FILE), "--seed", str(seed), "--json"])
    assert rolled.exit_code == 0, rolled.output
    with TestClient(create_app(Settings(db=f"sqlite:///{tmp_path / 'seed.db'}", admin_token=ADMIN, workers=0))) as c:
        over_http = c.post("/v1/fights/simulate", json={"fight": DUEL, "n": 40, "seed": seed})
        assert over_http.status_code == 200, over_http.text
        assert over_http.json() == json.loads(simulated.output)
        assert over_http.json()["seed"] == seed
        roll = c.post("/v1/roll", json={"scenario": CEIL, "seed": seed})
        assert roll.status_code == 200, roll.text
        assert roll.json() == json.loads(rolled.output)
        encounter = c.post("/v1/encounters", json={"fight": DUEL, "seed": seed})
        assert encounter.status_code == 201, encounter.text


def test_a_seed_past_the_domain_is_refused_by_every_door_naming_it(tmp_path: Path) -> None:
    over = requests.MAX_SEED + 1
    result = CliRunner().invoke(cli, ["fight", str(DUEL_FILE), "--seed", str(over)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "--seed" in lines[0], result.output
    with pytest.raises(tohit.InputError) as caught:
        tohit.fight(tohit.load_fight(DUEL_FILE), seed=over)
    assert caught.value.field == "seed"
    with TestClient(create_app(Settings(db=f"sqlite:///{tmp_path / 'seed.db'}", admin_token=ADMIN, workers=0))) as c:
        for path, body in (
            ("/v1/fights/simulate", {"fight": DUEL, "n": 40, "seed": over}),
            ("/v1/roll", {"scenario": CEIL, "seed": over}),
        ):
            response = c.post(path, json=body)
            assert response.status_code == 422 and response.json()["error"]["field"] == "seed", response.text


def test_a_server_may_lower_a_cap_by_a_flag_never_raise_it() -> None:
    """`tohit serve --max-fights` past the engine's own cap is refused in one line before the server starts."""
    for flag, cap in (("--max-fights", requests.MAX_FIGHTS), ("--max-states", requests.MAX_STATES)):
        result = CliRunner().invoke(cli, ["serve", flag, str(cap + 1)])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and flag in lines[0], result.output


def test_a_sweep_takes_the_same_seed_domain(tmp_path: Path) -> None:
    """A sweep seed past 64 bits runs (its table's `seed` column then holds it as text, as each point's seed, so a
    Parquet table carries it) and resumes; one past the domain is refused naming it."""
    vary = {"sides[0].combatants[0].target.lp": "10..11"}
    out = tmp_path / "sweep.parquet"
    frame = tohit.sweep(DUEL_FILE, vary, n=20, seed=2**64, workers=1, out=out)
    assert [int(s) for s in frame["seed"]] == [2**64, 2**64]
    again = tohit.sweep(DUEL_FILE, vary, n=20, seed=2**64, workers=1, out=out, resume=True)
    assert again["point_seed"].tolist() == frame["point_seed"].tolist()
    with pytest.raises(tohit.InputError) as caught:
        tohit.sweep(DUEL_FILE, vary, n=20, seed=requests.MAX_SEED + 1, workers=1)
    assert caught.value.field == "seed"


def test_a_files_seed_has_the_same_domain(tmp_path: Path) -> None:
    """A fight file's and a scenario's own `seed`: 2**128 - 1 is played, 2**128 is refused in one line naming
    `seed`, through the CLI and the API (the same model checks a fight sent over HTTP)."""
    for source, command in ((DUEL, "fight"), (CEIL, "roll")):
        path = tmp_path / f"{command}.yaml"
        path.write_text(yaml.safe_dump({**source, "seed": requests.MAX_SEED}))
        result = CliRunner().invoke(cli, [command, str(path), "--json"])
        assert result.exit_code == 0 and json.loads(result.output)["seed"] == requests.MAX_SEED, result.output
        path.write_text(yaml.safe_dump({**source, "seed": requests.MAX_SEED + 1}))
        result = CliRunner().invoke(cli, [command, str(path), "--json"])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and f"{path}: seed:" in lines[0], result.output
    with pytest.raises(tohit.InputError) as caught:
        tohit.fight_from_dict({**DUEL, "seed": requests.MAX_SEED + 1})
    assert caught.value.field == "seed"
